"""The rule language: templates, stages, function declarations and productions as text.

The grammar lives in ``rules.lark`` (LALR(1)); parsing builds exactly the
objects of :mod:`rete.model` that the Python builder builds, so a rule written
as text and the same rule written with :class:`~rete.model.Rule` are equal
(``Production.source`` holds the name of the text the rule came from).
Rule text is data: it names functions, and only functions registered in the
session (:meth:`Session.register_function` and the builtins) are ever called.

Example::

    template person (name age (score default 0))
    stages setup, main, report
    uses is_adult, greet

    rule "adults" stage main salience 10
      "optional doc string"
    when
      ?p <- person(name: ?n, age: ?a, score: ?s & > 3)
      test is_adult(?a)
      test ?a >= 18
      not person(name: ?n, age: 0)
      not (friend(a: ?n, b: ?f) and person(name: ?f, age: 0))
      exists friend(a: ?n)
    then
      assert greeting(to: ?n)
      assert logical adult(name: ?n)
      modify ?p (score: add(?s, 1))
      retract ?p
      call greet(?n, "hello")
      halt
    end

Values are integers, floats, double-quoted strings (escapes ``\\" \\\\ \\n \\t \\r
\\uXXXX \\UXXXXXXXX``), bare symbols (``knight``, ``e4``, ``fide.knight-move``:
strings), ``true``/``false``/``nil``, variables ``?x`` and function calls
``fn(args)`` (:class:`~rete.model.Expr`). A slot constraint in a pattern is a
variable or a constant, optionally followed by predicates joined with ``&``:
``op value`` (``> 3``) or ``fn(args)`` meaning ``fn(slot value, *args)``. A
predicate on constants is a :class:`~rete.model.SlotPred` (alpha test); one
that uses variables becomes a :class:`~rete.model.Test` right after the
pattern, on the variable bound to the slot.
"""
from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken, VisitError

from .errors import (DuplicateProductionError, ReteError, UnknownProductionError, RuleSyntaxError, SlotValueError,
                     UnboundVariableError, UnknownFunctionError, UnknownSlotError,
                     UnknownStageError, UnknownTemplateError)
from .model import (AssertFact, Call, Exists, Expr, Halt, Modify, Not, Pattern, Production,
                    Retract, SlotPred, Template, Test, Var)
# the way back to text (and the words it must not write bare) lives in rete.writer
from .writer import COMPARISONS, KEYWORDS, format_production, format_rule_file, format_template

__all__ = ["RuleFile", "parse_rules", "parse_production", "load_rules", "format_production",
           "format_template", "format_rule_file", "COMPARISONS", "KEYWORDS"]

_FRIENDLY = {
    "NAME": "a name", "VAR": "a variable (?x)", "STRING": "a string", "NUMBER": "a number",
    "CMP": "a comparison (= != < <= > >=)", "$END": "end of input",
}


# ---------------------------------------------------------------- the result


@dataclass
class _Loc:
    """Where things are in the text of one rule (for load-time error messages)."""

    line: int
    column: int
    name: tuple[int, int] = (0, 0)
    stage: tuple[int, int] | None = None
    refs: list = field(default_factory=list)     # (kind, key, line, column)


@dataclass
class RuleFile:
    """What a rule text declares, as plain objects, in text order."""

    templates: list[Template] = field(default_factory=list)
    stages: list[list[str]] = field(default_factory=list)
    productions: list[Production] = field(default_factory=list)
    functions: list[str] = field(default_factory=list)
    removals: list[str] = field(default_factory=list)
    replaces: set[str] = field(default_factory=set)
    source: str = "<string>"
    # positions, aligned with the lists above
    template_lines: list[tuple[int, int]] = field(default_factory=list, repr=False, compare=False)
    stage_lines: list[tuple[int, int]] = field(default_factory=list, repr=False, compare=False)
    function_lines: list[tuple[int, int]] = field(default_factory=list, repr=False, compare=False)
    removal_lines: list[tuple[int, int]] = field(default_factory=list, repr=False, compare=False)
    rule_locs: list[_Loc] = field(default_factory=list, repr=False, compare=False)

    def line_of(self, rule: str) -> int | None:
        """The line where the rule named ``rule`` starts."""
        for p, loc in zip(self.productions, self.rule_locs):
            if p.name == rule:
                return loc.line
        return None


# ---------------------------------------------------------------- parsing


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark.open("rules.lark", rel_to=__file__, parser="lalr", lexer="contextual",
                     propagate_positions=True, maybe_placeholders=False)


def _pos(tok) -> tuple[int, int]:
    return (getattr(tok, "line", 0) or 0, getattr(tok, "column", 0) or 0)


class _SyntaxAt(Exception):
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
                raise _SyntaxAt(f"bad escape \\{e}{digits} in string: expected \\{e} and "
                                f"{n} hex digits", tok)
            out.append(chr(int(digits, 16)))
            i += 2 + n
        else:
            raise _SyntaxAt(f"unknown escape \\{e} in string (known: \\\" \\\\ \\n \\t \\r "
                            f"\\0 \\uXXXX \\UXXXXXXXX)", tok)
    return "".join(out)


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


class _Build(Transformer):
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
                raise _SyntaxAt(f"number {s} is out of range", t)
            return v
        return int(s)

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
            raise _SyntaxAt(str(e), name) from None
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
            raise _SyntaxAt(f"salience must be an integer, not {s}", t)
        return _Opt("salience", int(s), t)

    def opt_replaces(self, c):
        return _Opt("replaces", True, c[0])

    def meta_item(self, c):
        return (c[0], c[1])

    def opt_meta(self, c):
        meta = {}
        for k, v in c:
            if str(k) in meta:
                raise _SyntaxAt(f"meta key {str(k)!r} given twice", k)
            meta[str(k)] = v
        return _Opt("meta", meta, None)

    def doc(self, c):
        return _Doc(_unescape(c[0]))

    def lhs(self, c):
        return _Lhs(_flatten(c))

    def rule(self, c):
        kw = c[0]
        (name, name_tok) = c[1]
        opts = {"stage": "default", "salience": 0, "meta": {}}
        seen = {}
        doc = ""
        conds: tuple = ()
        actions = []
        for x in c[2:]:
            if isinstance(x, _Opt):
                if x.kind in seen:
                    raise _SyntaxAt(f"rule {name!r}: {x.kind} given twice", x.tok or kw)
                seen[x.kind] = x
                opts[x.kind] = x.value
            elif isinstance(x, _Doc):
                doc = str(x)
            elif isinstance(x, _Lhs):
                conds = tuple(x)
            else:
                actions.append(x)
        p = Production(name, conds, tuple(actions), opts["stage"], opts["salience"],
                       self.source, doc, opts["meta"])
        loc = _Loc(*_pos(kw), name=_pos(name_tok),
                   stage=_pos(seen["stage"].tok) if "stage" in seen else None, refs=self.refs)
        self.refs = []
        if "replaces" in seen:
            self.out.replaces.add(name)
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
                    raise _SyntaxAt(
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

    def negation(self, c):
        return [Not(*_flatten(c))]

    def exists(self, c):
        return [Exists(*_flatten(c))]

    # ---------------------------------------------------------- actions

    def slot_value(self, c):
        return (c[0], c[1])

    def assert_(self, c):
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
        return AssertFact(tname, tuple(slots), logical)

    def modify(self, c):
        var = c[0]
        name = str(var)[1:]
        self.refs.append(("var", name, *_pos(var)))
        slots = []
        for tok, v in c[1:]:
            self.refs.append(("mslot", (name, str(tok)), *_pos(tok)))
            slots.append((str(tok), v))
        return Modify(name, tuple(slots))

    def retract(self, c):
        var = c[0]
        self.refs.append(("var", str(var)[1:], *_pos(var)))
        return Retract(str(var)[1:])

    def call_action(self, c):
        e = c[0]
        return Call(e.fn, *e.args)

    def halt(self, c):
        return Halt()

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
    head = "\n".join(text.splitlines()[:max(line, 0)])
    found = None
    for m in re.finditer(r'(?m)^\s*rule\s+("(?:[^"\\\n]|\\.)*"|[^\s#]+)', head):
        found = m.group(1)
    if found is None:
        return ""
    if found.startswith('"'):
        found = found[1:-1]
    return f" (in rule {found!r})"


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
        expected = sorted({_describe_terminal(n) for n in (e.allowed or ())})
        found = repr(e.char)
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


def parse_rules(text: str, source: str = "<string>") -> RuleFile:
    """Parse rule text into a :class:`RuleFile`; raises :class:`RuleSyntaxError`."""
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as e:
        raise _syntax_error(e, text, source) from None
    try:
        return _Build(source).transform(tree)
    except VisitError as e:
        orig = e.orig_exc
        if isinstance(orig, _SyntaxAt):
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


# ---------------------------------------------------------------- loading


def _read(text_or_path, source) -> tuple[str, str]:
    if isinstance(text_or_path, os.PathLike):
        p = Path(text_or_path)
        return p.read_text(encoding="utf-8"), source or str(p)
    if isinstance(text_or_path, str) and "\n" not in text_or_path and \
            text_or_path.strip() and os.path.isfile(text_or_path):
        return Path(text_or_path).read_text(encoding="utf-8"), source or text_or_path
    return text_or_path, source or "<string>"


def _located(e: BaseException, source: str, line: int, column: int) -> BaseException:
    """Same exception, its message prefixed with ``source:line:column: ``."""
    e.args = (f"{source}:{line}:{column}: {e}",) + tuple(e.args[1:])
    e.line, e.column, e.source = line, column, source
    return e


def error_position(e: BaseException, loc: _Loc, templates, functions) -> tuple[int, int]:
    """Where in one rule's text (``loc``, from :attr:`RuleFile.rule_locs`) a compile
    error points, given the templates and functions it was compiled against: the
    unknown template, slot, function, stage or unbound variable itself, a clashing
    rule's name, else the rule."""
    def first(kind, pred):
        for k, key, line, col in loc.refs:
            if k == kind and pred(key):
                return (line, col)
        return None

    hit = None
    if isinstance(e, UnknownTemplateError):
        hit = first("template", lambda t: t not in templates)
    elif isinstance(e, UnknownSlotError):
        hit = first("slot", lambda ts: ts[0] in templates
                    and not _has_slot(templates[ts[0]], ts[1]))
        if hit is None:
            hit = first("mslot", lambda vs: True)
    elif isinstance(e, UnknownFunctionError):
        hit = first("function", lambda f: f not in functions)
    elif isinstance(e, UnboundVariableError):
        m = re.search(r"\?([A-Za-z_][A-Za-z0-9_-]*)", str(e))
        if m:
            hit = first("var", lambda v: v == m.group(1))
    elif isinstance(e, UnknownStageError):
        hit = loc.stage
    elif isinstance(e, DuplicateProductionError):
        hit = loc.name
    return hit or (loc.line, loc.column)


def _has_slot(t: Template, slot: str) -> bool:
    resolve = getattr(t, "resolve", None)      # dash/underscore spellings, where supported
    return slot in t.slots or (resolve is not None and resolve(slot) is not None)


def _check_modify_slots(session, prod: Production, loc: _Loc) -> None:
    """Slots of ``modify ?p (...)`` must exist in the template of the fact bound to ?p."""
    bound = {c.bind: c.template for c in prod.conditions
             if isinstance(c, Pattern) and c.bind}
    for a in prod.actions:
        if isinstance(a, Modify) and a.var in bound:
            t = session.templates.get(bound[a.var])
            if t is None:
                continue
            for s, _ in a.slots:
                if not _has_slot(t, s):
                    err = UnknownSlotError(
                        f"modify ?{a.var}: template {t.name!r} has no slot {s!r} "
                        f"(slots: {', '.join(t.slots)})", prod.name)
                    hit = None
                    for k, key, line, col in loc.refs:
                        if k == "mslot" and key == (a.var, s):
                            hit = (line, col)
                            break
                    raise _located(err, prod.source, *(hit or (loc.line, loc.column)))


def load_rules(session, text_or_path, source: str | None = None, *,
               replace: bool = False) -> RuleFile:
    """Declare a rule text's templates and stages in ``session`` and add its productions.

    ``text_or_path`` is rule text, a :class:`~pathlib.Path`, or a string naming an
    existing file. Every function the text ``uses`` must already be registered.
    All or nothing: on any error the session keeps no production, template or
    stage from this text (productions it replaced, with ``replace=True``, come
    back), and the error is re-raised with ``source:line:column: `` in front of
    its message and ``line``/``column``/``source`` attributes.
    """
    text, src = _read(text_or_path, source)
    rf = parse_rules(text, src)
    saved_templates = dict(session.templates)
    saved_stage_after = list(session._stage_after)
    saved_stages = list(session.stages)
    added: list[str] = []
    replaced: dict[str, Production] = {}
    removed: list[Production] = []
    try:
        for name, (line, col) in zip(rf.removals, rf.removal_lines):
            if name not in session.productions:
                raise _located(UnknownProductionError(
                    f"'remove {name}': no production named {name!r}"), src, line, col)
            removed.append(session.get_production(name))
            session.remove_production(name)
        for t, (line, col) in zip(rf.templates, rf.template_lines):
            try:
                session.deftemplate(t)
            except ReteError as e:
                raise _located(e, src, line, col)
        for stages, (line, col) in zip(rf.stages, rf.stage_lines):
            try:
                session.define_stages(stages)
            except ReteError as e:
                raise _located(e, src, line, col)
        for name, (line, col) in zip(rf.functions, rf.function_lines):
            if name not in session.functions:
                raise _located(UnknownFunctionError(
                    f"function {name!r} is declared by 'uses' but not registered in the "
                    f"session (register it with Session.register_function)"), src, line, col)
        with session.adding(rf.productions):
            for prod, loc in zip(rf.productions, rf.rule_locs):
                _check_modify_slots(session, prod, loc)
                if prod.name in rf.replaces and prod.name not in session.productions:
                    raise _located(UnknownProductionError(
                        f"rule {prod.name!r} replaces a production that does not exist"),
                        src, loc.line, loc.column)
                replace_this = replace or prod.name in rf.replaces
                if replace_this and prod.name in session.productions and prod.name not in added \
                        and prod.name not in replaced:
                    replaced[prod.name] = session.get_production(prod.name)
                try:
                    session.add_production(prod, replace=replace_this)
                except ReteError as e:
                    raise _located(e, src, *error_position(e, loc, session.templates,
                                                                  session.functions))
                added.append(prod.name)
    except BaseException:
        for name in reversed(added):
            if name in session.productions:
                session.remove_production(name)
        for old in list(replaced.values()) + removed:
            if old.name not in session.productions:
                session.add_production(old)
        session.templates.clear()
        session.templates.update(saved_templates)
        if session._stage_after != saved_stage_after or session.stages != saved_stages:
            session._stage_after[:] = saved_stage_after
            session._relayout_stages()
        raise
    return rf
