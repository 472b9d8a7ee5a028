"""Differential tests against python-chess on positions from seeded random playouts.

At every position of every playout the two libraries must agree exactly on the
legal move set (UCI), ``is_check``, the game verdict and the FEN after the move.

Verdicts. Our ``outcome()`` judges the position on the board: checkmate,
stalemate, insufficient material, the fifty-move rule once the half-move clock
reaches 100, threefold repetition once the position has occurred three times.
python-chess's ``board.outcome(claim_draw=True)`` also grants a claim that the
*next* move would make good (a legal move that brings the clock to 100, or
that repeats a position for the third time; FIDE 9.2.1/9.3.1 let a player
claim on an intended move). So the reference verdict here is python-chess's
position predicates, in its precedence order: ``is_checkmate``,
``is_insufficient_material``, ``is_stalemate``, ``is_fifty_moves``,
``is_repetition(3)``, and we assert
* the same winner (or draw, or no result), and
* our reason is one of the reasons python-chess finds true (when two draw
  conditions hold at once, e.g. stalemate with bare kings, the two libraries
  may name different ones: ours orders stalemate before insufficient material).
And ``board.outcome(claim_draw=True)`` agrees with ours whenever no
next-move claim is involved (checked too).
"""
from __future__ import annotations

import random

import chess
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hst

from chess_rules.game import Game

REASONS = {
    chess.Termination.CHECKMATE: "checkmate",
    chess.Termination.STALEMATE: "stalemate",
    chess.Termination.INSUFFICIENT_MATERIAL: "insufficient material",
    chess.Termination.FIFTY_MOVES: "fifty-move rule",
    chess.Termination.THREEFOLD_REPETITION: "threefold repetition",
}

STARTS = [
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    # endgames near the fifty-move limit, and thin material
    "8/8/4k3/8/8/3K4/8/R7 w - - 92 80",
    "8/3k4/8/8/8/2NK4/8/7b w - - 95 70",
    "4k3/8/8/8/8/8/3B4/4K2b w - - 0 40",
    "8/8/2k5/8/8/5K2/3N4/2b5 b - - 97 90",
    "4k3/4p3/8/3P4/8/8/8/4K3 w - - 0 30",
    "7k/5Q2/8/8/8/8/8/K7 w - - 0 50",
    "k7/8/1K6/8/8/8/8/7R w - - 0 60",
]


def reference_verdict(board: chess.Board):
    """python-chess's position predicates, in its precedence: [(winner, reason)]."""
    out = []
    if board.is_checkmate():
        out.append(("white" if board.turn == chess.BLACK else "black", "checkmate"))
    if board.is_insufficient_material():
        out.append((None, "insufficient material"))
    if board.is_stalemate():
        out.append((None, "stalemate"))
    if board.is_fifty_moves():
        out.append((None, "fifty-move rule"))
    if board.is_repetition(3):
        out.append((None, "threefold repetition"))
    return out


def compare(g: Game, board: chess.Board, where: str) -> str | None:
    """Assert agreement at one position; return our verdict's reason."""
    ours = sorted(g.legal_uci())
    theirs = sorted(m.uci() for m in board.legal_moves)
    assert ours == theirs, f"{where}: moves differ: +{set(ours) - set(theirs)} -{set(theirs) - set(ours)}"
    assert g.is_check() == board.is_check(), where
    assert g.fen() == board.fen(), where
    assert str(g) == str(board), where
    assert g.is_checkmate() == board.is_checkmate(), where
    assert g.is_stalemate() == board.is_stalemate(), where
    out = g.outcome()
    ref = reference_verdict(board)
    if not ref:
        assert out is None, f"{where}: we say {out}, python-chess sees no result"
    else:
        assert out is not None, f"{where}: python-chess sees {ref}, we see no result"
        assert out.winner == ref[0][0], f"{where}: {out} vs {ref}"
        assert out.reason in {r for _, r in ref}, f"{where}: {out} vs {ref}"
        # the claim-draw outcome agrees unless only a next-move claim is involved
        pc = board.outcome(claim_draw=True)
        assert pc is not None
        if pc.termination in REASONS and REASONS[pc.termination] in {r for _, r in ref}:
            assert pc.winner == (None if out.winner is None else out.winner == "white")
    return None if out is None else out.reason


def playout(rng: random.Random, start: str, plies: int, repeat_bias: float, seen: dict):
    g = Game(start)
    board = chess.Board(start)
    positions = 0
    last = {}
    for ply in range(plies):
        reason = compare(g, board, f"{start} after {[m.uci() for m in board.move_stack]}")
        positions += 1
        if reason is not None:
            seen[reason] = seen.get(reason, 0) + 1
            break
        moves = g.legal_uci()
        # to reach repetitions, often step a piece back to where it came from
        back = last.get(g.turn)
        if back and back in moves and rng.random() < repeat_bias:
            u = back
        else:
            u = rng.choice(moves)
        last[g.turn] = u[2:4] + u[0:2]
        g.push(u)
        board.push_uci(u)
    return positions


def run_playouts(seed: int, games: int, plies: int) -> tuple[int, dict]:
    rng = random.Random(seed)
    total = 0
    seen: dict = {}
    for i in range(games):
        start = STARTS[i % len(STARTS)]
        total += playout(rng, start, plies, repeat_bias=0.5 if i % 3 == 0 else 0.0, seen=seen)
    return total, seen


def test_differential_random_playouts():
    total, seen = run_playouts(seed=2024, games=26, plies=40)
    assert total >= 300
    # the playouts do reach verdicts, or the verdict comparison proves nothing
    for reason in ("checkmate", "threefold repetition", "fifty-move rule",
                   "insufficient material"):
        assert seen.get(reason, 0) >= 1, seen


@pytest.mark.slow
def test_differential_random_playouts_many():
    total, seen = run_playouts(seed=99, games=120, plies=160)
    assert total >= 3000
    for reason in ("checkmate", "threefold repetition", "fifty-move rule",
                   "insufficient material", "stalemate"):
        assert seen.get(reason, 0) >= 1, seen


@pytest.mark.parametrize("fen,winner,reason", [
    ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 50", None, "stalemate"),
    ("7k/6Q1/6K1/8/8/8/8/8 b - - 0 50", "white", "checkmate"),
    ("8/8/4k3/8/8/3K4/8/8 w - - 0 50", None, "insufficient material"),
    ("8/8/4k3/8/8/3K4/8/R7 w - - 100 80", None, "fifty-move rule"),
    ("4k3/8/8/8/8/8/3B4/4K2b w - - 0 40", None, None),          # opposite bishops
    ("4k3/8/8/8/8/8/4B3/4K2b w - - 0 40", None, "insufficient material"),  # same shade
    ("4k3/8/8/8/8/8/2b1B3/4K3 w - - 0 40", None, "insufficient material"),  # same shade
])
def test_verdicts_on_fixed_positions(fen, winner, reason):
    g = Game(fen)
    board = chess.Board(fen)
    compare(g, board, fen)
    out = g.outcome()
    if reason is None:
        assert out is None
    else:
        assert out is not None and (out.winner, out.reason) == (winner, reason)


def test_next_move_claims_are_not_outcomes():
    """python-chess lets the side to move claim on a move that reaches 100; we do not."""
    fen = "8/8/4k3/8/8/3K4/8/R7 w - - 99 80"
    g = Game(fen)
    board = chess.Board(fen)
    assert board.outcome(claim_draw=True).termination == chess.Termination.FIFTY_MOVES
    assert g.outcome() is None
    g.push("a1a2")
    assert g.outcome().reason == "fifty-move rule"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hst.sampled_from(STARTS[:6]), hst.lists(hst.integers(min_value=0, max_value=10 ** 6),
                                              min_size=1, max_size=12))
def test_push_pop_round_trip_matches_python_chess(start, picks):
    """Any walk of legal moves, then popping it all: both libraries agree all the way."""
    g = Game(start)
    board = chess.Board(start)
    fens = [g.fen()]
    for k in picks:
        moves = g.legal_uci()
        if not moves:
            break
        u = moves[k % len(moves)]
        g.push(u)
        board.push_uci(u)
        assert g.fen() == board.fen()
        assert sorted(g.legal_uci()) == sorted(m.uci() for m in board.legal_moves)
        fens.append(g.fen())
    while g.move_stack:
        fens.pop()
        g.pop()
        board.pop()
        assert g.fen() == fens[-1] == board.fen()
        assert sorted(g.legal_uci()) == sorted(m.uci() for m in board.legal_moves)


def test_repetition_ignores_an_en_passant_target_that_cannot_be_taken_legally():
    """After ...d7d5 the e5 pawn is pinned (it may not take en passant), so the position
    is the same as when it comes back later: three occurrences, as python-chess counts."""
    fen = "4r1k1/3p4/8/4P3/8/8/8/4K1N1 b - - 0 1"
    moves = ["d7d5", "g1f3", "g8h8", "f3g1", "h8g8", "g1f3", "g8h8", "f3g1", "h8g8"]
    g = Game(fen)
    board = chess.Board(fen)
    for u in moves:
        g.push(u)
        board.push_uci(u)
        compare(g, board, u)
    assert board.is_repetition(3)
    assert g.repetitions() == 3 and g.outcome().reason == "threefold repetition"
