"""Edge cases of the Dice Chess turn, each built and reasoned by hand."""
from __future__ import annotations

import random

import pytest

import dice
from dice import (EndTurnError, GameOverError, MaxMicroMovesError, NoDieError,
                  NotLegalMoveError, RollError, apply_move, end_turn, legal_turn_tree,
                  legal_uci_moves, playable_dice, roll, with_dice)

START = dice.START_DFEN


def paths(tree, prefix=()):
    if not tree:
        yield prefix
        return
    for u, sub in tree.items():
        yield from paths(sub, prefix + (u,))


# ---------------------------------------------------------------- no legal move


def test_roll_with_no_legal_micro_move():
    # start position, queen, bishop, king: every one of them is boxed in
    d = with_dice(START, [5, 3, 6])
    assert d.endswith(" QBK")
    assert legal_turn_tree(d) == {}
    assert legal_uci_moves(d) == []
    assert playable_dice(d) == []
    # the turn is complete at the roll: end_turn passes it
    assert end_turn(d) == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1 -"
    with pytest.raises(NotLegalMoveError):
        apply_move(d, "d1d3")          # a queen die, but the queen cannot move
    with pytest.raises(NoDieError):
        apply_move(d, "e2e4")          # no pawn die


def test_position_without_dice():
    assert legal_turn_tree(START) == {}
    assert playable_dice(START) == []
    with pytest.raises(NoDieError):
        apply_move(START, "e2e4")


# ---------------------------------------------------------------- only two dice usable


def test_only_two_of_three_dice_usable():
    # pawn, bishop, rook from the start: a bishop needs a b-, d-, e- or g-pawn move
    # first, a rook an a- or h-pawn move, and there is one pawn die: 2 dice at most.
    d = with_dice(START, [1, 3, 4])
    tree = legal_turn_tree(d)
    assert legal_uci_moves(d) == sorted(
        ["a2a3", "a2a4", "b2b3", "b2b4", "d2d3", "d2d4", "e2e3", "e2e4",
         "g2g3", "g2g4", "h2h3", "h2h4"])
    # c- and f-pawn moves open nothing: they would end a one-die turn
    for u in ("c2c3", "c2c4", "f2f3", "f2f4"):
        with pytest.raises(MaxMicroMovesError):
            apply_move(d, u)
    assert all(len(p) == 2 for p in paths(tree))
    assert tree["e2e4"] == {u: {} for u in ("f1a6", "f1b5", "f1c4", "f1d3", "f1e2")}
    assert tree["a2a4"] == {"a1a2": {}, "a1a3": {}}
    assert tree["h2h3"] == {"h1h2": {}}
    assert playable_dice(d) == [1, 3, 4]
    assert playable_dice(d, ["e2e4"]) == [3]
    assert playable_dice(d, ["a2a3"]) == [4]


# ---------------------------------------------------------------- castling


CASTLE = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1 KRP"


def test_castling_inside_a_turn_spends_king_and_rook():
    tree = legal_turn_tree(CASTLE)
    assert "e1g1" in tree and "e1c1" in tree
    # castling then a pawn move spends all three dice
    assert set(tree["e1g1"]) == {f"{f}2{f}{r}" for f in "abcdefgh" for r in "34"}
    # a pawn move then castling
    assert tree["a2a3"]["e1g1"] == {} and tree["a2a3"]["e1c1"] == {}
    after = apply_move(CASTLE, "e1g1")
    assert after == "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 w kq - 1 1 P"
    assert legal_uci_moves(after) == sorted(f"{f}2{f}{r}" for f in "abcdefgh" for r in "34")
    assert playable_dice(CASTLE, ["e1g1"]) == [1]


def test_castling_needs_both_dice():
    d = with_dice(CASTLE, "KPP")
    with pytest.raises(NoDieError) as e:
        apply_move(d, "e1g1")
    assert "rook die" in str(e.value)
    assert "e1g1" not in legal_turn_tree(d)
    assert "e1f1" in legal_uci_moves(d)


def test_castling_counts_two_dice_not_one_move():
    # king, rook, bishop; the bishops are boxed in. Castling alone spends two dice
    # in one move, as many as a king move and a rook move: both are legal turns.
    d = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1 KRB"
    tree = legal_turn_tree(d)
    assert tree["e1g1"] == {} and tree["e1c1"] == {}
    assert "h1g1" in tree["e1f1"]
    assert all(len(p) in (1, 2) for p in paths(tree))
    assert all(len(p) == 2 for p in paths(tree) if p[0] not in ("e1g1", "e1c1"))


def test_castling_keeps_the_attack_conditions_but_there_is_no_check():
    # a black rook on f8 attacks f1: no short castling; long castling is fine;
    # the king may still step onto the attacked f1 (no check in Dice Chess)
    d = "4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1 KR-".replace("KR-", "KR")
    moves = legal_uci_moves(d)
    assert "e1g1" not in moves and "e1c1" in moves and "e1f1" in moves
    with pytest.raises(NotLegalMoveError) as e:
        apply_move(d, "e1g1")
    assert "f1 is attacked" in str(e.value)
    # out of check: a rook on e8 attacks the king, who may not castle but may stay
    d2 = "4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1 KR"
    assert not {"e1g1", "e1c1"} & set(legal_uci_moves(d2))


# ---------------------------------------------------------------- king capture


KINGHUNT = "4k3/8/8/8/8/8/PP2R3/4K3 w - - 0 1 RPP"


def test_king_capture_shortens_the_turn():
    tree = legal_turn_tree(KINGHUNT)
    assert tree["e2e8"] == {}                       # one die, ends the game
    others = [p for p in paths(tree) if "e2e8" not in p]
    assert others and all(len(p) == 3 for p in others)
    # a capture later in the turn is a leaf too
    assert tree["a2a3"]["e2e8"] == {}
    after = apply_move(KINGHUNT, "e2e8")
    assert after == "4R3/8/8/8/8/8/PP6/4K3 w - - 0 1 PP"
    assert legal_uci_moves(after) == []
    assert playable_dice(KINGHUNT, ["e2e8"]) == []
    with pytest.raises(GameOverError):
        apply_move(after, "a2a3")
    with pytest.raises(EndTurnError) as e:
        end_turn(after)
    assert e.value.kind == "game-over"
    with pytest.raises(RollError):
        roll(after.rsplit(" ", 1)[0] + " -", random.Random(1))
    assert dice.DiceGame(after).winner() == "white"


def test_a_king_may_be_left_attacked_and_be_captured():
    # White's king steps next to Black's rook; Black then takes it
    d = "4k3/8/8/8/8/8/5r2/4K3 w - - 0 1 K"
    assert "e1f2" in legal_uci_moves(d) and "e1f1" in legal_uci_moves(d)
    d = end_turn(apply_move(d, "e1f1"))
    d = with_dice(d, "R")
    assert "f2f1" in legal_uci_moves(d)
    assert legal_turn_tree(d)["f2f1"] == {}


# ---------------------------------------------------------------- same piece, promotion


def test_same_piece_moves_twice():
    d = "4k3/8/8/8/8/8/8/N3K3 w - - 0 1 NNB"
    tree = legal_turn_tree(d)
    assert set(tree) == {"a1b3", "a1c2"}
    assert set(tree["a1b3"]) == {"b3a1", "b3a5", "b3c1", "b3c5", "b3d2", "b3d4"}
    assert all(len(p) == 2 for p in paths(tree))     # the bishop die has no bishop
    assert playable_dice(d) == [2, 2]
    assert apply_move(apply_move(d, "a1b3"), "b3a1") == "4k3/8/8/8/8/8/8/N3K3 w - - 2 1 B"


def test_promotion_inside_a_turn():
    # a pawn and a queen die: promoting to a queen lets the queen die move it again
    d = "7k/P7/8/8/8/8/8/4K3 w - - 0 1 PQ"
    tree = legal_turn_tree(d)
    assert list(tree) == ["a7a8q"]
    # the new queen moves with the queen die: along the rank up to the king (taken)
    assert {"a8b8", "a8g8", "a8h8", "a8a1", "a8h1"} <= set(tree["a7a8q"])
    assert tree["a7a8q"]["a8h8"] == {}
    assert len(tree["a7a8q"]) == 7 + 7 + 7
    after = apply_move(d, "a7a8q")
    assert after == "Q6k/8/8/8/8/8/8/4K3 w - - 0 1 Q"
    # a knight die instead: only the knight promotion continues
    d2 = "7k/P7/8/8/8/8/8/4K3 w - - 0 1 PN"
    assert list(legal_turn_tree(d2)) == ["a7a8n"]
    assert set(legal_turn_tree(d2)["a7a8n"]) == {"a8b6", "a8c7"}
    with pytest.raises(MaxMicroMovesError):
        apply_move(d2, "a7a8q")


def test_promoted_queen_takes_the_king_along_the_rank():
    d = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1 PQ"
    assert legal_turn_tree(d)["a7a8q"]["a8e8"] == {}


# ---------------------------------------------------------------- en passant


def test_several_en_passant_targets():
    d = "4k3/8/8/8/2p2p2/8/3PP3/4K3 w - - 0 1 PP"
    d = apply_move(apply_move(d, "d2d4"), "e2e4")
    assert d.split()[3] == "d3e3"
    d = end_turn(d)
    assert d == "4k3/8/8/8/2pPPp2/8/8/4K3 b - d3e3 0 1 -"
    d = with_dice(d, "PP")
    tree = legal_turn_tree(d)
    assert tree["c4d3"]["f4e3"] == {} and tree["f4e3"]["c4d3"] == {}
    after = apply_move(apply_move(d, "c4d3"), "f4e3")
    assert after == "4k3/8/8/8/8/3pp3/8/4K3 b - - 0 1 -"


def test_dfen_with_several_targets_parses_in_any_order():
    d = "4k3/8/8/8/2pPPp2/8/8/4K3 b - e3d3 0 1 pp"
    pos = dice.parse_dfen(d)
    assert dice.format_dfen(pos) == "4k3/8/8/8/2pPPp2/8/8/4K3 b - d3e3 0 1 PP"
    assert {"c4d3", "f4e3"} <= set(legal_uci_moves(d))


def test_target_dropped_when_its_pawn_moves_on():
    d = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 PP"
    d1 = apply_move(d, "e2e4")
    assert d1.split()[3] == "e3"
    assert apply_move(d1, "e4e5").split()[3] == "-"


def test_no_en_passant_onto_own_target():
    d = "4k3/8/8/8/4P3/8/3P4/4K3 w - e3 0 1 P"
    assert legal_uci_moves(d) == ["d2d3", "d2d4", "e4e5"]


def test_end_turn_clears_the_opponents_targets_keeps_its_own():
    # White made e3 this turn; Black's d6 (made last turn) goes at White's end
    d = "4k3/8/8/3p4/4P3/8/8/4K3 w - d6e3 0 1 -"
    assert end_turn(d) == "4k3/8/8/3p4/4P3/8/8/4K3 b - e3 0 1 -"
    # at Black's end, White's e3 goes and the move number grows
    assert end_turn("4k3/8/8/3p4/4P3/8/8/4K3 b - e3 0 1 -") == \
        "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 2 -"


def test_target_lives_through_the_opponents_whole_turn():
    # Black has two pawn dice: a quiet pawn move first, then still en passant
    d = "4k3/7p/8/8/3p4/8/4P3/4K3 w - - 0 1 P"
    d = end_turn(apply_move(d, "e2e4"))
    d = with_dice(d, "PP")
    tree = legal_turn_tree(d)
    assert tree["h7h6"]["d4e3"] == {}


# ---------------------------------------------------------------- duplicate dice


def test_duplicate_dice():
    d = "4k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1 nnn"
    pos = dice.parse_dfen(d)
    assert pos.dice == ("N", "N", "N")
    assert playable_dice(d) == [2, 2, 2]
    d1 = apply_move(d, "b1c3")
    assert d1.split()[6] == "NN"
    assert playable_dice(d, ["b1c3"]) == [2, 2]


def test_dice_order_kept_less_the_spent_die():
    d = "4k3/8/8/8/8/8/4P3/1N2K3 w - - 0 1 PNP"
    assert apply_move(d, "e2e3").split()[6] == "NP"
    assert apply_move(d, "b1c3").split()[6] == "PP"


def test_playable_counts_the_most_one_turn_spends():
    # pawn, pawn, knight; one pawn that can move twice and a knight
    d = "4k3/8/8/8/8/8/4P3/1N2K3 w - - 0 1 PPN"
    assert playable_dice(d) == [1, 1, 2]


# ---------------------------------------------------------------- roll and end turn


def test_roll_is_seeded_and_refuses_dice_left():
    d = end_turn(with_dice(START, "QBK"))
    a = roll(d, random.Random(7))
    assert a == roll(d, random.Random(7)) == roll(d, 7)
    faces = dice.parse_dfen(a).faces
    assert len(faces) == 3 and all(1 <= f <= 6 for f in faces)
    rolls = {roll(d, random.Random(s)).split()[6] for s in range(40)}
    assert len(rolls) > 10
    with pytest.raises(RollError):
        roll(a, random.Random(1))


def test_roll_uses_the_roll_stage():
    class Fixed:
        def __init__(self):
            self.faces = iter([6, 1, 4])

        def randint(self, a, b):
            assert (a, b) == (1, 6)
            return next(self.faces)

    assert roll(START, Fixed()).split()[6] == "KPR"


def test_end_turn_refuses_moves_left():
    d = with_dice(START, "P")
    with pytest.raises(EndTurnError) as e:
        end_turn(d)
    assert e.value.kind == "moves-left"
    assert "e2e4" in str(e.value)


def test_input_untouched_and_errors_leave_nothing_changed():
    d = "8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1 NPP"
    copy = str(d)
    apply_move(d, "c2c3")
    with pytest.raises(dice.DiceMoveError):
        apply_move(d, "a1a2")
    assert d == copy
    assert legal_uci_moves(d) == ["b3a5", "b3c1", "b3c5", "b3d2", "b3d4", "c2c3", "c2c4"]


def test_refusal_kinds():
    d = "8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1 NPP"
    with pytest.raises(NoDieError) as e:
        apply_move(d, "a1b1")
    assert e.value.kind == "no-die" and "king" in e.value.reason
    with pytest.raises(NotLegalMoveError) as e:
        apply_move(d, "b3b5")
    assert e.value.kind == "illegal"
    with pytest.raises(NotLegalMoveError):
        apply_move(d, "c5c4")     # Black's king
    with pytest.raises(NotLegalMoveError):
        apply_move(d, "d4d5")     # an empty square
    from chess_rules.errors import MoveParseError
    with pytest.raises(MoveParseError):
        apply_move(d, "zz99")


def test_baseline_agrees_on_en_passant_inside_a_turn():
    # en passant with dice left after it (the python-chess enumeration must take it
    # back without losing its move stack)
    from dice.baseline import baseline_tree
    d = "4k3/8/8/8/2pPPp2/8/8/4K3 b - d3e3 0 1 PPP"
    tree = legal_turn_tree(d)
    assert tree["c4d3"]["f4e3"]
    assert baseline_tree(d) == tree


@pytest.mark.parametrize("call", [
    lambda: dice.end_turn(None),
    lambda: dice.roll(None, 1),
    lambda: dice.apply_move(None, "e2e4"),
    lambda: dice.explain_move(None, "e2e4"),
])
def test_no_position_is_a_dfen_error_not_the_start(call):
    with pytest.raises(dice.DfenError):
        call()


def test_api_arguments_of_the_wrong_kind_are_typed_errors():
    from chess_rules.errors import MoveParseError
    d = "4k3/8/8/8/8/8/8/4K3 w - - 0 1 K"
    with pytest.raises(dice.RollError, match="random source"):
        dice.roll("4k3/8/8/8/8/8/8/4K3 w - - 0 1 -", "x")
    for played in (None, [3], 7):
        with pytest.raises(MoveParseError):
            dice.playable_dice(d, played)
    assert dice.playable_dice(d, "e1e2") == dice.playable_dice(d, ["e1e2"]) == []


def test_a_reload_the_setup_refuses_leaves_the_game_as_it_was():
    # the rule set's own rule takes the game fact away in some positions: a
    # reload into one is refused, and the position before stands whole
    from chess_rules.rule_files import load_rule_text
    from chess_rules.errors import ChessError
    from dice.game import DiceGame
    from dice.rules import dice_rules
    rs = load_rule_text(dice_rules(), '''rule "house.breaker" stage result
when
  ?g <- game(fullmove: 5)
then
  retract ?g
end
''', "breaker.hr")
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PPN"
    g = DiceGame(start, rs)
    legal = g.legal_uci()
    with pytest.raises(ChessError, match="game fact"):
        g.reload("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 5 PPN")
    assert g.dfen() == start and g.legal_uci() == legal
    g.push(legal[0])
    assert g.dfen() != start
