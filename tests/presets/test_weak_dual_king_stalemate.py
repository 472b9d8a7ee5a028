"""weak-dual-king: a side with no legal move at all draws (stalemate) while one
of its kings is unattacked, and is checkmated only when every king is attacked.

The positions box both kings of the side to move in with its own men: rank 8
(or rank 1) holds the kings, bishops, rooks and queen, the rank in front of it
pawns. Each pawn is blocked by the piece ahead and its captures land on its own
men; the line pieces see only their own men; a king may not take its own piece.
So the side has no move although the preset drops the self-check filter. Black
knights then attack none, one, or both kings.
"""
from __future__ import annotations

import pytest

from chess_rules.game import Game

WHITE_BOX = "KBBQKBRR/PPPPPPPP/{knights}/8/8/8/8/2k2k2 w - - 0 1"
# Colours and ranks swapped: Black boxed in on ranks 1-2, White knights on rank 3.
BLACK_BOX = "2K2K2/8/8/8/8/{knights}/pppppppp/kbbqkbrr b - - 0 1"


def mirror_knights(rank: str) -> str:
    return rank.replace("n", "N")


@pytest.mark.parametrize("template,side", [(WHITE_BOX, "white"), (BLACK_BOX, "black")])
@pytest.mark.parametrize("knights,attacked", [
    ("8", 0),        # no king attacked
    ("1n6", 1),      # b-knight attacks the a-file king only
    ("1n1n4", 2),    # and the d-knight the e-file king
])
def test_no_legal_move(template, side, knights, attacked):
    rank = knights if side == "white" else mirror_knights(knights)
    g = Game(template.format(knights=rank), presets=["weak-dual-king"])
    assert g.turn == side
    assert g.legal_moves() == []
    assert g.is_check() == (attacked > 0)
    out = g.outcome()
    assert out is not None
    if attacked < 2:
        assert (out.winner, out.reason, out.result()) == (None, "stalemate", "1/2-1/2")
    else:
        other = "black" if side == "white" else "white"
        assert (out.winner, out.reason) == (other, "checkmate")


def test_the_box_is_what_stops_the_kings():
    """Open the square next to the a8 king and it has a move again, so the
    game goes on though that king is attacked."""
    g = Game("K1BQKBRR/PPPPPPPP/1n6/8/8/8/8/2k2k2 w - - 0 1", presets=["weak-dual-king"])
    assert "a8b8" in g.legal_uci()
    assert g.outcome() is None
