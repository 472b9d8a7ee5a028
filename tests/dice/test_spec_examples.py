"""The worked examples of Dice Chess's turn and playable dice (RULES.md, "Dice Chess")."""
from __future__ import annotations

import pytest

import dice
from dice import (MaxMicroMovesError, apply_move, legal_turn_tree, legal_uci_moves,
                  playable_dice)

EXAMPLE = "8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1 NPP"
START_QRN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 QRN"
KNIGHT_QUIET = ("b3a5", "b3c1", "b3d2", "b3d4")   # b3c5 takes the king


def test_example_first_level():
    assert legal_uci_moves(EXAMPLE) == ["b3a5", "b3c1", "b3c5", "b3d2", "b3d4", "c2c3", "c2c4"]
    assert sorted(legal_turn_tree(EXAMPLE)) == legal_uci_moves(EXAMPLE)


def test_example_after_c2c4_afresh_and_in_the_tree():
    after = apply_move(EXAMPLE, "c2c4")
    assert after == "8/8/8/2k5/2P5/1N6/8/K7 w - c3 0 1 NP"
    # judged afresh: a quiet knight move ends a two-dice turn, which is now the most
    assert legal_uci_moves(after) == ["b3a5", "b3c1", "b3c5", "b3d2", "b3d4"]
    # in the tree of the whole turn, c2c4 only starts c2c4, Nb3xc5
    assert legal_turn_tree(EXAMPLE)["c2c4"] == {"b3c5": {}}


def test_example_whole_tree():
    # Worked by hand: three dice (N, P, P). The king on c5 blocks c4-c5, so a pawn
    # reaches c4 with both pawn dice (c2c3, c3c4) or one (c2c4). Turns spending all
    # three dice: a quiet knight move and c2c3 c3c4 in any order; Nxc5 ends the turn
    # at once whenever it comes (a king capture is legal whatever its length).
    quiet = {k: {"c2c3": {"c3c4": {}}} for k in KNIGHT_QUIET}
    expected = dict(quiet)
    expected["b3c5"] = {}
    expected["c2c3"] = {"b3c5": {}, "c3c4": {"b3c5": {}, **{k: {} for k in KNIGHT_QUIET}},
                        **{k: {"c3c4": {}} for k in KNIGHT_QUIET}}
    expected["c2c4"] = {"b3c5": {}}
    assert legal_turn_tree(EXAMPLE) == expected


def test_tree_walk_is_what_apply_move_accepts_at_each_step():
    d = apply_move(EXAMPLE, "c2c4")
    d = apply_move(d, "b3c5")
    assert legal_uci_moves(d) == []          # the king is taken: the game is over
    assert "k" not in d.split()[0]


def test_afresh_answer_allows_more_than_the_tree():
    # b3a5 after c2c4 is legal judged afresh (2 dice is the most from there) ...
    after = apply_move(EXAMPLE, "c2c4")
    assert apply_move(after, "b3a5").split()[6] == "P"
    # ... but never part of a legal turn from the roll
    assert playable_dice(EXAMPLE, ["c2c4", "b3a5"]) is None


def test_start_position_queen_rook_knight():
    assert legal_uci_moves(START_QRN) == ["b1a3", "b1c3", "g1f3", "g1h3"]
    assert legal_turn_tree(START_QRN) == {
        "b1a3": {"a1b1": {}}, "b1c3": {"a1b1": {}}, "g1f3": {"h1g1": {}}, "g1h3": {"h1g1": {}}}
    assert playable_dice(START_QRN, []) == [2, 4]
    assert playable_dice(START_QRN) == [2, 4]
    assert playable_dice(START_QRN, ["b1a3"]) == [4]
    assert playable_dice(START_QRN, ["b1a3", "a1b1"]) == []
    assert playable_dice(START_QRN, ["a1b1"]) is None
    assert playable_dice(START_QRN, ["d1d3"]) is None


def test_queen_first_breaks_the_rule_or_has_no_move():
    with pytest.raises(dice.DiceMoveError) as e:
        apply_move(START_QRN, "d1d3")
    assert e.value.kind == "illegal"
    # the rook can move after the knight, not before: a1b1 is blocked at the roll
    with pytest.raises(dice.NotLegalMoveError):
        apply_move(START_QRN, "a1b1")


def test_playable_dice_in_the_example():
    assert playable_dice(EXAMPLE) == [1, 1, 2]
    assert playable_dice(EXAMPLE, ["c2c4"]) == [2]
    assert playable_dice(EXAMPLE, ["c2c3"]) == [1, 2]
    assert playable_dice(EXAMPLE, ["b3c5"]) == []          # a king capture completes the turn
    assert playable_dice(EXAMPLE, ["b3a5", "c2c4"]) is None  # breaks the rule


def test_max_micro_moves_refusal_says_why():
    after = apply_move(EXAMPLE, "b3a5")
    assert legal_uci_moves(after) == ["c2c3"]
    with pytest.raises(MaxMicroMovesError) as e:
        apply_move(after, "c2c4")
    assert e.value.kind == "max-micro-moves"
    assert "Maximum Micro-moves Rule" in str(e.value)
    assert "c2c3" in str(e.value)
