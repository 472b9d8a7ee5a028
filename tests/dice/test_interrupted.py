"""Ctrl-C during a turn tree's build (the DFEN API keeps a cache and an idle
session between calls): the next calls answer as if nothing had happened, and a
DiceGame interrupted in a micro-move is left before or after it."""
from __future__ import annotations

import gc
import random
import sys
from pathlib import Path

import pytest

import dice.turns as turns
from dice.game import DiceGame
from dice.turns import apply_move, legal_turn_tree, legal_uci_moves, playable_dice

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from _interrupts import run_interrupted  # noqa: E402  (tests/_interrupts.py)

DFEN = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3 NBP"


def answers(d):
    return legal_turn_tree(d), [apply_move(d, u) for u in legal_uci_moves(d)], playable_dice(d)


def test_ctrl_c_in_a_tree_build(monkeypatch):
    monkeypatch.setattr(turns, "_CACHE", type(turns._CACHE)())
    expected = answers(DFEN)
    turns._CACHE.clear()
    total = run_interrupted(lambda: legal_turn_tree(DFEN), 0)
    for i in range(15):
        turns._CACHE.clear()
        run_interrupted(lambda: legal_turn_tree(DFEN), 1 + (total - 1) * i // 14)
        assert gc.isenabled()
        assert answers(DFEN) == expected, i
        idle = turns._IDLE.get("default")
        assert idle is None or not (idle._stack or idle.session._marks)


@pytest.mark.parametrize("op", ["push", "pop"])
def test_ctrl_c_in_a_micro_move(op):
    base = DiceGame(DFEN)
    base.push("f3e5")
    if op == "pop":
        before, after = base.dfen(), DiceGame(DFEN).dfen()
        run = DiceGame.pop
    else:
        before = base.dfen()
        g = DiceGame(DFEN)
        g.push("f3e5")
        g.push("f1b5")
        after = g.dfen()
        run = lambda g: g.push("f1b5")      # noqa: E731
    g = base.copy()         # (made outside the count: the points fall in the operation)
    total = run_interrupted(lambda: run(g), 0)
    for i in range(12):
        g = base.copy()
        run_interrupted(lambda: run(g), 1 + (total - 1) * i // 11)
        d = g.dfen()
        assert d in (before, after), i
        assert len(g.session._marks) == len(g.move_stack) and g.session.agenda.live == 0, i
        assert [m.uci() for m in g.legal_moves()] == [m.uci() for m in DiceGame(d).legal_moves()], i


NO_DICE = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 -"
OTHER = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 NNP"


def _mid_turn():
    g = DiceGame(NO_DICE)
    g.roll(random.Random(3))
    g.push(g.legal_uci()[0])
    return g


def _turn_over():
    g = _mid_turn()
    while g.legal_uci():
        g.push(g.legal_uci()[0])
    g.run_end_turn()
    return g


@pytest.mark.parametrize("op", ["roll", "end_turn", "reload"])
def test_ctrl_c_at_the_end_of_a_phase_leaves_copy_and_game_agreeing(op):
    # the last steps of a roll, an end of turn or a reload (after the stage ran:
    # the commit, noting the phase for copy(), setting the new start position)
    # are where an interrupt used to leave the game and what copy() and the
    # rebuild after an interrupt replay disagreeing: the end of turn undone by
    # the rebuild, or a reload rebuilt onto the new position with the old
    # game's roll replayed on it (a RollError instead of the KeyboardInterrupt)
    make, run = {
        "roll": (_turn_over, lambda g: g.roll(random.Random(4))),
        "end_turn": (_end_ready, DiceGame.run_end_turn),
        "reload": (_rolled, lambda g: g.reload(OTHER)),
    }[op]
    before = make().dfen()
    g = make()
    run(g)
    after = g.dfen()
    g = make()
    total = run_interrupted(lambda: run(g), 0)
    for k in range(max(1, total - 150), total + 1):
        g = make()
        run_interrupted(lambda: run(g), k)
        d = g.dfen()
        assert d in (before, after), k
        assert g.copy().dfen() == d, k
        assert len(g.session._marks) == len(g.move_stack), k


def _end_ready():
    g = _mid_turn()
    while g.legal_uci():
        g.push(g.legal_uci()[0])
    return g


def _rolled():
    g = DiceGame(NO_DICE)
    g.roll(random.Random(5))
    return g
