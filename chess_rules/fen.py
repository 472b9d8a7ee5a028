"""FEN in and out.

:func:`parse_fen` reads a FEN into a :class:`FenPosition` and refuses anything
malformed or inconsistent with a :class:`~chess_rules.errors.FenError` that names the
field at fault. :meth:`FenPosition.to_fen` writes the canonical form back (castling
letters in ``KQkq`` order, ``-`` for an empty field), so ``parse_fen(t).to_fen()`` is
``t`` for any canonical ``t``.

Variant-friendly on purpose: any number of kings (0, 1 or 2 per side) and pawns on
any rank are accepted, and so is a side not to move that stands in check (python-
chess calls such positions invalid; the rule set decides what happens: FIDE's
``fide.king-capture-illegal`` refuses to take the king, and play goes on);
several en-passant targets may be concatenated (``c3e3``);
trailing extra fields (the Dice Chess dice, say) are returned in ``extra`` when the
caller allows them.

Boards of other sizes (:mod:`chess_rules.shape`, 5x5 to 12x10): ``parse_fen(text,
shape=board_shape(10, 8))`` reads a FEN of that board, and ``shape=None`` infers
the size from the FEN (its ranks, and the squares its top rank covers). Empty
runs longer than nine are written with several digits (``10``, ``12``), as
Fairy-Stockfish writes them, and square names may have two-digit ranks (``a10``).
"""


from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import FenError, quoted
from .shape import STANDARD, BoardShape, board_shape
from .squares import (
    A1, A8, BLACK, E1, E8, H1, H8, KING, LETTER_TO_PIECE, PAWN, PIECE_TO_LETTER, ROOK,
    SQUARE_NAMES, WHITE, parse_square,
)

__all__ = ["FenPosition", "parse_fen", "STARTING_FEN", "CASTLING_HOME", "castling_home"]

STARTING_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

_SIDES = {"w": WHITE, "b": BLACK}
_SIDE_LETTER = {WHITE: "w", BLACK: "b"}
_CASTLING_ORDER = "KQkq"
#: Castling letter -> (colour, king square, rook square) on the standard board.
CASTLING_HOME: dict[str, tuple[str, int, int]] = {
    "K": (WHITE, E1, H1),
    "Q": (WHITE, E1, A1),
    "k": (BLACK, E8, H8),
    "q": (BLACK, E8, A8),
}
_EP_NAME = re.compile(r"[a-z][0-9]+")
_EP_LIST = re.compile(r"(?:[a-z][0-9]+)+")


@dataclass
class FenPosition:
    """A position as FEN describes it.

    Attributes:
        placement: square -> (piece type, colour), occupied squares only.
        turn: ``'white'`` or ``'black'``.
        castling: the castling letters present, among ``K Q k q``.
        ep_squares: the en-passant target squares, in the order given (usually zero
            or one; Dice Chess and multi-move turns may hold several).
        halfmove: the fifty-move-rule clock.
        fullmove: the move number, from 1.
        extra: trailing fields beyond the sixth, as text (see ``parse_fen``).
        shape: the board (:func:`~chess_rules.shape.board_shape`), 8x8 unless given.
    """

    placement: dict[int, tuple[str, str]]
    turn: str = WHITE
    castling: frozenset[str] = frozenset()
    ep_squares: tuple[int, ...] = ()
    halfmove: int = 0
    fullmove: int = 1
    extra: tuple[str, ...] = field(default=())
    shape: BoardShape = STANDARD

    if TYPE_CHECKING:
        # What chess_rules.position.read_extended adds from the extended
        # key:value tokens (a position parse_fen alone read has none of them):
        # declared for type checkers, no fields (init=False: no argument)
        moved: dict[int, bool] = field(init=False)
        attrs: dict[int, dict[str, Any]] = field(init=False)
        half: int = field(init=False)
        ep_pawns: dict[int, int] = field(init=False)
        tokens: dict[str, Any] = field(init=False)

    def board_fen(self) -> str:
        """The placement field alone."""
        placement = self.placement
        width = self.shape.width
        rows = []
        for rank in range(self.shape.height - 1, -1, -1):
            row = []
            empty = 0
            for sq in range(width * rank, width * rank + width):
                piece = placement.get(sq)
                if piece is None:
                    empty += 1
                    continue
                if empty:
                    row.append(str(empty))
                    empty = 0
                row.append(PIECE_TO_LETTER[piece])
            if empty:
                row.append(str(empty))
            rows.append("".join(row))
        return "/".join(rows)

    def castling_fen(self) -> str:
        """The castling field in canonical ``KQkq`` order, ``-`` when empty."""
        return "".join(c for c in _CASTLING_ORDER if c in self.castling) or "-"

    def ep_fen(self) -> str:
        """The en-passant field: the targets concatenated, ``-`` when none."""
        names = self.shape.square_names
        return "".join(names[sq] for sq in self.ep_squares) or "-"

    def to_fen(self) -> str:
        """The canonical FEN text, with any extra fields appended."""
        parts = [
            self.board_fen(),
            _SIDE_LETTER[self.turn],
            self.castling_fen(),
            self.ep_fen(),
            str(self.halfmove),
            str(self.fullmove),
        ]
        parts.extend(self.extra)
        return " ".join(parts)

    def mailbox(self) -> tuple[list, list]:
        """``(colors, types)``: the per-square lists (64 entries on 8x8) that
        :mod:`chess_rules.geometry` reads."""
        n = len(self.shape.squares)
        colors: list = [None] * n
        types: list = [None] * n
        for sq, (ptype, colour) in self.placement.items():
            colors[sq] = colour
            types[sq] = ptype
        return colors, types


def _parse_placement(text: str, fen: str,
                     shape: BoardShape | None) -> tuple[dict[int, tuple[str, str]], BoardShape]:
    rows = text.split("/")
    if shape is None:
        # the size the FEN itself gives: its ranks, and the squares its top rank covers
        width = _rank_squares(rows[0], len(rows) - 1, fen)[0]
        try:
            shape = board_shape(width, len(rows))
        except ValueError as e:
            raise FenError("placement", f"{quoted(text)}: {e}", fen) from None
    height, width = shape.height, shape.width
    if len(rows) != height:
        raise FenError("placement", f"{quoted(text)} has {len(rows)} ranks, expected {height}", fen)
    placement: dict[int, tuple[str, str]] = {}
    for i, row in enumerate(rows):
        rank = height - 1 - i
        file, pieces = _rank_squares(row, rank, fen, width)
        if file != width:
            raise FenError("placement", f"rank {rank + 1} ({quoted(row)}) covers {file} squares, "
                           f"expected {width}", fen)
        for f, piece in pieces:
            placement[f + width * rank] = piece
    return placement, shape


def _rank_squares(row: str, rank: int, fen: str,
                  width: int = 12) -> tuple[int, list[tuple[int, tuple[str, str]]]]:
    """The squares one rank of the placement covers, and its pieces by file."""
    file = 0
    pieces: list[tuple[int, tuple[str, str]]] = []
    i = 0
    while i < len(row):
        ch = row[i]
        if ch.isascii() and ch.isdigit():
            j = i
            while j < len(row) and row[j].isascii() and row[j].isdigit():
                j += 1
            run = row[i:j]
            if j - i > 1 and width < 10:
                raise FenError("placement", f"rank {rank + 1} ({quoted(row)}) has two digits in a row", fen)
            if run[0] == "0" or int(run) > width:
                if j - i == 1:
                    raise FenError("placement", f"unknown piece letter {ch!r} in rank {rank + 1} ({quoted(row)})", fen)
                raise FenError("placement", f"rank {rank + 1} ({quoted(row)}): {run!r} is not an empty "
                               f"count from 1 to {width}", fen)
            file += int(run)
            i = j
            continue
        piece = LETTER_TO_PIECE.get(ch)
        if piece is None:
            raise FenError("placement", f"unknown piece letter {ch!r} in rank {rank + 1} ({quoted(row)})", fen)
        if file < width:
            pieces.append((file, piece))
        file += 1
        i += 1
    return file, pieces


def castling_home(letter: str, shape: BoardShape = STANDARD) -> tuple[str, int | None, int]:
    """(colour, king square, rook square) a castling letter needs on ``shape``.

    On 8x8 the FIDE homes (:data:`CASTLING_HOME`). On any other board the rook
    stands in its corner of the colour's first rank (``K``/``k``: the last file,
    ``Q``/``q``: the a-file) and the king on that rank anywhere between, so the
    king square is None.
    """
    if shape is STANDARD:
        return CASTLING_HOME[letter]
    colour = WHITE if letter.isupper() else BLACK
    rank = 0 if colour == WHITE else shape.height - 1
    file = shape.width - 1 if letter in "Kk" else 0
    return colour, None, shape.square(file, rank)


def _parse_castling(text: str, placement: dict, fen: str,
                    shape: BoardShape = STANDARD) -> frozenset[str]:
    if text == "-":
        return frozenset()
    if not text or any(c not in _CASTLING_ORDER for c in text):
        raise FenError("castling", f"{quoted(text)} is not a castling field", fen)
    for c in text:
        if text.count(c) > 1:
            raise FenError("castling", f"{quoted(text)} repeats {c!r}", fen)
    names = shape.square_names
    for c in text:
        colour, king_sq, rook_sq = castling_home(c, shape)
        if king_sq is None:
            rank = shape.rank_of(rook_sq)
            between = range(shape.square(1, rank), shape.square(shape.width - 1, rank))
            if (placement.get(rook_sq) != (ROOK, colour)
                    or not any(placement.get(sq) == (KING, colour) for sq in between)):
                raise FenError(
                    "castling", f"{c!r} needs a {colour} rook on {names[rook_sq]} and a "
                    f"{colour} king between the corners of rank {rank + 1}", fen)
            continue
        if placement.get(king_sq) != (KING, colour) or placement.get(rook_sq) != (ROOK, colour):
            raise FenError(
                "castling",
                f"{c!r} needs a {colour} king on {SQUARE_NAMES[king_sq]} and a {colour} rook "
                f"on {SQUARE_NAMES[rook_sq]}",
                fen,
            )
    return frozenset(text)


def _parse_ep(text: str, placement: dict, turn: str, strict: bool, fen: str,
              shape: BoardShape = STANDARD) -> tuple[int, ...]:
    if text == "-":
        return ()
    if shape is STANDARD:
        if not text or len(text) % 2:
            raise FenError("en_passant", f"{quoted(text)} is not '-' or a list of squares", fen)
        names = [text[i:i + 2] for i in range(0, len(text), 2)]
    else:
        if not _EP_LIST.fullmatch(text):
            raise FenError("en_passant", f"{quoted(text)} is not '-' or a list of squares", fen)
        names = _EP_NAME.findall(text)
    width, height = shape.width, shape.height
    squares: list[int] = []
    for name in names:
        try:
            sq = shape.parse_square(name)
        except ValueError:
            raise FenError("en_passant", f"{quoted(name)} is not a square", fen) from None
        if sq in squares:
            raise FenError("en_passant", f"{quoted(text)} repeats {quoted(name)}", fen)
        squares.append(sq)
    if not strict:
        return tuple(squares)
    SQUARE_NAMES = shape.square_names      # noqa: N806 (the board's names)
    for sq in squares:
        name = SQUARE_NAMES[sq]
        rank = sq // width
        if rank == 2:
            maker, pawn_sq, mover = WHITE, sq + width, BLACK
        elif rank == height - 3:
            maker, pawn_sq, mover = BLACK, sq - width, WHITE
        else:
            raise FenError("en_passant", f"{quoted(name)} is not on rank 3 or {height - 2}", fen)
        if turn != mover:
            raise FenError(
                "en_passant",
                f"{quoted(name)} is a target of a {maker} double push, but {turn} made the last move "
                f"({mover} should be to move)", fen)
        if sq in placement:
            raise FenError("en_passant", f"{quoted(name)} is occupied", fen)
        if placement.get(pawn_sq) != (PAWN, maker):
            raise FenError(
                "en_passant",
                f"{quoted(name)} has no {maker} pawn on {SQUARE_NAMES[pawn_sq]} that could have made it", fen)
        origin = 2 * sq - pawn_sq
        if origin in placement:
            raise FenError(
                "en_passant",
                f"{quoted(name)} is no target: {SQUARE_NAMES[origin]} is occupied, so no pawn "
                f"has just left it", fen)
    return tuple(squares)


def _parse_count(text: str, field_name: str, minimum: int, fen: str) -> int:
    # isdigit() alone would let through non-ASCII digits such as '²'.
    if not (text.isascii() and text.isdigit()):
        raise FenError(field_name, f"{quoted(text)} is not a non-negative integer", fen)
    try:
        value = int(text)
    except ValueError:      # more digits than Python reads (4300)
        raise FenError(field_name, f"{text[:20] + '...'!r} has {len(text)} digits: too many",
                       fen) from None
    if value < minimum:
        raise FenError(field_name, f"{quoted(text)} is less than {minimum}", fen)
    return value


def parse_fen(text: str, extra_fields_allowed: int = 0, *,
              strict_en_passant: bool = True,
              shape: BoardShape | None = STANDARD) -> FenPosition:
    """Parse a FEN, raising :class:`FenError` (with ``field`` set) on bad input.

    Accepts the six standard fields, or the first four alone (the clocks then
    default to ``0 1``). With ``extra_fields_allowed=k`` up to ``k`` further fields
    may follow the sixth; they are returned as text in ``FenPosition.extra`` for the
    caller to validate.

    Checks: field count; eight ranks of eight squares each, known piece letters, no
    two digits in a row; side ``w``/``b``; castling ``-`` or distinct letters among
    ``KQkq``, each with its king and rook on their standard home squares (e1/h1/a1,
    e8/h8/a8); en passant ``-`` or one or more distinct squares; clocks are
    non-negative integers and the move number is at least 1. The number of kings and
    the ranks of the pawns are not checked (variants differ).

    With ``strict_en_passant`` (the default, FIDE) each en-passant target must be on
    rank 3 with Black to move or rank 6 with White to move, be empty, have the
    pawn that made it on the square beyond, and the square the pawn came from
    empty. Variants whose targets live elsewhere
    (several half-moves per turn, sprints from any rank, Dice Chess) pass False and
    get only the syntax checked.

    ``shape`` is the board the FEN is of (8x8 unless given); ``shape=None`` reads
    the board's size from the FEN. On another board the checks are the same with
    its size: counts of empty squares may have two digits (``10``), the en-passant
    targets are on rank 3 or the third rank from the top, and a castling letter
    needs its rook in the corner and the king on the same rank between (see
    :func:`castling_home`).
    """
    if not isinstance(text, str):
        raise FenError("field_count", f"expected FEN text, got {type(text).__name__}")
    fields = text.split()
    n = len(fields)
    if not (n == 4 or 6 <= n <= 6 + max(0, extra_fields_allowed)):
        if extra_fields_allowed > 0:
            expected = (f"6 (or 4 without the clocks), then at most "
                        f"{extra_fields_allowed} key:value tokens")
        else:
            expected = "6 (or 4 without the clocks)"
        raise FenError("field_count", f"{quoted(text)} has {n} fields, expected {expected}", text)
    placement, shape = _parse_placement(fields[0], text, shape)
    turn = _SIDES.get(fields[1])
    if turn is None:
        raise FenError("side", f"{quoted(fields[1])} is not 'w' or 'b'", text)
    castling = _parse_castling(fields[2], placement, text, shape)
    ep_squares = _parse_ep(fields[3], placement, turn, strict_en_passant, text, shape)
    if n >= 6:
        halfmove = _parse_count(fields[4], "halfmove", 0, text)
        fullmove = _parse_count(fields[5], "fullmove", 1, text)
    else:
        halfmove, fullmove = 0, 1
    return FenPosition(
        placement=placement,
        turn=turn,
        castling=castling,
        ep_squares=ep_squares,
        halfmove=halfmove,
        fullmove=fullmove,
        extra=tuple(fields[6:]),
        shape=shape,
    )
