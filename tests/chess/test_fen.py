"""FEN parsing and writing: round trips against python-chess, and one test per
FenError field."""

from __future__ import annotations

import random

import chess
import pytest

from chess_rules.errors import ChessError, FenError
from chess_rules.fen import STARTING_FEN, FenPosition, parse_fen
from chess_rules.squares import SQUARE_NAMES, parse_square
from chess_rules.game import Game

TYPE_NAMES = {chess.PAWN: "pawn", chess.KNIGHT: "knight", chess.BISHOP: "bishop",
              chess.ROOK: "rook", chess.QUEEN: "queen", chess.KING: "king"}


def playout_fens(seed: int, games: int, max_plies: int):
    """(fen, board) pairs from seeded random playouts, in both en-passant styles."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        board = chess.Board()
        for _ in range(rng.randrange(max_plies)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            if rng.random() < 0.3:
                out.append((board.fen(), board.copy(stack=False)))
                out.append((board.fen(en_passant="fen"), board.copy(stack=False)))
    return out


FENS = playout_fens(777, 40, 140)


def test_round_trip_matches_python_chess():
    assert len(FENS) > 300
    seen_ep = 0
    for fen, board in FENS:
        pos = parse_fen(fen)
        assert pos.to_fen() == fen
        assert pos.placement == {sq: (TYPE_NAMES[p.piece_type], "white" if p.color else "black")
                                 for sq, p in board.piece_map().items()}
        assert pos.turn == ("white" if board.turn else "black")
        assert pos.halfmove == board.halfmove_clock and pos.fullmove == board.fullmove_number
        castling = "".join(c for c, mask in (("K", chess.BB_H1), ("Q", chess.BB_A1),
                                             ("k", chess.BB_H8), ("q", chess.BB_A8))
                           if board.castling_rights & mask)
        assert pos.castling == frozenset(castling)
        ep = fen.split()[3]
        if ep != "-":
            seen_ep += 1
            assert pos.ep_squares == (parse_square(ep),)
    assert seen_ep > 5


def test_starting_position():
    pos = parse_fen(STARTING_FEN)
    assert len(pos.placement) == 32
    assert pos.castling == frozenset("KQkq") and pos.ep_squares == () and pos.turn == "white"
    assert pos.to_fen() == STARTING_FEN
    colors, types = pos.mailbox()
    assert colors[4] == "white" and types[4] == "king" and colors[60] == "black"
    assert colors[28] is None and types[28] is None


def test_four_fields_default_clocks():
    pos = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -")
    assert (pos.halfmove, pos.fullmove) == (0, 1)
    assert pos.to_fen() == STARTING_FEN


def test_castling_is_written_in_canonical_order():
    pos = parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w qkQK - 0 1")
    assert pos.castling == frozenset("KQkq")
    assert pos.to_fen() == "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"


def test_variant_positions_are_accepted():
    # No kings; two kings a side; pawns on the first and last ranks.
    assert parse_fen("8/8/8/8/8/8/8/8 w - - 0 1").placement == {}
    dual = parse_fen("rnbkkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w KQkq - 0 1")
    assert sum(1 for p in dual.placement.values() if p == ("king", "white")) == 2
    pawns = parse_fen("P6p/8/8/4k3/8/8/8/p3K2P b - - 3 40")
    assert pawns.placement[parse_square("a1")] == ("pawn", "black")
    assert pawns.to_fen() == "P6p/8/8/4k3/8/8/8/p3K2P b - - 3 40"


def test_extra_fields():
    dfen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 NPP"
    pos = parse_fen(dfen, extra_fields_allowed=1)
    assert pos.extra == ("NPP",)
    assert pos.to_fen() == dfen
    assert parse_fen(STARTING_FEN, extra_fields_allowed=2).extra == ()
    with pytest.raises(FenError) as e:
        parse_fen(dfen)
    assert e.value.field == "field_count"
    with pytest.raises(FenError) as e:
        parse_fen(dfen + " x y", extra_fields_allowed=2)
    assert e.value.field == "field_count"


def test_several_en_passant_targets_when_not_strict():
    fen = "rnbqkbnr/pppppppp/8/8/2P1P3/8/PP1P1PPP/RNBQKBNR w KQkq c3e3 0 1"
    pos = parse_fen(fen, strict_en_passant=False)
    assert pos.ep_squares == (parse_square("c3"), parse_square("e3"))
    assert pos.to_fen() == fen
    # Strictly, these are White's own targets with White to move.
    with pytest.raises(FenError) as e:
        parse_fen(fen)
    assert e.value.field == "en_passant"
    strict_ok = "rnbqkbnr/pppppppp/8/8/2P1P3/8/PP1P1PPP/RNBQKBNR b KQkq c3e3 0 1"
    assert [SQUARE_NAMES[s] for s in parse_fen(strict_ok).ep_squares] == ["c3", "e3"]
    # Syntax is still checked when not strict.
    for bad in ("c3c3", "c", "c9", "xx"):
        with pytest.raises(FenError) as e:
            parse_fen(fen.replace("c3e3", bad), strict_en_passant=False)
        assert e.value.field == "en_passant"


START_BOARD = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"

BAD = [
    # (fen, field, fragment of the reason)
    ("", "field_count", "0 fields"),
    (START_BOARD + " w KQkq", "field_count", "3 fields"),
    (START_BOARD + " w KQkq - 0", "field_count", "5 fields"),
    (START_BOARD + " w KQkq - 0 1 extra", "field_count", "7 fields"),
    ("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "7 ranks"),
    ("rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "9 ranks"),
    ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "unknown piece letter '9'"),
    ("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "covers 9 squares"),
    ("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "covers 7 squares"),
    ("rnbqkbnr/pppppppp/8//8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "covers 0 squares"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "placement", "unknown piece letter 'X'"),
    ("rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement", "two digits in a row"),
    (START_BOARD + " x KQkq - 0 1", "side", "'x' is not 'w' or 'b'"),
    (START_BOARD + " W KQkq - 0 1", "side", "'W'"),
    (START_BOARD + " w KQz - 0 1", "castling", "'KQz' is not a castling field"),
    (START_BOARD + " w KKq - 0 1", "castling", "repeats 'K'"),
    (START_BOARD + " w AHah - 0 1", "castling", "not a castling field"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "castling", "'K' needs a white king on e1 and a white rook on h1"),
    ("rnbq1bnr/ppppkppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "castling", "'k' needs a black king on e8"),
    ("1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQq - 0 1", "castling", "'q' needs"),
    (START_BOARD + " w KQkq e4 0 1", "en_passant", "not on rank 3 or 6"),
    (START_BOARD + " w KQkq e9 0 1", "en_passant", "'e9' is not a square"),
    (START_BOARD + " w KQkq e 0 1", "en_passant", "not '-' or a list of squares"),
    ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1", "en_passant", "black should be to move"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1", "en_passant", "no white pawn on e4"),
    ("rnbqkbnr/pppp1ppp/8/8/4p3/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", "en_passant", "no black pawn on e5"),
    ("rnbqkbnr/pppppppp/8/8/4P3/4N3/PPPP1PPP/R1BQKBNR b KQkq e3 0 1", "en_passant", "'e3' is occupied"),
    ("4k3/8/8/8/4P3/8/4B3/4K3 b - e3 0 1", "en_passant", "e2 is occupied, so no pawn has just left it"),
    ("4k3/2p5/8/2pP4/8/8/8/4K3 w - c6 0 1", "en_passant", "c7 is occupied"),
    (START_BOARD + " w KQkq - x 1", "halfmove", "'x' is not a non-negative integer"),
    (START_BOARD + " w KQkq - -1 1", "halfmove", "'-1' is not a non-negative integer"),
    (START_BOARD + " w KQkq - 1.5 1", "halfmove", "'1.5'"),
    (START_BOARD + " w KQkq - \u00b2 1", "halfmove", "not a non-negative integer"),
    (START_BOARD + " w KQkq - 0 0", "fullmove", "'0' is less than 1"),
    (START_BOARD + " w KQkq - 0 one", "fullmove", "'one' is not a non-negative integer"),
    (START_BOARD + " w KQkq - 0 -3", "fullmove", "not a non-negative integer"),
    # more digits than Python reads: a FenError, not a bare ValueError
    (START_BOARD + " w KQkq - " + "1" * 5000 + " 1", "halfmove", "has 5000 digits: too many"),
    (START_BOARD + " w KQkq - 0 " + "9" * 4301, "fullmove", "'99999999999999999999...' has 4301"),
]


@pytest.mark.parametrize("fen,field,fragment", BAD)
def test_fen_errors_name_the_field(fen, field, fragment):
    with pytest.raises(FenError) as e:
        parse_fen(fen)
    err = e.value
    assert err.field == field
    assert fragment in err.reason
    assert str(err) == f"bad FEN ({field}): {err.reason}"
    assert isinstance(err, ChessError)


def test_castling_message_exactly():
    with pytest.raises(FenError) as e:
        parse_fen(START_BOARD + " w KQz - 0 1")
    assert str(e.value) == "bad FEN (castling): 'KQz' is not a castling field"


def test_non_string_input():
    with pytest.raises(FenError):
        parse_fen(None)  # type: ignore[arg-type]


def test_fen_position_defaults_and_equality():
    pos = FenPosition(placement={4: ("king", "white"), 60: ("king", "black")})
    assert pos.to_fen() == "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    assert parse_fen(pos.to_fen()) == pos


def test_empty_text_is_no_fen_for_a_game():
    # None means the start position; empty text is a FEN with no fields
    with pytest.raises(FenError) as e:
        Game("")
    assert e.value.field == "field_count"
    assert Game(None).fen() == STARTING_FEN


EXTENDED_BAD = [
    # a FIDE game never carries these: refused, not played under rules it cannot have
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 half:3", "one move per turn"),
    ("4k3/8/8/3pP3/8/8/p7/4K3 w - d6 0 1 ep-pawn:d6=a2", "captures the pawn beyond it, on d5"),
]


@pytest.mark.parametrize("fen,fragment", EXTENDED_BAD)
def test_extended_tokens_a_fide_game_cannot_have_are_refused(fen, fragment):
    with pytest.raises(FenError) as e:
        Game(fen)
    assert e.value.field == "extended" and fragment in e.value.reason


def test_extended_tokens_stay_for_the_rule_sets_that_have_them():
    assert Game("4k3/8/8/8/8/8/8/4K3 w - - 0 1 half:1", presets=["double-move"]).fen().endswith("half:1")
    # the pawn beyond the target may be named: the same position as without the token
    assert Game("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1 ep-pawn:d6=d5").fen() == "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"


@pytest.mark.parametrize("fen, presets, words", [
    # a token that says one thing twice, differently or not, is refused
    ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 hp:e2=1 hp:e2=3", ["piece-hp"], "hp:e2 is given twice"),
    ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 hp:e2=1,e2=2", ["piece-hp"], "hp:e2 is given twice"),
    ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 half:1 half:1", ["double-move"], "half: is given twice"),
    ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 half:\u00b2", ["double-move"], "is not a number"),
])
def test_extended_tokens_given_twice_or_not_numbers_are_refused(fen, presets, words):
    with pytest.raises(FenError, match=words):
        Game(fen, presets=presets)
