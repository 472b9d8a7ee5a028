"""PGN move numbers follow the real turns under multi-move presets.

Convention (chess_rules.notation.game_to_pgn): the half-moves of one side's turn
are written together after one move number; a White turn opens with ``N.``, a
Black turn with ``N...`` unless both it and the White turn before it are single
moves (standard chess, whose PGN is unchanged).
"""
from __future__ import annotations

import pytest

from chess_rules.game import Game
from chess_rules.notation import game_to_pgn

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def movetext(pgn: str) -> str:
    """The movetext of a PGN (everything after the blank line), on one line."""
    return " ".join(pgn.split("\n\n", 1)[1].split())


def play(presets, ucis, fen=START, config=None):
    g = Game(fen, presets=presets, config=config)
    for u in ucis:
        g.push(u)
    return g


def test_double_move_numbers_whole_turns():
    g = play(["double-move"], ["e2e4", "d2d4", "e7e5", "d7d5",
                               "g1f3", "b1c3", "g8f6", "b8c6", "f1b5"])
    assert movetext(g.pgn()) == "1. e4 d4 1... e5 d5 2. Nf3 Nc3 2... Nf6 Nc6 3. Bb5 *"


def test_double_move_check_ends_the_turn_early():
    # Bb5+ on White's first half-move ends the turn: a one-move White turn,
    # then Black's two-move turn, still under the same move number.
    g = play(["double-move"], ["e2e4", "d2d4", "e7e5", "d7d5", "f1b5", "c7c6", "c6b5"])
    assert g.turn == "white"
    assert movetext(g.pgn()) == "1. e4 d4 1... e5 d5 2. Bb5+ 2... c6 cxb5 *"


def test_double_move_mate_on_the_second_half_move_gives_the_result():
    g = play(["double-move"], ["e2e4", "d1h5", "a7a6", "a6a5", "f1c4", "h5f7"])
    assert g.outcome() is not None and g.outcome().winner == "white"
    pgn = g.pgn()
    assert '[Result "1-0"]' in pgn
    assert movetext(pgn) == "1. e4 Qh5 1... a6 a5 2. Bc4 Qxf7# 1-0"


def test_monster_white_two_black_one():
    g = play(["monster-rules"], ["e2e4", "d2d4", "e7e5", "g1f3", "b1c3", "g8f6", "f1c4"])
    assert movetext(g.pgn()) == "1. e4 d4 1... e5 2. Nf3 Nc3 2... Nf6 3. Bc4 *"


def test_monster_black_scope_black_two_white_one():
    g = play(["monster-rules"], ["e2e4", "e7e5", "d7d5", "g1f3", "g8f6", "b8c6"],
             config={"monster-rules": {"scope": "black"}})
    assert movetext(g.pgn()) == "1. e4 1... e5 d5 2. Nf3 2... Nf6 Nc6 *"


def test_start_with_black_to_move_in_a_double_move_game():
    fen = "rnbqkbnr/pppppppp/8/8/3PP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 1"
    g = play(["double-move"], ["e7e5", "d7d5", "g1f3"], fen=fen)
    pgn = g.pgn()
    assert '[SetUp "1"]' in pgn and f'[FEN "{fen}"]' in pgn
    assert movetext(pgn) == "1... e5 d5 2. Nf3 *"


def test_start_in_the_middle_of_a_white_turn():
    fen = "4k3/8/8/8/4P3/8/8/4K3 w - e3 0 7 half:1"
    g = play(["double-move"], ["e1d2", "e8d7", "d7c6"], fen=fen)
    pgn = g.pgn()
    assert f'[FEN "{g._start_fen}"]' in pgn
    assert movetext(pgn) == "7. Kd2 7... Kd7 Kc6 *"


def test_standard_chess_unchanged():
    g = play([], ["e2e4", "e7e5", "g1f3", "b8c6"])
    assert movetext(g.pgn()) == "1. e4 e5 2. Nf3 Nc6 *"


def test_movers_default_alternates_and_is_checked():
    sans = ["e4", "e5", "Nf3"]
    assert game_to_pgn({}, sans) == game_to_pgn({}, sans, movers=["white", "black", "white"])
    with pytest.raises(ValueError, match="movers has 2 entries for 3 moves"):
        game_to_pgn({}, sans, movers=["white", "black"])
    with pytest.raises(ValueError, match="mover must be"):
        game_to_pgn({}, sans, movers=["white", "red", "white"])


def test_variant_tag_names_the_presets():
    g = play(["double-move"], ["e2e4", "d2d4"])
    assert '[Variant "double-move"]' in g.pgn()
    assert '[Variant "my rules"]' in g.pgn({"Variant": "my rules"})
    from chess_rules.game import Game
    assert "Variant" not in Game().pgn()          # standard chess has no tag
    both = Game(presets=["piece-hp", "king-heals"])
    assert '[Variant "piece-hp, king-heals"]' in both.pgn()
