"""Typed errors of the chess layer.

Every error raised for bad input derives from :class:`ChessError`, so a caller can
catch the whole family at once, and each carries the details as attributes as well
as in its message.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

__all__ = ["ChessError", "ArgumentError", "NotARuleSetError", "FenError", "IllegalMoveError", "MoveParseError",
           "ReentrantCallError", "NotPicklableError", "PgnError", "PgnSyntaxError", "PgnMoveError"]


class ChessError(Exception):
    """Base class of every error raised by the chess layer for bad input."""


class ArgumentError(ChessError, ValueError):
    """An argument a method cannot take: a square that is none, an option value
    it does not know, a PGN tag name, a rule set that is not a RuleSet."""


class NotARuleSetError(ArgumentError, TypeError):
    """A ``ruleset`` argument that is not a :class:`~chess_rules.ruleset.RuleSet`
    (a preset's id, say): the same error from :class:`~chess_rules.game.Game`,
    :class:`~dice.DiceGame` and the Dice Chess functions."""


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
        super().__init__(f"bad move {quoted(text)}: {reason}")

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


class NotPicklableError(ChessError, TypeError):
    """A :class:`~chess_rules.game.Game` given to pickle (a process pool's
    argument, say): its compiled rules hold Python functions. Another process
    makes its own game from the position's text and the rules' preset ids; a
    game's errors pickle."""


def quoted(value, limit: int = 200) -> str:
    """``repr(value)`` for an error's message, cut short past ``limit``
    characters: an error quotes what it was given, and a megabyte of input is
    not worth a megabyte of message (the error's attributes keep it whole)."""
    try:
        r = repr(value)
    except ValueError:
        # an int past Python's digit limit (sys.get_int_max_str_digits) has no
        # repr: the quotation would be the error, and a raw one
        if isinstance(value, int):
            return f"an integer of {value.bit_length()} bits"
        raise
    if len(r) <= limit:
        return r
    if isinstance(value, str):
        return f"{value[:60]!r}... ({len(value)} characters)"
    return f"{r[:60]}... ({len(r)} characters)"


def source_name(source) -> str | None:
    """``source`` as the errors write it: a file's name, or a path (``Path``) as
    text. Anything else would surface only as an error was being reported."""
    if source is None or isinstance(source, str):
        return source
    if isinstance(source, os.PathLike):
        return os.fspath(source)
    raise ArgumentError(f"source is the name of the text's file (a str or a path), not "
                        f"{type(source).__name__}")


#: the project's packages: a frame in them is not a user's code
_PACKAGES = ("rete", "chess_rules", "presets", "dice", "houserules")
_OURS = tuple(str(Path(__file__).resolve().parents[1] / name) + os.sep for name in _PACKAGES)
#: where Python and the installed packages live
_INSTALLED = tuple({os.path.realpath(p) + os.sep for p in
                    (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix)})


def _causes(exc: BaseException):
    """``exc`` and what it came from (``raise ... from``, an ActionError's cause),
    the first cause last."""
    seen = set()
    at: BaseException | None = exc
    while at is not None and id(at) not in seen:
        seen.add(id(at))
        yield at
        cause = getattr(at, "cause", None)
        at = cause if isinstance(cause, BaseException) else (at.__cause__ or at.__context__)


def user_code_location(exc: BaseException) -> str | None:
    """``FILE:LINE`` of the innermost place in a user's own code (a rule set
    in Python, a function of theirs an action calls) where ``exc``, or the error
    it came from, was raised; None when it came from no such code. A frame in
    the project's packages, the standard library or an installed package is not
    a user's code; a syntax error in a user's file is where the file says."""
    found = None
    for e in _causes(exc):
        if isinstance(e, SyntaxError) and e.filename and e.lineno \
                and _users(e.filename):
            return f"{e.filename}:{e.lineno}"
        tb = e.__traceback__
        called = False      # (the frames that caught it, before any of ours, called us)
        while tb is not None:
            name = tb.tb_frame.f_code.co_filename
            if not _users(name):
                called = True
            elif called:
                found = f"{name}:{tb.tb_lineno}"
            tb = tb.tb_next
        if found is not None:
            return found
    return None


def _users(filename: str) -> bool:
    if filename.startswith("<"):
        return False
    if not os.path.isabs(filename) and filename.split("/")[0] in _PACKAGES:
        return False        # a compiled module's frame names its source relative to the build
    path = os.path.realpath(filename)
    return not path.startswith(_OURS) and not path.startswith(_INSTALLED)


def _at(source: str | None, line: int, column: int) -> str:
    return f"{source + ':' if source else ''}{line}:{column}"


class PgnError(ChessError, ValueError):
    """PGN text that cannot be played: a tag whose value the reader cannot use
    (a FEN that is no position, a ``Variant`` that names rules it does not know),
    or more than one game where one is asked for. Its subclasses are the text
    that cannot be read (:class:`PgnSyntaxError`) and the move that cannot be
    played (:class:`PgnMoveError`).

    Attributes:
        reason: what is wrong.
        line, column: where, in the text (1-based; the column counts characters).
        source: the file the text came from, when known.
    """

    def __init__(self, reason: str, line: int, column: int, source: str | None = None):
        self.reason = reason
        self.line = line
        self.column = column
        self.source = source
        ChessError.__init__(self, f"{_at(source, line, column)}: {reason}")

    def __reduce__(self):
        return (type(self), (self.reason, self.line, self.column, self.source))


class PgnSyntaxError(PgnError):
    """PGN text that does not read as PGN: a tag pair, a comment or a variation
    left open, a word that is no move, a tag given twice."""


class PgnMoveError(PgnError, IllegalMoveError):
    """A move of a PGN game that the rules do not allow at that point (or that
    names several legal moves, or is a null move, which no rule plays).

    Attributes:
        san: the move as the text writes it (also ``move``).
        number: its move number, as PGN writes it (``'12.'``, ``'12...'``).
        reason: why the rules refuse it: the refusing production's reason, as
            :meth:`Game.explain <chess_rules.game.Game.explain>` gives it.
        rule: the production that refuses it, or None.
        uci: the move the rules were asked about (``'e1g1'`` for ``O-O``), or None
            when the text names no piece that could make it.
        line, column, source: where the move is written.
    """

    def __init__(self, san: str, number: str, reason: str, line: int, column: int,
                 source: str | None = None, rule: str | None = None, uci: str | None = None):
        self.san = self.move = san
        self.number = number
        self.rule = rule
        self.uci = uci
        self.reason = reason
        self.line, self.column, self.source = line, column, source
        what = f"{san} ({uci})" if uci and uci != san else san
        why = f"refused by {rule} - {reason}" if rule else reason
        ChessError.__init__(self, f"{_at(source, line, column)}: move {number} {what}: {why}")

    def __reduce__(self):
        return (type(self), (self.san, self.number, self.reason, self.line, self.column,
                             self.source, self.rule, self.uci))
