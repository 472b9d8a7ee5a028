"""The Game API: push/pop, refusals that leave the game unchanged, SAN/PGN, outcomes."""
from __future__ import annotations

import chess
import chess.pgn
import io
import pytest

from chess_rules.errors import ArgumentError, ChessError, IllegalMoveError, MoveParseError
from chess_rules.fen import STARTING_FEN
from chess_rules.game import Game

FRIED_LIVER = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "f3g5", "d7d5", "e4d5",
               "f6d5", "g5f7", "e8f7", "d1f3", "f7e6", "b1c3", "c6b4"]


def snapshot(g: Game):
    return (g.fen(), g.fen(en_passant="all"), g.legal_uci(), g.is_check(), len(g.move_stack),
            g.repetitions(), g.outcome())


@pytest.mark.parametrize("fen,move,rule,why", [
    (STARTING_FEN, "e2e5", None, "no rule moves the pawn"),
    (STARTING_FEN, "e7e5", None, "black's"),
    (STARTING_FEN, "d4d5", None, "no piece on d4"),
    (STARTING_FEN, "b1d2", None, "own pawn"),
    ("r3k2r/8/8/8/8/5r2/8/R3K2R w KQkq - 0 1", "e1g1", "fide.castling", "f1 is attacked"),
    ("4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1", "e2d3", "fide.check-resolution", "rook on e7"),
    ("7k/6Q1/6K1/8/8/8/8/8 b - - 0 50", "h8g8", "fide.check-resolution", "queen on g7"),
])
def test_push_refuses_illegal_move_and_leaves_game_unchanged(fen, move, rule, why):
    g = Game(fen)
    before = snapshot(g)
    with pytest.raises(IllegalMoveError) as ei:
        g.push(move)
    assert ei.value.rule == rule
    assert why in ei.value.reason
    assert move in str(ei.value)
    assert snapshot(g) == before


@pytest.mark.parametrize("text", ["e2", "e2e9", "zz", "e7e8x", ""])
def test_push_refuses_malformed_text(text):
    g = Game()
    before = snapshot(g)
    with pytest.raises(MoveParseError):
        g.push(text)
    assert snapshot(g) == before


def test_refused_move_after_some_play_leaves_stack_and_history():
    g = Game()
    for u in FRIED_LIVER[:6]:
        g.push(u)
    before = snapshot(g)
    stack = [m.uci() for m in g.move_stack]
    with pytest.raises(IllegalMoveError):
        g.push("e1c1")        # b1, c1 and d1 are still occupied
    assert snapshot(g) == before and [m.uci() for m in g.move_stack] == stack


def test_push_pop_restores_everything():
    g = Game()
    states = [snapshot(g)]
    for u in FRIED_LIVER:
        g.push(u)
        states.append(snapshot(g))
    assert g.fen() == "r1bq1b1r/ppp3pp/4k3/3np3/1nB5/2N2Q2/PPPP1PPP/R1B1K2R w KQ - 4 9"
    while g.move_stack:
        states.pop()
        last = g.move_stack[-1]
        assert g.pop() == last
        assert snapshot(g) == states[-1]
    assert g.fen() == STARTING_FEN
    with pytest.raises(ChessError):
        g.pop()


def test_push_returns_move_with_generating_rule():
    g = Game()
    m = g.push("e2e4")
    assert m.uci() == "e2e4" and m.rule == "fide.pawn-double-push" and m.kind == "double-push"
    assert g.push("g8f6").rule == "fide.knight-move"


def test_special_moves_castling_en_passant_promotion():
    g = Game("r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1")
    g.push("e5d6")                                   # en passant
    assert g.piece_at("d5") is None and g.piece_at("d6").values["type"] == "pawn"
    g.push("e8g8")                                   # black castles short (c8 is attacked)
    assert g.piece_at("f8").values["type"] == "rook" and g.castling_rights() == "KQ"
    g.push("b7a8n")                                  # capture and underpromotion
    assert g.piece_at("a8").values["type"] == "knight"
    board = chess.Board("r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1")
    for u in ("e5d6", "e8g8", "b7a8n"):
        board.push_uci(u)
    assert g.fen() == board.fen()
    for _ in range(3):
        g.pop()
    assert g.fen() == "r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1"


def test_san_and_parse_san():
    g = Game()
    sans = []
    for u in FRIED_LIVER:
        sans.append(g.san(u))
        g.push(u)
    ref = chess.Board()
    expect = []
    for u in FRIED_LIVER:
        m = chess.Move.from_uci(u)
        expect.append(ref.san(m))
        ref.push(m)
    assert sans == expect
    g2 = Game()
    for s in sans:
        g2.push_san(s)
    assert g2.fen() == g.fen()
    with pytest.raises(ChessError):
        Game().push_san("Nd4")


def test_pgn_round_trips_through_python_chess():
    g = Game()
    for u in FRIED_LIVER:
        g.push(u)
    text = g.pgn({"Event": "test"})
    assert '[Event "test"]' in text and '[Result "*"]' in text
    game = chess.pgn.read_game(io.StringIO(text))
    assert [m.uci() for m in game.mainline_moves()] == FRIED_LIVER
    # from a FEN, ending in mate: SetUp/FEN tags and the result
    fen = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2"
    g = Game(fen)
    g.push_san("Qh4#")
    text = g.pgn()
    assert '[FEN "' + fen + '"]' in text and "2... Qh4# 0-1" in text
    game = chess.pgn.read_game(io.StringIO(text))
    assert game.end().board().is_checkmate()


@pytest.mark.parametrize("fen,moves,winner,reason,rule", [
    ("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", ["d8h4"],
     "black", "checkmate", "fide.checkmate-win"),
    ("7k/8/6QK/8/8/8/8/8 w - - 0 50", ["g6f7"], None, "stalemate", "fide.stalemate-draw"),
    ("8/8/4k3/8/8/3K4/3r4/8 w - - 0 50", ["d3d2"], None, "insufficient material",
     "fide.insufficient-material"),
    ("8/8/4k3/8/8/3K4/8/R7 w - - 99 80", ["a1a2"], None, "fifty-move rule", "fide.fifty-move"),
    (STARTING_FEN, ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"], None,
     "threefold repetition", "fide.threefold-repetition"),
])
def test_outcome_kinds(fen, moves, winner, reason, rule):
    g = Game(fen)
    assert g.outcome() is None
    for u in moves[:-1]:
        g.push(u)
        assert g.outcome() is None, u
    g.push(moves[-1])
    out = g.outcome()
    assert (out.winner, out.reason, out.rule) == (winner, reason, rule)
    assert g.is_game_over()
    assert out.result() == {"white": "1-0", "black": "0-1", None: "1/2-1/2"}[winner]
    g.pop()
    assert g.outcome() is None


def test_checkmate_leaves_no_legal_moves_and_refuses_pushes():
    g = Game("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2")
    g.push("d8h4")
    assert g.is_check() and g.legal_moves() == []
    with pytest.raises(IllegalMoveError):
        g.push("e1f2")


def test_repetition_counts_follow_push_and_pop():
    g = Game()
    for u in ["g1f3", "g8f6", "f3g1", "f6g8"]:
        g.push(u)
    assert g.repetitions() == 2
    g.pop()
    assert g.repetitions() == 1


def test_legal_moves_sorted_and_fen_accessors():
    g = Game("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    u = g.legal_uci()
    assert u == sorted(u) and len(u) == 48
    assert g.turn == "white" and g.castling_rights() == "KQkq"
    assert g.piece_at("e1").values["type"] == "king"


def test_castling_rights_go_with_a_captured_non_royal_king():
    """fide.castling-rights-king-gone: with kings not royal, taking one ends its rights
    (and pop brings them back)."""
    from chess_rules.fide import fide_rules
    rs = fide_rules()
    rs.royal_types = {"white": (), "black": ()}
    rs.remove("fide.king-capture-illegal")
    fen = "r3k2r/8/8/8/8/8/4Q3/R3K2R w KQkq - 0 1"
    g = Game(fen, ruleset=rs)
    g.push("e2e8")
    assert g.castling_rights() == "KQ"
    g.pop()
    assert g.fen() == fen
    g.push("e2e3")
    assert g.castling_rights() == "KQkq"


def test_is_legal_takes_text_or_moves_and_never_raises():
    g = Game()
    assert g.is_legal("e2e4") and g.is_legal(" g1f3 ") and g.is_legal(g.legal_moves()[0])
    assert not g.is_legal("e2e5") and not g.is_legal("e7e5") and not g.is_legal("e2")
    assert not g.is_legal(None)
    promo = Game("8/4P3/8/8/8/8/8/k6K w - - 0 1")
    assert promo.is_legal("e7e8Q") and promo.is_legal("e7e8n") and not promo.is_legal("e7e8")


def test_copy_is_independent_and_keeps_the_history():
    g = Game(presets=["piece-hp"])
    for u in ["e2e4", "e7e5", "g1f3", "b8c6", "f3g1", "c6b8"]:
        g.push(u)
    c = g.copy()
    assert c.fen() == g.fen() and [m.uci() for m in c.move_stack] == [m.uci() for m in g.move_stack]
    assert c.repetitions() == g.repetitions() == 2
    assert c.rules() == g.rules() and c.pgn() == g.pgn()
    c.push("g1f3")
    c.pop()
    c.pop()
    assert len(g.move_stack) == 6 and g.fen() != c.fen()


def test_str_and_repr():
    g = Game("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", presets=["piece-hp"])
    assert str(g).splitlines()[0] == ". . . . k . . ." and str(g).splitlines()[-1] == ". . . . K . . ."
    assert repr(g) == f"Game({g.fen()!r}, presets=['piece-hp'])"
    assert repr(Game()) == f"Game({STARTING_FEN!r})"


@pytest.mark.parametrize("fen,mate,stale", [
    ("7k/6Q1/6K1/8/8/8/8/8 b - - 0 50", True, False),
    ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 50", False, True),
    (STARTING_FEN, False, False),
    ("7k/8/8/8/8/8/8/K7 w - - 0 1", False, False),      # a draw, but neither
])
def test_checkmate_and_stalemate_predicates(fen, mate, stale):
    g = Game(fen)
    assert (g.is_checkmate(), g.is_stalemate()) == (mate, stale)


def test_a_move_object_off_the_board_is_a_typed_error():
    from chess_rules.moves import Move
    g = Game()
    bad = Move(99, 36, None, "pawn", "normal", None, "x")
    with pytest.raises(MoveParseError):
        g.push(bad)
    assert not g.is_legal(bad)
    ex = g.explain(bad)
    assert not ex.legal and "not on the board" in ex.reason
    assert g.fen() == STARTING_FEN

def test_presets_and_a_ruleset_are_not_given_together():
    from presets import load
    from presets.base import PresetConfigError
    with pytest.raises(ChessError, match="not both"):
        Game(ruleset=load("piece-hp"), presets=["king-heals"])
    with pytest.raises(PresetConfigError, match="not loaded"):
        Game(config={"berolina-pawns": {"scope": "white"}})
    assert Game(presets="piece-hp").ruleset.presets == ["piece-hp"]     # one id


@pytest.mark.parametrize("square", [-1, 64, "z9", True, None, "E2"])
def test_piece_at_refuses_what_is_no_square(square):
    with pytest.raises(ArgumentError):       # a ChessError, and a ValueError
        Game().piece_at(square)


@pytest.mark.parametrize("call", [
    lambda: Game().fen(en_passant="fen"),
    lambda: Game().perft("2"),
    lambda: Game().pgn({"Bad Tag": "x"}),
    lambda: Game(ruleset="x"),
    lambda: Game(ruleset=_with_config({"max-firings": None})),
    lambda: Game().perft_divide("2"),
    lambda: Game().perft_divide(0),
])
def test_bad_arguments_are_chess_errors(call):
    # (found by a stateful hunt: they were plain ValueError, TypeError, AttributeError)
    with pytest.raises(ArgumentError):
        call()


def _with_config(cfg):
    from chess_rules.fide import fide_rules
    rs = fide_rules()
    rs.config.update(cfg)
    return rs


def test_the_legal_moves_a_caller_gets_are_its_own():
    g = Game()
    g.legal_moves().clear()                  # used to empty the game's own list
    assert len(g.legal_moves()) == 20 and g.outcome() is None
    g.push("h2h4")


def test_a_shallow_copy_is_a_game_of_its_own():
    import copy
    g = Game()
    g.legal_moves()
    c = copy.copy(g)
    c.push("e2e4")
    assert g.fen() == STARTING_FEN and g.move_stack == []
    g.push("d2d4")
    assert g.fen().startswith("rnbqkbnr/pppppppp/8/8/3P4/")


def test_pgn_never_writes_a_callers_setup_or_fen_tag():
    g = Game()
    g.push("e2e4")
    text = g.pgn({"SetUp": "1", "FEN": "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "Event": "x"})
    assert "SetUp" not in text and "FEN" not in text and '[Event "x"]' in text
    game = chess.pgn.read_game(io.StringIO(text))
    assert not game.errors and game.end().board().fen() == g.fen()


def test_a_move_off_the_board_prints_and_is_refused():
    from chess_rules.moves import Move
    assert repr(Move(0, 64)).startswith("Move(0, 64")
    for m in (Move(0, 64), Move(-52, -36)):          # (negative squares used to wrap)
        with pytest.raises(MoveParseError, match="not on the board"):
            Game().push(m)


def test_a_games_copy_keeps_its_firing_cap():
    g = Game()
    g.max_firings = 50
    assert g.copy().max_firings == 50


def test_a_game_keeps_its_own_copy_of_the_rule_set():
    # editing the rule set after the game was made changes nothing the game does
    # or says: the compiled rules, rules(), pgn() and copy() agree
    from chess_rules.fide import fide_rules
    rs = fide_rules()
    g = Game(ruleset=rs)
    g.push("e2e4")
    rs.remove("fide.pawn-double-push")
    assert "d7d5" in g.legal_uci()
    assert g.explain("d7d5").rule == "fide.pawn-double-push"
    assert "fide.pawn-double-push" in {r["name"] for r in g.rules()}
    assert g.copy().fen() == g.fen() and "1. e4" in g.pgn()
    assert "e2e4" not in Game(ruleset=rs).legal_uci()     # a new game has the edit
