"""The rule language's transformer: lark's parse tree -> the plain objects of
:mod:`rete.model`, collected in a :class:`RuleFile` with the position of every
declaration and of every name a rule uses (for load-time errors that point at
line and column).

A rule written as text and the same rule written with :class:`~rete.model.Rule`
build equal objects; :mod:`rete.writer` goes the other way.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from lark import Token, Transformer, v_args

from .errors import SlotValueError
from .model import (AssertFact, Call, Collect, Exists, Expr, Halt, Modify, Not, Pattern,
                    Production, Retract, SlotPred, Template, Test, Var)

__all__ = ["RuleFile", "RuleLocation", "RuleTextBuilder", "SyntaxAt"]


# ---------------------------------------------------------------- the result


@dataclass
class RuleLocation:
    """Where things are in the text of one rule (for load-time error messages)."""

    line: int
    column: int
    name: tuple[int, int] = (0, 0)
    stage: tuple[int, int] | None = None
    refs: list = field(default_factory=list)     # (kind, key, line, column)
    meta: tuple[int, int] | None = None
    actions: tuple = ()          # where each action starts, in order


@dataclass
class RuleFile:
    """What a rule text declares, as plain objects, in text order."""

    templates: list[Template] = field(default_factory=list)
    stages: list[list[str]] = field(default_factory=list)
    productions: list[Production] = field(default_factory=list)
    functions: list[str] = field(default_factory=list)
    removals: list[str] = field(default_factory=list)
    replaces: set[str] = field(default_factory=set)      # the names of the next list's True
    replacing: list[bool] = field(default_factory=list)  # per production: written ``replaces``
    source: str = "<string>"
    # positions, aligned with the lists above
    template_lines: list[tuple[int, int]] = field(default_factory=list, repr=False, compare=False)
    stage_lines: list[tuple[int, int]] = field(default_factory=list, repr=False, compare=False)
    function_lines: list[tuple[int, int]] = field(default_factory=list, repr=False, compare=False)
    removal_lines: list[tuple[int, int]] = field(default_factory=list, repr=False, compare=False)
    rule_locs: list[RuleLocation] = field(default_factory=list, repr=False, compare=False)

    def line_of(self, rule: str) -> int | None:
        """The line where the rule named ``rule`` starts."""
        for p, loc in zip(self.productions, self.rule_locs):
            if p.name == rule:
                return loc.line
        return None


# ---------------------------------------------------------------- the transformer


def _pos(tok) -> tuple[int, int]:
    return (getattr(tok, "line", 0) or 0, getattr(tok, "column", 0) or 0)


class SyntaxAt(Exception):
    """Raised inside the transformer; turned into RuleSyntaxError with the source name."""

    def __init__(self, message: str, tok):
        self.message = message
        self.line, self.column = _pos(tok)


def _unescape(tok: Token) -> str:
    body = tok[1:-1]
    if "\\" not in body:
        return body
    out = []
    i = 0
    simple = {'"': '"', "\\": "\\", "n": "\n", "t": "\t", "r": "\r", "0": "\0"}
    while i < len(body):
        ch = body[i]
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        e = body[i + 1]
        if e in simple:
            out.append(simple[e])
            i += 2
        elif e in "uU":
            n = 4 if e == "u" else 8
            digits = body[i + 2:i + 2 + n]
            if len(digits) != n or not all(c in "0123456789abcdefABCDEF" for c in digits) \
                    or int(digits, 16) > 0x10FFFF:
                raise SyntaxAt(f"bad escape \\{e}{digits} in string: expected \\{e} and "
                                f"{n} hex digits", tok)
            out.append(chr(int(digits, 16)))
            i += 2 + n
        else:
            raise SyntaxAt(f"unknown escape \\{e} in string (known: \\\" \\\\ \\n \\t \\r "
                            f"\\0 \\uXXXX \\UXXXXXXXX)", tok)
    return "".join(out)


def _int(s: str, tok) -> int:
    """An integer literal; one too long for Python to read (over 4300 digits,
    ``sys.get_int_max_str_digits``) is a syntax error at the number."""
    try:
        return int(s)
    except ValueError:
        raise SyntaxAt(f"number {s[:20]}... ({len(s.lstrip('+-'))} digits) is too long", tok) \
            from None


class _Entry:
    __slots__ = ("slot", "first", "preds")

    def __init__(self, slot, first, preds):
        self.slot = slot      # Token
        self.first = first    # ('var', Var) | ('const', value) | None
        self.preds = preds    # [(fn, args, tok)]


class _Opt:
    __slots__ = ("kind", "value", "tok")

    def __init__(self, kind, value, tok):
        self.kind, self.value, self.tok = kind, value, tok


class _Doc(str):
    pass


class _Lhs(tuple):
    pass


def _is_const(v) -> bool:
    return not isinstance(v, (Var, Expr))


class RuleTextBuilder(Transformer):
    """Parse tree -> model objects. Records name positions per rule."""

    def __init__(self, source: str):
        super().__init__()
        self.source = source
        self.refs: list = []
        self.out = RuleFile(source=source)

    # ---------------------------------------------------------- values

    def number(self, c):
        t = c[0]
        s = str(t)
        if any(ch in s for ch in ".eE"):
            v = float(s)
            if not math.isfinite(v):
                raise SyntaxAt(f"number {s} is out of range", t)
            return v
        return _int(s, t)

    def string(self, c):
        return _unescape(c[0])

    def symbol(self, c):
        return str(c[0])

    def true(self, c):
        return True

    def false(self, c):
        return False

    def nil(self, c):
        return None

    def var(self, c):
        t = c[0]
        self.refs.append(("var", str(t)[1:], *_pos(t)))
        return Var(str(t)[1:])

    def callee(self, c):
        t = c[0]
        name = _unescape(t) if t.type == "STRING" else str(t)
        self.refs.append(("function", name, *_pos(t)))
        return (name, t)

    def call(self, c):
        return Expr(c[0][0], *c[1:])

    # ---------------------------------------------------------- declarations

    def slot_plain(self, c):
        return (c[0], False, None)

    def slot_default(self, c):
        return (c[0], True, c[1])

    def template(self, c):
        name = c[0]
        doc = ""
        slots, defaults = [], {}
        for x in c[1:]:
            if isinstance(x, _Doc):
                doc = str(x)
            else:
                tok, has_default, value = x
                slots.append(str(tok))
                if has_default:
                    defaults[str(tok)] = value
        try:
            t = Template(str(name), tuple(slots), defaults, doc)
        except SlotValueError as e:
            raise SyntaxAt(str(e), name) from None
        self.out.templates.append(t)
        self.out.template_lines.append(_pos(name))
        self.refs = []

    def stages(self, c):
        self.out.stages.append([str(t) for t in c])
        self.out.stage_lines.append(_pos(c[0]))
        self.refs = []

    def remove(self, c):
        for name, tok in c:
            self.out.removals.append(name)
            self.out.removal_lines.append(_pos(tok))
        self.refs = []

    def uses(self, c):
        for name, tok in c:
            self.out.functions.append(name)
            self.out.function_lines.append(_pos(tok))
        self.refs = []

    # ---------------------------------------------------------- rules

    def rule_name(self, c):
        t = c[0]
        return (_unescape(t) if t.type == "STRING" else str(t), t)

    def opt_stage(self, c):
        return _Opt("stage", str(c[0]), c[0])

    def opt_salience(self, c):
        t = c[0]
        s = str(t)
        if not re.fullmatch(r"[+-]?\d+", s):
            raise SyntaxAt(f"salience must be an integer, not {s}", t)
        return _Opt("salience", _int(s, t), t)

    def opt_replaces(self, c):
        return _Opt("replaces", True, c[0])

    def meta_item(self, c):
        return (c[0], c[1])

    @v_args(meta=True)
    def opt_meta(self, where, c):
        meta = {}
        for k, v in c:
            if str(k) in meta:
                raise SyntaxAt(f"meta key {str(k)!r} given twice", k)
            meta[str(k)] = v
        # the keyword's place, for "meta given twice"
        return _Opt("meta", meta, Token("META", "meta", line=where.line, column=where.column))

    def doc(self, c):
        return _Doc(_unescape(c[0]))

    def lhs(self, c):
        return _Lhs(_flatten(c))

    def rule(self, c):
        kw = c[0]
        (name, name_tok) = c[1]
        opts: dict[str, Any] = {"stage": "default", "salience": 0, "meta": {}}
        seen = {}
        doc = ""
        conds: tuple = ()
        actions = []
        for x in c[2:]:
            if isinstance(x, _Opt):
                if x.kind in seen:
                    raise SyntaxAt(f"rule {name!r}: {x.kind} given twice", x.tok or kw)
                seen[x.kind] = x
                opts[x.kind] = x.value
            elif isinstance(x, _Doc):
                doc = str(x)
            elif isinstance(x, _Lhs):
                conds = tuple(x)
            else:
                actions.append(x)
        first_action = actions[0][1] if actions else None
        tests: dict = {}
        for kind, key, line, column in self.refs:
            # the conditions' functions: those written before the first action
            if kind == "function" and (first_action is None or (line, column) < first_action):
                tests.setdefault(key, (line, column))
        p = Production(name, conds, tuple(a for a, _ in actions), opts["stage"],
                       opts["salience"], self.source, doc, opts["meta"],
                       tuple(at for _, at in actions),
                       tuple((k, line, column) for k, (line, column) in tests.items()))
        loc = RuleLocation(*_pos(kw), name=_pos(name_tok),
                   stage=_pos(seen["stage"].tok) if "stage" in seen else None, refs=self.refs,
                   meta=_pos(seen["meta"].tok) if "meta" in seen else None,
                   actions=tuple(at for _, at in actions))
        self.refs = []
        if "replaces" in seen:
            self.out.replaces.add(name)
        self.out.replacing.append("replaces" in seen)
        self.out.productions.append(p)
        self.out.rule_locs.append(loc)

    # ---------------------------------------------------------- conditions

    def pred_op(self, c):
        op, value = c
        fn = "=" if op == "==" else str(op)
        self.refs.append(("function", fn, *_pos(op)))
        return (fn, (value,), op)

    def pred_call(self, c):
        e = c[0]
        return (e.fn, e.args, None)

    def slot_entry(self, c):
        slot = c[0]
        first = c[1]
        preds = list(c[2:])
        if isinstance(first, tuple) and len(first) == 3:      # a predicate
            preds.insert(0, first)
            first = None
        elif isinstance(first, Var):
            first = ("var", first)
        else:
            first = ("const", first)
        return _Entry(slot, first, preds)

    def pattern(self, c):
        if isinstance(c[0], Token) and c[0].type == "VAR":
            bind, name, entries = c[0], c[1], c[2:]
        else:
            bind, name, entries = None, c[0], c[1:]
        tname = str(name)
        self.refs.append(("template", tname, *_pos(name)))
        if bind is not None:
            self.refs.append(("var", str(bind)[1:], *_pos(bind)))
        slots, preds, tests = [], [], []
        for e in entries:
            slot = str(e.slot)
            self.refs.append(("slot", (tname, slot), *_pos(e.slot)))
            if e.first is not None:
                slots.append((slot, e.first[1]))
            for fn, args, tok in e.preds:
                if all(_is_const(a) for a in args):
                    preds.append(SlotPred(slot, fn, tuple(args)))
                elif e.first is not None and e.first[0] == "var":
                    tests.append(Test(fn, e.first[1], *args))
                else:
                    raise SyntaxAt(
                        f"the predicate {fn} on slot {slot!r} uses variables or function calls; "
                        f"bind the slot to a variable first (e.g. {slot}: ?v & ...)",
                        tok or e.slot)
        pat = Pattern(tname, tuple(slots), str(bind)[1:] if bind is not None else None,
                      tuple(preds))
        return [pat, *tests]

    def test_cmp(self, c):
        a, op, b = c
        fn = "=" if op == "==" else str(op)
        self.refs.append(("function", fn, *_pos(op)))
        return [Test(fn, a, b)]

    def test_call(self, c):
        e = c[0]
        return [Test(e.fn, *e.args)]

    def _scope(self, meta) -> None:
        # the variables a negation, exists or collect binds are its own: an
        # unbound-variable error points at a use outside such scopes first
        if not getattr(meta, "empty", True):
            self.refs.append(("scope", (meta.end_line, meta.end_column), meta.line, meta.column))

    @v_args(meta=True)
    def negation(self, meta, c):
        self._scope(meta)
        return [Not(*_flatten(c))]

    @v_args(meta=True)
    def exists(self, meta, c):
        self._scope(meta)
        return [Exists(*_flatten(c))]

    @v_args(meta=True)
    def collect(self, meta, c):
        self._scope(meta)
        if isinstance(c[0], Token) and c[0].type == "VAR":
            bind, kw, (pat, *tests) = c
        else:
            bind, (kw, (pat, *tests)) = None, c[-2:]
        if pat.bind is not None:
            raise SyntaxAt(f"bind the collect, not the pattern it collects "
                           f"(?{pat.bind} <- collect {pat.template}(...))", kw)
        if tests:
            raise SyntaxAt("the pattern a collect reads may test its slots against constants "
                           "only: a predicate on a variable would join, and a collect does not",
                           kw)
        name = None if bind is None else str(bind)[1:]
        if name is not None:
            self.refs.append(("var", name, *_pos(bind)))
            self.refs.append(("collect", name, *_pos(bind)))
        return [Collect(pat, name)]

    # ---------------------------------------------------------- actions

    def slot_value(self, c):
        return (c[0], c[1])

    @v_args(meta=True)
    def assert_(self, meta, c):
        logical = False
        i = 0
        if isinstance(c[0], Token) and c[0].type == "LOGICAL":
            logical, i = True, 1
        name = c[i]
        tname = str(name)
        self.refs.append(("template", tname, *_pos(name)))
        slots = []
        for tok, v in c[i + 1:]:
            self.refs.append(("slot", (tname, str(tok)), *_pos(tok)))
            slots.append((str(tok), v))
        return AssertFact(tname, tuple(slots), logical), (meta.line, meta.column)

    @v_args(meta=True)
    def modify(self, meta, c):
        var = c[0]
        name = str(var)[1:]
        self.refs.append(("var", name, *_pos(var)))
        self.refs.append(("target", name, *_pos(var)))
        slots = []
        for tok, v in c[1:]:
            self.refs.append(("mslot", (name, str(tok)), *_pos(tok)))
            slots.append((str(tok), v))
        return Modify(name, tuple(slots)), (meta.line, meta.column)

    @v_args(meta=True)
    def retract(self, meta, c):
        var = c[0]
        self.refs.append(("var", str(var)[1:], *_pos(var)))
        self.refs.append(("target", str(var)[1:], *_pos(var)))
        return Retract(str(var)[1:]), (meta.line, meta.column)

    @v_args(meta=True)
    def call_action(self, meta, c):
        e = c[0]
        at = (meta.line, meta.column)
        # the callee: the first reference to the function after the keyword
        callee = next(((ln, col) for k, key, ln, col in self.refs
                       if k == "function" and key == e.fn and (ln, col) > at), None)
        if callee is not None:
            self.refs.append(("call", e.fn, *callee))
        return Call(e.fn, *e.args), at

    @v_args(meta=True)
    def halt(self, meta, c):
        return Halt(), (getattr(meta, "line", 0), getattr(meta, "column", 0))

    def start(self, c):
        return self.out


def _flatten(items) -> list:
    out = []
    for x in items:
        if isinstance(x, list):
            out.extend(x)
        elif x is not None:
            out.append(x)
    return out
