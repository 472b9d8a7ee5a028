"""Differential tests of berolina-pawns (and -2) against Fairy-Stockfish.

FSF's ``berolina`` variant has the same pawn (``mfFcfeWimfnA``: diagonal
moves, straight-forward captures and en passant, a lame diagonal double step
from the start) and the same Parton en passant; ``berolina-pawns-2`` is
compared with a custom FSF variant that adds sideways captures (``csW``).
Along seeded random playouts both engines must agree on the legal move set at
every ply, and on perft(2) at sampled positions. Positions are passed to FSF as
a start FEN plus the moves played (never as our FEN with an en-passant field:
FSF writes a Berolina target as two squares).
"""
from __future__ import annotations

import random

import pytest

from chess_rules.game import Game

sf = pytest.importorskip("pyffish")

sf.load_variant_config("""
[berolina2:berolina]
customPiece1 = p:mfFcfeWcsWimfnA
""")

STARTS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
    "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1",
    "r3k3/1p1p2P1/8/2p1p3/3P4/8/1p3P1P/R3K2R w KQq - 0 1",
]

CASES = [("berolina-pawns", "berolina"), ("berolina-pawns-2", "berolina2")]


def fsf_perft(variant, fen, moves, depth, g):
    legal = fsf_legal(variant, fen, moves, g)
    if depth == 1:
        return len(legal)
    n = 0
    for m in legal:
        g.push(m)
        n += fsf_perft(variant, fen, moves + [m], depth - 1, g)
        g.pop()
    return n


def fsf_legal(variant, fen, moves, g=None):
    """FSF's legal moves, less (for berolina2) two documented differences: its
    sideways en-passant captures (FSF lets every capture vector of an en-passant
    piece take en passant, ours does not take sideways) and double
    steps of a pawn that has moved (one that captured sideways along its home
    rank: FSF goes by the rank, we by has-moved, as we do for every pawn)."""
    out = sf.legal_moves(variant, fen, moves)
    if variant == "berolina2" and g is not None:
        out = [m for m in out if not is_sideways_ep(g, m) and not is_moved_double(g, m)]
    return out


def is_moved_double(g, uci):
    from chess_rules.squares import parse_square
    frm, to = parse_square(uci[:2]), parse_square(uci[2:4])
    st = g.state
    return (st.types[frm] == "pawn" and abs((frm >> 3) - (to >> 3)) == 2
            and bool(st.facts[frm].values.get("moved")))


def is_sideways_ep(g, uci):
    from chess_rules.squares import parse_square
    frm, to = parse_square(uci[:2]), parse_square(uci[2:4])
    st = g.state
    return st.types[frm] == "pawn" and frm >> 3 == to >> 3 and st.types[to] is None


def playout_compare(preset, variant, fen, seed, plies, perft_every=0):
    rng = random.Random(seed)
    g = Game(fen, presets=[preset])
    moves: list[str] = []
    compared = 0
    for ply in range(plies):
        ours = sorted(g.legal_uci())
        theirs = sorted(fsf_legal(variant, fen, moves, g))
        assert ours == theirs, (preset, fen, moves, sorted(set(ours) ^ set(theirs)))
        compared += 1
        if perft_every and ply % perft_every == 0 and ours:
            assert g.perft(2) == fsf_perft(variant, fen, moves, 2, g), (preset, fen, moves)
        if not ours:
            break
        m = rng.choice(ours)
        g.push(m)
        moves.append(m)
    return compared


@pytest.mark.parametrize("preset,variant", CASES)
@pytest.mark.parametrize("start", range(len(STARTS)))
def test_legal_moves_agree_along_playouts(preset, variant, start):
    n = 0
    for seed in range(2):
        n += playout_compare(preset, variant, STARTS[start], seed * 7 + start, 40,
                             perft_every=30)
    assert n > 20


@pytest.mark.parametrize("preset,variant", CASES)
def test_en_passant_positions_agree(preset, variant):
    # Parton en passant set up by a double step, then compared at once
    fen = "4k3/4p3/8/3P4/8/8/8/4K3 b - - 0 1"
    g = Game(fen, presets=[preset])
    g.push("e7c5")
    assert "d5d6" in g.legal_uci()
    assert sorted(g.legal_uci()) == sorted(sf.legal_moves(variant, fen, ["e7c5"]))
    g.push("d5d6")
    assert g.piece_at("c5") is None
    assert sf.get_fen(variant, fen, ["e7c5", "d5d6"]).split()[0] == g.fen().split()[0]


def test_fsf_sideways_en_passant_is_the_known_difference():
    # FSF's custom berolina2 takes en passant sideways (c6xd6 removing e5); we do not
    fen = "4k3/2p5/2P5/8/8/8/8/4K3 b - - 0 1"
    assert "c6d6" in sf.legal_moves("berolina2", fen, ["c7e5"])
    g = Game(fen, presets=["berolina-pawns-2"])
    g.push("c7e5")
    assert "c6d6" not in g.legal_uci()
    assert g.explain("c6d6").legal is False


@pytest.mark.slow
@pytest.mark.parametrize("preset,variant", CASES)
def test_long_playouts_agree(preset, variant):
    for seed in range(20):
        playout_compare(preset, variant, STARTS[seed % len(STARTS)], 1000 + seed, 150,
                        perft_every=10)


def test_a_pawn_that_captured_sideways_on_its_home_rank_has_moved():
    """Our ruling where FSF differs (it goes by the rank): no double step for it."""
    g = Game(presets=["berolina-pawns-2"])
    for m in ["d2b4", "g7e5", "d1d7", "e7d7", "e2d3"]:
        g.push(m)
    assert sorted(u for u in g.legal_uci() if u.startswith("d7")) == ["d7c6", "d7e6"]
    fsf = sf.legal_moves("berolina2", STARTS[0], ["d2b4", "g7e5", "d1d7", "e7d7", "e2d3"])
    assert {"d7b5", "d7f5"} <= set(fsf)
