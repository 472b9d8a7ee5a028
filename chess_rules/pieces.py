"""Piece types as data: a name, a FEN letter and a movement in Betza notation.

>>> from chess_rules.fide import fide_rules
>>> from chess_rules.pieces import PieceType
>>> rules = fide_rules()
>>> rules.add_piece(PieceType("archbishop", "a", "BN"))
>>> from chess_rules.game import Game
>>> g = Game("4k3/8/8/8/8/8/8/A3K3 w - - 0 1", ruleset=rules)
>>> sorted(m.uci() for m in g.legal_moves() if m.uci().startswith("a1"))[:3]
['a1b2', 'a1b3', 'a1c2']
>>> g.explain("a1c2").rule
'piece.archbishop-move'

In a rule file the same is one line, ``piece archbishop a "BN"``, and the
piece is then a type like the others in patterns (``piece(type:
archbishop)``), layouts and positions.

Rulings (ours):

* A piece type's FEN letter (upper case for White, lower for Black) reads
  and writes positions, SAN (``Ac2``) and UCI promotions. A FIDE type's name
  or letter is refused (:class:`PieceTypeError`). The fairy letters read are
  those of the rule set that last added a piece or started a game (a game
  makes its rule set's letters the ones read as it starts: a FIDE game reads
  none), so two rule sets may give one letter to different types; two games
  played side by side read positions and promotions typed in as the later
  one's.
* Its moves and attacks are compiled over the rule set's board when it is
  added: add it after a board-geometry preset (``wrap-board``) to have it
  move on that board. A geometry that changes the board's steps or leaps,
  loaded over it, is refused (its production is named among those built on
  the board); ``bouncing-pieces``, which changes only FIDE's diagonal rays,
  leaves a fairy piece's rides unreflected.
* Pawns promote to the rule set's ``promotion-types`` (FIDE's four unless
  set): a fairy piece is a promotion choice only where the rule set says so.
* A position with a fairy piece is never dead by insufficient material (no
  table of such positions is known), and the self-check filter judges every
  move on a simulated board (pins along FIDE lines do not cover a cannon).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .betza import parse_betza
from .errors import ChessError
from .movement import Leg, compile_attacks, mover_rule
from .moves import PROMO_LETTER
from .notation import PROMOTION_LETTERS
from .squares import LETTER_TO_PIECE, PIECE_LETTER, PIECE_TO_LETTER, PIECE_TYPES

__all__ = ["PieceType", "PieceTypeError", "register_piece_type", "activate_pieces",
           "piece_rule"]

_NAME = re.compile(r"[a-z][a-z0-9-]*\Z")


class PieceTypeError(ChessError, ValueError):
    """A piece type that cannot be defined: a bad name or letter, or a letter
    that names another piece type."""


@dataclass(frozen=True)
class PieceType:
    """A piece type: ``name`` (lower-case kebab-case), its FEN ``letter`` (one
    letter, either case) and its movement in Betza notation."""

    name: str
    letter: str
    betza: str

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not _NAME.match(self.name):
            raise PieceTypeError(f"a piece type's name is lower-case letters, digits and "
                                 f"hyphens, starting with a letter, not {self.name!r}")
        if not isinstance(self.letter, str) or len(self.letter) != 1 or not self.letter.isalpha() \
                or not self.letter.isascii():
            raise PieceTypeError(f"a piece type's letter is one letter a-z, not {self.letter!r}")
        object.__setattr__(self, "letter", self.letter.upper())
        self.legs       # a bad Betza string is refused here  # noqa: B018

    @property
    def legs(self) -> tuple[Leg, ...]:
        """Its movement as :class:`~chess_rules.movement.Leg` s."""
        return parse_betza(self.betza)

    @property
    def rule_name(self) -> str:
        """The production that moves it: ``piece.<name>-move``."""
        return f"piece.{self.name}-move"


#: the fairy letters (upper case) positions read now, and their types
_ACTIVE: dict[str, str] = {}


def register_piece_type(piece: PieceType) -> None:
    """Make ``piece``'s name and letter known to positions (FEN, SAN, UCI
    promotions, the piece schema). A FIDE type's name or letter is refused; a
    letter another fairy type had reads as ``piece`` from now on."""
    if piece.name in PIECE_TYPES:
        raise PieceTypeError(f"{piece.name!r} is a FIDE piece type; its movement is FIDE's rules")
    held = LETTER_TO_PIECE.get(piece.letter)
    if held is not None and held[0] in PIECE_TYPES:
        raise PieceTypeError(f"the letter {piece.letter!r} is the {held[0]}'s; give the "
                             f"{piece.name} another")
    PIECE_LETTER[piece.name] = piece.letter
    PROMO_LETTER[piece.name] = piece.letter.lower()
    PROMOTION_LETTERS[piece.letter.lower()] = piece.name
    for colour, letter in (("white", piece.letter), ("black", piece.letter.lower())):
        LETTER_TO_PIECE[letter] = (piece.name, colour)
        PIECE_TO_LETTER[(piece.name, colour)] = letter
    _ACTIVE[piece.letter] = piece.name


def activate_pieces(ruleset) -> None:
    """Make the letters positions read those of ``ruleset``: FIDE's, and the
    fairy piece types it added (another rule set's fairy letters are read no
    more). A game does this as it starts."""
    wanted = ruleset.config.get("pieces", {})
    letters = {letter: name for name, (letter, _) in wanted.items()}
    for letter, name in list(_ACTIVE.items()):
        if letters.get(letter) != name:
            del _ACTIVE[letter]
            LETTER_TO_PIECE.pop(letter, None)
            LETTER_TO_PIECE.pop(letter.lower(), None)
            PROMOTION_LETTERS.pop(letter.lower(), None)
    for name, (letter, betza) in wanted.items():
        if _ACTIVE.get(letter) != name:
            register_piece_type(PieceType(name, letter, betza))


def piece_rule(piece: PieceType, topo):
    """The production ``piece.<name>-move`` moving ``piece`` on ``topo`` and
    its generator: ``(rule, fn_name, gen)``."""
    fn_name = f"gen.piece.{piece.name}.{topo.name}"
    legs = piece.legs
    rule, gen = mover_rule(piece.rule_name, piece.name, legs, topo,
                           f"A {piece.name} moves as {piece.betza!r} (Betza).", fn_name,
                           group="piece", attacks=compile_attacks(piece.name, legs, topo))
    return rule, fn_name, gen
