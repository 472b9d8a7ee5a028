"""Betza pieces against Fairy-Stockfish (pyffish), move for move.

Each case is a piece written in Betza notation, added to FIDE chess on both
sides (``customPiece1`` in a variants.ini section over ``chess``; here
``RuleSet.add_piece``), two of them per side on the third and sixth ranks.
Along seeded random playouts both must agree on the legal move set at every
ply (check, pins and castling through the new piece's attacks included) and on
perft(2) at sampled plies.
"""
from __future__ import annotations

import random

import pytest

from chess_rules.fide import fide_rules
from chess_rules.game import Game
from chess_rules.pieces import PieceType

sf = pytest.importorskip("pyffish")

#: (name, letter, Betza): leapers, riders, compounds, limited riders, lame
#: leapers, hoppers, direction modifiers and move/capture-only parts
CASES = [
    ("archbishop", "a", "BN"),
    ("chancellor", "c", "RN"),
    ("amazon", "m", "QN"),
    ("xq-cannon", "x", "mRcpR"),
    ("janggi-cannon", "j", "pR"),
    ("grasshopper", "y", "gQ"),
    ("xq-horse", "h", "nN"),
    ("xq-elephant", "e", "nA"),
    ("nightrider", "w", "N0"),
    ("short-rook", "s", "W3"),
    ("camel", "l", "C"),
    ("zebra", "z", "Z"),
    ("silver", "v", "FfW"),
    ("shogi-knight", "o", "fN"),
    ("soldier", "d", "fsW"),
    ("kniroo", "u", "mNcR"),
    ("narrow-knight", "t", "ffNbbN"),
    ("fers-dabbaba", "f", "FD"),
]

INI = "\n".join(f"[hrbetza{i}:chess]\ncustomPiece1 = {letter}:{betza}\n"
                for i, (_, letter, betza) in enumerate(CASES))
sf.load_variant_config(INI)


def start_fen(letter: str) -> str:
    u, lo = letter.upper(), letter.lower()
    return f"rnbqkbnr/pppppppp/1{lo}4{lo}1/8/8/1{u}4{u}1/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def rules_with(name, letter, betza):
    rules = fide_rules()
    rules.add_piece(PieceType(name, letter, betza))
    return rules


def check_playouts(index, playouts, plies):
    name, letter, betza = CASES[index]
    variant = f"hrbetza{index}"
    rules = rules_with(name, letter, betza)
    fen = start_fen(letter)
    rng = random.Random(index)
    for _ in range(playouts):
        game = Game(fen, ruleset=rules)
        played: list[str] = []
        for ply in range(plies):
            ours = sorted(game.legal_uci())
            theirs = sorted(sf.legal_moves(variant, fen, played))
            assert ours == theirs, (name, betza, played, set(ours) ^ set(theirs))
            if not ours or game.outcome() is not None:
                break
            if ply % 13 == 5:
                assert game.perft(2) == sum(
                    len(sf.legal_moves(variant, fen, played + [m])) for m in theirs)
            move = rng.choice(ours)
            game.push(move)
            played.append(move)


@pytest.mark.parametrize("index", range(len(CASES)), ids=[c[0] for c in CASES])
def test_legal_moves_agree_along_playouts(index):
    check_playouts(index, 1, 40)


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(CASES)), ids=[c[0] for c in CASES])
def test_legal_moves_agree_along_long_playouts(index):
    check_playouts(index, 5, 80)


def test_piece_explained_by_its_own_rule():
    rules = rules_with("archbishop", "a", "BN")
    game = Game("4k3/8/8/8/8/8/8/A3K3 w - - 0 1", ruleset=rules)
    assert game.explain("a1c2").generated_by == ["piece.archbishop-move"]
    assert game.explain("a1a2").legal is False
