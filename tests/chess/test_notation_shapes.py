"""UCI and SAN on boards other than 8x8, against Fairy-Stockfish's own SAN."""
from __future__ import annotations

import random

import pytest

from chess_rules.errors import MoveParseError
from chess_rules.fen import parse_fen
from chess_rules.notation import (
    MoveInfo, format_uci, move_to_san, normalize_uci, parse_san, parse_uci, san_to_uci,
)
from chess_rules.shape import board_shape

sf = pytest.importorskip("pyffish")

PROMO = {"n": "knight", "b": "bishop", "r": "rook", "q": "queen"}


def test_uci_on_ten_ranks_and_twelve_files():
    grand = board_shape(10, 10)
    assert parse_uci("a9a10", shape=grand) == (80, 90, None)
    assert format_uci(80, 90, shape=grand) == "a9a10"
    assert parse_uci("j9j10Q", shape=grand) == (89, 99, "queen")
    assert normalize_uci(" j9j10Q", shape=grand) == "j9j10q"
    wide = board_shape(12, 10)
    assert parse_uci("l1l10", shape=wide) == (11, 119, None)
    with pytest.raises(MoveParseError):
        parse_uci("a9a10")                        # not on 8x8
    for bad in ("k1k2", "a10a11", "a0a1", "a1a1", "a01a2"):
        with pytest.raises(MoveParseError):
            parse_uci(bad, shape=grand)


def _infos(variant, fen, moves, shape):
    """Every legal move of the position as MoveInfo, from Fairy-Stockfish's view."""
    pos = parse_fen(sf.get_fen(variant, fen, moves), shape=shape)
    out = []
    for uci in sf.legal_moves(variant, fen, moves):
        frm, to, promo = parse_uci(uci, shape=shape)
        after = moves + [uci]
        check = sf.gives_check(variant, fen, after)
        out.append(MoveInfo(frm, to, promo, pos.placement[frm][0], to in pos.placement,
                            None, check, check and not sf.legal_moves(variant, fen, after)))
    return out


# a FIDE army on Grand chess's 10x10 board, rook on a1 and pawns double-stepping
# from rank 2, so that ten-rank names (a10) and two-digit ranks in SAN occur
TENTEN = """
[tenten:chess]
maxRank = 10
maxFile = j
startFen = rnbqkbbnnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNBQKBBNNR w - - 0 1
promotionRegionWhite = *10
promotionRegionBlack = *1
castling = false
doubleStepRegionWhite = *2
doubleStepRegionBlack = *9
"""


@pytest.mark.parametrize("variant,size", [("gardner", (5, 5)), ("losalamos", (6, 6)),
                                          ("tenten", (10, 10))])
def test_san_of_every_legal_move_matches_fairy_stockfish(variant, size):
    sf.load_variant_config(TENTEN)
    shape = board_shape(*size)
    rng = random.Random(7)
    fen = sf.start_fen(variant)
    moves: list[str] = []
    compared = 0
    for _ in range(40):
        infos = _infos(variant, fen, moves, shape)
        if not infos:
            break
        here = sf.get_fen(variant, fen, moves)
        for info in infos:
            uci = format_uci(info.from_sq, info.to_sq, info.promotion, shape=shape)
            ours = move_to_san(info, infos, shape=shape)
            assert ours == sf.get_san(variant, here, uci), (here, uci)
            assert parse_san(ours, infos, shape=shape) == info
            assert san_to_uci(ours, infos, shape=shape) == uci
            compared += 1
        moves.append(format_uci(*rng.choice(infos)[:3], shape=shape))
    assert compared > 200
