"""Run a lab: the games as Dask tasks, each stored as it comes back.

The client (this process) submits one task per game still missing from the
database, to an embedded ``LocalCluster`` (one single-threaded worker process
per core) or to the scheduler it is given, and writes each result in its own
transaction. The tasks carry the variant's specification, never a session:
each worker builds the rule sets it needs and keeps them
(:mod:`houserules.lab.rules`).

Exactly once: a game is stored under its key (run, index), and a run plays
only the indices not stored yet. A worker that dies mid-game takes its game
down with it; the scheduler runs that task again elsewhere. A client that dies
loses the games in flight, none stored: ``resume`` plays them.
"""
from __future__ import annotations

import logging
import os
import sys
import time
from dataclasses import dataclass

from . import games, players
from .spec import LabSpec, LabSpecError
from .store import LabStore

__all__ = ["run_lab", "resume_lab", "unfinished_run", "RunSummary", "open_client",
           "check_rules", "task_key"]


@dataclass
class RunSummary:
    """What a call to :func:`run_lab` did."""

    run: int
    played: int             # games stored by this call
    total: int              # games of the run in all
    stored: int             # games of the run in the database now
    seconds: float


def open_client(scheduler: str | None = None, workers: int | None = None):
    """A Dask client: on the scheduler at ``scheduler`` (``tcp://HOST:PORT``),
    else on an embedded LocalCluster of ``workers`` single-threaded worker
    processes (default: one per core). Close it (and its cluster) when done."""
    _require_dask()
    from distributed import Client, LocalCluster
    if scheduler:
        try:
            return Client(scheduler, timeout="20s")
        except OSError as e:
            raise LabSpecError(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None
    n = workers or os.cpu_count() or 1
    cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                           dashboard_address=None, silence_logs=logging.ERROR)
    return Client(cluster)


def run_lab(spec: LabSpec, store: LabStore, run: int | None = None, client=None,
            scheduler: str | None = None, workers: int | None = None,
            progress: bool = False, retries: int = 2, on_game=None) -> RunSummary:
    """Play ``spec``'s games not yet in ``store`` (a new run unless ``run`` is
    given) and store each as it finishes. ``client``: a Dask client to use
    (else one is opened as :func:`open_client` says and closed at the end).
    ``on_game(task, record)`` is called after each game is stored."""
    check_rules(spec)
    if run is None:
        run = store.new_run(spec, players.ENGINE)
    every = games.tasks(spec, run)
    done = store.done_indices(run)
    todo = [t for t in every if t.index not in done]
    started = time.perf_counter()
    played = 0
    if todo:
        own = client is None
        if own:
            client = open_client(scheduler, workers)
        try:
            played = _play_all(client, todo, store, run, len(every), len(done), progress,
                               retries, on_game)
        finally:
            if own:
                _close(client)
    return RunSummary(run, played, len(every), len(store.done_indices(run)),
                      time.perf_counter() - started)


def resume_lab(store: LabStore, run: int | None = None, **kwargs) -> RunSummary:
    """Finish a run (the latest unfinished one by default) from its stored spec."""
    info = store.run(unfinished_run(store) if run is None else run)
    return run_lab(info.spec, store, run=info.id, **kwargs)


def unfinished_run(store: LabStore) -> int:
    """The latest run with games still to play (LabSpecError if none)."""
    open_runs = [r for r in store.runs() if r.done < r.games]
    if not open_runs:
        raise LabSpecError(f"{store.path}: every run is complete; nothing to resume")
    return open_runs[-1].id


def check_rules(spec: LabSpec) -> None:
    """Build each variant's rules here first, and play each opening line under
    them: a bad preset, rule file or opening is refused with its own error
    before any game is sent out."""
    from chess_rules.errors import ChessError
    from chess_rules.game import Game
    from .rules import variant_rules
    for v in spec.variant:
        rules = variant_rules(v)
        for line in spec.opening.lines:
            game = Game(rules.start, ruleset=rules.ruleset)
            try:
                for uci in line.split():
                    game.push(uci)
            except ChessError as e:
                raise LabSpecError(f"opening {line!r} under variant {v.name!r}: {e}") from None


def _require_dask():
    try:
        import distributed
    except ImportError:
        raise LabSpecError("the lab runs its games on Dask, which is not installed: "
                           "pip install 'houserules[lab]'") from None
    return distributed


def task_key(token: str, index: int) -> str:
    """The Dask key of a run's game: the run's random token, so that runs of
    other databases on a shared cluster never share a key, and the index."""
    return f"houserules-lab-{token}-{index}"


def _play_all(client, todo, store, run, total, before, progress, retries, on_game) -> int:
    from distributed import as_completed
    token = store.run(run).token
    by_key = {task_key(token, t.index): t for t in todo}
    futures = client.map(games.play, todo, key=list(by_key), retries=retries, pure=False)
    bar = _Bar(total, before, store, run) if progress else None
    played = 0
    try:
        for future in as_completed(futures):
            task = by_key[future.key]
            if future.status != "finished":
                error = future.exception()
                raise LabSpecError(f"game {task.index} of run {run} ({task.variant.name}) "
                                   f"failed: {type(error).__name__}: {error}")
            record = future.result()
            future.release()
            if store.add_game(task, record):
                played += 1
                if bar:
                    bar.advance(record)
                if on_game:
                    on_game(task, record)
    finally:
        if bar:
            bar.close()
        client.cancel(futures)
    return played


def _close(client) -> None:
    cluster = client.cluster
    client.close()
    if cluster is not None:
        cluster.close()


class _Bar:
    """The live progress bar on stderr: games done, games per minute and the
    running score of White (the first player)."""

    def __init__(self, total: int, before: int, store: LabStore, run: int):
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
        score = [1.0 if g["winner"] == "white" else 0.0 if g["winner"] == "black" else 0.5
                 for g in store.games([run])]
        self.points, self.count = sum(score), len(score)
        self.started, self.new = time.perf_counter(), 0
        self.progress = Progress(
            TextColumn(f"run {run}"), BarColumn(), MofNCompleteColumn(),
            TextColumn("games  {task.fields[rate]}/min  White scores {task.fields[score]}"),
            TimeElapsedColumn(), console=Console(file=sys.stderr), transient=False)
        self.task = self.progress.add_task("lab", total=total, completed=before,
                                           rate="-", score=self._score())
        self.progress.start()

    def _score(self) -> str:
        return f"{100 * self.points / self.count:.1f}%" if self.count else "-"

    def advance(self, record) -> None:
        self.count += 1
        self.new += 1
        self.points += {"white": 1.0, "black": 0.0}.get(record.winner or "", 0.5)
        minutes = (time.perf_counter() - self.started) / 60
        self.progress.update(self.task, advance=1, rate=f"{self.new / minutes:.1f}",
                             score=self._score())

    def close(self) -> None:
        self.progress.stop()
