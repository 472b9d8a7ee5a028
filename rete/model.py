"""Productions as data: templates, facts, conditions, actions.

These plain objects are what both the Python builder API and the rule language
produce; the compiler (:mod:`rete.compiler`) turns them into a Rete network
(:mod:`rete.network`).

Example::

    >>> from rete.model import Template, Rule, P, V, Test, Call
    >>> person = Template("person", ("name", "age"))
    >>> rule = (Rule("adult", salience=5)
    ...         .when(P("person", name=V.n, age=V.a), Test("ge", V.a, 18))
    ...         .then(Call("print_name", V.n)))
    >>> production = rule.build()
    >>> production.name, production.salience, len(production.conditions), person.slots
    ('adult', 5, 2, ('name', 'age'))
"""
from __future__ import annotations

import reprlib
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

from .errors import SlotValueError


# ---------------------------------------------------------------- templates


@dataclass(frozen=True)
class Template:
    """A fact type with named slots. ``defaults`` fill slots an assert omits;
    a slot with no default and no value holds ``None``.

    Slot names may contain dashes; the Python builders (``P``, ``Assert``,
    keyword arguments) write them with underscores, and a name is resolved
    to the declared one either way (:meth:`resolve`). Presets that add
    attributes to a template use :meth:`Session.extend_template`.
    """

    name: str
    slots: tuple[str, ...]
    defaults: Mapping[str, Any] = field(default_factory=dict)
    doc: str = ""
    _blank: dict = field(default_factory=dict, init=False, repr=False, compare=False)
    _names: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self):
        object.__setattr__(self, "slots", tuple(self.slots))
        object.__setattr__(self, "defaults", dict(self.defaults))
        if len(set(self.slots)) != len(self.slots):
            raise SlotValueError(f"template {self.name!r} declares a slot twice")
        for k in self.defaults:
            if k not in self.slots:
                raise SlotValueError(f"template {self.name!r}: default for unknown slot {k!r}")
        blank = {s: self.defaults.get(s) for s in self.slots}
        names: dict[str, str] = {}
        for s in self.slots:
            names.setdefault(s.replace("_", "-"), s)
            names.setdefault(s.replace("-", "_"), s)
        for s in self.slots:
            names[s] = s
        object.__setattr__(self, "_blank", blank)
        object.__setattr__(self, "_names", names)

    def resolve(self, slot: str) -> str | None:
        """The declared slot ``slot`` names (exactly, or with ``_``/``-`` swapped)."""
        r = self._names.get(slot)
        if r is None and isinstance(slot, str):
            r = self._names.get(slot.replace("_", "-")) or self._names.get(slot.replace("-", "_"))
        return r

    def __hash__(self):
        return hash((self.name, self.slots))

    def extended(self, *slots: str, defaults: Mapping[str, Any] | None = None) -> "Template":
        """A copy of this template with more slots (schema extension)."""
        new = tuple(s for s in slots if s not in self.slots)
        d = dict(self.defaults)
        d.update(defaults or {})
        return Template(self.name, self.slots + new, d, self.doc)


# ---------------------------------------------------------------- facts


class Fact:
    """A working-memory element: a template name, slot values and an identity.

    ``id`` is stable across :meth:`Session.modify`; ``timetag`` changes with
    every assert or modify and drives the recency strategies.
    """

    __slots__ = ("id", "template", "values", "timetag", "alive", "tokens",
                 "neg_results", "support", "origin", "__weakref__")

    def __init__(self, fid: int, template: str, values: dict):
        self.id = fid
        self.template = template
        self.values = values
        self.timetag = 0
        self.alive = False
        self.tokens: dict = {}          # tokens whose last fact is this one
        self.neg_results: dict = {}     # negative/exists tokens this fact joins with
        # None: unconditional; {token: None}: logical
        self.support: dict | None = None
        # (rule name, fact ids) of the asserting firing
        self.origin: tuple[str, tuple[int, ...]] | None = None

    def __getitem__(self, slot: str):
        return self.values[slot]

    def get(self, slot: str, default=None):
        """A slot's value (``default`` for a slot the fact does not hold)."""
        return self.values.get(slot, default)

    @reprlib.recursive_repr("<...>")     # a fact may hold itself in a slot
    def __repr__(self) -> str:
        inner = " ".join(f"{k}={v!r}" for k, v in self.values.items())
        return f"<f-{self.id} {self.template} {inner}>"


# ---------------------------------------------------------------- variables


class Var:
    """A pattern variable. ``V.x`` and ``Var('x')`` are the same variable."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __eq__(self, other):
        return isinstance(other, Var) and other.name == self.name

    def __hash__(self):
        return hash(("var", self.name))

    def __repr__(self):
        return f"?{self.name}"


class _VarFactory:
    def __getattr__(self, name: str) -> Var:
        if name.startswith("__"):
            raise AttributeError(name)
        return Var(name)

    def __call__(self, name: str) -> Var:
        return Var(name)


V = _VarFactory()


# ---------------------------------------------------------------- conditions


@dataclass(frozen=True)
class SlotPred:
    """A predicate on one slot evaluated at the alpha level: ``fn(value, *args)``.

    ``args`` may only be constants (no variables), so the test is local to one fact.
    """

    slot: str
    fn: str
    args: tuple = ()


@dataclass(frozen=True)
class Pattern:
    """Match facts of ``template``; slots map to constants or :class:`Var`.

    ``bind`` names a variable that holds the matched fact itself (``?p <- ...``).
    ``preds`` are one-fact predicates (alpha tests).
    """

    template: str
    slots: tuple[tuple[str, Any], ...] = ()
    bind: str | None = None
    preds: tuple[SlotPred, ...] = ()

    def as_(self, name: str) -> "Pattern":
        """The pattern with its fact bound to ``name`` (``?name <- ...`` in rule text),
        for actions that modify or retract it."""
        return Pattern(self.template, self.slots, name, self.preds)

    bind_as = as_

    def where(self, slot: str, fn: str, *args) -> "Pattern":
        """The pattern with one more test of a slot, ``fn(value, *args)`` (an alpha
        test: ``P("person").where("age", ">", 18)``)."""
        return Pattern(self.template, self.slots, self.bind,
                       self.preds + (SlotPred(slot, fn, tuple(args)),))

    def variables(self) -> set[str]:
        """The variables the pattern binds (its slots', and its fact's name)."""
        out = {v.name for _, v in self.slots if isinstance(v, Var)}
        if self.bind:
            out.add(self.bind)
        return out


def P(template: str, _bind: str | None = None, /, **slots) -> Pattern:
    """Builder shorthand: ``P('piece', type='knight', square=V.s)``.

    Slot names with a dash are written with an underscore here and converted.
    ``template`` and ``_bind`` are positional, so that any name is a slot's
    (``P('move', **{'from': V.f})``, a slot named ``template``).
    """
    items = tuple((k.replace("_", "-") if k not in ("_bind",) else k, v) for k, v in slots.items())
    return Pattern(template, items, _bind)


@dataclass(frozen=True)
class Test:
    """A join-level test: the registered function ``fn`` called on bound values."""

    __test__ = False      # not a pytest test class, whatever its name

    fn: str
    args: tuple = ()

    def __init__(self, fn: str, *args):
        object.__setattr__(self, "fn", fn)
        object.__setattr__(self, "args", tuple(args))

    def variables(self) -> set[str]:
        """The variables its arguments name (inside expressions too)."""
        return arg_variables(self.args)


@dataclass(frozen=True)
class Not:
    """Negation of a pattern, or of a conjunction (a negated conjunction, NCC)."""

    conditions: tuple

    def __init__(self, *conditions):
        object.__setattr__(self, "conditions", tuple(conditions))


@dataclass(frozen=True)
class Exists:
    """True once while at least one match of the conditions exists."""

    conditions: tuple

    def __init__(self, *conditions):
        object.__setattr__(self, "conditions", tuple(conditions))


@dataclass(frozen=True)
class Collect(Exists):
    """``exists`` over one pattern that also binds a variable to the matching facts.

    ``Collect(P("piece", type="knight", color=V.c)).as_("ps")`` matches once
    (not once per knight) while at least one fact matches the pattern, as
    ``exists`` does, and ``?ps`` holds those facts, as a tuple, oldest time
    tag first, read when the production fires. A production
    that would fire once per fact fires once for them all: fewer partial
    matches to build and delete. Variables the pattern binds stay inside it;
    ``?ps`` may be passed to actions only (a test or a join would judge it once,
    when the first fact arrived).
    """

    bind: str | None = None

    def __init__(self, pattern: "Pattern", bind: str | None = None):
        if not isinstance(pattern, Pattern):
            raise TypeError(f"Collect takes one pattern, not {pattern!r}")
        object.__setattr__(self, "conditions", (pattern,))
        object.__setattr__(self, "bind", bind)

    @property
    def pattern(self) -> "Pattern":
        return self.conditions[0]

    def as_(self, name: str) -> "Collect":
        """The collect with its facts bound to ``name``, as a tuple."""
        return Collect(self.pattern, name)


Condition = Pattern | Test | Not | Exists


@dataclass(frozen=True)
class Expr:
    """A value computed by a registered function: ``Expr('add', V.n, 1)``.

    Usable wherever a value is: test arguments, asserted or modified slots,
    call arguments.
    """

    fn: str
    args: tuple = ()

    def __init__(self, fn: str, *args):
        object.__setattr__(self, "fn", fn)
        object.__setattr__(self, "args", tuple(args))

    def variables(self) -> set[str]:
        """The variables its arguments name (inside expressions too)."""
        return arg_variables(self.args)


def arg_variables(args) -> set[str]:
    """The variables named by values (function arguments, slot values),
    inside expressions too."""
    out = set()
    for a in args:
        if isinstance(a, Var):
            out.add(a.name)
        elif isinstance(a, Expr):
            out |= a.variables()
    return out


# ---------------------------------------------------------------- actions


@dataclass(frozen=True)
class AssertFact:
    """Assert a fact; ``logical`` ties its life to the firing's support."""

    template: str
    slots: tuple[tuple[str, Any], ...] = ()
    logical: bool = False


@dataclass(frozen=True)
class Retract:
    var: str


@dataclass(frozen=True)
class Modify:
    var: str
    slots: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class Call:
    """Call a registered function as ``fn(ctx, *args)``.

    ``fn`` is a name; the Python builder also accepts a callable, which is
    registered under its ``__name__`` when the production is added.
    """

    fn: Any
    args: tuple = ()

    def __init__(self, fn, *args):
        object.__setattr__(self, "fn", fn)
        object.__setattr__(self, "args", tuple(args))


@dataclass(frozen=True)
class Halt:
    pass


Action = AssertFact | Retract | Modify | Call | Halt


def Assert(template: str, _logical: bool = False, **slots) -> AssertFact:
    """The action that asserts a ``template`` fact: ``Assert("greeting", to=V.n)``
    (a slot written with ``_`` names the one declared with ``-``)."""
    return AssertFact(template, tuple((k.replace("_", "-"), v) for k, v in slots.items()), _logical)


def AssertLogical(template: str, **slots) -> AssertFact:
    """As :func:`Assert`, the fact supported by the firing's match: it is retracted
    when the last match that supports it goes (``assert logical`` in rule text)."""
    return Assert(template, True, **slots)


def ModifyFact(var: str | Var, **slots) -> Modify:
    """The action that changes slots of the fact a pattern bound:
    ``ModifyFact("p", square=V.to)`` for ``P(...).as_("p")``."""
    name = var.name if isinstance(var, Var) else var
    return Modify(name, tuple((k.replace("_", "-"), v) for k, v in slots.items()))


def RetractFact(var: str | Var) -> Retract:
    """The action that retracts the fact a pattern bound (``.as_(name)``)."""
    return Retract(var.name if isinstance(var, Var) else var)


# ---------------------------------------------------------------- productions


@dataclass(frozen=True)
class Production:
    """A named rule: stage, salience, conditions (LHS) and actions (RHS)."""

    name: str
    conditions: tuple
    actions: tuple
    stage: str = "default"
    salience: int = 0
    source: str = "python"
    doc: str = ""
    meta: Mapping[str, Any] = field(default_factory=dict)
    # where rule text wrote each action, ``(line, column)`` in ``source`` (empty
    # for a production built in Python): a run-time error names the action's line
    action_lines: tuple = field(default=(), compare=False, repr=False)
    # where rule text first used each function of its conditions, ``(name, line,
    # column)``: a test that raises while matching names its line
    test_lines: tuple = field(default=(), compare=False, repr=False)

    def replace(self, **changes) -> "Production":
        """A copy with some fields changed (name, conditions, actions, stage, ...);
        the rule-text positions stay with the parts not changed."""
        d: dict[str, Any] = dict(
            name=self.name, conditions=self.conditions, actions=self.actions,
            stage=self.stage, salience=self.salience, source=self.source,
            doc=self.doc, meta=self.meta)
        if "actions" not in changes and "source" not in changes:
            d["action_lines"] = self.action_lines
        if "conditions" not in changes and "source" not in changes:
            d["test_lines"] = self.test_lines
        d.update(changes)
        return Production(**d)


class Rule:
    """Fluent builder for a :class:`Production`.

    >>> r = Rule("greet").when(P("person", name=V.n)).then(Call("hello", V.n)).build()
    >>> r.name
    'greet'
    """

    def __init__(self, name: str, stage: str = "default", salience: int = 0,
                 doc: str = "", source: str = "python", **meta):
        self.name = name
        self.stage = stage
        self.salience = salience
        self.doc = doc
        self.source = source
        self.meta = meta
        self._conds: list = []
        self._acts: list = []

    def when(self, *conditions) -> "Rule":
        """Add conditions (patterns, ``Not``, ``Exists``, ``Collect``, ``Test``), in order."""
        self._conds.extend(conditions)
        return self

    def then(self, *actions) -> "Rule":
        """Add actions, in order; a plain Python callable is ``Call(callable)``."""
        for a in actions:
            if callable(a) and not isinstance(a, (AssertFact, Retract, Modify, Call, Halt)):
                a = Call(a)
            self._acts.append(a)
        return self

    def build(self) -> Production:
        """The :class:`Production` (what :meth:`Session.add` and ``RuleSet.add`` take
        a ``Rule`` for)."""
        return Production(self.name, tuple(self._conds), tuple(self._acts),
                          self.stage, self.salience, self.source, self.doc, dict(self.meta))


def as_production(p: "Production | Rule") -> Production:
    return p.build() if isinstance(p, Rule) else p


def name_problem(prod) -> str | None:
    """What is wrong with a production's name, or None: rules are named by
    non-empty text (the name is how a rule set, a preset and an explanation
    refer to it; a number or a tuple would only surface later, in a lookup)."""
    name = prod.name
    if not isinstance(name, str):
        return f"a production is named by text, not {name!r} ({type(name).__name__})"
    if not name.strip():
        return "a production's name is empty"
    return None


def iter_patterns(conditions: Iterable) -> Iterable[Pattern]:
    """Every pattern in a condition list, nested ones included."""
    for c in conditions:
        if isinstance(c, Pattern):
            yield c
        elif isinstance(c, (Not, Exists)):
            yield from iter_patterns(c.conditions)


def slot_items(slots: Sequence | Mapping) -> tuple:
    if isinstance(slots, Mapping):
        return tuple(slots.items())
    return tuple(slots)


FunctionType = Callable[..., Any]
