"""FEN on boards from 5x5 to 12x10: multi-digit empty counts, inferred sizes,
two-digit square names; checked against Fairy-Stockfish's own FEN text."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, strategies as st

from chess_rules.errors import FenError
from chess_rules.fen import parse_fen
from chess_rules.shape import STANDARD, board_shape
from chess_rules.squares import LETTER_TO_PIECE

sf = pytest.importorskip("pyffish")

FIDE_LETTERS = "PNBRQKpnbrqk"


@st.composite
def positions(draw):
    w = draw(st.integers(5, 12))
    h = draw(st.integers(5, 10))
    cells = draw(st.lists(st.sampled_from(FIDE_LETTERS + "." * 12), min_size=w * h, max_size=w * h))
    return board_shape(w, h), {sq: LETTER_TO_PIECE[c] for sq, c in enumerate(cells) if c != "."}


def _independent_board_fen(shape, placement):
    """The placement field, written here from (file, rank) loops."""
    out = []
    for r in reversed(range(shape.height)):
        row, run = "", 0
        for f in range(shape.width):
            p = placement.get(f + shape.width * r)
            if p is None:
                run += 1
                continue
            letter = next(k for k, v in LETTER_TO_PIECE.items() if v == p)
            row += (str(run) if run else "") + letter
            run = 0
        out.append(row + (str(run) if run else ""))
    return "/".join(out)


@given(positions())
def test_any_board_writes_and_reads_back(pos):
    shape, placement = pos
    fen = _independent_board_fen(shape, placement) + " w - - 0 1"
    read = parse_fen(fen, shape=None)
    assert read.shape is shape and read.placement == placement
    assert read.to_fen() == fen
    assert parse_fen(fen, shape=shape).placement == placement


@pytest.mark.parametrize("variant", ["gardner", "losalamos", "grand", "capablanca"])
def test_fairy_stockfish_fens_along_a_playout_read_back_exactly(variant):
    # (the archbishop and chancellor, a and c, are no FIDE letters: the board is
    # read with them swapped for queens, which keeps every count and square)
    rng = random.Random(36)
    fen = sf.start_fen(variant)
    moves: list[str] = []
    seen = 0
    for _ in range(60):
        text = sf.get_fen(variant, fen, moves)
        board = text.split()[0].translate(str.maketrans("acAC", "qqQQ"))
        text = " ".join([board] + text.split()[1:])
        read = parse_fen(text, shape=None, strict_en_passant=False)
        assert read.to_fen() == text
        seen += 1
        legal = sf.legal_moves(variant, fen, moves)
        if not legal:
            break
        moves.append(rng.choice(legal))
    assert seen > 10


def test_a_ten_rank_board_names_its_en_passant_target_a10_style():
    fen = "r8r/10/10/10/10/10/10/10/4P5/R8R b - e3 0 1"
    with pytest.raises(FenError, match="no white pawn on e4"):
        parse_fen(fen, shape=None)
    ok = "r8r/10/10/10/10/10/4P5/10/10/R3K4R b K e3 0 1"
    pos = parse_fen(ok, shape=None)
    assert pos.ep_squares == (board_shape(10, 10).parse_square("e3"),)
    assert pos.to_fen() == ok
    assert parse_fen("k9/10/10/10/10/10/10/10/10/K9 w - a10b10 0 1", shape=None,
                     strict_en_passant=False).ep_fen() == "a10b10"


def test_castling_on_a_wide_board_needs_the_corner_rook_and_the_king_between():
    ok = "r4k3r/10/10/10/10/10/10/R4K3R w KQkq - 0 1"
    assert parse_fen(ok, shape=None).castling_fen() == "KQkq"
    with pytest.raises(FenError, match="'K' needs a white rook on j1"):
        parse_fen("r4k3r/10/10/10/10/10/10/R4K2R1 w K - 0 1", shape=None)


@pytest.mark.parametrize("fen,fragment", [
    ("4/4/4/4 w - - 0 1", "5 to 12 files"),
    ("kkkkkkkkkkkkk/13/13/13/13 w - - 0 1", "5 to 12 files"),
    ("k9/10/10/10 w - - 0 1", "5 to 10 ranks"),
    ("k9/010/10/10/10/10/10/K9 w - - 0 1", "not an empty count"),
    ("k9/11/10/10/10/10/10/K9 w - - 0 1", "not an empty count"),
    ("k9/55/10/10/10/10/10/K9 w - - 0 1", "not an empty count"),
    ("k9/9/10/10/10/10/10/K9 w - - 0 1", "covers 9 squares, expected 10"),
])
def test_bad_sizes_and_counts_are_refused(fen, fragment):
    with pytest.raises(FenError, match=fragment) as e:
        parse_fen(fen, shape=None)
    assert e.value.field == "placement"


def test_the_default_board_is_still_eight_by_eight():
    with pytest.raises(FenError, match="8 ranks, expected 8|expected 8"):
        parse_fen("rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1")
    assert parse_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").shape is STANDARD
