"""Betza notation, movement legs and piece types defined in one line."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from chess_rules.betza import BetzaError, parse_betza
from chess_rules.rule_files import load_rule_text
from chess_rules.fide import fide_rules
from chess_rules.game import Game
from chess_rules.movement import Leg, double_leap, lame_path, leap, slide
from chess_rules.pieces import PieceType, PieceTypeError
from rete import ReteError


def offsets(betza):
    return sorted(o for leg in parse_betza(betza) for o in leg.offsets)


def test_atoms_give_their_eight_images():
    assert offsets("W") == [(-1, 0), (0, -1), (0, 1), (1, 0)]
    assert offsets("N") == sorted([(1, 2), (2, 1), (2, -1), (1, -2),
                                   (-1, -2), (-2, -1), (-2, 1), (-1, 2)])
    assert offsets("K") == sorted(offsets("W") + offsets("F"))
    assert offsets("C") == offsets("L") and (3, 1) in offsets("C")
    assert offsets("Z") == offsets("J") and (3, 2) in offsets("Z")


def test_directions_are_the_pieces_own():
    assert offsets("fW") == [(0, 1)]
    assert offsets("fN") == [(-1, 2), (1, 2)]             # the narrow pair
    assert offsets("fhN") == [(-2, 1), (-1, 2), (1, 2), (2, 1)]
    assert offsets("fsW") == [(-1, 0), (0, 1), (1, 0)]    # the xiangqi soldier
    assert offsets("frF") == [(1, 1)]
    assert offsets("vW") == [(0, -1), (0, 1)]


def test_riders_modes_and_hoppers():
    rook, = parse_betza("R")
    assert rook.ride == 0 and rook.mode == "both" and rook.hop is None
    assert parse_betza("WW") == parse_betza("R")
    assert parse_betza("W3")[0].ride == 3
    assert parse_betza("N0")[0].ride == 0
    move, capture = parse_betza("mRcpR")
    assert (move.mode, move.hop, capture.mode, capture.hop) == ("move", None, "capture", "cannon")
    assert parse_betza("gQ")[0].hop == "grasshopper"
    assert parse_betza("nN")[0].lame and not parse_betza("N")[0].lame
    assert parse_betza("ifmnD")[0].initial


@pytest.mark.parametrize("text, pos", [("X", 0), ("BNx", 2), ("3N", 0), ("Bf", 1), ("fm", 0)])
def test_bad_betza_says_where(text, pos):
    with pytest.raises(BetzaError) as e:
        parse_betza(text)
    assert e.value.pos == pos and f"at {pos + 1}" in str(e.value)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="WFDNAHCZGKRBQfblrvshmcnpgi0123x", max_size=8))
def test_any_text_parses_or_is_refused(text):
    try:
        legs = parse_betza(text)
    except BetzaError:
        return
    assert all(isinstance(leg, Leg) and leg.offsets for leg in legs)


def test_lame_paths_go_straight_first():
    assert lame_path(1, 2) == ((0, 1),)
    assert lame_path(2, 2) == ((1, 1),)
    assert lame_path(0, 2) == ((0, 1),)
    assert lame_path(-3, 1) == ((-1, 0), (-2, 0))


def test_leg_checks_its_fields():
    with pytest.raises(ValueError):
        leap((0, 0))
    with pytest.raises(ValueError):
        slide("N", mode="sometimes")
    assert double_leap((1, 2)).via == ((1, 2),)


def test_piece_in_python_moves_and_attacks():
    rules = fide_rules()
    rules.add_piece(PieceType("chancellor", "c", "RN"))
    game = Game("4k3/8/8/8/8/8/8/C3K3 b - - 0 1", ruleset=rules)
    assert game.fen().startswith("4k3/8/8/8/8/8/8/C3K3")
    # the chancellor on a1 covers the a-file and b3/c2: the black king on e8
    # is not attacked, but a king on a8 would be
    game2 = Game("k7/8/8/8/8/8/8/C3K3 b - - 0 1", ruleset=rules)
    assert game2.is_check() and not game.is_check()
    assert "piece.chancellor-move" in rules.productions


def test_piece_in_rule_text_is_one_line():
    rs = load_rule_text(fide_rules(), 'piece archbishop a "BN"  # a bishop-knight\n')
    game = Game("4k3/8/8/8/8/8/8/A3K3 w - - 0 1", ruleset=rs)
    assert game.explain("a1b3").generated_by == ["piece.archbishop-move"]
    assert not game.explain("a1a2").legal
    assert game.san("a1c2") == "Ac2"


@pytest.mark.parametrize("text, where, what", [
    ('\n  piece bad a "BX"\n', "<rules>:2:3", "'X' is no Betza atom"),
    ('piece knightx n "N"\n', "<rules>:1:1", "the letter 'N' is the knight's"),
    ('piece queen q "Q"\n', "<rules>:1:1", "FIDE piece type"),
    ('piece Big b "Q"\n', "<rules>:1:1", "name is lower-case"),
])
def test_bad_piece_line_is_refused_at_its_place(text, where, what):
    rules = fide_rules()
    with pytest.raises(ReteError) as e:
        load_rule_text(rules, text)
    assert str(e.value).startswith(where) and what in str(e.value)
    assert not any(n.startswith("piece.") for n in rules.productions)


def test_a_letter_reads_as_the_piece_of_the_game_started_last():
    with pytest.raises(PieceTypeError):
        PieceType("x", "ab", "W")
    with pytest.raises(PieceTypeError, match="knight"):
        fide_rules().add_piece(PieceType("knightx", "n", "N"))
    wazir, woody = fide_rules(), fide_rules()
    wazir.add_piece(PieceType("wazir", "w", "W"))
    woody.add_piece(PieceType("woody-rook", "w", "WW"))
    fen = "4k3/8/8/8/8/8/8/W3K3 w - - 0 1"
    assert Game(fen, ruleset=wazir).piece_at("a1").values["type"] == "wazir"
    assert Game(fen, ruleset=woody).piece_at("a1").values["type"] == "woody-rook"
