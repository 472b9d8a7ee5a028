"""The lab's database: SQLite (the standard library's), in WAL mode.

One row per run (its resolved spec, so that ``resume`` needs nothing else)
and one row per finished game, written in a transaction of its own as the
game comes back. A game's key is (run, index): storing a game twice (a task
that a lost worker's retry ran again) leaves the first row, so a game counts
once. A process killed mid-write leaves the transaction undone: the game is
simply not there, and ``resume`` plays it.
"""
from __future__ import annotations

import datetime as _dt
import json
import os
import sqlite3
import uuid
from dataclasses import dataclass

from .spec import LabSpec, LabSpecError

__all__ = ["LabStore", "RunInfo", "DEFAULT_DB"]

#: the database a lab command uses without --db (in the working folder)
DEFAULT_DB = "houserules-lab.sqlite"

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id       INTEGER PRIMARY KEY,
    token    TEXT NOT NULL UNIQUE,   -- names the run's tasks on a shared Dask cluster
    name     TEXT NOT NULL,
    spec     TEXT NOT NULL,          -- the resolved spec (JSON): all resume needs
    games    INTEGER NOT NULL,       -- how many games the run plays in all
    engine   TEXT NOT NULL,          -- which bots played
    created  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    run            INTEGER NOT NULL REFERENCES runs(id),
    idx            INTEGER NOT NULL, -- the game's number in the run, from 0
    variant        TEXT NOT NULL,
    variant_config TEXT NOT NULL,    -- the variant's full spec (JSON)
    seed           INTEGER NOT NULL,
    white_level    INTEGER NOT NULL,
    black_level    INTEGER NOT NULL,
    white_bot      TEXT NOT NULL,    -- 'A' or 'B': the spec's bot playing White
    result         TEXT NOT NULL,    -- 1-0, 0-1, 1/2-1/2 (a game at the cap: a draw)
    winner         TEXT,
    reason         TEXT NOT NULL,
    rule           TEXT,             -- the production that decided it, when one did
    plies          INTEGER NOT NULL, -- moves; Dice Chess: micro-moves
    turns          INTEGER NOT NULL, -- Dice Chess: turns played
    turns_cut      INTEGER NOT NULL, -- Dice Chess: turns the Maximum Micro-moves Rule cut
    seconds        REAL NOT NULL,
    pgn            TEXT,             -- with Variant/VariantConfig tags (not Dice Chess)
    moves          TEXT NOT NULL,
    worker         TEXT NOT NULL,
    finished       TEXT NOT NULL,
    PRIMARY KEY (run, idx)
);
"""


@dataclass(frozen=True)
class RunInfo:
    """A run as stored: its id, name, spec and how many games it has so far."""

    id: int
    token: str
    name: str
    spec: LabSpec
    games: int
    done: int
    engine: str
    created: str


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


class LabStore:
    """A lab database (created when missing). Use from one thread."""

    def __init__(self, path: str | os.PathLike = DEFAULT_DB):
        self.path = os.fspath(path)
        try:
            self.conn = sqlite3.connect(self.path, timeout=30)
            self.conn.execute("PRAGMA journal_mode=WAL")
            # a killed process loses no committed game; (power loss may, and resume replays it)
            self.conn.execute("PRAGMA synchronous=NORMAL")
            with self.conn:
                self.conn.executescript(SCHEMA)
        except sqlite3.DatabaseError as e:
            raise LabSpecError(f"{self.path}: not a lab database ({e})") from None

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> "LabStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ---------------------------------------------------------------- runs

    def new_run(self, spec: LabSpec, engine: str) -> int:
        """Record a run about to start; its id."""
        total = spec.games * len(spec.variant)
        with self.conn:
            cur = self.conn.execute(
                "INSERT INTO runs (token, name, spec, games, engine, created) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (uuid.uuid4().hex, spec.name, spec.model_dump_json(), total, engine, _now()))
        assert cur.lastrowid is not None
        return cur.lastrowid

    def runs(self) -> list[RunInfo]:
        """Every run, oldest first."""
        rows = self.conn.execute(
            "SELECT r.id, r.token, r.name, r.spec, r.games, r.engine, r.created, "
            "(SELECT COUNT(*) FROM games g WHERE g.run = r.id) FROM runs r ORDER BY r.id")
        return [RunInfo(i, t, n, LabSpec.model_validate_json(s), g, d, e, c)
                for i, t, n, s, g, e, c, d in rows]

    def run(self, run_id: int) -> RunInfo:
        """The run of that id (LabSpecError naming the runs there are if none)."""
        for r in self.runs():
            if r.id == run_id:
                return r
        ids = ", ".join(str(r.id) for r in self.runs()) or "none yet"
        raise LabSpecError(f"{self.path}: no run {run_id} (runs: {ids})")

    def done_indices(self, run_id: int) -> set[int]:
        return {i for (i,) in self.conn.execute("SELECT idx FROM games WHERE run = ?",
                                                (run_id,))}

    # ---------------------------------------------------------------- games

    def add_game(self, task, record) -> bool:
        """Store one finished game in a transaction of its own. False when the
        game (run, index) is stored already: the first record stands."""
        with self.conn:
            cur = self.conn.execute(
                "INSERT INTO games (run, idx, variant, variant_config, seed, white_level, "
                "black_level, white_bot, result, winner, reason, rule, plies, turns, "
                "turns_cut, seconds, pgn, moves, worker, finished) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (run, idx) DO NOTHING",
                (task.run, task.index, task.variant.name, task.variant.model_dump_json(),
                 task.seed, task.white_level, task.black_level, task.white_bot,
                 record.result, record.winner, record.reason, record.rule, record.plies,
                 record.turns, record.turns_cut, record.seconds, record.pgn, record.moves,
                 record.worker, _now()))
        return cur.rowcount == 1

    def games(self, run_ids: list[int]) -> list[dict]:
        """The games of those runs, as dicts (columns by name), in run and index order."""
        marks = ",".join("?" * len(run_ids))
        cur = self.conn.execute(
            f"SELECT * FROM games WHERE run IN ({marks}) ORDER BY run, idx", run_ids)
        cols = [d[0] for d in cur.description]
        return [dict(zip(cols, row)) for row in cur]

    def counts(self, run_id: int) -> tuple[int, int]:
        """(rows, distinct indices) of a run: equal unless a game was stored twice."""
        row = self.conn.execute("SELECT COUNT(*), COUNT(DISTINCT idx) FROM games WHERE run = ?",
                                (run_id,)).fetchone()
        return row[0], row[1]


def variant_of(row: dict) -> dict:
    """A stored game's variant spec (the JSON column read)."""
    return json.loads(row["variant_config"])
