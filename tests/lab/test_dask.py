"""The lab on a real Dask cluster: a worker process killed mid-run and a
client process killed mid-run lose no game and store none twice.

One LocalCluster of two worker processes serves the module (starting one
takes seconds); the killed client runs ``houserules lab run --scheduler``
against it, in a process of its own.
"""
from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from houserules.lab.games import play, tasks
from houserules.lab.runner import resume_lab, run_lab
from houserules.lab.spec import parse_spec
from houserules.lab.store import LabStore

distributed = pytest.importorskip("distributed", reason="the lab extra: pip install -e '.[lab]'")


@pytest.fixture(scope="module")
def cluster():
    import logging
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, silence_logs=logging.ERROR) as c:
        with distributed.Client(c) as client:
            yield c, client


def _spec(games, max_plies=30):
    # tiny games: random movers (level 1) under a cap
    return parse_spec({"name": "kill test", "games": games, "bots": [1, 1],
                       "max_plies": max_plies, "seed": 11, "variant": [{"name": "fide"}]})


def _indices(db, run):
    conn = sqlite3.connect(db)
    try:
        return [i for (i,) in conn.execute("SELECT idx FROM games WHERE run = ? ORDER BY idx",
                                           (run,))]
    finally:
        conn.close()


def test_a_worker_killed_mid_run_loses_its_game_to_a_retry_only(cluster, tmp_path):
    _, client = cluster
    spec = _spec(12, max_plies=40)
    killed: dict = {}

    def kill_a_busy_worker(task, record):
        if killed:
            return
        busy = {w: keys for w, keys in client.processing().items() if keys}
        if not busy:
            return
        worker, keys = next(iter(busy.items()))
        pid = client.run(os.getpid, workers=[worker])[worker]
        killed.update(pid=pid, keys=set(keys))
        os.kill(pid, signal.SIGKILL)

    with LabStore(tmp_path / "lab.sqlite") as store:
        summary = run_lab(spec, store, client=client, on_game=kill_a_busy_worker)
        rows = store.games([summary.run])
    assert killed, "no worker was busy to kill"
    assert _indices(tmp_path / "lab.sqlite", summary.run) == list(range(12))
    assert (summary.played, summary.stored, summary.total) == (12, 12, 12)
    # the games the dead worker held were played again by another process
    lost = [r for r in rows if f"houserules-lab-{summary.run}-{r['idx']}" in killed["keys"]]
    assert lost and any(not r["worker"].endswith(f":{killed['pid']}") for r in lost)


def _houserules_script() -> str:
    script = Path(sys.executable).with_name("houserules")
    assert script.exists(), f"no houserules script beside {sys.executable}"
    return str(script)


def test_a_client_killed_mid_run_is_finished_by_resume_with_nothing_lost_or_doubled(
        cluster, tmp_path):
    c, client = cluster
    db = tmp_path / "lab.sqlite"
    games = 24
    proc = subprocess.Popen(
        [_houserules_script(), "lab", "run", "--games", str(games), "--level", "1",
         "--max-plies", "30", "--seed", "11", "--name", "kill test", "--db", str(db),
         "--scheduler", c.scheduler_address, "--no-progress"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
        start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        stored: list = []
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                stored = _indices(db, 1)
            except sqlite3.OperationalError:     # the client has not made the tables yet
                stored = []
            if len(stored) >= 3:
                break
            time.sleep(0.05)
        assert proc.poll() is None, proc.communicate()
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
    before = _indices(db, 1)
    assert 3 <= len(before) < games and len(set(before)) == len(before)
    with LabStore(db) as store:
        summary = resume_lab(store, client=client)
        assert (summary.run, summary.played, summary.stored) == (1, games - len(before), games)
        rows = store.games([1])
    assert [r["idx"] for r in rows] == list(range(games))
    # the games are the ones an uninterrupted run plays: each from its own seed
    spec = _spec(games)
    for task in (tasks(spec, 1)[i] for i in (before[0], games - 1)):
        assert rows[task.index]["moves"] == play(task).moves
