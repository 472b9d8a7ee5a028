"""double-move and monster-rules against a python-chess reference of the turn structure.

The reference plays the same moves on a ``chess.Board``: after a half-move
that neither ends the side's turn (its half-moves per turn) nor gives check,
the turn is handed back to the mover. python-chess keeps one en-passant square
for one ply, so the reference clears it and the comparison leaves en-passant
captures out (they are pinned down by the scenario files); everything else -
the legal move set, check, the board, castling rights, whose turn it is, the
half-move within the turn, checkmate and stalemate - must agree at every ply of
seeded random playouts.
"""
from __future__ import annotations

import random

import chess
import pytest

from chess_rules.errors import FenError, IllegalMoveError
from chess_rules.game import Game
from presets.base import IncompatiblePresetsError, PresetConfigError
from presets.layouts import get_layout
from presets.registry import load
from presets.library.monster_rules import halves_for

STARTS = [
    chess.STARTING_FEN,
    get_layout("monster").fen,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
]

CASES = [("double-move", None, {"white": 2, "black": 2})] + [
    ("monster-rules", {"scope": s}, halves_for(s)) for s in ("white", "black", "both")]


def reference_moves(board: chess.Board) -> list[str]:
    board.ep_square = None
    return sorted(m.uci() for m in board.legal_moves)


def play_and_compare(preset, cfg, halves, fen, seed, plies=60):
    rs = load(preset, config={preset: cfg} if cfg else None)
    g = Game(fen, ruleset=rs)
    board = chess.Board(fen)
    rng = random.Random(seed)
    half = 0
    for _ in range(plies):
        ours = sorted(m.uci() for m in g.legal_moves() if m.kind != "en-passant")
        assert ours == reference_moves(board), (preset, cfg, g.fen())
        assert g.turn == ("white" if board.turn else "black")
        assert g._game_fact().values["half"] == half
        assert g.is_check() == board.is_check()
        assert g.board_fen() == board.board_fen()
        assert g.castling_rights() == (board.castling_xfen() if board.castling_rights else "-")
        if not ours:
            out = g.outcome()
            assert out is not None
            assert out.reason == ("checkmate" if board.is_check() else "stalemate")
            break
        u = rng.choice(ours)
        mover = board.turn
        g.push(u)
        board.push(chess.Move.from_uci(u))
        colour = "white" if mover else "black"
        if half + 1 < halves[colour] and not board.is_check():
            board.turn = mover     # the mover keeps the move for its next half-move
            half += 1
        else:
            half = 0
        board.ep_square = None
        # the position, mid-turn included, round-trips through the extended format
        assert Game.from_fen(g.fen(), ruleset=rs).fen() == g.fen()


@pytest.mark.parametrize("preset,cfg,halves", CASES, ids=lambda x: str(x))
@pytest.mark.parametrize("start", range(len(STARTS)))
def test_turn_structure_matches_reference(preset, cfg, halves, start):
    play_and_compare(preset, cfg, halves, STARTS[start], 31 + start, plies=40)


@pytest.mark.slow
@pytest.mark.parametrize("preset,cfg,halves", CASES, ids=lambda x: str(x))
def test_turn_structure_matches_reference_long(preset, cfg, halves):
    for seed in range(30):
        play_and_compare(preset, cfg, halves, STARTS[seed % len(STARTS)], 500 + seed, plies=150)


def test_perft_counts_the_second_half_move():
    # WW: perft(2) from the start is the sum over White's 20 first half-moves of
    # White's replies, which a python-chess board with the turn handed back gives
    g = Game(presets=["double-move"])
    board = chess.Board()
    want = 0
    for m in list(board.legal_moves):
        board.push(m)
        if board.is_check():
            want += board.legal_moves.count()
        else:
            board.turn = chess.WHITE
            board.ep_square = None
            want += board.legal_moves.count()
            board.turn = chess.BLACK
        board.pop()
    assert g.perft(2) == want
    assert g.perft(1) == 20


def test_undo_restores_the_half_move():
    g = Game(presets=["double-move"])
    g.push("e2e4")
    assert g._game_fact().values["half"] == 1 and g.turn == "white"
    g.push("d2d4")
    assert g.turn == "black"
    g.pop()
    assert g._game_fact().values["half"] == 1 and g.turn == "white"
    assert g.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1 half:1"
    g.pop()
    assert g.fen() == chess.STARTING_FEN


def test_refused_move_leaves_the_game_unchanged():
    g = Game(presets=["monster-rules"])
    g.push("e2e4")
    before = g.fen()
    with pytest.raises(IllegalMoveError):
        g.push("e7e5")            # White still has its second half-move
    assert g.fen() == before


def test_turn_structure_is_rule_set_data():
    assert load("double-move").config["turn-structure"] == {"white": 2, "black": 2}
    assert load("monster-rules").config["turn-structure"] == {"white": 2, "black": 1}
    rs = load("monster-rules", config={"monster-rules": {"scope": "black"}})
    assert rs.config["turn-structure"] == {"white": 1, "black": 2}
    assert "turn-structure" not in load("berolina-pawns").config


def test_bad_configuration_and_composition_are_refused():
    with pytest.raises(PresetConfigError):
        load("monster-rules", config={"monster-rules": {"scope": "white", "extra": 1}})
    with pytest.raises(PresetConfigError):
        load("double-move", config={"double-move": {"scope": "white"}})
    with pytest.raises(IncompatiblePresetsError):
        load("double-move", "monster-rules")
    with pytest.raises(FenError):
        Game("4k3/8/8/8/8/8/8/4K3 w - - 0 1 half:x", presets=["double-move"])


def test_a_plain_fen_is_the_start_of_a_turn():
    g = Game("4k3/8/8/8/8/8/8/4K3 b - - 0 1", presets=["monster-rules"])
    assert g._game_fact().values["half"] == 0
    assert g.fen() == "4k3/8/8/8/8/8/8/4K3 b - - 0 1"
