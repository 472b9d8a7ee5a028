"""An en-passant target goes with its pawn, however the pawn leaves.

A target lives until the opponent has moved; under a turn of several moves
(``double-move``, Dice Chess) the side that made it moves again first, and its
own rook's blast (``explosive-rook``) or the poison at the end of its turn
(``piece-hp`` + ``poisoned-squares``) may take the pawn. A target left behind
named a square with no pawn: the extended FEN then wrote ``ep-pawn:g6=f5``
(Berolina pawns, whose target does not say which pawn made it), which the
reader refuses - the game's own position could not be read back.
"""
from __future__ import annotations

import pytest

from chess_rules.game import Game

CASES = [
    # Berolina h7-f5 skips g6; Black's rook then takes on d5 and blows up f5
    (["berolina-pawns", "explosive-rook", "double-move"],
     "4k3/7p/8/r2N4/8/8/8/4K3 b - - 0 1", ["h7f5", "a5d5"],
     "4k3/8/8/3r4/8/8/8/4K3 w - - 0 2"),
    # Berolina f7-d5 onto a poisoned square with 1 hp: it dies at the end of the turn
    (["berolina-pawns", "piece-hp", "poisoned-squares", "double-move"],
     "4k3/5p2/8/8/8/8/8/4K3 b - - 0 1 hp:f7=1", ["f7d5", "e8d8"],
     "3k4/8/8/8/8/8/8/4K3 w - - 1 2"),
    # FIDE pawns: the same, the target's pawn inferred (it read back, but no
    # target is left for a pawn that is gone)
    (["explosive-rook", "double-move"],
     "4k3/6p1/8/r3N3/8/8/8/4K3 b - - 0 1", ["g7g5", "a5e5"],
     "4k3/8/8/4r3/8/8/8/4K3 w - - 0 2"),
]


@pytest.mark.parametrize("presets, fen, moves, after", CASES,
                         ids=["blast-berolina", "poison-berolina", "blast-fide"])
def test_a_pawn_gone_mid_turn_takes_its_target_with_it(presets, fen, moves, after):
    g = Game(fen, presets=presets)
    g.push(moves[0])
    with_target = g.fen()
    assert with_target.split()[3] != "-"
    g.push(moves[1])
    assert g.fen() == g.fen("all") == after
    assert not g.session.facts_of("ep")
    again = Game(g.fen(), presets=presets)
    assert again.fen() == after and again.legal_uci() == g.legal_uci()
    g.pop()
    assert g.fen() == with_target


def test_dice_chess_a_blown_up_pawn_takes_its_target_with_it():
    # Black's Berolina double step h7-f5... made g6; White's rook takes the
    # queen on h4 and the blast takes h5: the DFEN reads back
    from dice import apply_move, legal_uci_moves
    from dice.rules import dice_rules
    from presets import load
    rs = dice_rules(load("berolina-pawns", "explosive-rook"))
    d = "rnb1k1nr/ppppb2p/3p1p2/7p/5P1q/2P2N2/P1PPPPP1/RNBQKB1R w Qkq g6 0 3 BR"
    after = apply_move(d, "h1h4", rs)
    assert after == "rnb1k1nr/ppppb2p/3p1p2/8/7R/2P2N2/P1PPPPP1/RNBQKB2 w Qkq - 0 3 B"
    assert legal_uci_moves(after, rs)


class _Pawns:
    """A roll of three pawn dice."""

    def randint(self, a, b):
        return 1


def test_dice_chess_a_pawn_that_steps_where_a_blown_up_one_stood_is_no_en_passant_victim():
    # h7-f5 (target g6), the rook's blast on d5 takes f5, e6-f5 steps in: the
    # text API plays the whole turn, and White's g5 pawn has no en-passant
    # capture of a pawn that made a single step
    from dice import apply_move, end_turn, legal_uci_moves, with_dice
    from dice.game import DiceGame
    from dice.rules import dice_rules
    from presets import load
    rs = dice_rules(load("berolina-pawns", "explosive-rook"))
    start = "4k3/7p/4p3/r2N2P1/8/8/8/4K3 b - - 0 1 PRP"
    d = start
    for u in ["h7f5", "a5d5", "e6f5"]:
        d = apply_move(d, u, rs)
    white = with_dice(end_turn(d, rs), "PPP", rs)
    assert white == "4k3/8/8/3r1pP1/8/8/8/4K3 w - - 0 2 PPP"
    assert legal_uci_moves(white, rs) == ["g5f6", "g5h6"]
    g = DiceGame(start, rs)
    for u in ["h7f5", "a5d5", "e6f5"]:
        g.push(u)
    g.run_end_turn()
    g.roll(_Pawns())
    assert g.dfen() == white and g.legal_uci() == ["g5f6", "g5h6"]


def test_two_berolina_double_steps_through_one_square_leave_one_target():
    # g7-e5 and e7-g5 both pass f6 in one double-move turn: the square holds
    # one target, the last pawn's (the FEN wrote 'f6f6', which no reader takes)
    ids = ["berolina-pawns", "double-move"]
    g = Game("4k3/4p1p1/8/5P2/8/8/8/4K3 b - - 0 1", presets=ids)
    g.push("g7e5")
    g.push("e7g5")
    assert g.fen() == "4k3/8/8/4pPp1/8/8/8/4K3 w - f6 0 2 ep-pawn:f6=g5"
    assert Game(g.fen(), presets=ids).legal_uci() == g.legal_uci()
    g.push("f5f6")
    assert g.fen() == "4k3/8/5P2/4p3/8/8/8/4K3 w - - 0 2 half:1"
    g.pop()
    g.pop()
    assert g.fen() == "4k3/4p3/8/4pP2/8/8/8/4K3 b - f6 0 1 half:1"


def test_dice_chess_two_berolina_double_steps_through_one_square_leave_one_target():
    from dice import apply_move, legal_uci_moves
    from dice.rules import dice_rules
    from presets import load
    rs = dice_rules(load("berolina-pawns"))
    d = "4k3/4p1p1/8/8/8/8/8/4K3 b - - 0 1 PP"
    for u in ["g7e5", "e7g5"]:
        d = apply_move(d, u, rs)
    assert d == "4k3/8/8/4p1p1/8/8/8/4K3 b - f6 0 1 - ep-pawn:f6=g5"
    assert legal_uci_moves(d, rs) == []
