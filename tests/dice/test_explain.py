"""explain_move: the production behind a legal micro-move, or the rule that refuses
one and the reason apply_move gives (the API and the refusal must agree)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hst

from chess_rules.errors import MoveParseError
from chess_rules.squares import SQUARE_NAMES
from dice import (DiceMoveError, MaxMicroMovesError, apply_move, explain_move,
                  legal_uci_moves, playable_dice)

from .test_properties import random_rolled_position

EXAMPLE = "8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1 NPP"
BLOCKED = "7k/8/8/4p3/8/8/4P3/K7 w - - 0 1 PP"     # e2e4 leaves the second pawn die unused


def test_legal_micro_moves_name_their_production_and_dice():
    ex = explain_move(EXAMPLE, "c2c3")
    assert ex.legal and ex.rule == "fide.pawn-single-push"
    assert ex.reason == "spends the pawn die; then [1, 2]" == \
        f"spends the pawn die; then {playable_dice(EXAMPLE, ['c2c3'])}"
    ex = explain_move(EXAMPLE, "b3c5")          # takes the king: nothing follows
    assert ex.legal and ex.reason == "spends the knight die; the turn is complete"
    castle = explain_move("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 KRP", "e1g1")
    assert castle.legal and castle.rule == "fide.castling"
    assert castle.reason.startswith("spends the king and the rook die")


def test_refusals_are_those_of_apply_move():
    ex = explain_move(BLOCKED, "e2e4")
    assert not ex.legal and ex.rule == "dice.maximum-micro-moves"
    with pytest.raises(MaxMicroMovesError) as ei:
        apply_move(BLOCKED, "e2e4")
    assert ex.reason == ei.value.reason
    ex = explain_move(EXAMPLE, "c2c5")
    assert not ex.legal and ex.rule is None and "no rule moves the pawn on c2 to c5" in ex.reason
    over = apply_move(apply_move(EXAMPLE, "c2c4"), "b3c5")
    assert explain_move(over, "a1b1").reason == "the game is over (white captured the king)"


def test_text_that_is_not_uci_is_an_error():
    with pytest.raises(MoveParseError):
        explain_move(EXAMPLE, "c2")
    with pytest.raises(MoveParseError):
        explain_move(EXAMPLE, 42)


@settings(max_examples=15, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=hst.integers(0, 10**6), turns=hst.integers(0, 20))
def test_explain_agrees_with_legal_moves_and_apply_move(seed, turns):
    """On random rolled positions: every legal first micro-move and random square
    pairs are explained as legal exactly when listed, and a refusal names the rule
    and the reason ``apply_move`` raises with."""
    dfen = random_rolled_position(seed, turns)
    rnd = random.Random(seed)
    legal = set(legal_uci_moves(dfen))
    probes = sorted(legal)[:4] + [SQUARE_NAMES[rnd.randrange(64)] + SQUARE_NAMES[rnd.randrange(64)]
                                  for _ in range(4)]
    for u in probes:
        if u[:2] == u[2:]:
            continue
        ex = explain_move(dfen, u)
        assert ex.legal == (u in legal)
        if ex.legal:
            assert ex.rule is not None and ex.generated_by
            apply_move(dfen, u)
        else:
            with pytest.raises(DiceMoveError) as ei:
                apply_move(dfen, u)
            assert ei.value.rule == ex.rule
            assert ex.reason in ei.value.reason


def test_a_promotion_without_its_piece_says_so_in_dice_chess():
    # the pawn die promotes, and the knight die can then move the new knight:
    # a7a8n is the one legal first micro-move, a7a8 names no piece
    dfen = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1 PPN"
    assert legal_uci_moves(dfen) == ["a7a8n"]
    ex = explain_move(dfen, "a7a8")
    assert not ex.legal and ex.rule == "fide.pawn-single-push"
    assert "must promote: name the piece" in ex.reason
    with pytest.raises(DiceMoveError, match="must promote"):
        apply_move(dfen, "a7a8")


def test_a_promotion_without_its_piece_offers_only_the_promotions_a_turn_can_begin_with():
    # four promotions are micro-moves, but only a7a8n keeps to the Maximum
    # Micro-moves Rule (the knight die then moves the new knight)
    dfen = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1 PPN"
    ex = explain_move(dfen, "a7a8")
    assert ex.reason.endswith("name the piece (a7a8n)")
    ex = explain_move(dfen, "a7a8k")
    assert ex.rule == "fide.pawn-single-push"
    assert ex.reason == "a pawn may not promote to a king here (a7a8n)"
    # a named promotion that breaks the rule is refused by the rule, as before
    assert explain_move(dfen, "a7a8q").rule == "dice.maximum-micro-moves"


def test_a_promotion_none_of_whose_pieces_begins_a_legal_turn_says_so():
    # the bishop on b7 can only go to a8; a promotion there shuts it in (a new
    # bishop on a8 too), so every promotion spends one die where h2h3 + b7a8 spend two
    dfen = "2N4k/PB6/N1N5/8/8/8/7P/4K3 w - - 0 1 PB"
    assert legal_uci_moves(dfen) == ["b7a8", "h2h3", "h2h4"]
    ex = explain_move(dfen, "a7a8")
    assert not ex.legal and ex.rule == "fide.pawn-single-push"
    assert "(a7a8b, a7a8n, a7a8q, a7a8r), but no turn starting with any of them keeps " \
           "to the Maximum Micro-moves Rule (legal: b7a8, h2h3, h2h4)" in ex.reason
    with pytest.raises(DiceMoveError, match="Maximum Micro-moves Rule") as ei:
        apply_move(dfen, "a7a8")
    assert ei.value.rule == "fide.pawn-single-push"


def test_a_promotion_a_rule_drops_keeps_that_rules_reason_in_dice_chess():
    # as in chess: the filter rule refused it, in its own words (it used to get
    # the generic "a pawn may not promote to a queen here")
    from chess_rules.rule_files import load_rule_file
    from chess_rules.fide import fide_rules
    rs = load_rule_file(fide_rules(), Path(__file__).resolve().parents[2]
                        / "examples" / "rules" / "no_queen_promotion.hr")
    ex = explain_move("r3k2r/pPp5/8/8/8/8/8/R3K2R w KQkq - 0 1 KRP", "b7a8q", ruleset=rs)
    assert (ex.legal, ex.rule, ex.reason) == (
        False, "custom.no-queen-promotion", "pawns never promote to queens here")


@pytest.mark.parametrize("dfen,move,reason", [
    # a king die, no rook die: the king's two-square step from e4 is no castling
    ("4k3/8/8/8/4K3/8/8/8 w - - 0 1 K", "e4g4",
     "no rule moves the king on e4 to g4 (rules for the king: fide.king-move)"),
    # no king die either, but a king die would not make it a micro-move
    ("4k3/8/8/8/4K3/8/8/8 w - - 0 1 P", "e4g4",
     "no rule moves the king on e4 to g4 (rules for the king: fide.king-move)"),
    # on the castling squares castling's two dice stay the reason
    ("4k3/8/8/8/8/8/8/4K2R w K - 0 1 K", "e1g1",
     "castling needs a king die and a rook die (dice left: king)"),
])
def test_a_kings_two_square_step_is_castling_only_on_the_castling_squares(dfen, move, reason):
    ex = explain_move(dfen, move)
    assert not ex.legal and ex.reason == reason


@pytest.mark.parametrize("dfen,move,rule,reason", [
    # no knight die, and no knight move lands on its own rook either
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 RRP", "b1a1",
     None, "a1 holds white's own rook"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 RRP", "d1d3",
     None, "the queen on d1 cannot pass the pawn on d2 on its way to d3"),
    # castling dice missing, and castling through an attacked square besides
    ("4kr2/8/8/8/8/8/8/4K2R w K - 0 1 P", "e1g1", "fide.castling", "f1 is attacked"),
    ("4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1 N", "e2e4", "fide.pawn-double-push", "e3 is occupied"),
])
def test_a_move_the_missing_die_would_not_free_gets_its_own_reason(dfen, move, rule, reason):
    # dice.die-filter is named only when the die would make the move a
    # micro-move (it used to be named for any move of a piece without a die)
    ex = explain_move(dfen, move)
    assert (ex.legal, ex.rule) == (False, rule) and reason in ex.reason
    with pytest.raises(DiceMoveError) as ei:
        apply_move(dfen, move)
    assert type(ei.value).__name__ == "NotLegalMoveError" and ei.value.rule == rule


@pytest.mark.parametrize("dfen,move,reason", [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 RRP", "b1c3",
     "no knight die for the knight on b1 (dice left: pawn, rook, rook)"),
    ("4k3/8/8/8/8/8/8/4K2R w K - 0 1 K", "e1g1",
     "castling needs a king die and a rook die (dice left: king)"),
    # a promotion's squares: the pawn die would make a promotion on them a micro-move
    ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1 N", "a7a8",
     "no pawn die for the pawn on a7 (dice left: knight)"),
    ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1 N", "a7a8k",
     "no pawn die for the pawn on a7 (dice left: knight)"),
])
def test_a_move_the_missing_die_would_free_is_refused_by_the_die_filter(dfen, move, reason):
    from dice import NoDieError
    ex = explain_move(dfen, move)
    assert (ex.legal, ex.rule, ex.reason) == (False, "dice.die-filter", reason)
    with pytest.raises(NoDieError):
        apply_move(dfen, move)


def test_a_move_a_later_filter_would_drop_is_refused_by_the_die_filter_first():
    # suicide chess: with a pawn die b2b4 would be dropped by the compulsory
    # capture, but that filter runs after dice.die-filter, which drops it first
    from presets import load
    dfen = "rnbq1bn1/ppppkppr/8/7p/2N2p2/3P2PN/PPP1PP1P/1RBK1B1R w - - 1 4 KNR"
    rs = load("suicide-chess")
    ex = explain_move(dfen, "b2b4", rs)
    assert (ex.rule, ex.reason) == (
        "dice.die-filter", "no pawn die for the pawn on b2 (dice left: knight, rook, king)")
    # a move whose die is there is the compulsory capture's to refuse
    assert explain_move(dfen, "d1d2", rs).rule == "suicide-chess.compulsory-capture"


def test_a_move_a_filter_refuses_keeps_the_production_that_generated_it():
    # suicide chess: the knight's move is generated, then dropped because a capture
    # is compulsory; explain_move says so as Game.explain does under the preset
    from chess_rules.game import Game
    from dice import DiceGame, dice_rules
    from presets import load
    dfen = "4k3/8/8/3p4/4P3/8/8/1N6 w - - 0 1 PN"
    rs = dice_rules(load("suicide-chess"))
    chess = Game(dfen.rsplit(" ", 1)[0], load("suicide-chess")).explain("b1c3")
    for ex in (explain_move(dfen, "b1c3", rs), DiceGame(dfen, rs).explain("b1c3")):
        assert ex.rule == chess.rule == "suicide-chess.compulsory-capture"
        assert ex.generated_by == chess.generated_by == ["fide.knight-move"]


@pytest.mark.parametrize("dfen, move, mover", [
    ("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1 P", "b1c3", "fide.knight-move"),
    ("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1 KP", "e1g1", "fide.castling"),
])
def test_a_move_without_its_die_names_its_mover_with_or_without_the_gates(dfen, move, mover):
    # the gated movers do not run without their die; the ungated ones generate
    # the move and dice.die-filter drops it: both name the mover
    from dice import dice_rules
    for rs in (None, dice_rules(gate=False)):
        ex = explain_move(dfen, move, rs)
        assert ex.rule == "dice.die-filter" and ex.generated_by == [mover]


def test_a_micro_move_the_maximum_micro_moves_rule_refuses_names_its_mover():
    ex = explain_move(BLOCKED, "e2e4")
    assert ex.rule == "dice.maximum-micro-moves"
    assert ex.generated_by == ["fide.pawn-double-push"]


@pytest.mark.parametrize("dfen, move, square", [
    ("4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1 KRP", "e1g1", "e1"),      # the king's own square
    ("4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1 KRP", "e1g1", "f1"),      # a square it passes
    ("r3k2r/8/8/8/8/8/8/4R2K b kq - 0 1 KRP", "e8c8", "e8"),
])
def test_castling_from_or_through_an_attacked_square_names_the_square(dfen, move, square):
    # Dice Chess has no check: the king's square is attacked, as the others are
    ex = explain_move(dfen, move)
    assert ex.rule == "fide.castling" and ex.reason == f"{square} is attacked"
    with pytest.raises(DiceMoveError, match=f"{square} is attacked"):
        apply_move(dfen, move)


def test_a_pawn_slanting_onto_its_own_sides_target_is_told_whose_target_it_is():
    after = apply_move("4k3/8/8/8/8/8/3PP3/4K3 w - - 0 1 PPN", "e2e4")
    assert after.split()[3] == "e3"
    ex = explain_move(after, "d2e3")
    assert ex.rule == "fide.pawn-capture"
    assert ex.reason == ("a pawn moves diagonally only to capture, and e3 is empty: the "
                         "en-passant target there is white's own (made by its pawn on e4), "
                         "and a pawn captures en passant only onto the opponent's targets")
    # an empty square that is no target keeps the plain reason
    assert explain_move(after, "d2c3").reason == \
        "a pawn moves diagonally only to capture, and c3 is empty"
