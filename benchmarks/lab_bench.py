"""The lab on Dask: games per minute with 1 and 2 workers, and what Dask costs.

One run measures, on the same games (``--games`` FIDE games between level-2
bots, capped at ``--max-plies`` plies, 4 random opening plies, seed 0):

serial      the games played one after the other in this process
            (:func:`houserules.lab.games.play`), no Dask, no database: the peer
            the cluster is measured against.
1 worker    ``run_lab`` on a LocalCluster of one single-threaded worker
            process: submit, play, return, store in SQLite (one transaction
            per game). Cluster start-up is timed apart.
2 workers   the same on two worker processes.

Printed: games per minute of each, the 1-worker time over the serial time
(what the task, its transfer and the database add), the scaling efficiency
(rate with 2 workers / (2 x rate with 1)), and the scheduler's overhead per
task: ``--noop`` tasks that do nothing, submitted and gathered through the
same client on one worker, their wall time divided by their number.

    .venv/bin/python benchmarks/lab_bench.py              # 40 games
    .venv/bin/python benchmarks/lab_bench.py --games 100  # steadier figures

The machine's other load moves these figures: on a shared 2-core machine the
2-worker efficiency is bounded by the core the other processes take.
"""
from __future__ import annotations

import argparse
import logging
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from houserules.lab.games import play, tasks  # noqa: E402
from houserules.lab.runner import run_lab  # noqa: E402
from houserules.lab.spec import parse_spec  # noqa: E402
from houserules.lab.store import LabStore  # noqa: E402


def _noop(i: int) -> int:
    return i


def _cluster(n: int):
    from distributed import Client, LocalCluster
    started = time.perf_counter()
    cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                           dashboard_address=None, silence_logs=logging.ERROR)
    client = Client(cluster)
    return cluster, client, time.perf_counter() - started


def _on_cluster(spec, n: int, folder: str) -> tuple[float, float]:
    cluster, client, startup = _cluster(n)
    try:
        with LabStore(os.path.join(folder, f"bench-{n}.sqlite")) as store:
            summary = run_lab(spec, store, client=client)
        assert summary.stored == summary.total, summary
        return summary.seconds, startup
    finally:
        client.close()
        cluster.close()


def _overhead(count: int) -> float:
    from distributed import as_completed
    cluster, client, _ = _cluster(1)
    try:
        client.gather(client.map(_noop, range(10), pure=False))     # warm up
        started = time.perf_counter()
        for f in as_completed(client.map(_noop, range(count), pure=False)):
            f.result()
        return (time.perf_counter() - started) / count
    finally:
        client.close()
        cluster.close()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--max-plies", type=int, default=60)
    p.add_argument("--noop", type=int, default=2000)
    args = p.parse_args(argv)
    spec = parse_spec({"games": args.games, "bots": [2, 2], "max_plies": args.max_plies,
                       "variant": [{"name": "fide"}]})
    started = time.perf_counter()
    for task in tasks(spec, 0):
        play(task)
    serial = time.perf_counter() - started
    with tempfile.TemporaryDirectory() as folder:
        one, start1 = _on_cluster(spec, 1, folder)
        two, start2 = _on_cluster(spec, 2, folder)
    per_task = _overhead(args.noop)
    n = args.games
    rate = lambda seconds: 60 * n / seconds  # noqa: E731
    print(f"{n} FIDE games, level 2 v level 2, at most {args.max_plies} plies; "
          f"{os.cpu_count()} cores")
    print(f"{'':12}{'seconds':>10}{'games/min':>12}")
    for name, seconds in (("serial", serial), ("1 worker", one), ("2 workers", two)):
        print(f"{name:12}{seconds:10.1f}{rate(seconds):12.1f}")
    print(f"1 worker / serial time: {one / serial:.2f}")
    print(f"scaling efficiency, 2 workers: {rate(two) / (2 * rate(one)):.0%}")
    print(f"cluster start-up: {start1:.1f} s (1 worker), {start2:.1f} s (2 workers)")
    print(f"scheduler overhead per task: {1000 * per_task:.2f} ms "
          f"({args.noop} empty tasks on 1 worker)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
