"""Typed errors of the chess layer.

Every error raised for bad input derives from :class:`ChessError`, so a caller can
catch the whole family at once, and each carries the details as attributes as well
as in its message.
"""

from __future__ import annotations

__all__ = ["ChessError", "ArgumentError", "FenError", "IllegalMoveError", "MoveParseError",
           "ReentrantCallError"]


class ChessError(Exception):
    """Base class of every error raised by the chess layer for bad input."""


class ArgumentError(ChessError, ValueError):
    """An argument a method cannot take: a square that is none, an option value
    it does not know, a PGN tag name, a rule set that is not a RuleSet."""


class FenError(ChessError, ValueError):
    """A malformed or inconsistent FEN.

    Attributes:
        field: which part is wrong: ``'field_count'``, ``'placement'``, ``'side'``,
            ``'castling'``, ``'en_passant'``, ``'halfmove'``, ``'fullmove'``, or a
            name that an extended format adds (e.g. ``'dice'``).
        reason: what is wrong with it, quoting the offending text.
        fen: the whole text, when known.
    """

    def __init__(self, field: str, reason: str, fen: str | None = None):
        self.field = field
        self.reason = reason
        self.fen = fen
        super().__init__(f"bad FEN ({field}): {reason}")

    def __reduce__(self):
        return (type(self), (self.field, self.reason, self.fen))


class IllegalMoveError(ChessError, ValueError):
    """A well-formed move that the position does not allow.

    Attributes:
        move: the move as given (usually UCI text).
        reason: why it is refused.
        rule: name of the rule that refuses it (``'fide.castling'``), or None.
    """

    def __init__(self, move, reason: str, rule: str | None = None):
        self.move = move
        self.reason = reason
        self.rule = rule
        text = f"illegal move {move}: {reason}"
        if rule:
            text += f" (rule {rule})"
        super().__init__(text)

    def __reduce__(self):
        return (type(self), (self.move, self.reason, self.rule))


class MoveParseError(ChessError, ValueError):
    """Move text (UCI or SAN) that cannot be read, or that names no unique legal move.

    Attributes:
        text: the text as given.
        reason: what is wrong (``"not UCI"``, ``"no legal move matches"``,
            ``"ambiguous: matches b1d2, f3d2"``, ...).
        kind: ``"unreadable"`` (not move text at all), ``"no-match"`` (SAN that
            names no legal move) or ``"ambiguous"`` (SAN that names several).
    """

    KINDS = ("unreadable", "no-match", "ambiguous")

    def __init__(self, text, reason: str, kind: str = "unreadable"):
        if kind not in self.KINDS:
            raise ValueError(f"kind must be one of {self.KINDS}, not {kind!r}")
        self.text = text
        self.reason = reason
        self.kind = kind
        super().__init__(f"bad move {text!r}: {reason}")

    def __reduce__(self):
        return (type(self), (self.text, self.reason, self.kind))


class ReentrantCallError(ChessError, RuntimeError):
    """A rule's action called back into the game whose rules are running (to
    generate moves, push, pop, ask the outcome): the game is in the middle of
    that run, so the call is refused instead of answering from a half-made
    position. A rule reads the position through ``ctx.session.chess``; another
    :class:`~chess_rules.game.Game` may be used freely.

    Attributes:
        method: the method called (``"push"``, ``"legal_moves"``, ...).
    """

    def __init__(self, method: str):
        self.method = method
        super().__init__(f"Game.{method}() was called from a rule's action while the game's "
                         f"own rules run; a rule reads the position through "
                         f"ctx.session.chess instead")

    def __reduce__(self):
        return (type(self), (self.method,))
