"""Random-playout games for the royalty and objective v2 presets.

Each game starts from the preset's preferred layout, plays seeded random legal
moves until the game is over or a move cap, and checks the preset's own
invariants at every step (the generic checks for every preset live in
test_playouts.py):

* every game runs without an exception; a position with no legal move has an
  outcome; turns alternate;
* royalty where it applies (knightmate-rules, coregal, dual-king,
  extinction-chess, first-promotion-wins): the royal set is the preset's, and
  no royal piece of the side that has just moved stands attacked;
* weak-dual-king: a side keeps a king while the game goes on; a side to move
  with every king attacked and legal moves has a move that leaves one safe;
* suicide-chess: when a capture is legal only captures are; never castling;
  no legal move means the side to move has won;
* capture-all: never a check; the game ends exactly when a side has no piece;
* extinction-chess: while the game goes on each side has a target piece;
* first-promotion-wins: the game ends exactly at the first promotion, won by
  its side.
"""
from __future__ import annotations

import random

import pytest

from chess_rules.game import Game
from chess_rules.squares import opposite
from presets.layouts import get_layout
from presets.registry import get

PRESETS = ["knightmate-rules", "coregal", "dual-king", "weak-dual-king",
           "first-promotion-wins", "suicide-chess", "capture-all", "extinction-chess"]
ROYAL = {"knightmate-rules": {"knight"}, "coregal": {"king", "queen"}, "dual-king": {"king"},
         "weak-dual-king": {"king"}, "first-promotion-wins": {"king"},
         "suicide-chess": set(), "capture-all": set(), "extinction-chess": {"king"}}
FIDE_ROYALTY = {"knightmate-rules", "coregal", "dual-king", "first-promotion-wins",
                "extinction-chess"}


def start(preset: str) -> str:
    layout = get(preset).preferred_layout
    fen = get_layout(layout or "standard").fen
    if preset == "suicide-chess":
        fen = fen.replace(" KQkq ", " - ")
    return fen


def board(g):
    st = g.state
    return st.colors, st.types


def pieces_of(g, color, types=None):
    colors, kinds = board(g)
    return [s for s in range(64) if colors[s] == color and (types is None or kinds[s] in types)]


def attacked(g, sq, by):
    colors, types = board(g)
    return g.state.attacked(colors, types, sq, by)


def check_position(preset: str, g: Game, moves: list) -> None:
    turn = g.turn
    mover = opposite(turn)
    st = g.state
    out = g.outcome()
    assert st.royal["white"] == st.royal["black"] == ROYAL[preset]
    if not moves:
        assert out is not None, f"{preset}: no legal move and no outcome at {g.fen()}"
    if preset in FIDE_ROYALTY and g.move_stack:
        for s in pieces_of(g, mover, ROYAL[preset]):
            assert not attacked(g, s, turn), f"{preset}: royal piece left attacked at {g.fen()}"
    if preset == "knightmate-rules":
        # the king is not royal: an attacked king is never "check"
        knights_attacked = any(attacked(g, s, mover) for s in pieces_of(g, turn, {"knight"}))
        assert g.is_check() == knights_attacked, g.fen()
    if preset == "weak-dual-king":
        for c in ("white", "black"):
            if not pieces_of(g, c, {"king"}):
                assert out is not None and out.winner == opposite(c), g.fen()
        kings = pieces_of(g, turn, {"king"})
        if kings and moves and all(attacked(g, s, mover) for s in kings):
            saving = False
            for m in moves:
                colors, types = st.simulate(m)
                ks = [s for s in range(64) if colors[s] == turn and types[s] == "king"]
                if any(not st.attacked(colors, types, s, mover) for s in ks):
                    saving = True
                    break
            assert saving, f"weak-dual-king: moves but none saves a king at {g.fen()}"
    if preset == "suicide-chess":
        if any(m.is_capture for m in moves):
            assert all(m.is_capture for m in moves), g.fen()
        assert not any(m.kind == "castle" for m in moves)
        assert not g.is_check()
        if not moves:
            assert out.winner == turn, g.fen()
    if preset == "capture-all":
        assert not g.is_check()
        empty = [c for c in ("white", "black") if not pieces_of(g, c)]
        if empty:
            assert out is not None and out.winner == opposite(empty[0]), g.fen()
        elif out is not None:
            assert out.winner is None, g.fen()    # only draws otherwise
    if preset == "extinction-chess":
        extinct = [c for c in ("white", "black") if not pieces_of(g, c, {"pawn"})]
        if extinct:
            assert out is not None and out.reason == "no pawn left" and not moves, g.fen()
    if preset == "first-promotion-wins":
        promos = [i for i, m in enumerate(g.move_stack) if m.promo]
        if promos:
            assert promos == [len(g.move_stack) - 1], "a move after the first promotion"
            assert out is not None and out.reason == "first promotion"
            assert out.winner == mover and not moves


def play(preset: str, seed: int, cap: int) -> str:
    rng = random.Random(seed)
    g = Game(start(preset), presets=[preset])
    for _ in range(cap):
        moves = g.legal_moves()
        check_position(preset, g, moves)
        if not moves:
            return g.outcome().reason
        turn = g.turn
        g.push(rng.choice(moves))
        assert g.turn == opposite(turn)
    check_position(preset, g, g.legal_moves())
    return "cap"


@pytest.mark.parametrize("preset", PRESETS)
def test_random_playout(preset):
    play(preset, seed=11, cap=100)


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_random_playouts_deep(preset):
    endings = {play(preset, seed=s, cap=500) for s in range(12)}
    assert endings    # at least one game each; the set shows the variety reached


def test_objectives_are_reached():
    """The objective presets really end games along random playouts (so the
    invariants above are exercised on finished games too)."""
    assert play("suicide-chess", seed=1, cap=400) in {"no pieces left", "no legal move"}
    assert play("extinction-chess", seed=0, cap=300) == "no pawn left"
    assert play("extinction-chess", seed=1, cap=300) == "checkmate"
