"""The lab on a real Dask cluster: a worker process killed mid-run and a
client process killed mid-run lose no game and store none twice.

One LocalCluster of two worker processes serves the module (starting one
takes seconds); the killed client runs ``houserules lab run --scheduler``
against it, in a process of its own.
"""
from __future__ import annotations

import copyreg
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


@pytest.fixture(scope="module")
def distributed():
    """Dask's distributed, imported for this module only: importing it makes
    every exception pickle its cause and traceback too (tblib's reducers,
    put in copyreg's table), which other tests' pickling must not inherit."""
    saved = dict(copyreg.dispatch_table)
    try:
        yield pytest.importorskip("distributed",
                                  reason="the lab extra: pip install -e '.[lab]'")
    finally:
        copyreg.dispatch_table.clear()
        copyreg.dispatch_table.update(saved)


@pytest.fixture(scope="module")
def cluster(distributed):
    import logging
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, silence_logs=logging.ERROR) as c:
        with distributed.Client(c) as client:
            yield c, client


def _spec(games, max_plies=30):
    # random moves only (the opening's random plies reach the cap): the test is of
    # the runner, not of the bots, and stays cheap whatever a bot's move costs
    return parse_spec({"name": "kill test", "games": games, "bots": [1, 1],
                       "max_plies": max_plies, "seed": 11, "variant": [{"name": "fide"}],
                       "opening": {"random_plies": max_plies}})


def _indices(db, run):
    conn = sqlite3.connect(db)
    try:
        return [i for (i,) in conn.execute("SELECT idx FROM games WHERE run = ? ORDER BY idx",
                                           (run,))]
    finally:
        conn.close()


def test_a_worker_killed_mid_run_loses_its_game_to_a_retry_only(cluster, tmp_path, capsys):
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
        summary = run_lab(spec, store, client=client, on_game=kill_a_busy_worker,
                          progress=True)
        rows = store.games([summary.run])
    assert killed, "no worker was busy to kill"
    progress = capsys.readouterr().err
    assert "12/12" in progress and "/min" in progress and "White scores" in progress
    assert _indices(tmp_path / "lab.sqlite", summary.run) == list(range(12))
    assert (summary.played, summary.stored, summary.total) == (12, 12, 12)
    # the games the dead worker held were played again by another process
    lost_indices = {int(key.rsplit("-", 1)[1]) for key in killed["keys"]}
    lost = [r for r in rows if r["idx"] in lost_indices]
    assert lost and any(not r["worker"].endswith(f":{killed['pid']}") for r in lost)


def _lab_run(db, scheduler, games):
    script = Path(sys.executable).with_name("houserules")
    assert script.exists(), f"no houserules script beside {sys.executable}"
    return subprocess.Popen(
        [str(script), "lab", "run", "--games", str(games), "--level", "1",
         "--max-plies", "30", "--random-plies", "30", "--seed", "11", "--name", "kill test",
         "--db", str(db),
         "--scheduler", scheduler, "--no-progress"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
        text=True, start_new_session=True, preexec_fn=_interruptible)


def _interruptible():
    """Ctrl-C as at a terminal: a background job (CI runs one suite so) starts
    its children with SIGINT ignored, and a program keeps what it inherits."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _wait_for_games(proc, db, count):
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if len(_indices(db, 1)) >= count:
                return
        except sqlite3.OperationalError:     # the client has not made the tables yet
            pass
        time.sleep(0.05)
    raise AssertionError(f"{count} games not stored in time: {proc.poll()} "
                         f"{proc.stderr.read() if proc.poll() is not None else ''}")


def test_ctrl_c_stops_a_run_saying_what_is_stored_and_how_to_resume(cluster, tmp_path):
    c, _ = cluster
    db = tmp_path / "lab.sqlite"
    proc = _lab_run(db, c.scheduler_address, 40)
    try:
        _wait_for_games(proc, db, 2)
        os.kill(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
    stored = _indices(db, 1)
    assert proc.returncode == 130, err
    assert f"run 1 interrupted: {len(stored)} of 40 games stored" in err
    assert "'houserules lab resume 1' plays the rest" in err and "Traceback" not in err
    assert len(set(stored)) == len(stored) < 40


def test_a_client_killed_mid_run_is_finished_by_resume_with_nothing_lost_or_doubled(
        cluster, tmp_path):
    c, client = cluster
    db = tmp_path / "lab.sqlite"
    games = 24
    proc = _lab_run(db, c.scheduler_address, games)
    try:
        _wait_for_games(proc, db, 3)
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
