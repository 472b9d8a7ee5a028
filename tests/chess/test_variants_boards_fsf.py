"""The catalogue's variants on boards other than 8x8 (capablanca, gothic,
embassy on 10x8; grand on 10x10; losalamos on 6x6; gardner on 5x5) against Fairy-Stockfish's
own built-in variants of the same names: the same start, the same legal moves
along seeded playouts, perft from positions where castling, promotion and en
passant are close, and perft(3) from the start (slow).

``test_variants_fsf.py`` already compares every catalogue section with
pyffish reading the same text; this checks that the sections say what
Fairy-Stockfish's authors meant by those variants.
"""
from __future__ import annotations

import random

import pytest

from chess_rules.game import Game
from chess_rules.variants import load_variant

sf = pytest.importorskip("pyffish")

BOARDS = ["capablanca", "gothic", "embassy", "grand", "losalamos", "gardner"]

#: (variant, FEN): castling both ways on 10x8 (Embassy's king castles to h
#: and b), a promotion to each piece with a capture, en passant
POSITIONS = [
    ("capablanca", "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1"),
    ("capablanca", "r1n2k3r/1P8/10/10/4pP4/10/10/R4K3R b KQk f3 0 1"),
    ("embassy", "r3k4r/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K4R w KQkq - 0 1"),
    ("embassy", "r3k4r/10/10/10/10/10/10/R3K4R b KQkq - 0 1"),
    ("gothic", "r4k3r/pppp1ppppp/10/10/10/10/PPPPP1PPPP/R4K3R w KQkq - 0 1"),
    ("losalamos", "r2k2/1P4/6/6/6/3K2 w - - 0 1"),
    ("gardner", "1r1k1/P4/5/5/2K2 w - - 0 1"),
    # Grand chess: promotion compulsory on rank 10, optional on 8 and 9, and
    # only to a type the side has fewer of than its limit; double steps from
    # rank 3, en passant on rank 4
    ("grand", "4k5/P9/10/10/10/10/10/10/10/4K5 w - - 0 1"),
    ("grand", "4k5/10/10/P9/10/10/10/10/10/3QK5 w - - 0 1"),
    ("grand", "4k5/10/P9/10/10/10/10/10/10/2QAKCRRNN w - - 0 1"),
    ("grand", "4k5/10/10/10/10/1p8/10/P9/10/4K5 w - - 0 1"),
]


def fsf_perft(variant, fen, played, depth):
    moves = sf.legal_moves(variant, fen, played)
    if depth == 1:
        return len(moves)
    return sum(fsf_perft(variant, fen, played + [m], depth - 1) for m in moves)


@pytest.mark.parametrize("name", BOARDS)
def test_the_start_and_playouts_agree_with_the_builtin_variant(name):
    rules = load_variant(name)
    fen = rules.config["start-fen"]
    assert fen == sf.start_fen(name)
    rng = random.Random(name)
    game = Game(ruleset=rules)
    played: list[str] = []
    for _ in range(80):
        ours = sorted(game.legal_uci())
        assert ours == sorted(sf.legal_moves(name, fen, played)), played
        if not ours or game.outcome() is not None:
            break
        move = rng.choice(ours)
        game.push(move)
        played.append(move)


@pytest.mark.parametrize("name, fen", POSITIONS)
def test_perft_two_agrees_near_castling_promotion_and_en_passant(name, fen):
    game = Game(fen, ruleset=load_variant(name))
    assert sorted(game.legal_uci()) == sorted(sf.legal_moves(name, fen, []))
    assert game.perft(2) == fsf_perft(name, fen, [], 2)


def test_capablanca_castles_to_the_i_file_and_embassy_to_h():
    capa = Game.from_variant("capablanca", fen=POSITIONS[0][1])
    assert capa.san("f1i1") == "O-O" and capa.san("f1c1") == "O-O-O"
    capa.push("f1i1")
    assert capa.fen().split(" ")[0].endswith("/R6RK1")
    embassy = Game.from_variant("embassy", fen=POSITIONS[2][1])
    embassy.push("e1h1")
    assert embassy.fen().split(" ")[0].endswith("/R5RK2")


@pytest.mark.slow
@pytest.mark.parametrize("name", BOARDS)
def test_perft_three_from_the_start_agrees(name):
    game = Game.from_variant(name)
    assert game.perft(3) == fsf_perft(name, sf.start_fen(name), [], 3)


def test_grand_promotes_by_its_limits_and_reads_its_en_passant_back():
    game = Game.from_variant("grand", fen=POSITIONS[-3][1])      # White has its queen
    assert sorted(u for u in game.legal_uci() if u.startswith("a7")) == [
        "a7a8", "a7a8a", "a7a8b", "a7a8c", "a7a8n", "a7a8r"]
    full = Game.from_variant("grand", fen=POSITIONS[-2][1])      # only one bishop lost
    assert sorted(u for u in full.legal_uci() if u.startswith("a8")) == ["a8a9", "a8a9b"]
    game = Game.from_variant("grand", fen=POSITIONS[-1][1])
    game.push("a3a5")
    assert game.fen() == sf.get_fen("grand", POSITIONS[-1][1], ["a3a5"])
    again = Game.from_variant("grand", fen=game.fen())
    assert "b5a4" in again.legal_uci()
