"""Betza notation, as Fairy-Stockfish reads it, compiled to movement legs.

A Betza string is a run of atoms, each with the modifiers written before it:

* leaper atoms ``W F D N A H C L Z J G`` (the (1,0) wazir, (1,1) ferz, (2,0)
  dabbaba, (2,1) knight, (2,2) alfil, (3,0) threeleaper, (3,1) camel (C or
  L), (3,2) zebra (Z or J), (3,3) tripper) and ``K`` (W and F);
* rider atoms ``R B Q`` (W, F, both, ridden); a leaper atom doubled (``WW``)
  or followed by a digit (``N0`` unlimited, ``W3`` at most three) rides too;
* directions ``f b l r`` (forward, backward, left, right: the piece's own, so
  Black's are turned half round), ``v`` (f and b), ``s`` (l and r), ``h``,
  and pairs of them (``fr``, ``lb``, ``fs``, ``ff``: on an oblique atom such
  as N a doubled letter picks the narrow pair, ``fh`` the four forward);
* ``m`` move only, ``c`` capture only (both when neither is given); ``n``
  lame (a leap blocked by a piece on the squares it passes); ``p`` hop over a
  screen (a cannon: xiangqi's is ``mRcpR``); ``g`` grasshopper (lands just
  beyond the first piece); ``i`` only a piece's first move.

A piece type written so (:mod:`chess_rules.pieces`) moves by the production
``piece.<name>-move``; its attacks (check, pins, castling through attacked
squares) come from the same legs.

Rulings, and where we differ from Fairy-Stockfish (checked by
``tests/chess/test_betza_fsf.py``, legal moves and perft(2) along seeded
random playouts for eighteen pieces: no difference in what both read):

* Black's directions are White's turned half round, as Fairy-Stockfish has
  them: ``fr`` is toward the h-file for White and the a-file for Black.
* ``p`` on a leaper atom hops along its line as on a rider (``pW`` is
  ``pR``), as Fairy-Stockfish reads it; ``g`` lands on the square just
  beyond the first piece on the line, whatever the atom's count.
* ``n`` on a rider is ignored, as there (a lame rider is no Betza piece);
  a lame leap passes the squares straight along its longer side first, then
  diagonally (``nN`` is blocked by the orthogonal neighbour, ``nA`` by the
  diagonal one).
* (ours) ``i`` is a piece that has not moved; Fairy-Stockfish reads it by the
  square the piece stands on.
* (ours) Anything Fairy-Stockfish would skip silently (``e``, a letter it does
  not know, modifiers left with no atom, directions that select none of an
  atom's moves) is refused here with a :class:`BetzaError` that says where.
* Not read: XBetza's multi-leg ``a``, ``j``, ``o``, ``x``, ``y``, ``z`` and
  brackets (Fairy-Stockfish reads none of them in ``customPiece``).

>>> legs = parse_betza("mRcpR")
>>> [(leg.mode, leg.ride, leg.hop) for leg in legs]
[('move', 0, None), ('capture', 0, 'cannon')]
>>> sorted(parse_betza("fN")[0].offsets)
[(-1, 2), (1, 2)]
"""
from __future__ import annotations

from .errors import ChessError
from .movement import Leg

__all__ = ["BetzaError", "parse_betza", "LEAPER_ATOMS", "RIDER_ATOMS"]

#: atom -> its (forward, sideways) steps, as (rank, file) pairs
LEAPER_ATOMS: dict[str, tuple[tuple[int, int], ...]] = {
    "W": ((1, 0),), "F": ((1, 1),), "D": ((2, 0),), "N": ((2, 1),), "A": ((2, 2),),
    "H": ((3, 0),), "L": ((3, 1),), "C": ((3, 1),), "J": ((3, 2),), "Z": ((3, 2),),
    "G": ((3, 3),), "K": ((1, 0), (1, 1)),
}
RIDER_ATOMS: dict[str, tuple[tuple[int, int], ...]] = {
    "R": ((1, 0),), "B": ((1, 1),), "Q": ((1, 0), (1, 1)),
}
_VERTICAL = "fbvh"
_HORIZONTAL = "rlsh"

# The eight images of an atom (a, b) (a: forward, b: to the right) and the
# direction words that select each: a word is one modifier doubled ("ff") or
# a vertical-horizontal pair in either order ("fr", "rf", "fs", ...).
_IMAGES = (
    (lambda a, b: (a, b), "ff vv rf rv fh rh hr"),
    (lambda a, b: (-a, -b), "bb vv lb lv bh lh hr"),
    (lambda a, b: (-b, a), "rr ss br bs bh rh hr"),
    (lambda a, b: (b, -a), "ll ss fl fs fh lh hr"),
    (lambda a, b: (b, a), "rr ss fr fs fh rh hl"),
    (lambda a, b: (-b, -a), "ll ss bl bs bh lh hl"),
    (lambda a, b: (-a, b), "bb vv rb rv bh rh hl"),
    (lambda a, b: (a, -b), "ff vv lf lv fh lh hl"),
)


class BetzaError(ChessError, ValueError):
    """A Betza string that does not parse: says what and where."""

    def __init__(self, text: str, pos: int, what: str):
        self.text, self.pos = text, pos
        super().__init__(f"Betza {text!r}, at {pos + 1}: {what}")


def _offsets(atoms, words: list[str]) -> tuple[tuple[int, int], ...]:
    out: list[tuple[int, int]] = []
    for a, b in atoms:
        # a word pairing two orthogonal senses splits on a lone orthogonal atom
        # ("fsW" is fW and sW: a xiangqi soldier)
        ws = []
        for w in words:
            if len(atoms) == 1 and b == 0 and w[0] != w[1]:
                ws += [w[0] * 2, w[1] * 2]
            else:
                ws.append(w)
        for image, selectors in _IMAGES:
            if not ws or any(w in selectors.split() for w in ws):
                rank, file = image(a, b)
                if (file, rank) not in out:
                    out.append((file, rank))
    return tuple(out)


def parse_betza(text: str) -> tuple[Leg, ...]:
    """The movement legs of a Betza string (see the module docstring); a
    :class:`BetzaError` for anything it does not read."""
    if not isinstance(text, str):
        raise BetzaError(repr(text), 0, "a Betza movement is text")
    legs: list[Leg] = []
    modes: list[str] = []
    words: list[str] = []
    hop = None
    lame = initial = False
    start = 0
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in "mc":
            modes.append("move" if ch == "m" else "capture")
        elif ch in "pg":
            hop = "cannon" if ch == "p" else "grasshopper"
        elif ch == "n":
            lame = True
        elif ch == "i":
            initial = True
        elif ch in _VERTICAL or ch in _HORIZONTAL:
            nxt = text[i + 1] if i + 1 < len(text) else ""
            if nxt and (nxt == ch or (ch in _VERTICAL and nxt in _HORIZONTAL)
                        or (ch in _HORIZONTAL and nxt in _VERTICAL)):
                words.append(ch + nxt)
                i += 1
            else:
                words.append(ch * 2)
        elif ch in LEAPER_ATOMS or ch in RIDER_ATOMS:
            rider = ch in RIDER_ATOMS
            atoms = RIDER_ATOMS.get(ch) or LEAPER_ATOMS[ch]
            ride = 0 if rider else 1
            nxt = text[i + 1] if i + 1 < len(text) else ""
            if nxt.isdigit() or nxt == ch:
                rider = True
                ride = int(nxt) if nxt.isdigit() else 0
                i += 1
            if hop == "grasshopper":
                ride = 0
            elif hop == "cannon" and not rider:
                ride = 0        # a hopper goes along its line (as Fairy-Stockfish reads pW)
            mode = "both" if not modes or set(modes) == {"move", "capture"} else modes[0]
            offs = _offsets(atoms, words)
            if not offs:
                raise BetzaError(text, start, f"the directions {text[start:i]!r} select "
                                              f"none of {ch}'s moves")
            legs.append(Leg(offs, ride=ride, mode=mode,
                            lame=lame and not rider and hop is None, hop=hop,
                            initial=initial))
            modes, words, hop, lame, initial = [], [], None, False, False
            start = i + 1
        elif ch.isdigit():
            raise BetzaError(text, i, f"the count {ch!r} follows no atom")
        else:
            raise BetzaError(text, i, f"{ch!r} is no Betza atom or modifier (atoms: "
                                      f"{' '.join(LEAPER_ATOMS)} {' '.join(RIDER_ATOMS)}; "
                                      "modifiers: f b l r v s h m c n p g i)")
        i += 1
    if start < len(text):
        raise BetzaError(text, start, f"the modifiers {text[start:]!r} modify no atom")
    return tuple(legs)
