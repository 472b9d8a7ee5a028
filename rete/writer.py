"""Productions, templates and rule files back to rule text.

The inverse of :mod:`rete.language`'s parser: ``parse_rules(format_rule_file(rf))``
gives ``rf`` back. A production that holds what text cannot say (a Python
callable that is not a registered function's name, a value with no literal)
raises :class:`ValueError` naming it.
"""
from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

from .model import (AssertFact, Call, Collect, Exists, Expr, Halt, Modify, Not, Pattern,
                    Production, Retract, SlotPred, Template, Test, Var)

if TYPE_CHECKING:
    from .language import RuleFile

__all__ = ["format_production", "format_template", "format_rule_file", "COMPARISONS",
           "KEYWORDS"]

COMPARISONS = ("=", "!=", "<", "<=", ">", ">=")
"""Infix operators of tests and slot predicates: the names of registered builtins."""

KEYWORDS = frozenset("""rule template stages uses stage salience meta when then end default
    test not exists collect and assert logical modify retract call halt true false nil
    remove replaces""".split())
"""Words the formatter never writes as bare symbols (a constant, a rule or function
name: it writes them as strings, which read back the same). A template name,
which cannot be a string, is refused only where the parser would read it as a
keyword (``CONDITION_WORDS`` and the sets after it)."""

NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:[-.][A-Za-z0-9_]+)*")
VAR_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*")


class _Unwritable(ValueError):
    pass


def _fmt_string(s: str) -> str:
    out = ['"']
    for ch in s:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif ch.isprintable():
            out.append(ch)
        elif ord(ch) > 0xFFFF:
            out.append(f"\\U{ord(ch):08x}")
        else:
            out.append(f"\\u{ord(ch):04x}")
    out.append('"')
    return "".join(out)


def _symbol_ok(s: str) -> bool:
    return NAME_RE.fullmatch(s) is not None and s not in KEYWORDS


def _fmt_name(s: str, what: str, reserved=KEYWORDS) -> str:
    if not isinstance(s, str) or NAME_RE.fullmatch(s) is None or s in reserved:
        raise _Unwritable(f"{what} {s!r} cannot be written as rule text "
                          f"(it must be a name like knight-move and not a keyword)")
    return s


# The lexer is contextual: a keyword is one only where the grammar can take it,
# and a name elsewhere. These are the words a template name cannot be where a
# pattern or an assert writes it (the template declaration takes any name).
CONDITION_WORDS = frozenset({"test", "not", "exists", "collect", "then"})  # a condition's start
GROUP_WORDS = CONDITION_WORDS - {"then"}            # inside not (... and ...)
BOUND_WORDS = frozenset({"collect"})                # after ?v <-
ASSERT_WORDS = frozenset({"logical"})               # after assert


def _fmt_slot(s: str) -> str:
    if not isinstance(s, str) or NAME_RE.fullmatch(s) is None:
        raise _Unwritable(f"slot name {s!r} cannot be written as rule text")
    return s


def _fmt_callee(fn) -> str:
    if not isinstance(fn, str):
        raise _Unwritable(f"function {fn!r} is not a name: rule text calls functions by name")
    return fn if _symbol_ok(fn) else _fmt_string(fn)


def _fmt_var(name: str) -> str:
    if not isinstance(name, str) or VAR_RE.fullmatch(name) is None:
        raise _Unwritable(f"variable name {name!r} cannot be written as rule text")
    return "?" + name


def _fmt_const(v) -> str:
    if v is None:
        return "nil"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return str(int(v))
    if isinstance(v, float):
        if not math.isfinite(v):
            raise _Unwritable(f"number {v!r} cannot be written as rule text")
        return repr(float(v))
    if isinstance(v, str):
        return v if _symbol_ok(v) else _fmt_string(v)
    raise _Unwritable(f"value {v!r} cannot be written as rule text "
                      f"(numbers, strings, true/false/nil only)")


def _fmt_value(v) -> str:
    if isinstance(v, Var):
        return _fmt_var(v.name)
    if isinstance(v, Expr):
        return f"{_fmt_callee(v.fn)}({', '.join(_fmt_value(a) for a in v.args)})"
    return _fmt_const(v)


def _fmt_pred(p: SlotPred) -> str:
    for a in p.args:
        if isinstance(a, (Var, Expr)):
            raise _Unwritable(f"slot predicate {p.fn} has a non-constant argument {a!r}")
    if p.fn in COMPARISONS and len(p.args) == 1:
        return f"{p.fn} {_fmt_const(p.args[0])}"
    return f"{_fmt_callee(p.fn)}({', '.join(_fmt_const(a) for a in p.args)})"


def _fmt_pattern(p: Pattern, reserved=frozenset()) -> str:
    """A pattern as text; ``reserved``: the keywords where it starts (unbound)."""
    preds = list(p.preds)
    entries = []
    for slot, v in p.slots:
        if isinstance(v, Expr):
            raise _Unwritable(f"pattern {p.template}: slot {slot} holds a function call")
        text = f"{_fmt_slot(slot)}: {_fmt_value(v)}"
        while preds and preds[0].slot == slot:
            text += " & " + _fmt_pred(preds.pop(0))
        entries.append(text)
    while preds:
        slot = preds[0].slot
        parts = []
        while preds and preds[0].slot == slot:
            parts.append(_fmt_pred(preds.pop(0)))
        entries.append(f"{_fmt_slot(slot)}: " + " & ".join(parts))
    head = ""
    if p.bind is not None:
        head = f"{_fmt_var(p.bind)} <- "
        reserved = BOUND_WORDS
    return f"{head}{_fmt_name(p.template, 'template name', reserved)}({', '.join(entries)})"


def _fmt_condition(c, reserved=CONDITION_WORDS) -> str:
    if isinstance(c, Pattern):
        return _fmt_pattern(c, reserved)
    if isinstance(c, Test):
        if c.fn in COMPARISONS and len(c.args) == 2:
            return f"test {_fmt_value(c.args[0])} {c.fn} {_fmt_value(c.args[1])}"
        return f"test {_fmt_value(Expr(c.fn, *c.args))}"
    if isinstance(c, Collect):
        if c.pattern.bind is not None:
            raise _Unwritable("a collect's pattern cannot be bound in rule text "
                              "(bind the collect)")
        head = f"{_fmt_var(c.bind)} <- " if c.bind is not None else ""
        return f"{head}collect {_fmt_pattern(c.pattern)}"
    if isinstance(c, (Not, Exists)):
        kw = "not" if isinstance(c, Not) else "exists"
        if not c.conditions:
            raise _Unwritable(f"an empty {kw} cannot be written as rule text")
        if len(c.conditions) == 1 and isinstance(c.conditions[0], Pattern):
            return f"{kw} {_fmt_pattern(c.conditions[0])}"
        return f"{kw} (" + " and ".join(_fmt_condition(x, GROUP_WORDS)
                                        for x in c.conditions) + ")"
    raise _Unwritable(f"not a condition: {c!r}")


def _fmt_slots(slots) -> str:
    return ", ".join(f"{_fmt_slot(s)}: {_fmt_value(v)}" for s, v in slots)


def _fmt_action(a) -> str:
    if isinstance(a, AssertFact):
        lg = "logical " if a.logical else ""
        name = _fmt_name(a.template, "template name", frozenset() if a.logical else ASSERT_WORDS)
        return f"assert {lg}{name}({_fmt_slots(a.slots)})"
    if isinstance(a, Modify):
        return f"modify {_fmt_var(a.var)} ({_fmt_slots(a.slots)})"
    if isinstance(a, Retract):
        return f"retract {_fmt_var(a.var)}"
    if isinstance(a, Call):
        return f"call {_fmt_callee(a.fn)}({', '.join(_fmt_value(x) for x in a.args)})"
    if isinstance(a, Halt):
        return "halt"
    raise _Unwritable(f"not an action: {a!r}")


def format_production(prod: Production) -> str:
    """A production as rule text: ``parse_production(format_production(p), p.source) == p``.

    Raises ``ValueError`` for what text cannot say (a callable instead of a
    function name, a constant that is not a number, string, bool or nil, ...).
    """
    name = prod.name if _symbol_ok(prod.name) else _fmt_string(prod.name)
    head = f"rule {name}"
    if prod.stage != "default":
        head += f" stage {_fmt_slot(prod.stage)}"
    if prod.salience != 0:
        if isinstance(prod.salience, bool) or not isinstance(prod.salience, int):
            raise _Unwritable(f"salience {prod.salience!r} is not an integer")
        head += f" salience {prod.salience}"
    if prod.meta:
        items = ", ".join(f"{_fmt_slot(k)}: {_fmt_const(v)}" for k, v in prod.meta.items())
        head += f" meta({items})"
    lines = [head]
    if prod.doc:
        lines.append(f"  {_fmt_string(prod.doc)}")
    lines.append("when")
    lines.extend("  " + _fmt_condition(c) for c in prod.conditions)
    lines.append("then")
    lines.extend("  " + _fmt_action(a) for a in prod.actions)
    lines.append("end")
    return "\n".join(lines) + "\n"


def format_template(t: Template) -> str:
    """A template declaration as rule text."""
    parts = []
    for s in t.slots:
        if s in t.defaults:
            parts.append(f"({_fmt_slot(s)} default {_fmt_const(t.defaults[s])})")
        else:
            parts.append(_fmt_slot(s))
    doc = f" {_fmt_string(t.doc)}" if t.doc else ""
    return f"template {_fmt_name(t.name, 'template name', frozenset())} ({' '.join(parts)}){doc}\n"


def format_rule_file(rf: RuleFile) -> str:
    """A whole :class:`RuleFile` as text: declarations first, then the rules and
    removals in the order the parsed text had them (a chess rule file applies
    them in that order); for a RuleFile made by hand, the removals first."""
    out = [format_template(t) for t in rf.templates]
    out += [f"stages {', '.join(_fmt_slot(s) for s in st)}\n" for st in rf.stages]
    if rf.functions:
        out.append(f"uses {', '.join(_fmt_callee(f) for f in rf.functions)}\n")
    # removals and rules in the order the text gave them, where it is known (a
    # chess rule file applies them in that order: a rule removed after it was
    # written, or written again after its removal); else the removals first
    ordered = bool(rf.removals and rf.productions) and \
        len(rf.removal_lines) == len(rf.removals) and \
        len(rf.rule_locs) == len(rf.productions) and \
        min((loc.line, loc.column) for loc in rf.rule_locs) < max(rf.removal_lines)
    if rf.removals and not ordered:
        out.append(f"remove {', '.join(_fmt_rule_name(n) for n in rf.removals)}\n")
    if out:
        out.append("\n")
    replacing = rf.replacing if len(rf.replacing) == len(rf.productions) \
        else [p.name in rf.replaces for p in rf.productions]     # a RuleFile made by hand
    # ((line, column), name of a removal or None, rule text or None), in file order
    edits: list[tuple[tuple[int, int], str | None, str | None]] = []
    for i, (p, repl) in enumerate(zip(rf.productions, replacing)):
        text = format_production(p)
        if repl:
            head, rest = text.split("\n", 1)
            text = f"{head} replaces\n{rest}"
        at = (rf.rule_locs[i].line, rf.rule_locs[i].column) if ordered else (0, 0)
        edits.append((at, None, text + "\n"))
    if ordered:
        edits += [(at, n, None) for n, at in zip(rf.removals, rf.removal_lines)]
        edits.sort(key=lambda e: e[0])
    run: list = []          # removals in a row: one 'remove' line
    for _, name, rule_text in edits + [((0, 0), None, None)]:
        if name is not None:
            run.append(_fmt_rule_name(name))
            continue
        if run:
            out.append(f"remove {', '.join(run)}\n\n")
            run = []
        if rule_text is not None:
            out.append(rule_text)
    return "".join(out)


def _fmt_rule_name(name: str) -> str:
    return name if _symbol_ok(name) else _fmt_string(name)
