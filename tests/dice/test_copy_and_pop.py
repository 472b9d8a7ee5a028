"""DiceGame.copy() and pop() across the phases the move stack does not hold.

A game played through its turns rolls the dice (``roll``) and hands the turn
over (``run_end_turn``) between micro-moves. ``copy`` once replayed only the
micro-moves from the start position, so a copy made after a roll had no dice
(or refused the first micro-move), and ``pop`` of a micro-move made before a
roll or an end of turn left that roll's dice and that turn's colour behind
(a position with five dice). ``pop`` with nothing to take back is a typed error.
"""
from __future__ import annotations

import random

import pytest

from chess_rules.errors import ChessError
from dice.game import DiceGame
from dice.rules import dice_rules
from presets import load

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 -"


def play_turns(g: DiceGame, rng: random.Random, turns: int) -> list[str]:
    """Play ``turns`` whole turns (roll, micro-moves, end); the DFEN before each
    micro-move, in order."""
    before = []
    for _ in range(turns):
        if g.is_game_over():
            break
        g.roll(rng)
        while not g.is_game_over():
            moves = g.legal_uci()
            if not moves:
                break
            before.append(g.dfen())
            g.push(rng.choice(moves))
        if not g.is_game_over():
            g.run_end_turn()
    return before


def test_a_copy_after_a_roll_has_the_dice():
    g = DiceGame(START)
    g.roll(random.Random(1))
    assert g.copy().dfen() == g.dfen() != START
    g.push(g.legal_uci()[0])
    c = g.copy()
    assert c.dfen() == g.dfen() and c.move_stack == g.move_stack


def test_a_copy_after_an_end_of_turn_stands_where_the_game_stands():
    g = DiceGame("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 NPP")
    g.push("e2e4")
    g.run_end_turn()
    assert g.copy().dfen() == g.dfen() == \
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 -"


def test_pop_takes_back_the_roll_and_the_end_of_turn_after_the_micro_move():
    g = DiceGame("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 NPP")
    g.push("e2e4")
    before = g.dfen()
    g.run_end_turn()
    g.roll(random.Random(2))
    g.pop()
    assert g.dfen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 NPP"
    g.push("e2e4")
    assert g.dfen() == before


@pytest.mark.parametrize("preset", [None, "piece-hp", "double-move", "berolina-pawns"])
@pytest.mark.parametrize("seed", [1, 2])
def test_copies_and_pops_over_several_turns(preset, seed):
    rs = dice_rules(load(preset)) if preset else None
    rng = random.Random(seed)
    g = DiceGame(START, rs)
    before = play_turns(g, rng, 5)
    c = g.copy()
    assert c.dfen() == g.dfen() and c.move_stack == g.move_stack
    # the copy is independent: popping it leaves the game alone
    at = g.dfen()
    c.pop()
    assert g.dfen() == at
    c.push(g.move_stack[-1].uci())
    if not c.is_game_over():
        c.run_end_turn()            # (the pop took back the end of the last turn)
    assert c.dfen() == at
    # every pop goes back to the position before that micro-move, across the
    # rolls and ends of turn between; a copy made there stands there too
    while g.move_stack:
        g.pop()
        want = before.pop()
        assert g.dfen() == want
        if rng.random() < 0.3:
            assert g.copy().dfen() == want
    with pytest.raises(ChessError, match="no micro-move to take back"):
        g.pop()
