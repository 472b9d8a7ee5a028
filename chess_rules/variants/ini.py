"""Reading variants.ini text: sections, inheritance and options, with places.

The grammar (one item a line; blank lines and lines whose first non-blank
character is ``#`` or ``;`` are skipped)::

    section = "[" NAME [ ":" PARENT ] "]"
    option  = KEY "=" VALUE        (KEY: letters and digits; VALUE: the rest of
                                    the line, spaces around it dropped)

An option belongs to the section above it. A section's name and parent are
words of letters, digits, ``-`` and ``_``; a section named twice, an option
given twice in one section, an option before any section, or a line that is
neither is a :class:`VariantsIniError` at its line and column.

>>> sections = parse_ini("[mini:chess]\\n# a comment\\nstartFen = 8/8/8/8/8/8/8/K6k w - - 0 1\\n")
>>> s = sections["mini"]
>>> s.parent, s.options["startFen"].value, s.options["startFen"].line
('chess', '8/8/8/8/8/8/8/K6k w - - 0 1', 3)
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import ChessError

__all__ = ["VariantsIniError", "Option", "Section", "parse_ini"]

_HEADER = re.compile(r"\[([A-Za-z0-9_-]+)(?::([A-Za-z0-9_-]+))?\]\Z")
_OPTION = re.compile(r"([A-Za-z][A-Za-z0-9]*)\s*=\s*(.*?)\s*\Z")


class VariantsIniError(ChessError, ValueError):
    """variants.ini text that cannot be read or compiled: the message starts
    with ``source:line:column``."""

    def __init__(self, source: str, line: int, column: int, what: str):
        self.source, self.line, self.column = source, line, column
        super().__init__(f"{source}:{line}:{column}: {what}")


@dataclass(frozen=True)
class Option:
    """One ``key = value`` line, with where it is."""

    key: str
    value: str
    source: str
    line: int
    column: int

    def error(self, what: str) -> VariantsIniError:
        """An error about this option, placed at its value."""
        return VariantsIniError(self.source, self.line, self.column, f"{self.key}: {what}")


@dataclass
class Section:
    """A ``[name]`` or ``[name:parent]`` section and its options by key."""

    name: str
    parent: str | None
    source: str
    line: int
    options: dict[str, Option] = field(default_factory=dict)
    #: the first comment line right under the header (without its ``#``)
    description: str = ""


def parse_ini(text: str, source: str = "<variants.ini>") -> dict[str, Section]:
    """The sections of variants.ini ``text`` by name, in order."""
    if not isinstance(text, str):
        raise VariantsIniError(source, 1, 1, f"variants.ini text is a str, not {type(text).__name__}")
    sections: dict[str, Section] = {}
    current: Section | None = None
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        col = len(raw) - len(raw.lstrip()) + 1
        if not line or line[0] in "#;":
            if current is not None and current.line == n - 1 and not current.description:
                current.description = line.lstrip("#;").strip()
            continue
        if line.startswith("["):
            m = _HEADER.match(line)
            if m is None:
                raise VariantsIniError(source, n, col, f"{line!r} is no section header "
                                                       "([name] or [name:parent])")
            name, parent = m.group(1), m.group(2)
            if name in sections:
                raise VariantsIniError(source, n, col, f"section {name!r} is given twice "
                                                       f"(first on line {sections[name].line})")
            current = sections[name] = Section(name, parent, source, n)
            continue
        m = _OPTION.match(line)
        if m is None:
            raise VariantsIniError(source, n, col, f"{line!r} is neither a section header "
                                                   "nor 'key = value'")
        if current is None:
            raise VariantsIniError(source, n, col, f"option {m.group(1)!r} comes before any "
                                                   "section")
        key, value = m.group(1), m.group(2)
        if key in current.options:
            raise VariantsIniError(source, n, col, f"{key!r} is given twice in [{current.name}] "
                                                   f"(first on line {current.options[key].line})")
        vcol = col + raw.strip().index("=") + 1
        vcol += len(raw.strip()[vcol - col:]) - len(raw.strip()[vcol - col:].lstrip())
        current.options[key] = Option(key, value, source, n, vcol)
    return sections
