"""Repetition under every preset: a position repeats when its FEN repeats.

Two positions are one for the threefold rule when their FENs agree apart from
the clocks: board, side to move, castling rights, the en-passant targets a
capture can use, and the ``key:value`` tokens of a preset's own state (hit
points, pawns that moved back to their home rank, the half-move of a turn).
On random playouts under each preset, made to shuffle pieces back and forth so
that positions recur, ``Game.repetitions()`` must count exactly the earlier
FENs equal to the current one.
"""
from __future__ import annotations

import random

import pytest

from chess_rules.game import Game
from presets import all_presets, load
from presets.layouts import preferred_layout

PRESETS = [m.id for m in all_presets()]


def _position(g: Game) -> str:
    """The FEN without its clocks; an en-passant target stands for its capture
    (the pawn that would be taken is the board's business, not a token's)."""
    fields = g.fen(en_passant="legal").split()
    tokens = [t for t in fields[6:] if not t.startswith("ep-pawn:")]
    return " ".join(fields[:4] + tokens)


def _shuffle_playout(pid: str, seed: int, plies: int):
    meta = {m.id: m for m in all_presets()}[pid]
    rs = load(pid, *meta.requires)
    g = Game(preferred_layout([pid]).fen, ruleset=rs)
    rng = random.Random(seed)
    seen = [_position(g)]
    last: dict[str, str] = {}
    wander = rng.randint(0, plies)          # random plies first, then shuffling
    for ply in range(plies + 30):
        if g.outcome() is not None:
            break
        moves = g.legal_moves()
        if not moves:
            break
        back = last.get(g.turn)
        by_uci = {m.uci(): m for m in moves}
        if ply >= wander and back in by_uci and rng.random() < 0.7:
            m = by_uci[back]            # undo our last move: positions recur
        else:
            m = rng.choice(moves)
        mover = g.turn
        g.push(m)
        u = m.uci()
        last[mover] = u[2:4] + u[:2]
        seen.append(_position(g))
        yield g, seen


@pytest.mark.parametrize("pid", PRESETS)
def test_repetitions_count_equal_fens(pid):
    repeated = 0
    for seed in range(8):
        for g, seen in _shuffle_playout(pid, seed, 50):
            expect = seen.count(seen[-1])
            assert g.repetitions() == expect, (pid, seed, seen[-1], g.fen())
            repeated += expect > 1
    assert repeated > 0          # the playouts did repeat positions
