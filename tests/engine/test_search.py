"""The search and evaluation: moves the rules allow, the rules' own ends found,
limits kept, and the game left as it was."""
import random
import threading

import chess
import pytest

import presets
from chess_rules.game import Game
from houserules.engine import (LevelError, Limits, Searcher, choose_move, get_level,
                               position_key)
from houserules.engine.evaluate import Evaluator
from houserules.engine.search import MATE_BOUND


def test_finds_a_back_rank_mate_and_scores_it_as_mate():
    g = Game("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    r = Searcher(g).search(Limits(depth=2))
    assert r.move.uci() == "a1a8"
    assert r.score >= MATE_BOUND


def test_avoids_being_mated_in_one():
    # Black to move: only ...h6/g6/f6/h5 etc. or Kf8 leave no Ra8 mate; the
    # rook check must be met, and any move that does not lose at once scores
    # above a mate against
    g = Game("6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1")
    r = Searcher(g).search(Limits(depth=3))
    g.push(r.move)
    assert not any(_mates(g, m) for m in g.legal_uci())


def _mates(g, u):
    """Whether ``u`` wins the game at once for the side playing it."""
    side = g.turn
    g.push(u)
    try:
        out = g.outcome()
        return out is not None and out.winner == side
    finally:
        g.pop()


def test_wins_material_a_capture_away():
    g = Game("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1")
    assert Searcher(g).search(Limits(depth=2)).move.uci() == "d1d5"


def test_search_leaves_the_game_as_it_found_it():
    g = Game("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
    g.push("e1g1")
    before = (g.fen(), [m.uci() for m in g.move_stack])
    Searcher(g).search(Limits(depth=2, nodes=300))
    assert (g.fen(), [m.uci() for m in g.move_stack]) == before


def test_a_stop_set_before_the_search_still_gives_a_legal_move():
    g = Game()
    stop = threading.Event()
    stop.set()
    r = Searcher(g).search(Limits(stop=stop))
    assert r.move.uci() in g.legal_uci()
    assert g.fen() == Game().fen()


def test_node_limit_is_kept():
    g = Game()
    r = Searcher(g).search(Limits(nodes=150))
    # checked every node: at most the limit
    assert r.nodes <= 150
    assert r.move.uci() in g.legal_uci()


def test_a_finished_game_is_refused():
    g = Game("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    g.push("a1a8")
    with pytest.raises(ValueError, match="over"):
        Searcher(g).search(Limits(depth=1))


def test_levels_are_checked():
    for bad in (0, 11, "5", 2.0, True):
        with pytest.raises(LevelError):
            get_level(bad)
    assert [get_level(i).level for i in range(1, 11)] == list(range(1, 11))


def test_each_level_searches_more_than_the_one_below():
    # A level is stronger than the one below only by a limit that matters:
    # less noise, or (noise gone) a deeper search or a bigger node budget.
    big = 10**9
    for i in range(2, 11):
        lo, hi = get_level(i - 1), get_level(i)
        assert hi.depth >= lo.depth and hi.noise <= lo.noise
        assert (hi.nodes or big) >= (lo.nodes or big) or hi.depth > lo.depth
        stronger = (hi.noise < lo.noise or hi.depth > lo.depth
                    or (hi.nodes or big) > (lo.nodes or big))
        assert stronger, f"level {i} searches no more than level {i - 1}"
        assert hi.noise == 0 or i <= 2, "noise belongs to the lowest levels only"


def test_a_seeded_low_level_repeats_its_choice():
    g = Game()
    a = choose_move(g, 1, random.Random(7))
    b = choose_move(g, 1, random.Random(7))
    assert a == b and a.uci() in g.legal_uci()


def test_position_key_sees_hit_points():
    g1 = Game("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 hp:e2=1", presets=["piece-hp"])
    g2 = Game("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", presets=["piece-hp"])
    assert g1.fen() != g2.fen()
    assert position_key(g1) != position_key(g2)
    # the move number is no part of the position
    g3 = Game("4k3/8/8/8/8/8/4P3/4K3 w - - 0 7", presets=["piece-hp"])
    assert position_key(g3) == position_key(g2)


def test_evaluation_follows_preset_hooks():
    knightmate = Evaluator(presets.load("knightmate-rules"))
    assert knightmate.piece_value("knight", "white") == 0       # royal
    assert knightmate.piece_value("king", "white") == 600       # the preset's value
    fide = Evaluator(presets.load())
    assert fide.piece_value("king", "white") == 0
    # suicide-chess: a side a queen down stands better
    fen = "4k3/8/8/8/8/8/8/Q3K3 w - - 0 1"
    assert Evaluator(presets.load("suicide-chess"))(Game(fen, presets=["suicide-chess"])) < 0
    assert fide(Game(fen)) > 0
    # extinction-chess: the last target piece is guarded above its value
    ext = presets.load("extinction-chess", config={"extinction-chess": {"target_type": "knight"}})
    ev = Evaluator(ext)
    assert ev.target == "knight"
    one_knight = Game("4k3/8/8/8/8/8/8/1N1QK1n1 w - - 0 1", ruleset=ext)
    no_queen = Game("4k3/8/8/8/8/8/8/1N2K1n1 w - - 0 1", ruleset=ext)
    assert ev(one_knight) - ev(no_queen) == 900 + _placement(ev, "queen", 3)


def _placement(ev, t, sq):
    return ev._worth(t, "white", sq) - ev.piece_value(t, "white")


@pytest.mark.parametrize("ids", [["capture-to-win"], ["double-move"], ["piece-hp"],
                                 ["suicide-chess"], ["knightmate-rules"], ["extinction-chess"]])
def test_plays_legal_moves_under_presets(ids):
    from presets.layouts import preferred_layout
    g = Game(preferred_layout(ids).fen, presets=ids)
    rng = random.Random(3)
    for _ in range(6):
        if g.outcome() is not None:
            break
        m = choose_move(g, 3, rng)
        assert m.uci() in g.legal_uci()
        g.push(m)


def test_capture_to_win_takes_the_first_capture():
    g = Game("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", presets=["capture-to-win"])
    r = Searcher(g).search(Limits(depth=1))
    assert r.move.uci() == "e1d2" and r.score >= MATE_BOUND


def test_double_move_mates_across_the_two_half_moves_of_a_turn():
    # no mate in one (Rh8+ Ka7), but White plays two half-moves a turn: Kb6
    # then Rh8 mates; the search must not negate between a side's own half-moves
    g = Game("k7/8/2K5/8/8/8/8/7R w - - 0 1", presets=["double-move"])
    assert not any(_mates(g, u) for u in g.legal_uci())
    r = Searcher(g).search(Limits(depth=2))
    assert r.score >= MATE_BOUND
    g.push(r.move)
    assert g.turn == "white"


def test_fide_choices_are_legal_for_python_chess():
    g, board = Game(), chess.Board()
    rng = random.Random(5)
    for _ in range(8):
        m = choose_move(g, 2, rng)
        assert chess.Move.from_uci(m.uci()) in board.legal_moves
        g.push(m)
        board.push_uci(m.uci())
        reply = rng.choice(list(board.legal_moves))
        g.push(reply.uci())
        board.push(reply)


def test_a_rule_files_win_condition_is_searched():
    # King of the Hill, a rule file of the user's: the king's step to the
    # centre wins, and the search finds it from the rule's own result
    from pathlib import Path

    from chess_rules.rule_files import load_rule_file
    from chess_rules.fide import fide_rules
    hill = Path(__file__).resolve().parents[2] / "examples" / "rules" / "king_of_the_hill.hr"
    rs = load_rule_file(fide_rules(), hill)
    g = Game("7k/8/8/8/8/2K5/8/8 w - - 0 1", ruleset=rs)
    r = Searcher(g).search(Limits(depth=1))
    assert r.move.uci() == "c3d4" and r.score >= MATE_BOUND
