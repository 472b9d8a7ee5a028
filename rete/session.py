"""A rule session: templates, functions, stages, working memory, network, agenda.

Example::

    >>> from rete import Session, Template, Rule, P, V, Assert
    >>> s = Session()
    >>> s.deftemplate("person", "name", "age")
    >>> s.deftemplate("adult", "name")
    >>> s.add(Rule("adults").when(P("person", name=V.n, age=V.a), Test("ge", V.a, 18))
    ...       .then(Assert("adult", name=V.n)))
    >>> _ = s.assert_fact("person", name="Ada", age=36)
    >>> s.run()
    1
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

import networkx as nx

from . import functions as builtin_functions
from .agenda import Agenda
from .compiler import Compiler
from .errors import (ActionError, DuplicateProductionError, DuplicateTemplateError,
                     RetractedFactError, ReteError, SlotValueError, StageCycleError,
                     UnknownFactError, UnknownProductionError, UnknownStageError,
                     UnknownTemplateError)
from .model import Fact, Production, Rule, Template, as_production
from .network import AlphaNode, RootMemory, delete_token


@dataclass
class Firing:
    """One line of the trace: which production fired on which facts."""

    rule: str
    stage: str
    facts: tuple
    bindings: dict

    def __str__(self):
        ids = ", ".join(f"f-{i}" for i in self.facts)
        b = " ".join(f"?{k}={v!r}" for k, v in self.bindings.items() if not isinstance(v, Fact))
        return f"FIRE {self.rule} [{self.stage}] {ids}" + (f"  {b}" if b else "")


class Context:
    """What an action sees: the bindings of its match and the session."""

    __slots__ = ("session", "token", "pnode")

    def __init__(self, session, token, pnode):
        self.session = session
        self.token = token
        self.pnode = pnode

    @property
    def production(self) -> Production:
        return self.pnode.production

    @property
    def rule(self) -> str:
        return self.pnode.production.name

    def __getitem__(self, var: str):
        pos, slot = self.pnode.bindings[var]
        f = self.token.facts[pos]
        return f if slot is None else f.values.get(slot)

    @property
    def bindings(self) -> dict:
        return {k: self[k] for k in self.pnode.bindings}

    @property
    def facts(self) -> tuple:
        return tuple(f for f in self.token.facts if f is not None)

    def assert_fact(self, template: str, values: Mapping | None = None, /, **slots) -> Fact:
        return self.session._assert(template, {**(values or {}), **slots}, None, self)

    def assert_logical(self, template: str, values: Mapping | None = None, /, **slots) -> Fact:
        return self.session._assert(template, {**(values or {}), **slots}, self.token, self)

    def retract(self, fact: Fact) -> None:
        self.session.retract(fact)

    def modify(self, fact: Fact, values: Mapping | None = None, /, **slots) -> Fact:
        return self.session.modify(fact, {**(values or {}), **slots})

    def halt(self) -> None:
        self.session.halt()


class Session:
    """Working memory plus the compiled productions, run by an agenda."""

    def __init__(self, strategy: str = "recency", stages: Iterable[str] = ("default",)):
        self.templates: dict[str, Template] = {}
        self.functions: dict[str, Callable] = dict(builtin_functions.BUILTINS)
        self.productions: dict[str, Any] = {}        # name -> ProductionNode
        self.alpha_roots: dict[str, AlphaNode] = {}
        self.alpha_memories: dict = {}
        self.root = RootMemory()
        self.facts: dict[int, Fact] = {}
        self.by_template: dict[str, dict[int, Fact]] = {}
        self.fact_amems: dict[int, list] = {}
        self.stages: list[str] = []
        self.stage_index: dict[str, int] = {}
        self._stage_after: list[tuple[str, str]] = []
        self.agenda = Agenda(self, strategy)
        self.compiler = Compiler(self)
        self._next_id = 1
        self._time = 0
        self._halted = False
        self.trace_enabled = False
        self.trace: list[Firing] = []
        self.listeners: list[Callable] = []   # fn(kind, fact, old_values) on every change
        self._journal: list | None = None
        self._refracted: set | None = None
        self.firings = 0
        self.define_stages(stages)

    # ------------------------------------------------------------ declarations

    def deftemplate(self, name: str | Template, *slots: str, defaults: Mapping | None = None,
                    doc: str = "", replace: bool = False) -> Template:
        """Declare a fact template (or register a :class:`Template`)."""
        t = name if isinstance(name, Template) else Template(name, tuple(slots), defaults or {}, doc)
        old = self.templates.get(t.name)
        if old is not None and not replace and old != t:
            raise DuplicateTemplateError(f"template {t.name!r} is already declared")
        if old is not None and replace:
            missing = set(old.slots) - set(t.slots)
            if missing:
                raise DuplicateTemplateError(
                    f"template {t.name!r}: a replacement must keep its slots ({', '.join(sorted(missing))})")
        self.templates[t.name] = t
        return t

    def extend_template(self, name: str, *slots: str, defaults: Mapping | None = None) -> Template:
        """Add slots to a template (a schema extension); existing facts get the defaults."""
        old = self.templates.get(name)
        if old is None:
            raise UnknownTemplateError(f"unknown template {name!r}")
        t = old.extended(*slots, defaults=defaults)
        self.templates[name] = t
        for f in self.by_template.get(name, {}).values():
            for s in slots:
                if s not in f.values and s in t.defaults:
                    f.values[s] = t.defaults[s]
        return t

    def register_function(self, name: str, fn: Callable | None = None):
        """Register a function callable by name from tests and actions (also a decorator)."""
        if fn is None:
            def deco(f):
                self.functions[name] = f
                return f
            return deco
        self.functions[name] = fn
        return fn

    def define_stages(self, order: Iterable[str]) -> None:
        """Append stages in this order (stages already declared keep their place)."""
        order = list(order)
        for a, b in zip(order, order[1:]):
            self._stage_after.append((a, b))
        for s in order:
            if s not in self.stage_index:
                self._stage_after.append((None, s))
        self._relayout_stages()

    def define_stage(self, name: str, after: Iterable[str] = (), before: Iterable[str] = ()) -> None:
        """Declare a stage with ordering constraints relative to others."""
        self._stage_after.append((None, name))
        for a in after:
            self._stage_after.append((a, name))
        for b in before:
            self._stage_after.append((name, b))
        try:
            self._relayout_stages()
        except StageCycleError:
            del self._stage_after[-(1 + len(list(after)) + len(list(before))):]
            raise

    def _relayout_stages(self) -> None:
        g = nx.DiGraph()
        seen = []
        for a, b in self._stage_after:
            for n in (a, b):
                if n is not None and n not in seen:
                    seen.append(n)
        g.add_nodes_from(seen)
        g.add_edges_from((a, b) for a, b in self._stage_after if a is not None)
        try:
            order = list(nx.lexicographical_topological_sort(g, key=seen.index))
        except nx.NetworkXUnfeasible:
            cycle = [e[0] for e in nx.find_cycle(g)]
            bad = len(self._stage_after)
            raise StageCycleError(cycle)
        old_names = list(self.stages)
        self.stages = order
        self.stage_index = {s: i for i, s in enumerate(order)}
        for pnode in self.productions.values():
            pnode.stage_index = self.stage_index[pnode.production.stage]
        if old_names != order:
            self.agenda.resize(len(order), remap=lambda a: a.pnode.stage_index)

    # ------------------------------------------------------------ productions

    def add(self, *prods: Production | Rule) -> None:
        """Compile productions into the network; facts already present are matched."""
        for p in prods:
            self.add_production(p)

    def add_production(self, prod: Production | Rule, replace: bool = False):
        prod = as_production(prod)
        if prod.name in self.productions:
            if not replace:
                raise DuplicateProductionError(f"production {prod.name!r} already exists")
        if prod.stage not in self.stage_index:
            raise UnknownStageError(
                f"rule {prod.name!r}: stage {prod.stage!r} is not declared "
                f"(stages: {', '.join(self.stages)})")
        # compile to check everything before touching the network
        with self._atomic_network():
            if prod.name in self.productions:
                self.remove_production(prod.name)
            pnode = self.compiler.add_production(prod, self.agenda)
            self.productions[prod.name] = pnode
        return pnode

    def replace_production(self, prod: Production | Rule):
        """Replace the production of the same name (a network operation)."""
        prod = as_production(prod)
        if prod.name not in self.productions:
            raise UnknownProductionError(f"no production named {prod.name!r}")
        return self.add_production(prod, replace=True)

    def remove_production(self, name: str) -> Production:
        """Remove a production and every node no other production uses."""
        pnode = self.productions.get(name)
        if pnode is None:
            raise UnknownProductionError(f"no production named {name!r}")
        del self.productions[name]
        self._destroy(pnode)
        return pnode.production

    def list_productions(self) -> list[Production]:
        return [p.production for p in self.productions.values()]

    def get_production(self, name: str) -> Production:
        p = self.productions.get(name)
        if p is None:
            raise UnknownProductionError(f"no production named {name!r}")
        return p.production

    @contextmanager
    def _atomic_network(self):
        """Compile errors leave no half-built nodes: new nodes are destroyed."""
        before = set(map(id, self._all_nodes()))
        try:
            yield
        except Exception:
            for n in list(self._all_nodes()):
                if id(n) not in before:
                    self._detach(n)
            raise

    def _all_nodes(self):
        stack = [self.root]
        seen = set()
        while stack:
            n = stack.pop()
            if id(n) in seen:
                continue
            seen.add(id(n))
            yield n
            stack.extend(getattr(n, "children", ()))
            if hasattr(n, "partner") and n.partner is not None:
                pass

    def _detach(self, node) -> None:
        parent = getattr(node, "parent", None)
        if parent is not None and node in parent.children:
            parent.children.remove(node)
        self._cleanup(node)

    def _cleanup(self, node) -> None:
        tokens = getattr(node, "tokens", None)
        if tokens:
            for tok in list(tokens):
                if tok in node.tokens:
                    delete_token(tok)
        amem = getattr(node, "amem", None)
        if amem is not None:
            if node in amem.successors:
                amem.successors.remove(node)
            idx = getattr(node, "spec", None)
            if not amem.successors:
                self._drop_alpha_memory(amem)
        parent = getattr(node, "parent", None)
        if parent is not None and getattr(node, "spec", None) is not None and node.spec.eq \
                and hasattr(parent, "indexes"):
            parent.indexes.pop(node, None)

    def _destroy(self, node) -> None:
        """Delete ``node`` and then any ancestor left without children."""
        while node is not None and node is not self.root:
            parent = node.parent
            if node in parent.children:
                parent.children.remove(node)
            from .network import NCCNode
            if isinstance(node, NCCNode) and node.partner is not None:
                partner = node.partner
                node.partner = None
                self._destroy(partner)
            self._cleanup(node)
            if parent.children or parent is self.root:
                break
            node = parent

    def _drop_alpha_memory(self, amem) -> None:
        self.alpha_memories.pop(amem.key, None)
        for fid in list(amem.items):
            lst = self.fact_amems.get(fid)
            if lst and amem in lst:
                lst.remove(amem)
        node = amem.node
        if amem in node.memories:
            node.memories.remove(amem)
        while node is not None and node.is_empty() and node.parent is not None:
            slot, val = node.test
            table = node.parent.children[slot]
            table.pop(val, None)
            if not table:
                del node.parent.children[slot]
            node = node.parent

    # ------------------------------------------------------------ working memory

    def facts_of(self, template: str) -> list[Fact]:
        return list(self.by_template.get(template, {}).values())

    def _check_values(self, t: Template, values: Mapping) -> dict:
        out = dict(t.defaults)
        for k, v in values.items():
            if k not in t.slots:
                raise SlotValueError(
                    f"template {t.name!r} has no slot {k!r} (slots: {', '.join(t.slots)})")
            out[k] = v
        return out

    def assert_fact(self, template: str, values: Mapping | None = None, /, **slots) -> Fact:
        """Assert a fact; returns it. Slot names not in the template are an error."""
        return self._assert(template, {**(values or {}), **slots}, None, None)

    def _assert(self, template: str, values: Mapping, support_token, ctx) -> Fact:
        t = self.templates.get(template)
        if t is None:
            raise UnknownTemplateError(f"unknown template {template!r}")
        vals = self._check_values(t, values)
        if support_token is not None:
            # a logical assert of a fact already present adds support to it
            for f in self.by_template.get(template, {}).values():
                if f.values == vals and f.support is not None:
                    f.support.add(support_token)
                    if support_token.supported is None:
                        support_token.supported = []
                    support_token.supported.append(f)
                    return f
        f = Fact(self._next_id, template, vals)
        self._next_id += 1
        if ctx is not None:
            f.origin = (ctx.pnode.production.name,
                        tuple(x.id for x in ctx.token.facts if x is not None))
        if support_token is not None:
            f.support = {support_token}
            if support_token.supported is None:
                support_token.supported = []
            support_token.supported.append(f)
        self._insert(f)
        if self._journal is not None:
            self._journal.append(("assert", f))
        return f

    def _insert(self, f: Fact) -> None:
        self._time += 1
        f.timetag = self._time
        f.alive = True
        fid = f.id
        self.facts[fid] = f
        bt = self.by_template.get(f.template)
        if bt is None:
            bt = self.by_template[f.template] = {}
        bt[fid] = f
        hits: list = []
        root = self.alpha_roots.get(f.template)
        if root is not None:
            root.activate(f, hits)
        self.fact_amems[fid] = hits
        for m in hits:
            m.add(f)
        for fn in self.listeners:
            fn("assert", f, None)

    def _remove(self, f: Fact) -> None:
        fid = f.id
        f.alive = False
        del self.facts[fid]
        del self.by_template[f.template][fid]
        for m in self.fact_amems.pop(fid, ()):
            m.remove(f)
        toks = f.tokens
        while toks:
            tok = next(reversed(toks))
            delete_token(tok)
        negs = f.neg_results
        if negs:
            f.neg_results = []
            for tok in negs:
                node = tok.node
                if tok in node.tokens:
                    node.fact_removed(tok, f)
        for fn in self.listeners:
            fn("retract", f, None)

    def _live(self, fact: Fact | int) -> Fact:
        if isinstance(fact, int):
            f = self.facts.get(fact)
            if f is None:
                if fact < self._next_id:
                    raise RetractedFactError(f"fact f-{fact} was already retracted")
                raise UnknownFactError(f"no fact f-{fact} in this session")
            return f
        if not isinstance(fact, Fact):
            raise UnknownFactError(f"not a fact: {fact!r}")
        cur = self.facts.get(fact.id)
        if cur is not fact:
            if fact.id < self._next_id and cur is None and not fact.alive:
                raise RetractedFactError(f"fact f-{fact.id} was already retracted")
            raise UnknownFactError(f"fact f-{fact.id} is not in this session")
        return fact

    def retract(self, fact: Fact | int) -> None:
        """Retract a fact (by object or id)."""
        f = self._live(fact)
        self._remove(f)
        if f.support is not None:
            for tok in f.support:
                if tok.supported:
                    try:
                        tok.supported.remove(f)
                    except ValueError:
                        pass
        if self._journal is not None:
            self._journal.append(("retract", f))

    def modify(self, fact: Fact | int, values: Mapping | None = None, /, **slots) -> Fact:
        """Change slots of a fact; it keeps its id and gets a new timetag."""
        f = self._live(fact)
        t = self.templates[f.template]
        changes = {**(values or {}), **slots}
        for k in changes:
            if k not in t.slots:
                raise SlotValueError(
                    f"template {t.name!r} has no slot {k!r} (slots: {', '.join(t.slots)})")
        old = f.values
        old_tag = f.timetag
        self._remove(f)
        f.values = {**old, **changes}
        self._insert(f)
        if self._journal is not None:
            self._journal.append(("modify", f, old, old_tag))
        return f

    # ------------------------------------------------------------ truth maintenance

    def _support_lost(self, tok) -> None:
        for f in tok.supported:
            if f.support is not None:
                f.support.discard(tok)
                if not f.support and f.alive:
                    self._remove(f)
                    if self._journal is not None:
                        self._journal.append(("retract", f))
        tok.supported = None

    # ------------------------------------------------------------ journal

    def checkpoint(self) -> int:
        """Start (or nest) recording changes; returns a mark for :meth:`rollback`."""
        if self._journal is None:
            self._journal = []
            self._refracted = set()
        return len(self._journal)

    def rollback(self, mark: int = 0) -> None:
        """Undo every change made since ``mark`` (facts return with their ids and timetags)."""
        j = self._journal
        if j is None:
            return
        saved = j
        self._journal = None
        try:
            while len(saved) > mark:
                op = saved.pop()
                kind = op[0]
                f = op[1]
                if kind == "assert":
                    if f.alive:
                        self._remove(f)
                elif kind == "retract":
                    if not f.alive:
                        tag = f.timetag
                        f.tokens = {}
                        f.neg_results = []
                        self._reinsert(f, tag)
                else:
                    _, f, old, old_tag = op
                    self._remove(f)
                    f.values = old
                    self._reinsert(f, old_tag)
        finally:
            self._journal = saved
        if mark == 0:
            self._journal = None
            self._refracted = None

    def _reinsert(self, f: Fact, tag: int) -> None:
        t = self._time
        self._insert(f)
        f.timetag = tag
        self._time = t

    def commit(self, mark: int = 0) -> None:
        """Stop recording (at the outermost mark) and keep the changes."""
        if mark == 0:
            self._journal = None
            self._refracted = None

    @contextmanager
    def transaction(self):
        """All or nothing: an exception inside rolls working memory back."""
        mark = self.checkpoint()
        try:
            yield self
        except BaseException:
            self.rollback(mark)
            raise
        else:
            self.commit(mark)

    def _signature(self, pnode, tok) -> tuple:
        return (id(pnode), tuple((f.id, f.timetag) for f in tok.facts if f is not None))

    # ------------------------------------------------------------ running

    def halt(self) -> None:
        """Stop the current run after the firing in progress."""
        self._halted = True

    def run(self, limit: int | None = None, stages: Iterable[str] | None = None) -> int:
        """Fire activations until none is left, ``limit`` is reached or an action halts.

        ``stages`` restricts the run to those stages (the focus). Returns the
        number of firings. If an action raises, working memory is rolled back
        to where the run began and :class:`ActionError` is raised.
        """
        allowed = None
        if stages is not None:
            allowed = set()
            for s in ([stages] if isinstance(stages, str) else stages):
                if s not in self.stage_index:
                    raise UnknownStageError(f"stage {s!r} is not declared")
                allowed.add(self.stage_index[s])
        self._halted = False
        n = 0
        mark = self.checkpoint()
        try:
            while limit is None or n < limit:
                act = self.agenda.pop(allowed)
                if act is None:
                    break
                self._fire(act)
                n += 1
                if self._halted:
                    break
        except ActionError:
            self.rollback(mark)
            raise
        self.commit(mark)
        return n

    def _fire(self, act) -> None:
        pnode = act.pnode
        tok = act.token
        facts = tok.facts
        self.firings += 1
        if self.trace_enabled:
            ctx = Context(self, tok, pnode)
            self.trace.append(Firing(pnode.production.name, pnode.production.stage,
                                     tuple(f.id for f in facts if f is not None), ctx.bindings))
        ctx = None
        try:
            for a in pnode.compiled:
                kind = a[0]
                if kind == "call":
                    if ctx is None:
                        ctx = Context(self, tok, pnode)
                    a[1](ctx, *[g(facts) for g in a[2]])
                elif kind == "assert":
                    if ctx is None:
                        ctx = Context(self, tok, pnode)
                    self._assert(a[1], {s: g(facts) for s, g in a[2]},
                                 tok if a[3] else None, ctx)
                elif kind == "retract":
                    f = facts[a[1]]
                    if f.alive:
                        self.retract(f)
                elif kind == "modify":
                    f = facts[a[1]]
                    self.modify(f, {s: g(facts) for s, g in a[2]})
                elif kind == "halt":
                    self._halted = True
        except ReteError as e:
            if isinstance(e, ActionError):
                raise
            raise ActionError(pnode.production.name, e) from e
        except Exception as e:
            raise ActionError(pnode.production.name, e) from e

    # ------------------------------------------------------------ observability

    def activations(self) -> list:
        """The agenda in firing order."""
        return self.agenda.pending()

    def explain(self, fact: Fact | int) -> dict:
        """Why a fact is here: the production and facts that asserted or support it."""
        f = fact if isinstance(fact, Fact) else self.facts.get(fact)
        if f is None:
            raise UnknownFactError(f"no fact {fact!r} in this session")
        out = {"fact": f, "asserted_by": None, "from_facts": (), "logical": f.support is not None,
               "support": []}
        if f.origin is not None:
            out["asserted_by"], ids = f.origin
            out["from_facts"] = tuple(self.facts.get(i, i) for i in ids)
        if f.support:
            for tok in f.support:
                pn = _pnode_of(tok)
                out["support"].append({
                    "rule": pn.production.name if pn else None,
                    "facts": tuple(x for x in tok.facts if x is not None)})
        return out

    def graph(self) -> nx.DiGraph:
        from .graph import network_graph
        return network_graph(self)

    def to_dot(self) -> str:
        from .graph import to_dot
        return to_dot(self.graph())

    def stats(self) -> dict:
        from .graph import network_stats
        return network_stats(self)


def _pnode_of(tok):
    return tok.node if getattr(tok.node, "kind", "") == "production" else None
