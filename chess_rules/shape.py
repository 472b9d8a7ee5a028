"""Board shapes: how many files and ranks a board has, and its squares' names.

houserules plays on boards of 5 to 12 files (``a`` .. ``l``) and 5 to 10 ranks
(``1`` .. ``10``), the sizes Fairy-Stockfish plays on. A square is still an int,
``file + width * rank``: on the standard 8x8 board a1 = 0, h1 = 7, a2 = 8 and
h8 = 63 (the numbering of :mod:`chess_rules.squares`); on Capablanca's 10x8
board a2 = 10 and j8 = 79.

>>> shape = board_shape(10, 8)
>>> shape.square_name(79), shape.parse_square("a2"), len(shape.squares)
('j8', 10, 80)
>>> board_shape(12, 10).parse_square("l10")
119

:func:`board_shape` hands out one shared instance per size, so shapes compare
and hash cheaply and their name tables are built once.
"""

from __future__ import annotations

from functools import cached_property

__all__ = [
    "BoardShape", "board_shape", "STANDARD",
    "MIN_FILES", "MAX_FILES", "MIN_RANKS", "MAX_RANKS", "FILE_LETTERS",
]

MIN_FILES = 5
MAX_FILES = 12
MIN_RANKS = 5
MAX_RANKS = 10
#: The letters of the files, a board of ``width`` files uses the first ``width``.
FILE_LETTERS = "abcdefghijkl"


class BoardShape:
    """A board of ``width`` files and ``height`` ranks (get one with
    :func:`board_shape`). ValueError for a size outside 5..12 x 5..10."""

    def __init__(self, width: int, height: int):
        for what, n, lo, hi in (("files", width, MIN_FILES, MAX_FILES),
                                ("ranks", height, MIN_RANKS, MAX_RANKS)):
            if type(n) is not int or not lo <= n <= hi:
                raise ValueError(f"a board has {lo} to {hi} {what}, not {n!r}")
        self.width = width
        self.height = height
        #: every square number, ``range(width * height)``
        self.squares = range(width * height)

    @cached_property
    def file_names(self) -> str:
        """The file letters, ``'abcdefgh'`` on 8x8."""
        return FILE_LETTERS[:self.width]

    @cached_property
    def square_names(self) -> tuple[str, ...]:
        """Square names indexed by square number: ``('a1', 'b1', ...)``."""
        return tuple(f + str(r + 1) for r in range(self.height) for f in self.file_names)

    @cached_property
    def _by_name(self) -> dict[str, int]:
        return {name: i for i, name in enumerate(self.square_names)}

    def square(self, file: int, rank: int) -> int:
        """The square on ``file`` (0 = a) and ``rank`` (0 = rank 1)."""
        return file + self.width * rank

    def file_of(self, sq: int) -> int:
        """File index of ``sq`` (0 for the a-file)."""
        return sq % self.width

    def rank_of(self, sq: int) -> int:
        """Rank index of ``sq`` (0 for rank 1)."""
        return sq // self.width

    def contains(self, file: int, rank: int) -> bool:
        """True if (file, rank) is on the board."""
        return 0 <= file < self.width and 0 <= rank < self.height

    def square_name(self, sq: int) -> str:
        """``'e4'`` for 28 on 8x8. ValueError for anything but a square number."""
        if type(sq) is not int or not 0 <= sq < len(self.squares):
            raise ValueError(f"not a square number on a {self}: {sq!r}")
        return self.square_names[sq]

    def parse_square(self, text: str) -> int:
        """``'a10' -> 90`` on 10x10. Only lower-case names of this board's squares
        are accepted (``'a01'`` is not a name); ValueError otherwise."""
        sq = self._by_name.get(text) if isinstance(text, str) else None
        if sq is None:
            raise ValueError(f"not a square name on a {self}: {text!r}")
        return sq

    def __repr__(self) -> str:
        return f"board_shape({self.width}, {self.height})"

    def __str__(self) -> str:
        return f"{self.width}x{self.height} board"

    def __reduce__(self):
        return (board_shape, (self.width, self.height))


_SHAPES: dict[tuple[int, int], BoardShape] = {}


def board_shape(width: int = 8, height: int = 8) -> BoardShape:
    """The shared :class:`BoardShape` of ``width`` files and ``height`` ranks."""
    shape = _SHAPES.get((width, height))
    if shape is None:
        shape = _SHAPES.setdefault((width, height), BoardShape(width, height))
    return shape


#: The standard 8x8 board.
STANDARD = board_shape(8, 8)
