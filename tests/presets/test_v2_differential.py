"""Differential tests of the royalty and objective v2 presets against
Fairy-Stockfish (pyffish) and python-chess.

=====================  ===============================================================
preset                 reference
=====================  ===============================================================
coregal                FSF ``coregal`` (every queen pseudo-royal)
knightmate-rules       FSF custom ``hr-knightmate``: no royal king (``king = -``, the
                       king a ``commoner``), every knight pseudo-royal
dual-king              FSF custom ``hr-dualking``: every king a pseudo-royal commoner
suicide-chess          FSF ``antichess`` and python-chess ``AntichessBoard``
capture-all            FSF custom ``hr-captureall``: no royal king, losing all pieces
                       loses (``extinctionPieceTypes = *``)
extinction-chess       FSF custom ``hr-extinction-<t>``: chess, losing every piece of
                       the target type loses (``extinctionPieceTypes = <t>``)
=====================  ===============================================================

Along seeded random playouts (our engine picks the moves) both sides must agree
on the legal move set at every ply; on perft(2) at sampled positions; and, where
a game ends, on who won (longer games under ``-m slow``; perft(3) from the start
positions is in the scenario files, with the values FSF gives). FSF judges a FEN on its
own (it is given our FEN, never a move history), so repetition draws are not
compared. The semantic differences found are written in the preset modules'
docstrings and pinned by the directed tests at the end of this file.
"""
from __future__ import annotations

import random

import pytest

from chess_rules.errors import IllegalMoveError
from chess_rules.game import Game
from presets.layouts import get_layout

sf = pytest.importorskip("pyffish")
chess_variant = pytest.importorskip("chess.variant")

TARGETS = ("pawn", "knight", "bishop", "rook", "queen")
LETTER = {"pawn": "p", "knight": "n", "bishop": "b", "rook": "r", "queen": "q"}

CONFIG = """
[hr-knightmate:chess]
king = -
commoner = k
castlingKingPiece = k
extinctionValue = loss
extinctionPieceTypes = n
extinctionPseudoRoyal = true
extinctionPieceCount = 64

[hr-dualking:chess]
king = -
commoner = k
castlingKingPiece = k
extinctionValue = loss
extinctionPieceTypes = k
extinctionPseudoRoyal = true
extinctionPieceCount = 64

[hr-captureall:chess]
king = -
commoner = k
castlingKingPiece = k
extinctionValue = loss
extinctionPieceTypes = *
""" + "".join(f"""
[hr-extinction-{t}:chess]
extinctionValue = loss
extinctionPieceTypes = {LETTER[t]}
""" for t in TARGETS)

sf.load_variant_config(CONFIG)

STANDARD = get_layout("standard").fen
NO_CASTLING = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"


def case(preset, variant, fen, config=None, pc=False):
    return pytest.param(preset, variant, fen, config, pc, id=variant)


CASES = [
    case("coregal", "coregal", STANDARD),
    case("knightmate-rules", "hr-knightmate", get_layout("knightmate").fen),
    case("dual-king", "hr-dualking", get_layout("dual-classic").fen),
    case("suicide-chess", "antichess", NO_CASTLING, pc=True),
    case("capture-all", "hr-captureall", STANDARD),
] + [case("extinction-chess", f"hr-extinction-{t}", STANDARD, {"target_type": t})
     for t in TARGETS]
FAST_CASES = [c for c in CASES if c.id not in ("hr-extinction-bishop", "hr-extinction-rook",
                                               "hr-extinction-queen")]


def make_game(preset, fen, config):
    return Game(fen, presets=[preset], config={preset: config} if config else None)


def fsf_legal(variant, fen):
    return sorted(sf.legal_moves(variant, fen, []))


def pc_legal(fen):
    return sorted(m.uci() for m in chess_variant.AntichessBoard(fen).legal_moves)


def fsf_perft(variant, fen, depth):
    moves = sf.legal_moves(variant, fen, [])
    if depth == 1:
        return len(moves)
    return sum(fsf_perft(variant, sf.get_fen(variant, fen, [m]), depth - 1) for m in moves)


def pc_perft(board, depth):
    if depth == 1:
        return board.legal_moves.count()
    n = 0
    for m in list(board.legal_moves):
        board.push(m)
        n += pc_perft(board, depth - 1)
        board.pop()
    return n


def our_winner(g):
    """'us' / 'them' / 'draw' from the side to move's point of view, or None."""
    out = g.outcome()
    if out is None:
        return None
    if out.winner is None:
        return "draw"
    return "us" if out.winner == g.turn else "them"


def fsf_winner(variant, fen):
    v = sf.game_result(variant, fen, [])
    return "draw" if v == 0 else ("us" if v > 0 else "them")


def playout(preset, variant, fen, config, pc, seed, plies, sample_every=None):
    """Play seeded random moves; compare legal moves at every ply and the result at
    the end. Returns the positions sampled for perft."""
    rng = random.Random(seed)
    g = make_game(preset, fen, config)
    sampled = []
    for ply in range(plies):
        f = g.fen(en_passant="all")
        ours = g.legal_uci()
        theirs = fsf_legal(variant, f)
        assert ours == theirs, (f"{preset} at {f}: only ours {sorted(set(ours) - set(theirs))}, "
                                f"only FSF {sorted(set(theirs) - set(ours))}")
        if pc:
            assert ours == pc_legal(f), f"{preset} vs python-chess at {f}"
        if not ours:
            assert our_winner(g) == fsf_winner(variant, f), f"{preset} result at {f}"
            if pc:
                o = chess_variant.AntichessBoard(f).outcome()
                pcw = "draw" if o.winner is None else \
                    ("us" if o.winner == (g.turn == "white") else "them")
                assert our_winner(g) == pcw, f"{preset} vs python-chess result at {f}"
            break
        if sample_every and ply % sample_every == sample_every - 1:
            sampled.append(f)
        g.push(rng.choice(ours))
    return sampled


@pytest.mark.parametrize("preset,variant,fen,config,pc", FAST_CASES)
def test_playouts_and_perft2(preset, variant, fen, config, pc):
    sampled = playout(preset, variant, fen, config, pc, seed=7, plies=50, sample_every=40)
    for f in sampled[:1]:
        g = make_game(preset, f, config)
        assert g.perft(2) == fsf_perft(variant, f, 2), f"{preset} perft(2) at {f}"


@pytest.mark.slow
@pytest.mark.parametrize("preset,variant,fen,config,pc", CASES)
def test_playouts_deep(preset, variant, fen, config, pc):
    """Longer games (to their end, mostly), perft(2) at two positions of each.
    (FSF answers one position per call, ~10 ms: perft(3) from the start positions
    is pinned in the scenario files instead, with the values FSF gives.)"""
    for seed in range(1, 7):
        sampled = playout(preset, variant, fen, config, pc, seed=seed, plies=300,
                          sample_every=60)
        for f in sampled[:2]:
            assert make_game(preset, f, config).perft(2) == fsf_perft(variant, f, 2), f


def test_suicide_perft_against_python_chess():
    board = chess_variant.AntichessBoard()
    g = Game(NO_CASTLING, presets=["suicide-chess"])
    assert g.perft(3) == pc_perft(board, 3) == 8067


def test_suicide_endgames_against_python_chess():
    """Positions near the end of an Antichess game, where results are decided."""
    rng = random.Random(3)
    ended = 0
    for _ in range(4):
        g = Game(NO_CASTLING, presets=["suicide-chess"])
        for _ in range(300):
            f = g.fen(en_passant="all")
            b = chess_variant.AntichessBoard(f)
            ours = g.legal_uci()
            assert ours == sorted(m.uci() for m in b.legal_moves), f
            if not ours:
                o = b.outcome()
                assert o is not None and g.outcome() is not None, f
                assert (o.winner is None) == (g.outcome().winner is None), f
                if o.winner is not None:
                    assert o.winner == (g.outcome().winner == "white"), f
                ended += 1
                break
            g.push(rng.choice(ours))
    assert ended >= 2   # the games really reach their end


# ------------------------------------------------------------ the differences, pinned


def test_coregal_en_prise_queen_is_not_captured_here_but_is_in_fsf():
    fen = "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1"
    g = Game(fen, presets=["coregal"])
    assert "d1d5" not in g.legal_uci()
    assert g.explain("d1d5").rule == "fide.king-capture-illegal"
    assert "d1d5" in sf.legal_moves("coregal", fen, [])
    assert not sf.is_immediate_game_end("coregal", fen, ["d1d5"])[0]


def test_coregal_queen_checkmate_agrees_with_fsf():
    fen = "4k3/8/8/8/8/6n1/PP4PR/KB4BQ w - - 0 1"
    g = Game(fen, presets=["coregal"])
    assert g.legal_uci() == [] == sf.legal_moves("coregal", fen, [])
    assert our_winner(g) == fsf_winner("coregal", fen) == "them"


def test_knightmate_fsf_builtin_is_a_different_game():
    """FSF's own knightmate: one royal knight-mover, promotion to a commoner; ours:
    every knight royal, promotion to a knight (royal) and not to a king."""
    fen = "r3n3/1P6/8/8/8/7N/8/4K3 w - - 0 1"
    ours = Game(fen, presets=["knightmate-rules"]).legal_uci()
    assert "b7b8n" not in ours and "b7b8q" in ours          # b8 attacked by a8
    custom = sf.legal_moves("hr-knightmate", fen, [])
    assert sorted(custom) == ours


def test_extinction_both_sides_extinct_mover_loses_as_in_fsf():
    fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"    # no pawns at all: Black just moved
    g = Game(fen, presets=["extinction-chess"])
    assert g.outcome().winner == "white"
    assert sf.is_immediate_game_end("hr-extinction-pawn", fen, [])[1] > 0


def test_extinction_own_promotion_loses_as_in_fsf():
    fen = "4k3/1P5p/8/8/8/8/8/4K3 w - - 0 1"
    g = Game(fen, presets=["extinction-chess"])
    g.push("b7b8q")
    assert g.outcome().winner == "black"
    after = sf.get_fen("hr-extinction-pawn", fen, ["b7b8q"])
    end, value = sf.is_immediate_game_end("hr-extinction-pawn", after, [])
    assert end and value > 0    # Black, to move, wins


@pytest.mark.parametrize("preset,variant", [("capture-all", "hr-captureall"),
                                            ("knightmate-rules", "hr-knightmate")])
@pytest.mark.parametrize("fen", ["1n2k3/4r3/8/8/8/N7/8/R3K2R w KQ - 0 1",
                                 "1n2kr2/8/8/8/8/N7/8/R3K2R w KQ - 0 1"])
def test_non_royal_king_castles_across_attacks_as_in_fsf(preset, variant, fen):
    ours = Game(fen, presets=[preset]).legal_uci()
    assert {"e1g1", "e1c1"} <= set(ours)
    assert ours == fsf_legal(variant, fen)


def test_dual_king_only_the_e_file_king_castles_as_in_fsf():
    fen = "r2kk2r/8/8/8/8/8/8/R2KK2R w KQkq - 0 1"
    ours = Game(fen, presets=["dual-king"]).legal_uci()
    assert "e1g1" in ours and "e1c1" not in ours
    assert ours == fsf_legal("hr-dualking", fen)


def test_dual_king_en_prise_king_is_not_captured_here_but_is_in_fsf():
    fen = "3kk3/8/8/3R4/8/8/8/3KK3 w - - 0 1"
    assert "d5d8" not in Game(fen, presets=["dual-king"]).legal_uci()
    assert "d5d8" in sf.legal_moves("hr-dualking", fen, [])


def test_knightmate_en_prise_knight_is_not_captured_here_but_is_in_fsf():
    fen = "n3k3/8/8/8/8/8/8/R3K2N w - - 0 1"
    assert "a1a8" not in Game(fen, presets=["knightmate-rules"]).legal_uci()
    assert "a1a8" in sf.legal_moves("hr-knightmate", fen, [])


@pytest.mark.parametrize("preset,variant", [("suicide-chess", "antichess"),
                                            ("capture-all", "hr-captureall")])
@pytest.mark.parametrize("fen", ["8/8/8/8/8/8/8/4K2R w - - 0 1",      # the side not to move bare
                                 "8/8/8/8/8/8/8/4K2R b - - 0 1",      # the side to move bare
                                 "4k3/8/8/8/8/8/p7/8 b - - 0 1",
                                 "4k3/8/8/8/8/8/p7/8 w - - 0 1"])
def test_a_side_without_pieces_decides_the_game_as_in_fsf(preset, variant, fen):
    # a position set up with the side not to move bare is over, as one where
    # the side to move is: no legal move, and the winner Fairy-Stockfish gives
    g = Game(fen, presets=[preset])
    assert g.legal_uci() == fsf_legal(variant, fen) == []
    assert our_winner(g) == fsf_winner(variant, fen)


@pytest.mark.parametrize("preset,winner", [("capture-all", "white"),
                                           ("last-piece-standing", "white"),
                                           ("suicide-chess", "black")])
def test_the_result_of_a_bare_side_set_up_stays_and_is_written_nowhere(preset, winner):
    g = Game("8/8/8/8/8/8/8/4K2R w - - 0 1", presets=[preset])
    assert g.is_game_over() and g.outcome().winner == winner and g.outcome().rule is None
    assert g.fen() == "8/8/8/8/8/8/8/4K2R w - - 0 1"      # a FEN is a position
    with pytest.raises(IllegalMoveError, match="the game is over"):
        g.push("e1e2")
    assert g.fen() == "8/8/8/8/8/8/8/4K2R w - - 0 1" and g.outcome().winner == winner
