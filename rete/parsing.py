"""Parsing rule text: the LALR parser over ``rules.lark``, and syntax errors
that say what was expected, what was found, where, and in which rule.
"""
from __future__ import annotations

import os
import re
from functools import lru_cache

from lark import Lark, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken, VisitError

from .errors import RuleSyntaxError
from .model import Production
from .transformer import RuleFile, RuleTextBuilder, SyntaxAt

__all__ = ["parse_rules", "parse_production"]

_FRIENDLY = {
    "NAME": "a name", "VAR": "a variable (?x)", "STRING": "a string", "NUMBER": "a number",
    "CMP": "a comparison (= != < <= > >=)", "$END": "end of input",
}


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark.open("rules.lark", rel_to=__file__, parser="lalr", lexer="contextual",
                     propagate_positions=True, maybe_placeholders=False)


def _describe_terminal(name: str) -> str:
    if name in _FRIENDLY:
        return _FRIENDLY[name]
    for t in _parser().terminals:
        if t.name == name:
            if type(t.pattern).__name__ == "PatternStr":
                return repr(t.pattern.value)
            break
    if name == "__ANON_0":
        return "'<-'"
    return name.lower()


def _rule_context(text: str, line: int) -> str:
    """`` (in rule 'x')`` for the last rule header at or before ``line``."""
    # lines as the parser counts them: str.splitlines also breaks at \r, \x0c,
    # \u2028 ... inside strings and comments
    head = "\n".join(text.split("\n")[:max(line, 0)])
    found = None
    # the name as the grammar reads it (a header with none names no rule); the
    # indent is no newline, or every blank line would rescan the ones after it
    for m in re.finditer(r'(?m)^[^\S\n]*rule\b\s*("(?:[^"\\\n]|\\.)*"|'
                         r'[A-Za-z_][A-Za-z0-9_]*(?:[-.][A-Za-z0-9_]+)*)?', head):
        found = m.group(1)
    if found is None:
        return ""
    if found.startswith('"'):
        found = found[1:-1]
    return f" (in rule {found!r})"


def _accepts_at(text: str, pos) -> set[str] | None:
    """The terminals the parser accepts after the tokens of ``text[:pos]`` (None
    when that cannot be told)."""
    if not isinstance(pos, int):
        return None
    ip = _parser().parse_interactive(text[:pos])
    try:
        for _ in ip.iter_parse():
            pass
        return ip.accepts()
    except UnexpectedInput:
        return None


def _syntax_error(e: UnexpectedInput, text: str, source: str) -> RuleSyntaxError:
    line, column = e.line, e.column
    if isinstance(e, UnexpectedToken):
        names = getattr(e, "accepts", None) or e.expected   # accepts: exact (simulated)
        expected = sorted({_describe_terminal(n) for n in names})
        if e.token.type == "$END":
            found = "end of input"
            lines = text.split("\n")
            line, column = len(lines), len(lines[-1]) + 1
        else:
            found = repr(str(e.token))
    elif isinstance(e, UnexpectedCharacters):
        # the lexer's allowed set is its state's (LALR merges the lookaheads of
        # every context that state serves): ask the parser what may come here
        names = _accepts_at(text, e.pos_in_stream)
        if names is None:
            names = e.allowed or ()
        expected = sorted({_describe_terminal(n) for n in names})
        found = repr(e.char)
        if e.char == '"':       # no string token starts here: it has no end on its line
            found += " that starts a string that is not closed on its line"
    else:  # UnexpectedEOF
        expected = sorted({_describe_terminal(n) for n in getattr(e, "expected", ()) or ()})
        found = "end of input"
        lines = text.split("\n")
        line, column = len(lines), len(lines[-1]) + 1
    if line is None or line < 1:
        line, column = 1, 1
    if len(expected) == 1:
        want = f"expected {expected[0]}"
    elif expected:
        want = "expected one of: " + ", ".join(expected)
    else:
        want = "unexpected input"
    return RuleSyntaxError(f"{want} but found {found}{_rule_context(text, line)}",
                           line, column, source)


#: how deeply ``not``, ``exists`` and function calls may nest in rule text (the
#: transformer, the compiler and the writer recurse through them)
MAX_NESTING = 100
_NESTING = frozenset({"negation", "exists", "call"})


def _check_depth(tree, text: str, source: str) -> None:
    """Refuse ``not``, ``exists`` or calls nested more than :data:`MAX_NESTING`
    deep (the tree is walked without recursion, in text order) with a syntax
    error at the first construct that goes too deep."""
    stack = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if node.data in _NESTING:
            depth += 1
            if depth > MAX_NESTING:
                line = getattr(node.meta, "line", None) or 1
                column = getattr(node.meta, "column", None) or 1
                raise RuleSyntaxError(f"nested too deeply: 'not', 'exists' and function "
                                      f"calls nest at most {MAX_NESTING} levels"
                                      f"{_rule_context(text, line)}", line, column, source)
        stack.extend((c, depth) for c in reversed(node.children) if isinstance(c, Tree))


def parse_rules(text: str, source: str = "<string>") -> RuleFile:
    """Parse rule text into a :class:`RuleFile`; raises :class:`RuleSyntaxError`.
    ``source`` names the text in errors: a file's name, or its path."""
    if isinstance(source, os.PathLike):     # (an error would add ':' to it)
        source = os.fspath(source)
    if text.startswith("\ufeff"):      # a byte-order mark is no text (as read_text_file)
        text = text[1:]
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as e:
        raise _syntax_error(e, text, source) from None
    _check_depth(tree, text, source)
    try:
        return RuleTextBuilder(source).transform(tree)
    except VisitError as e:
        orig = e.orig_exc
        if isinstance(orig, SyntaxAt):
            raise RuleSyntaxError(orig.message + _rule_context(text, orig.line),
                                  orig.line, orig.column, source) from None
        raise orig from None


def parse_production(text: str, source: str = "<string>") -> Production:
    """Parse a text that holds exactly one rule (and nothing else)."""
    rf = parse_rules(text, source)
    if len(rf.productions) != 1 or rf.templates or rf.stages or rf.functions:
        raise RuleSyntaxError(f"expected exactly one rule, found {len(rf.productions)} rule(s)"
                              + (" and declarations" if rf.templates or rf.stages or rf.functions
                                 else ""), 1, 1, source)
    return rf.productions[0]

