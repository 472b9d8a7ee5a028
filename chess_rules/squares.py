"""Squares, colours, piece kinds and directions: the vocabulary of the chess layer.

Conventions (fixed; every other module relies on them):

* A square is an int 0..63, ``file + 8 * rank``: a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8,
  ..., h8 = 63. This module's names are the standard 8x8 board's; other boards
  (5x5 to 12x10) number their squares the same way, ``file + width * rank``, and
  name them through :mod:`chess_rules.shape`.
* Piece types are the strings ``'pawn' 'knight' 'bishop' 'rook' 'queen' 'king'``;
  colours are ``'white'`` and ``'black'``.
* FEN letters are ``P N B R Q K`` for White and the lower-case letters for Black.
* Directions are board-absolute ("N" is toward rank 8 for both colours) and are
  listed clockwise from N: N, NE, E, SE, S, SW, W, NW.
"""

from __future__ import annotations

__all__ = [
    "FILE_NAMES", "RANK_NAMES", "SQUARE_NAMES", "SQUARES",
    "square", "square_name", "parse_square", "file_of", "rank_of",
    "WHITE", "BLACK", "COLOURS", "opposite",
    "PAWN", "KNIGHT", "BISHOP", "ROOK", "QUEEN", "KING", "PIECE_TYPES",
    "PIECE_LETTER", "LETTER_TO_PIECE", "PIECE_TO_LETTER", "piece_letter", "piece_from_letter",
    "CLOCKWISE", "ORTHOGONAL", "DIAGONAL", "DIRECTION_DELTAS", "OPPOSITE_DIRECTION",
    "FORWARD",
]

FILE_NAMES = "abcdefgh"
RANK_NAMES = "12345678"

#: Square names indexed by square number: ``SQUARE_NAMES[28] == 'e4'``.
SQUARE_NAMES: tuple[str, ...] = tuple(f + r for r in RANK_NAMES for f in FILE_NAMES)
_NAME_TO_SQUARE: dict[str, int] = {name: i for i, name in enumerate(SQUARE_NAMES)}

SQUARES = range(64)

(A1, B1, C1, D1, E1, F1, G1, H1,
 A2, B2, C2, D2, E2, F2, G2, H2,
 A3, B3, C3, D3, E3, F3, G3, H3,
 A4, B4, C4, D4, E4, F4, G4, H4,
 A5, B5, C5, D5, E5, F5, G5, H5,
 A6, B6, C6, D6, E6, F6, G6, H6,
 A7, B7, C7, D7, E7, F7, G7, H7,
 A8, B8, C8, D8, E8, F8, G8, H8) = range(64)


def square(file: int, rank: int) -> int:
    """The square on ``file`` (0 = a) and ``rank`` (0 = rank 1)."""
    return file + 8 * rank


def file_of(sq: int) -> int:
    """File index of ``sq``: 0 for the a-file .. 7 for the h-file."""
    return sq & 7


def rank_of(sq: int) -> int:
    """Rank index of ``sq``: 0 for rank 1 .. 7 for rank 8."""
    return sq >> 3


def square_name(sq: int) -> str:
    """``28 -> 'e4'``. Raises ValueError for anything but an int in 0..63."""
    # bool is an int subclass; True is not a square.
    if type(sq) is not int or not 0 <= sq < 64:
        raise ValueError(f"not a square number: {sq!r}")
    return SQUARE_NAMES[sq]


def parse_square(text: str) -> int:
    """``'e4' -> 28``. Only lower-case ``a1``..``h8`` is accepted; ValueError otherwise."""
    sq = _NAME_TO_SQUARE.get(text) if isinstance(text, str) else None
    if sq is None:
        raise ValueError(f"not a square name: {text!r}")
    return sq


WHITE = "white"
BLACK = "black"
COLOURS = (WHITE, BLACK)
_OPPOSITE = {WHITE: BLACK, BLACK: WHITE}


def opposite(colour: str) -> str:
    """The other colour. Raises KeyError for a string that is not a colour."""
    return _OPPOSITE[colour]


PAWN = "pawn"
KNIGHT = "knight"
BISHOP = "bishop"
ROOK = "rook"
QUEEN = "queen"
KING = "king"
PIECE_TYPES = (PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING)

#: Upper-case letter of each piece type: ``PIECE_LETTER['knight'] == 'N'``.
PIECE_LETTER: dict[str, str] = {
    PAWN: "P", KNIGHT: "N", BISHOP: "B", ROOK: "R", QUEEN: "Q", KING: "K",
}
#: FEN letter -> (type, colour): ``LETTER_TO_PIECE['n'] == ('knight', 'black')``.
LETTER_TO_PIECE: dict[str, tuple[str, str]] = {}
#: (type, colour) -> FEN letter.
PIECE_TO_LETTER: dict[tuple[str, str], str] = {}
for _t, _l in PIECE_LETTER.items():
    LETTER_TO_PIECE[_l] = (_t, WHITE)
    LETTER_TO_PIECE[_l.lower()] = (_t, BLACK)
    PIECE_TO_LETTER[(_t, WHITE)] = _l
    PIECE_TO_LETTER[(_t, BLACK)] = _l.lower()
del _t, _l


def piece_letter(piece_type: str, colour: str) -> str:
    """FEN letter of a piece: ``('knight', 'black') -> 'n'``."""
    return PIECE_TO_LETTER[(piece_type, colour)]


def piece_from_letter(letter: str) -> tuple[str, str]:
    """``'n' -> ('knight', 'black')``. Raises KeyError for an unknown letter."""
    return LETTER_TO_PIECE[letter]


#: The eight directions, clockwise from N (as seen from White).
CLOCKWISE: tuple[str, ...] = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
ORTHOGONAL: tuple[str, ...] = ("N", "E", "S", "W")
DIAGONAL: tuple[str, ...] = ("NE", "SE", "SW", "NW")

#: Direction -> (df, dr): file and rank change of one step.
DIRECTION_DELTAS: dict[str, tuple[int, int]] = {
    "N": (0, 1), "NE": (1, 1), "E": (1, 0), "SE": (1, -1),
    "S": (0, -1), "SW": (-1, -1), "W": (-1, 0), "NW": (-1, 1),
}
OPPOSITE_DIRECTION: dict[str, str] = {
    "N": "S", "NE": "SW", "E": "W", "SE": "NW",
    "S": "N", "SW": "NE", "W": "E", "NW": "SE",
}

#: The direction a pawn of each colour moves in.
FORWARD: dict[str, str] = {WHITE: "N", BLACK: "S"}

__all__ += [_name.upper() for _name in SQUARE_NAMES]
