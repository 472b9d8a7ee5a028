"""The board as the page draws it: its size, its squares and the pieces on them.

Nothing here assumes an 8x8 board or the six FIDE piece types: the size is
read from the position's own board text (its ranks, and the squares each rank
counts, empty runs of any number of digits included), the squares are named
as the rules name them (file letter, rank number), and each piece carries its
type and its FEN letter, so that the page draws a piece it has no picture
for as its letter.
"""
from __future__ import annotations

import re

from chess_rules.squares import PIECE_LETTER

FILE_LETTERS = "abcdefghijklmnopqrstuvwxyz"
# one square of a FEN rank: a run of empty squares, or a piece's letter (with
# the '+' or '~' some variants put before or after it)
_RANK_ITEM = re.compile(r"(\d+)|(\+?[A-Za-z]~?)")


def board_size(board_fen: str) -> tuple[int, int]:
    """(files, ranks) of a board written as FEN's first field.

    >>> board_size("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR")
    (8, 8)
    >>> board_size("rnbqk/ppppp/5/PPPPP/RNBQK")
    (5, 5)
    >>> board_size("r8r/10/10/10/10/10/10/R8R")
    (10, 8)
    """
    ranks = board_fen.split("/")
    files = 0
    for item in _RANK_ITEM.finditer(ranks[0]):
        files += int(item.group(1)) if item.group(1) else 1
    return files, len(ranks)


def board_view(game) -> dict:
    """What the page needs to draw ``game``'s board: its size, the names of its
    files and ranks, the topology's name and the pieces (square, type, colour,
    letter, and any attribute a preset keeps on a piece, such as hp)."""
    files, ranks = board_size(game.board_fen())
    names = game.ruleset.shape.square_names        # (the rule set's board: a1 .. j8 on 10x8)
    pieces = []
    for fact in game.pieces():
        v = fact.values
        name = names[v["square"]]
        attrs = {k: x for k, x in v.items()
                 if k not in ("type", "color", "square", "moved") and _plain(x)}
        pieces.append({"square": name, "type": v["type"], "color": v["color"],
                       "letter": _letter(game, v["type"], v["color"]), "attrs": attrs})
    return {
        "files": files, "ranks": ranks,
        "file_names": list(FILE_LETTERS[:files]),
        "rank_names": [str(r + 1) for r in range(ranks)],
        "topology": getattr(game.ruleset.topology, "name", "plain"),
        "pieces": pieces,
    }


def _letter(game, ptype: str, color: str) -> str:
    """The piece's FEN letter (upper case for White), or the first letter of its
    type's name for a type FEN has no letter for."""
    letter = PIECE_LETTER.get(ptype) or (ptype[:1] or "?")
    return letter.upper() if color == "white" else letter.lower()


def _plain(x) -> bool:
    """Whether a slot's value is plain JSON data (numbers, text, truth)."""
    return isinstance(x, (int, float, str, bool)) or x is None


def square_names(uci: str) -> tuple[str, str, str]:
    """(from, to, promotion letter or '') of a UCI move, on a board of any size.

    >>> square_names("e7e8q"), square_names("a10b10")
    (('e7', 'e8', 'q'), ('a10', 'b10', ''))
    """
    m = re.fullmatch(r"([a-z]\d+)([a-z]\d+)([a-z]?)", uci)
    if m is None:
        raise ValueError(f"not a UCI move: {uci!r}")
    return m.group(1), m.group(2), m.group(3)
