"""The square and piece helpers of chess_rules.squares, against python-chess's own."""
from __future__ import annotations

import chess
import pytest
from hypothesis import given
from hypothesis import strategies as st

from chess_rules import squares as sq


@given(st.integers(0, 63))
def test_square_numbering_is_python_chess_numbering(s):
    assert sq.square_name(s) == chess.square_name(s)
    assert sq.parse_square(chess.square_name(s)) == s
    assert (sq.file_of(s), sq.rank_of(s)) == (chess.square_file(s), chess.square_rank(s))
    assert sq.square(sq.file_of(s), sq.rank_of(s)) == s
    assert getattr(sq, chess.square_name(s).upper()) == s


@pytest.mark.parametrize("bad", [-1, 64, True, 3.0, "e4", None])
def test_square_name_refuses_what_is_not_a_square(bad):
    with pytest.raises(ValueError, match="not a square number"):
        sq.square_name(bad)


@pytest.mark.parametrize("bad", ["E4", "e9", "i1", "e", "", 28, None])
def test_parse_square_refuses_what_is_not_a_square_name(bad):
    with pytest.raises(ValueError):
        sq.parse_square(bad)


@pytest.mark.parametrize("letter", list("pnbrqkPNBRQK"))
def test_piece_letters_round_trip_as_in_fen(letter):
    ptype, colour = sq.piece_from_letter(letter)
    p = chess.Piece.from_symbol(letter)
    assert ptype == chess.piece_name(p.piece_type)
    assert colour == ("white" if p.color else "black")
    assert sq.piece_letter(ptype, colour) == letter


def test_unknown_piece_letter():
    with pytest.raises(KeyError):
        sq.piece_from_letter("x")
