"""Statements of the Dice Chess rules in RULES.md that no other test pinned, each with a position built and worked out by
hand."""
from __future__ import annotations

import dice
from dice import apply_move, end_turn, legal_turn_tree, legal_uci_moves, playable_dice


def test_a_capture_onto_an_occupied_target_is_an_ordinary_capture():
    # White's e3 target (pawn on e4) with a white knight standing on e3 (RULES:
    # "the target square itself may be occupied"): Black's d4xe3 takes the
    # knight only; the pawn on e4 stays, and so does the target until end_turn
    d = "8/8/8/8/3pP3/4N3/8/4K2k b - e3 0 1 P"
    assert legal_uci_moves(d) == ["d4d3", "d4e3"]
    assert apply_move(d, "d4e3") == "8/8/8/8/4P3/4p3/8/4K2k b - e3 0 1 -"
    # the target was made within White's turn, the knight stopping on it after
    d = "8/8/8/8/3p4/8/4P1N1/4K2k w - - 0 1 PN"
    d = apply_move(apply_move(d, "e2e4"), "g2e3")
    assert d == "8/8/8/8/3pP3/4N3/8/4K2k w - e3 1 1 -"
    assert end_turn(d) == "8/8/8/8/3pP3/4N3/8/4K2k b - e3 1 1 -"


def test_a_target_goes_when_its_pawn_is_captured():
    # RULES: a target is dropped "if the pawn that made it ... is captured": a
    # knight takes the e4 pawn that made e3; no en passant onto e3 is left
    d = "4k3/8/8/8/3pP3/2n5/8/4K3 b - e3 0 1 NP"
    d1 = apply_move(d, "c3e4")
    assert d1 == "4k3/8/8/8/3pn3/8/8/4K3 b - - 0 1 P"
    assert legal_uci_moves(d1) == ["d4d3"]


def test_castling_rights_follow_the_micro_moves():
    # lifecycle: a micro-move "updates castling rights": a rook that leaves and
    # comes back in the same turn has lost its right; a rook taken on its
    # square loses the opponent's; a king move loses both
    d = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 RRK"
    d1 = apply_move(d, "a1a2")
    assert d1.split()[2] == "Kkq"
    assert apply_move(d1, "a2a1").split()[2] == "Kkq"
    assert apply_move(d, "h1h8").split()[2] == "Qq"
    assert apply_move(d, "e1d1").split()[2] == "kq"
    # a right lost is lost for the turn's castling: the rook back on a1 with a
    # king and a rook die left (read afresh) cannot castle long
    assert "e1c1" not in legal_uci_moves("r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 2 1 KR")
    assert "e1c1" in legal_uci_moves("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 2 1 KR")


def test_a_promotion_that_takes_the_king_ends_the_turn_with_dice_left():
    # ruling: capturing the king ends the turn and the game at once; a pawn
    # promoting onto the king's square captures it, whatever it promotes to
    d = "4k3/3P4/8/8/8/8/8/4K3 w - - 0 1 PPN"
    tree = legal_turn_tree(d)
    for promo in "qrbn":
        assert tree[f"d7e8{promo}"] == {}
    # the only other turn spending as much as possible: d7d8n, then the new knight
    assert set(tree) == {"d7e8q", "d7e8r", "d7e8b", "d7e8n", "d7d8n"}
    after = apply_move(d, "d7e8q")
    assert after == "4Q3/8/8/8/8/8/8/4K3 w - - 0 1 PN"
    assert legal_uci_moves(after) == [] and playable_dice(d, ["d7e8q"]) == []
    assert dice.game.DiceGame(after).winner() == "white"


def test_end_turn_keeps_the_move_number_after_white():
    # ruling: "adds one to the full-move number after Black's turn" only
    assert end_turn("4k3/8/8/8/8/8/8/4K3 w - - 7 12 -") == "4k3/8/8/8/8/8/8/4K3 b - - 7 12 -"
    assert end_turn("4k3/8/8/8/8/8/8/4K3 b - - 7 12 -") == "4k3/8/8/8/8/8/8/4K3 w - - 7 13 -"
    # dice that no micro-move can use are cleared
    assert end_turn("4k3/8/8/8/8/8/8/4K3 w - - 0 1 QQB").endswith(" 0 1 -")
