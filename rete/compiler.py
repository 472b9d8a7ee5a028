"""Compile productions into the network, sharing nodes with what is there.

Variables are resolved to token positions: ``bindings[name] = (pos, slot)``
where ``pos`` indexes the token's fact tuple and ``slot`` is ``None`` when the
variable holds the fact itself. Checks done here are the compile-time errors
the rule author sees: unknown templates, slots, functions, unbound variables.
"""
from __future__ import annotations

from typing import Any

from .errors import (CompileError, UnboundVariableError, UnknownFunctionError,
                     UnknownSlotError, UnknownTemplateError)
from .model import (AssertFact, Call, Exists, Expr, Halt, Modify, Not, Pattern, Production,
                    Retract, Test, Var)
from .network import (MISSING, AlphaMemory, AlphaNode, BetaMemory, JoinNode, JoinSpec,
                      NCCNode, NCCPartner, NegativeNode, ProductionNode, Store, TestNode)


class Compiler:
    def __init__(self, session):
        self.s = session

    # ------------------------------------------------------------ checks

    def _template(self, name: str, rule: str):
        t = self.s.templates.get(name)
        if t is None:
            raise UnknownTemplateError(f"unknown template {name!r}", rule)
        return t

    def _function(self, name, rule: str):
        if callable(name):
            fn = name
            self.s.functions.setdefault(getattr(fn, "__name__", repr(fn)), fn)
            return fn
        fn = self.s.functions.get(name)
        if fn is None:
            raise UnknownFunctionError(f"unknown function {name!r}", rule)
        return fn

    def check_slots(self, template: str, slots, rule: str) -> None:
        t = self._template(template, rule)
        for s, _ in slots:
            if s not in t.slots:
                raise UnknownSlotError(
                    f"template {template!r} has no slot {s!r} (slots: {', '.join(t.slots)})", rule)

    # ------------------------------------------------------------ alpha

    def alpha_memory(self, pat: Pattern, rule: str) -> tuple[AlphaMemory, dict]:
        """The shared alpha memory for a pattern; returns it and the pattern's variables."""
        self.check_slots(pat.template, pat.slots, rule)
        consts = []
        first: dict[str, str] = {}
        intra = []
        for slot, val in pat.slots:
            if isinstance(val, Var):
                if val.name in first:
                    intra.append((first[val.name], slot))
                else:
                    first[val.name] = slot
            else:
                consts.append((slot, val))
        consts.sort(key=lambda sv: sv[0])
        extra = []
        sig = []
        for a, b in intra:
            extra.append(lambda f, a=a, b=b: f.values.get(a, MISSING) == f.values.get(b, MISSING))
            sig.append(("eq", a, b))
        for p in pat.preds:
            self.check_slots(pat.template, ((p.slot, None),), rule)
            fn = self._function(p.fn, rule)
            extra.append(lambda f, fn=fn, s=p.slot, args=p.args: bool(fn(f.values.get(s), *args)))
            sig.append(("pred", p.slot, p.fn, p.args))
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
            amem = AlphaMemory(key, pat.template, extra, node, len(self.s.alpha_memories))
            node.memories.append(amem)
            self.s.alpha_memories[key] = amem
            for f in self.s.facts_of(pat.template):
                if all(t(f) for t in extra):
                    amem.add(f)
                    self.s.fact_amems[f.id].append(amem)
        return amem, first

    # ------------------------------------------------------------ value access

    def getter(self, val, bindings: dict, depth: int, rule: str):
        """A function ``(facts, fact) -> value`` for a constant or a variable."""
        if isinstance(val, Var):
            loc = bindings.get(val.name)
            if loc is None:
                raise UnboundVariableError(f"variable ?{val.name} is not bound", rule)
            pos, slot = loc
            if pos == depth:
                if slot is None:
                    return lambda facts, f: f
                return lambda facts, f, s=slot: f.values.get(s)
            if slot is None:
                return lambda facts, f, p=pos: facts[p]
            return lambda facts, f, p=pos, s=slot: facts[p].values.get(s)
        if isinstance(val, Expr):
            fn = self._function(val.fn, rule)
            gs = [self.getter(a, bindings, depth, rule) for a in val.args]
            return lambda facts, f: fn(*[g(facts, f) for g in gs])
        return lambda facts, f, v=val: v

    def compile_tests(self, tests: list[Test], bindings: dict, depth: int, rule: str):
        if not tests:
            return None, ()
        compiled = []
        for t in tests:
            fn = self._function(t.fn, rule)
            getters = [self.getter(a, bindings, depth, rule) for a in t.args]
            compiled.append((fn, getters))
        sig = tuple((t.fn if isinstance(t.fn, str) else id(t.fn),
                     tuple(_arg_sig(a, bindings) for a in t.args)) for t in tests)
        if len(compiled) == 1:
            (fn, gs), = compiled
            if len(gs) == 2:
                g0, g1 = gs
                return (lambda facts, f: fn(g0(facts, f), g1(facts, f))), sig
            return (lambda facts, f: fn(*[g(facts, f) for g in gs])), sig

        def test(facts, f):
            for fn, gs in compiled:
                if not fn(*[g(facts, f) for g in gs]):
                    return False
            return True
        return test, sig

    # ------------------------------------------------------------ beta

    def join_spec(self, pat: Pattern, amem: AlphaMemory, bindings: dict, depth: int,
                  tests: list[Test], rule: str, local: dict) -> JoinSpec:
        eq = []
        for slot, val in pat.slots:
            if isinstance(val, Var) and val.name in bindings and val.name not in local:
                pos, tslot = bindings[val.name]
                eq.append((slot, pos, tslot))
        # eq tests on the fact itself (a fact variable used as a slot value)
        test_fn, test_sig = self.compile_tests(tests, {**bindings, **local}, depth, rule)
        eq.sort(key=lambda e: e[0])
        return JoinSpec(eq, test_fn, test_sig, amem)

    def build(self, conds: tuple, store: Store, depth: int, bindings: dict, rule: str):
        """Build the chain for ``conds`` below ``store``.

        Returns ``(attach, depth, bindings)``: ``attach`` is the node to hang the
        next store on (a join/test node, or a store when the chain ends in one).
        """
        attach = store
        conds = list(conds)
        i = 0
        while i < len(conds):
            c = conds[i]
            if isinstance(attach, (JoinNode, TestNode)):
                attach = self._memory_under(attach)
            store = attach
            if isinstance(c, Pattern):
                amem, first = self.alpha_memory(c, rule)
                local = {}
                for name, slot in first.items():
                    if name not in bindings:
                        local[name] = (depth, slot)
                if c.bind:
                    if c.bind in bindings:
                        raise CompileError(f"fact variable ?{c.bind} is bound twice", rule)
                    local[c.bind] = (depth, None)
                # tests that can run once this pattern is joined
                tests = []
                j = i + 1
                while j < len(conds) and isinstance(conds[j], Test) and \
                        _test_vars(conds[j]) <= set(bindings) | set(local):
                    tests.append(conds[j])
                    j += 1
                spec = self.join_spec(c, amem, bindings, depth, tests, rule, local)
                bindings = {**bindings, **local}
                attach = self._join_under(store, amem, spec)
                depth += 1
                i = j
            elif isinstance(c, Test):
                missing = _test_vars(c) - set(bindings)
                if missing:
                    raise UnboundVariableError(
                        f"test {c.fn}: variable ?{sorted(missing)[0]} is not bound", rule)
                fn, sig = self.compile_tests([c], bindings, depth, rule)
                attach = self._test_under(store, fn, sig)
                depth += 1
                i += 1
            elif isinstance(c, (Not, Exists)):
                exists = isinstance(c, Exists)
                inner = c.conditions
                if not inner:
                    raise CompileError("empty not/exists", rule)
                if len(inner) == 1 and isinstance(inner[0], Pattern):
                    pat = inner[0]
                    amem, first = self.alpha_memory(pat, rule)
                    local = {n: (depth, s) for n, s in first.items() if n not in bindings}
                    spec = self.join_spec(pat, amem, bindings, depth, [], rule, local)
                    attach = self._negative_under(store, amem, spec, exists)
                else:
                    attach = self._ncc_under(store, inner, depth, bindings, exists, rule)
                depth += 1
                i += 1
            else:
                raise CompileError(f"not a condition: {c!r}", rule)
        return attach, depth, bindings

    def _memory_under(self, node):
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
        amem.successors.insert(0, j)
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
        n = NegativeNode(store, amem, spec, exists)
        store.children.append(n)
        amem.successors.insert(0, n)
        for tok in store.outputs():
            n.left_activate(tok)
        return n

    def _ncc_under(self, store, inner, depth, bindings, exists, rule) -> NCCNode:
        ncc = NCCNode(store, depth, exists)
        attach, sub_depth, _ = self.build(tuple(inner), store, depth, dict(bindings), rule)
        partner = NCCPartner(attach, ncc, sub_depth - depth)
        ncc.partner = partner
        attach.children.append(partner)
        if isinstance(attach, (JoinNode, TestNode)):
            attach.replay(partner)
        else:
            for tok in attach.outputs():
                partner.left_activate(tok)
        store.children.append(ncc)
        for tok in store.outputs():
            ncc.left_activate(tok)
        return ncc

    # ------------------------------------------------------------ productions

    def add_production(self, prod: Production, agenda) -> ProductionNode:
        rule = prod.name
        attach, depth, bindings = self.build(prod.conditions, self.s.root, 0, {}, rule)
        actions = self.compile_actions(prod, bindings, depth)
        pnode = ProductionNode(attach, prod, actions, agenda)
        pnode.stage_index = self.s.stage_index[prod.stage]
        attach.children.append(pnode)
        pnode.bindings = bindings
        if isinstance(attach, (JoinNode, TestNode)):
            attach.replay(pnode)
        else:
            for tok in attach.outputs():
                pnode.left_activate(tok)
        return pnode

    def compile_actions(self, prod: Production, bindings: dict, depth: int):
        """Actions as tuples whose values are closures ``facts -> value``."""
        rule = prod.name
        out = []
        for a in prod.actions:
            if isinstance(a, AssertFact):
                self.check_slots(a.template, a.slots, rule)
                gs = [(s, self._val(v, bindings, rule)) for s, v in a.slots]
                out.append(("assert", a.template, gs, a.logical))
            elif isinstance(a, Retract):
                out.append(("retract", self._fact_var(a.var, bindings, rule)))
            elif isinstance(a, Modify):
                pos = self._fact_var(a.var, bindings, rule)
                gs = [(s, self._val(v, bindings, rule)) for s, v in a.slots]
                out.append(("modify", pos, gs))
            elif isinstance(a, Call):
                fn = self._function(a.fn, rule)
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
            if slot is None:
                return lambda facts, p=pos: facts[p]
            return lambda facts, p=pos, s=slot: facts[p].values.get(s)
        if isinstance(v, Expr):
            fn = self._function(v.fn, rule)
            gs = [self._val(a, bindings, rule) for a in v.args]
            return lambda facts: fn(*[g(facts) for g in gs])
        return lambda facts, c=v: c

    def _fact_var(self, name, bindings, rule):
        loc = bindings.get(name)
        if loc is None:
            raise UnboundVariableError(f"fact variable ?{name} is not bound", rule)
        if loc[1] is not None:
            raise CompileError(f"?{name} holds a slot value, not a fact", rule)
        return loc[0]


def _test_vars(t: Test) -> set[str]:
    out = set()
    for a in t.args:
        if isinstance(a, Var):
            out.add(a.name)
        elif isinstance(a, Expr):
            out |= a.variables()
    return out


def _arg_sig(a, bindings) -> Any:
    if isinstance(a, Var):
        return ("var", bindings.get(a.name))
    if isinstance(a, Expr):
        return ("expr", a.fn, tuple(_arg_sig(x, bindings) for x in a.args))
    try:
        hash(a)
        return ("const", a)
    except TypeError:
        return ("const", repr(a))
