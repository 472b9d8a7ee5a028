"""Plain dataclasses a scenario file is read into (see ``parser.py``), and the
two ways a scenario goes wrong: :class:`ScenarioError` (it cannot be set up or
played) and :class:`ScenarioFailure` (an expectation does not hold).

The runner is in parts: ``setup.py`` (rule set and start position),
``checks.py`` (the statements every scenario has), ``game_runner.py`` and
``dice_runner.py`` (chess and Dice Chess), ``runner.py`` (``run_scenario``).
"""
from __future__ import annotations

import json

from dataclasses import dataclass, field
from typing import Any


class ScenarioError(Exception):
    """A scenario file that cannot be read or set up: a syntax error, an unknown
    statement, a bad square / move / FEN, an unknown preset.

    ``file``, ``line`` and ``column`` (1-based) point at the offending text.
    """

    def __init__(self, message: str, file: str | None = None, line: int | None = None,
                 column: int | None = None):
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        super().__init__(self.location() + message)

    def location(self) -> str:
        """``FILE:LINE:COLUMN: `` (as much as is known), the message's prefix."""
        if self.file is None and self.line is None:
            return ""
        parts = [str(self.file or "<string>")]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts) + ": "

    def __reduce__(self):
        return (type(self), (self.message, self.file, self.line, self.column))


@dataclass(frozen=True)
class Loc:
    """Where a statement or one of its arguments stands (1-based)."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Arg:
    """One argument word with its position."""

    text: str
    loc: Loc

    def __str__(self) -> str:
        return self.text


@dataclass
class Setup:
    """Everything a scenario says before it plays: the rule set and the position."""

    presets: list[Arg] = field(default_factory=list)
    config: dict[str, dict[str, Any]] = field(default_factory=dict)
    fen: Arg | None = None
    layout: Arg | None = None
    place: list[tuple[str, str, Loc]] = field(default_factory=list)   # (letter, square, loc)
    remove: list[tuple[str, Loc]] = field(default_factory=list)
    edits: list[Loc] = field(default_factory=list)   # each place / remove statement, in order
    rules: list[Arg] = field(default_factory=list)
    modifiers: list[tuple[Arg, list[str]]] = field(default_factory=list)
    ruleset: Arg | None = None          # MODULE:NAME of a rule set composed in Python
    dfen: Arg | None = None
    config_loc: Loc | None = None
    config_args: list[Arg] = field(default_factory=list)   # each PRESET.KEY=VALUE word
    marks: list[str] = field(default_factory=list)   # pytest markers, e.g. slow
    variant: Arg | None = None          # a variant of the catalogue: its rules and board

    @property
    def is_dice(self) -> bool:
        return self.dfen is not None


@dataclass
class Step:
    """``move`` (args: the moves), ``end-turn``, ``roll`` (args: faces), ``undo``."""

    kind: str
    args: list[Arg]
    loc: Loc

    @property
    def line(self) -> int:
        return self.loc.line

    @property
    def column(self) -> int:
        return self.loc.column


@dataclass
class Expectation:
    """One ``expect`` statement: its kind (``legal``, ``moves-from``, ...), its
    arguments, the optional ``by`` word, and (for fen/tree) the rest of the line."""

    kind: str
    args: list[Arg]
    loc: Loc
    by: Arg | None = None
    text: str | None = None
    square: Arg | None = None        # moves-from, hp

    @property
    def line(self) -> int:
        return self.loc.line

    @property
    def column(self) -> int:
        return self.loc.column

    def source(self) -> str:
        """The statement roughly as written (for messages)."""
        words = ["expect", self.kind.replace("-", " ")]
        if self.kind == "moves-from":
            words = ["expect", "moves", "from", f"{self.square}:"]
        elif self.square is not None:
            words.append(str(self.square))
        if self.text is not None and self.kind != "illegal":
            words.append(self.text)
        words += [a.text for a in self.args]
        if self.by is not None:
            words += ["by", self.by.text]
        if self.text is not None and self.kind == "illegal":
            words.append(json.dumps(self.text, ensure_ascii=False))    # the reason, quoted
        return " ".join(words)


@dataclass
class Scenario:
    name: str
    file: str
    line: int
    setup: Setup
    body: list[Step | Expectation] = field(default_factory=list)
    column: int = 1

    @property
    def steps(self) -> list[Step]:
        return [b for b in self.body if isinstance(b, Step)]

    @property
    def expectations(self) -> list[Expectation]:
        return [b for b in self.body if isinstance(b, Expectation)]

    @property
    def loc(self) -> Loc:
        return Loc(self.file, self.line, self.column)

    def __str__(self) -> str:
        return f"{self.file}:{self.line} {self.name}"


class ScenarioFailure(AssertionError):
    """An expectation that does not hold."""

    def __init__(self, loc: Loc, statement: str, expected: str, actual: str,
                 explanation: str | None = None, context: str | None = None):
        self.loc = loc
        self.statement = statement
        self.expected = expected
        self.actual = actual
        self.explanation = explanation
        self.context = context
        super().__init__(self.report())

    def report(self) -> str:
        """The failure as ``houserules test`` prints it: the statement, what was
        expected, what happened, the explanation of a move."""
        lines = [f"{self.loc}: {self.statement}",
                 f"  expected: {self.expected}",
                 f"  actual:   {self.actual}"]
        if self.explanation:
            for i, ln in enumerate(self.explanation.splitlines()):
                lines.append(("  explanation: " if i == 0 else "               ") + ln)
        if self.context:
            lines.append(f"  {self.context}")
        return "\n".join(lines)


def scenario_error(msg: str, where) -> ScenarioError:
    """A :class:`ScenarioError` at ``where`` (an argument, step, expectation or location)."""
    loc = where.loc if isinstance(where, (Arg, Step, Expectation)) else where
    return ScenarioError(msg, loc.file, loc.line, loc.column)
