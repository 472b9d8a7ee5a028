"""Compile productions into the network, sharing nodes with what is there.

Variables are resolved to token positions: ``bindings[name] = (pos, slot)``
where ``pos`` indexes the token's fact tuple and ``slot`` is ``None`` when the
variable holds the fact itself. Checks done here are the compile-time errors
the rule author sees: unknown templates, slots, functions, unbound variables.

A variable that holds a fact (``?f <- (...)`` / ``P(...).as_("f")``) compares
equal to a slot only if the slot holds that very :class:`~rete.model.Fact`
(which is what an action that asserts ``slot=V.f`` stores).
"""
from __future__ import annotations

from operator import attrgetter
from typing import Any, Callable, Sequence

from .errors import (ActionFunctionError, CollectedFactsError, CompileError, UnboundVariableError,
                     did_you_mean,
                     UnknownFunctionError, UnknownSlotError, UnknownSlotValueError,
                     UnknownTemplateError)
from .model import (AssertFact, Call, Collect, Exists, Expr, Halt, Modify, Not, Pattern,
                    Production, Retract, Test, Var)
from .functions import BUILTINS, VALUE_FUNCTIONS
from .joinorder import Moved, control_last, written_index
from .alpha import AlphaMemory, AlphaNode
from .negation import NCCNode, NCCPartner, NegativeNode
from .tokens import _bucket
from .network import BetaMemory, JoinNode, JoinSpec, ProductionNode, Store, TestNode


#: the built-in predicates that compare a slot with their arguments for
#: equality: their arguments are values the slot could hold
_EQUALITY = frozenset({"eq", "ne", "neq", "=", "!=", "member"})


class Compiler:
    def __init__(self, session):
        self.s = session
        self._fact_templates: dict[str, str] = {}

    # ------------------------------------------------------------ checks

    def _template(self, name: str, rule: str):
        t = self.s.templates.get(name)
        if t is None:
            raise _naming(UnknownTemplateError(
                f"unknown template {name!r}{did_you_mean(name, self.s.templates)}", rule), name=name)
        return t

    def _function(self, name, rule: str):
        if callable(name):
            fn = name
            self.s.functions.setdefault(getattr(fn, "__name__", repr(fn)), fn)
            return fn
        fn = self.s.functions.get(name)
        if fn is None:
            raise _naming(UnknownFunctionError(
                f"unknown function {name!r}{did_you_mean(name, self.s.functions)}", rule), name=name)
        return fn

    def slot(self, template: str, slot: str, rule: str) -> str:
        """The declared slot a pattern or action means (``a_b`` finds ``a-b`` and back)."""
        t = self._template(template, rule)
        r = t.resolve(slot)
        if r is None:
            raise _naming(UnknownSlotError(
                f"template {template!r} has no slot {slot!r}{did_you_mean(slot, t.slots)} "
                f"(slots: {', '.join(t.slots)})", rule),
                name=(template, slot))
        return r

    def check_slots(self, template: str, slots, rule: str) -> tuple:
        self._template(template, rule)
        out = tuple((self.slot(template, s, rule), v) for s, v in slots)
        for s, v in out:
            self.check_value(template, s, v, rule)
        return out

    def check_value(self, template: str, slot: str, value, rule: str) -> None:
        """Refuse a constant the slot never holds, by the session's
        :attr:`~rete.Session.slot_values` hook (variables and expressions pass)."""
        domain = self.s.slot_values
        if domain is None or isinstance(value, (Var, Expr)):
            return
        allowed = domain(template, slot)
        if allowed is None:
            return
        try:
            ok = value in allowed
        except TypeError:       # an unhashable constant: refused as one elsewhere
            return
        if not ok:
            raise UnknownSlotValueError(template, slot, value, tuple(allowed), rule)

    # ------------------------------------------------------------ alpha

    def alpha_memory(self, pat: Pattern, rule: str) -> tuple[AlphaMemory, dict, list]:
        """The shared alpha memory for a pattern.

        Returns it, the pattern's first occurrence of each variable
        (``name -> slot``), and the slots whose value is an :class:`Expr`
        (tested at the join).
        """
        slots = self.check_slots(pat.template, pat.slots, rule)
        consts = []
        first: dict[str, str] = {}
        intra = []
        exprs = []
        for slot, val in slots:
            if isinstance(val, Var):
                if val.name in first:
                    intra.append((first[val.name], slot))
                else:
                    first[val.name] = slot
            elif isinstance(val, Expr):
                exprs.append((slot, val))
            else:
                consts.append((slot, val))
        consts.sort(key=lambda sv: sv[0])
        extra: list[Callable[..., bool]] = []
        sig: list[tuple] = []
        for a, b in intra:
            extra.append(lambda f, a=a, b=b: f.values.get(a) == f.values.get(b))
            sig.append(("eq", a, b))
        for p in pat.preds:
            ps = self.slot(pat.template, p.slot, rule)
            fn = self._function(p.fn, rule)
            if any(isinstance(a, (Var, Expr)) for a in p.args):
                # an alpha test sees one fact: a variable would be compared as
                # the Var object itself (rule text cannot write this)
                raise CompileError(
                    f"the predicate {p.fn!r} on slot {ps!r} of {pat.template!r} takes a "
                    f"variable or expression; slot predicates take constants only (write a "
                    f"Test, or bind the slot to a variable and test that)", rule)
            if isinstance(p.fn, str) and p.fn in _EQUALITY and fn is BUILTINS.get(p.fn):
                for arg in p.args:      # (type: != kniht) would hold of every piece
                    self.check_value(pat.template, ps, arg, rule)
            extra.append(lambda f, fn=fn, s=ps, args=p.args: bool(fn(f.values.get(s), *args)))
            sig.append(("pred", ps, p.fn if isinstance(p.fn, str) else None, id(fn), p.args))
        try:
            key = (pat.template, tuple(consts), tuple(sig))
            hash(key)
        except TypeError:
            raise CompileError(f"pattern on {pat.template!r} has an unhashable constant", rule)
        amem = self.s.alpha_memories.get(key)
        if amem is None:
            node = self.s.alpha_roots.setdefault(pat.template, AlphaNode())
            for slot, val in consts:
                table = node.children.setdefault(slot, {})
                child = table.get(val)
                if child is None:
                    child = table[val] = AlphaNode(node, (slot, val))
                node = child
            amem = AlphaMemory(key, pat.template, extra, node, self.s._next_amem_id,
                               tuple(consts))
            self.s._next_amem_id += 1
            node.memories.append(amem)
            node.changed()
            self.s.alpha_memories[key] = amem
            for f in self.s.facts_of(pat.template):
                if amem.matches(f):
                    amem.add(f)
                    self.s.fact_amems[f.id].append(amem)
        return amem, first, exprs

    # ------------------------------------------------------------ value access

    def getter(self, val, bindings: dict, depth: int, rule: str):
        """A function ``(facts, fact) -> value`` for a constant, variable or expression."""
        if isinstance(val, Var):
            loc = bindings.get(val.name)
            if loc is None:
                raise UnboundVariableError(f"variable ?{val.name} is not bound", rule)
            pos, slot = loc
            if type(slot) is Collected:
                raise slot.misread(val.name, rule)
            if pos == depth:
                if slot is None:
                    return lambda facts, f: f
                return lambda facts, f: f.values[slot]
            if slot is None:
                return lambda facts, f: facts[pos]
            return lambda facts, f: facts[pos].values[slot]
        if isinstance(val, Expr):
            fn = self._function(val.fn, rule)
            gs = [self.getter(a, bindings, depth, rule) for a in val.args]
            if len(gs) == 2:
                g0, g1 = gs
                return lambda facts, f: fn(g0(facts, f), g1(facts, f))
            if len(gs) == 1:
                g0, = gs
                return lambda facts, f: fn(g0(facts, f))
            return lambda facts, f: fn(*[g(facts, f) for g in gs])
        return lambda facts, f: val

    def left_getter(self, val, bindings: dict, rule: str):
        """A function ``facts -> value`` over a token (for hash keys)."""
        if isinstance(val, Var):
            pos, slot = bindings[val.name]
            if slot is None:
                return lambda facts: facts[pos]
            read = lambda facts: facts[pos].values[slot]  # noqa: E731
            # lets a join build its whole key in one call (JoinSpec reads it
            # with getattr: a getter of an expression has none)
            read.loc = (pos, slot)      # type: ignore[attr-defined]
            return read
        g = self.getter(val, bindings, -1, rule)
        return lambda facts: g(facts, None)

    def compile_tests(self, tests: list, bindings: dict, depth: int, rule: str):
        """Tests as one callable ``(facts, fact) -> bool`` and a sharing signature.

        ``tests`` holds :class:`Test` objects and ``(slot, Expr)`` pairs (a slot
        of the fact being joined compared with an expression).
        """
        if not tests:
            return None, ()
        compiled = []
        sig: list | tuple       # (a list, then the signature's tuple of it)
        sig = []
        for t in tests:
            if isinstance(t, Test):
                fn = self._function(t.fn, rule)
                getters = [self.getter(a, bindings, depth, rule) for a in t.args]
                compiled.append((fn, getters))
                sig.append((t.fn if isinstance(t.fn, str) else None, id(fn),
                            tuple(_arg_sig(a, bindings) for a in t.args)))
            else:
                slot, expr = t
                g = self.getter(expr, bindings, depth, rule)
                compiled.append((_slot_eq(slot), [g]))
                sig.append(("slot=", slot, _arg_sig(expr, bindings)))
        sig = tuple(sig)
        # one callable per test; a comparison of two bound slots reads them
        # directly (no getter calls): the commonest join test by far
        parts = []
        for t, (fn, gs) in zip(tests, compiled):
            direct = self._direct_test(t, fn, bindings, depth)
            if direct is not None:
                parts.append(direct)
            elif len(gs) == 2:
                g0, g1 = gs
                parts.append(lambda facts, f, fn=fn, g0=g0, g1=g1: fn(g0(facts, f), g1(facts, f)))
            elif len(gs) == 1 and getattr(fn, "slot_eq", False):
                g0, = gs
                parts.append(lambda facts, f, fn=fn, g0=g0: fn(f, g0(facts, f)))
            elif len(gs) == 1:
                g0, = gs
                parts.append(lambda facts, f, fn=fn, g0=g0: fn(g0(facts, f)))
            else:
                parts.append(lambda facts, f, fn=fn, gs=gs: fn(*[g(facts, f) for g in gs]))
        if len(parts) == 1:
            return parts[0], sig
        if len(parts) == 2:
            p0, p1 = parts
            return (lambda facts, f: bool(p0(facts, f)) and bool(p1(facts, f))), sig

        def test(facts, f):
            for p in parts:
                if not p(facts, f):
                    return False
            return True
        return test, sig

    @staticmethod
    def _direct_test(t, fn, bindings: dict, depth: int):
        """``fn(a, b)`` on two variables bound to slots, as one closure (or ``None``)."""
        if not isinstance(t, Test) or len(t.args) != 2:
            return None
        a, b = t.args
        if not (isinstance(a, Var) and isinstance(b, Var)):
            return None
        la, lb = bindings.get(a.name), bindings.get(b.name)
        if la is None or lb is None or la[1] is None or lb[1] is None:
            return None
        (pa, sa), (pb, sb) = la, lb
        if pa == depth and pb == depth:
            return lambda facts, f: fn(f.values[sa], f.values[sb])
        if pa == depth:
            return lambda facts, f: fn(f.values[sa], facts[pb].values[sb])
        if pb == depth:
            return lambda facts, f: fn(facts[pa].values[sa], f.values[sb])
        return lambda facts, f: fn(facts[pa].values[sa], facts[pb].values[sb])

    # ------------------------------------------------------------ beta

    def join_spec(self, slots, exprs, amem: AlphaMemory, bindings: dict, depth: int,
                  tests: list, rule: str, local: dict) -> JoinSpec:
        eq = []
        for slot, val in slots:
            if isinstance(val, Var) and val.name in bindings and val.name not in local:
                if type(bindings[val.name][1]) is Collected:
                    raise Collected.misread(val.name, rule)
                eq.append((slot, ("var",) + tuple(bindings[val.name]),
                           self.left_getter(val, bindings, rule)))
        extra_tests = []
        for slot, expr in exprs:
            vs = expr.variables()
            missing = vs - set(bindings) - set(local)
            if missing:
                raise UnboundVariableError(
                    f"variable ?{sorted(missing)[0]} is not bound", rule)
            if vs & set(local):
                extra_tests.append((slot, expr))        # needs this fact: a join test
            else:
                eq.append((slot, ("expr", _arg_sig(expr, bindings)),
                           self.left_getter(expr, bindings, rule)))
        all_b = {**bindings, **local}
        test_fn, test_sig = self.compile_tests(extra_tests + list(tests), all_b, depth, rule)
        return JoinSpec(eq, test_fn, test_sig, amem)

    def _pattern_locals(self, pat: Pattern, first: dict, bindings: dict, depth: int, rule: str):
        local = {}
        for name, slot in first.items():
            if name not in bindings:
                local[name] = (depth, slot)
        if pat.bind:
            if pat.bind in bindings or pat.bind in local:
                raise CompileError(f"fact variable ?{pat.bind} is bound twice", rule)
            local[pat.bind] = (depth, None)
        return local

    def build(self, conds: Sequence, store: Store | JoinNode, depth: int, bindings: dict,
              rule: str, origin: list | None = None):
        """Build the chain for ``conds`` below ``store`` (a join: a negated pattern
        that takes the join's output itself, see below).

        Returns ``(attach, depth, bindings)``: ``attach`` is the node to hang the
        next store on (a join/test node, or a store when the chain ends in one).
        ``origin`` (top level only) gets, for each token position, the index
        in the rule of the condition that fills it.
        """
        attach: Store | JoinNode | TestNode = store
        conds = list(conds)
        order = written_index(conds)
        i = 0
        while i < len(conds):
            c = conds[i]
            # a negated pattern right after a join takes the join's output
            # itself: its token holds the joined fact too, so no beta memory
            # (and no token) sits between them
            fuse = isinstance(attach, JoinNode) and isinstance(c, (Not, Exists)) \
                and len(c.conditions) == 1 and isinstance(c.conditions[0], Pattern)
            if isinstance(attach, TestNode) or (isinstance(attach, JoinNode) and not fuse):
                attach = self._memory_under(attach)
            store = attach
            if isinstance(c, Pattern):
                assert isinstance(store, Store)     # (a join is kept only for a negation)
                amem, first, exprs = self.alpha_memory(c, rule)
                slots = self.check_slots(c.template, c.slots, rule)
                local = self._pattern_locals(c, first, bindings, depth, rule)
                # tests that can run once this pattern is joined
                tests = []
                j = i + 1
                while j < len(conds) and isinstance(conds[j], Test) and \
                        conds[j].variables() <= set(bindings) | set(local):
                    tests.append(conds[j])
                    j += 1
                spec = self.join_spec(slots, exprs, amem, bindings, depth, tests, rule, local)
                if c.bind:
                    self._fact_templates[c.bind] = c.template
                bindings = {**bindings, **local}
                attach = self._join_under(store, amem, spec)
                if origin is not None:
                    origin.append(order[i])
                depth += 1
                i = j
            elif isinstance(c, Test):
                missing = c.variables() - set(bindings)
                if missing:
                    raise UnboundVariableError(
                        f"test {c.fn}: variable ?{sorted(missing)[0]} is not bound", rule)
                fn, sig = self.compile_tests([c], bindings, depth, rule)
                assert isinstance(store, Store)
                attach = self._test_under(store, fn, sig)
                if origin is not None:
                    origin.append(order[i])
                depth += 1
                i += 1
            elif isinstance(c, (Not, Exists)):
                exists = isinstance(c, Exists)
                inner = c.conditions
                if not inner:
                    raise CompileError("empty not/exists", rule)
                if len(inner) == 1 and isinstance(inner[0], Pattern):
                    pat = inner[0]
                    amem, first, exprs = self.alpha_memory(pat, rule)
                    slots = self.check_slots(pat.template, pat.slots, rule)
                    if isinstance(c, Collect) and pat.bind:
                        raise CompileError(f"bind the collect, not the pattern it collects "
                                           f"(?{pat.bind})", rule)
                    if isinstance(c, Collect) and c.bind in bindings:
                        raise CompileError(f"variable ?{c.bind} is bound twice", rule)
                    local = self._pattern_locals(pat, first, bindings, depth, rule)
                    spec = self.join_spec(slots, exprs, amem, bindings, depth, [], rule, local)
                    attach = self._negative_under(store, amem, spec, exists)
                    if isinstance(c, Collect) and c.bind:
                        bindings = {**bindings,
                                    c.bind: (depth, Collected(attach.spec, attach.amem))}
                else:
                    attach = self._ncc_under(store, inner, depth, bindings, exists, rule)
                if origin is not None:
                    origin.append(order[i])
                depth += 1
                i += 1
            else:
                raise CompileError(f"not a condition: {c!r}", rule)
        return attach, depth, bindings

    def _memory_under(self, node: JoinNode | TestNode) -> BetaMemory:
        for ch in node.children:
            if type(ch) is BetaMemory:
                return ch
        mem = BetaMemory(node)
        node.children.append(mem)
        node.replay(mem)
        return mem

    def _join_under(self, store: Store, amem: AlphaMemory, spec: JoinSpec) -> JoinNode:
        for ch in store.children:
            if type(ch) is JoinNode and ch.amem is amem and ch.spec.signature == spec.signature:
                return ch
        j = JoinNode(store, amem, spec)
        store.children.append(j)
        # descendants before ancestors: a new node is never an ancestor of an old one
        amem.successors.insert(0, j)
        amem.node.changed()
        return j

    def _test_under(self, store: Store, fn, sig) -> TestNode:
        for ch in store.children:
            if type(ch) is TestNode and ch.signature == sig:
                return ch
        t = TestNode(store, fn, sig)
        store.children.append(t)
        return t

    def _negative_under(self, store, amem, spec, exists) -> NegativeNode:
        for ch in store.children:
            if type(ch) is NegativeNode and ch.amem is amem and ch.exists == exists \
                    and ch.spec.signature == spec.signature:
                return ch
        n = NegativeNode(store, amem, spec, exists, self.s)
        store.children.append(n)
        amem.successors.insert(0, n)
        amem.node.changed()
        if isinstance(store, JoinNode):
            store.replay(n)
        else:
            for tok in store.outputs():
                n.left_activate(tok)
        return n

    def _ncc_under(self, store, inner, depth, bindings, exists, rule) -> NCCNode:
        ncc = NCCNode(store, depth, exists, self.s)
        attach, _, _ = self.build(tuple(inner), store, depth, dict(bindings), rule)
        partner = NCCPartner(attach, ncc)
        ncc.partner = partner
        attach.children.append(partner)
        if isinstance(attach, (JoinNode, TestNode)):
            attach.replay(partner)
        else:
            for tok in attach.outputs():
                partner.left_activate(tok)
        # the NCC node comes after its subnetwork among the store's children:
        # a new token reaches the subnetwork first, and its results wait in
        # ``pending`` until the NCC node files them under the owner token
        store.children.append(ncc)
        for tok in store.outputs():
            ncc.left_activate(tok)
        return ncc

    # ------------------------------------------------------------ productions

    def add_production(self, prod: Production, agenda=None) -> ProductionNode:
        rule = prod.name
        self._fact_templates = {}
        conds = prod.conditions
        if self.s.join_order == "control-last":
            conds = control_last(conds, self.s._control_cycles)
        origin: list = []
        attach, depth, bindings = self.build(conds, self.s.root, 0, {}, rule, origin)
        actions = self.compile_actions(prod, bindings, depth)
        pnode = ProductionNode(attach, prod, actions, self.s)
        if origin != sorted(origin):
            pnode.fact_order = tuple(sorted(range(depth), key=origin.__getitem__))
            pnode.joined_last = tuple(c.cond for c in conds if isinstance(c, Moved) and c.last)
        pnode.stage_index = self.s.stage_index[prod.stage]
        pnode.bindings = bindings
        attach.children.append(pnode)
        if isinstance(attach, (JoinNode, TestNode)):
            attach.replay(pnode)
        else:
            for tok in attach.outputs():
                pnode.left_activate(tok)
        return pnode

    def compile_actions(self, prod: Production, bindings: dict, depth: int):
        """Actions as tuples whose values are closures ``facts -> value``."""
        rule = prod.name
        out: list[tuple] = []
        for a in prod.actions:
            if isinstance(a, AssertFact):
                slots = self.check_slots(a.template, a.slots, rule)
                _each_slot_once(slots, f"assert {a.template}", len(out), rule)
                gs = [(s, self._val(v, bindings, rule)) for s, v in slots]
                out.append(("assert", a.template, gs, a.logical))
            elif isinstance(a, Retract):
                out.append(("retract", self._fact_var(a.var, bindings, rule)))
            elif isinstance(a, Modify):
                pos = self._fact_var(a.var, bindings, rule)
                slots = a.slots
                t = self._fact_templates.get(a.var)
                if t is not None:
                    slots = self.check_slots(t, slots, rule)
                _each_slot_once(slots, f"modify ?{a.var}", len(out), rule)
                gs = [(s, self._val(v, bindings, rule)) for s, v in slots]
                out.append(("modify", pos, gs))
            elif isinstance(a, Call):
                fn = self._function(a.fn, rule)
                if isinstance(a.fn, str) and a.fn in VALUE_FUNCTIONS and fn is BUILTINS[a.fn]:
                    raise ActionFunctionError(a.fn, rule)
                gs = [self._val(v, bindings, rule) for v in a.args]
                out.append(("call", fn, gs))
            elif isinstance(a, Halt):
                out.append(("halt",))
            else:
                raise CompileError(f"not an action: {a!r}", rule)
        return out

    def _val(self, v, bindings, rule):
        if isinstance(v, Var):
            loc = bindings.get(v.name)
            if loc is None:
                raise UnboundVariableError(f"variable ?{v.name} is not bound", rule)
            pos, slot = loc
            if type(slot) is Collected:
                return slot.query
            if slot is None:
                return lambda facts: facts[pos]
            return lambda facts: facts[pos].values[slot]
        if isinstance(v, Expr):
            fn = self._function(v.fn, rule)
            gs = [self._val(a, bindings, rule) for a in v.args]
            if len(gs) == 2:
                g0, g1 = gs
                return lambda facts: fn(g0(facts), g1(facts))
            return lambda facts: fn(*[g(facts) for g in gs])
        return lambda facts: v

    def _fact_var(self, name, bindings, rule):
        loc = bindings.get(name)
        if loc is None:
            raise UnboundVariableError(f"fact variable ?{name} is not bound", rule)
        if type(loc[1]) is Collected:
            raise CollectedFactsError(f"?{name} holds collected facts, not one fact", name, rule,
                                      target=True)
        if loc[1] is not None:
            raise CompileError(f"?{name} holds a slot value, not a fact", rule)
        return loc[0]


def _each_slot_once(slots, what: str, action: int, rule: str) -> None:
    """An action gives each slot once: a fact holds one value per slot, and all
    but the last value given would be dropped without a word. The error says
    which action (``action``, its index) and which of its slots (``slot_index``)."""
    seen = set()
    for j, (s, _) in enumerate(slots):
        if s in seen:
            e = CompileError(f"{what}: slot {s!r} given twice", rule)
            e.action, e.slot_index = action, j
            raise e
        seen.add(s)


class Collected:
    """Where a :class:`~rete.model.Collect` variable is bound: in place of a
    slot name, the query that reads its facts from a token's facts (the same
    join spec its ``exists`` node matches with, run over the alpha memory),
    oldest time tag first: the order does not depend on how a memory was
    filled (a rollback puts a fact back at the end of its bucket)."""

    __slots__ = ("query",)

    def __init__(self, spec: JoinSpec, amem: AlphaMemory):
        test = spec.test
        lk = spec.left_key
        if lk is None:
            items = amem.items

            def candidates(facts):
                return items.values()
        else:
            index = spec.amem_index

            def candidates(facts):
                b = _bucket(index, lk(facts))
                return b.values() if b else ()

        def query(facts):
            found = candidates(facts)
            if test is not None:
                found = [f for f in found if test(facts, f)]
            if len(found) > 1:
                return tuple(sorted(found, key=_timetag))
            return tuple(found)
        self.query = query

    @staticmethod
    def misread(name: str, rule: str) -> CompileError:
        # the facts are read when the rule fires; a test or a join would judge
        # them once, when the first one arrived, and go stale
        return CollectedFactsError(f"?{name} holds collected facts, read when the rule "
                                   f"fires: pass it to actions; a test or a pattern cannot "
                                   f"read it", name, rule)

    def __repr__(self) -> str:
        return "<collected facts>"


_timetag = attrgetter("timetag")


def _slot_eq(slot):
    def eq(f, v):
        return f.values[slot] == v
    # marks the test for _direct_test (read with getattr: other tests have none)
    eq.slot_eq = True       # type: ignore[attr-defined]
    return eq


def _arg_sig(a, bindings) -> Any:
    if isinstance(a, Var):
        return ("var", bindings.get(a.name))
    if isinstance(a, Expr):
        return ("expr", a.fn if isinstance(a.fn, str) else id(a.fn),
                tuple(_arg_sig(x, bindings) for x in a.args))
    try:
        hash(a)
        return ("const", type(a).__name__, a)
    except TypeError:
        return ("const", type(a).__name__, repr(a))


def _naming(err, **attrs):
    """``err`` with the name it is about (for :func:`rete.loading.error_position`)."""
    for k, v in attrs.items():
        setattr(err, k, v)
    return err
