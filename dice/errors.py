"""Typed errors of Dice Chess.

Every error derives from :class:`chess_rules.errors.ChessError`; DFEN errors are
:class:`~chess_rules.errors.FenError` s (with ``field`` set) and refused micro-moves
are :class:`~chess_rules.errors.IllegalMoveError` s whose ``kind`` says why.
"""
from __future__ import annotations

from chess_rules.errors import ArgumentError, ChessError, FenError, IllegalMoveError

__all__ = ["DiceError", "DiceArgumentError", "DiceBoardError", "DfenError", "DiceMoveError", "NoDieError", "NotLegalMoveError",
           "MaxMicroMovesError", "GameOverError", "EndTurnError", "RollError", "TurnTreeError"]


class DiceError(ChessError):
    """Base class of the Dice Chess errors that are not about a FEN or a move."""


class DiceArgumentError(ArgumentError, TypeError):
    """An argument of the wrong kind: a rule set that is not a RuleSet, a position
    that is not a parsed one. A ChessError as every bad input here, and a
    TypeError as Python's own errors for the wrong type are."""


class DiceBoardError(DiceError, ArgumentError):
    """A rule set on a board other than 8x8 given to Dice Chess, whose dice,
    positions and turns are those of the 64-square board."""


class DfenError(FenError):
    """A malformed or inconsistent DFEN. ``field`` names the part at fault:
    ``'field_count'``, ``'placement'``, ``'side'``, ``'castling'``,
    ``'en_passant'``, ``'halfmove'``, ``'fullmove'`` or ``'dice'``."""

    def __init__(self, field: str, reason: str, fen: str | None = None):
        super().__init__(field, reason, fen)
        self.args = (f"bad DFEN ({field}): {reason}",)

    def __str__(self) -> str:
        return f"bad DFEN ({self.field}): {self.reason}"


class TurnTreeError(DiceError):
    """The turns of a position cannot be listed under this rule set: a micro-move
    spent no die, so a turn would never end (a rule set without ``dice.spend-die``)."""


class DiceMoveError(IllegalMoveError):
    """A micro-move that :func:`dice.apply_move` refuses.

    ``kind`` is one of ``'no-die'``, ``'illegal'``, ``'max-micro-moves'``,
    ``'game-over'``; ``rule`` names the production that refused it, when one did
    (``dice.die-filter``, ``fide.castling``, ...), or ``dice.maximum-micro-moves``
    for the turn-level rule (the tree of :mod:`dice.turns`, not a production).
    """

    kind = "illegal"

    def __reduce__(self):
        return (type(self), (self.move, self.reason, self.rule))


class NoDieError(DiceMoveError):
    """No die left for the piece that would move (castling needs a king and a rook die)."""

    kind = "no-die"


class NotLegalMoveError(DiceMoveError):
    """The move is not a micro-move of the position (geometry, an empty square, ...)."""

    kind = "illegal"


class MaxMicroMovesError(DiceMoveError):
    """A micro-move that only starts turns spending fewer dice than the roll allows."""

    kind = "max-micro-moves"


class GameOverError(DiceMoveError):
    """A king has been captured: the game is over and no move is legal."""

    kind = "game-over"


class EndTurnError(DiceError, ValueError):
    """:func:`dice.end_turn` refused: a legal micro-move is left, or the game is over.

    ``kind`` is ``'moves-left'`` or ``'game-over'``."""

    def __init__(self, kind: str, reason: str):
        self.kind = kind
        self.reason = reason
        super().__init__(f"cannot end the turn: {reason}")

    def __reduce__(self):
        return (type(self), (self.kind, self.reason))


class RollError(DiceError, ValueError):
    """:func:`dice.roll` refused: the dice are already rolled, or the game is over."""

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(f"cannot roll: {reason}")

    def __reduce__(self):
        return (type(self), (self.reason,))
