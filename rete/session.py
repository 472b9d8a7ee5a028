"""A rule session: templates, functions, stages, working memory, network, agenda.

Example::

    >>> from rete import Session, Rule, P, V, Assert, Test
    >>> s = Session()
    >>> _ = s.deftemplate("person", "name", "age")
    >>> _ = s.deftemplate("adult", "name")
    >>> s.add(Rule("adults").when(P("person", name=V.n, age=V.a), Test("ge", V.a, 18))
    ...       .then(Assert("adult", name=V.n)))
    >>> _ = s.assert_fact("person", name="Ada", age=36)
    >>> s.run()
    1
"""
from __future__ import annotations

import gc
from collections import deque
from typing import Any, Callable, Iterable, Mapping

import networkx as nx

from . import functions as builtin_functions
from .agenda import Agenda
from .compiler import Compiler
from .context import Context, Firing
from .demand import OnDemand
from .editing import NetworkEditing
from .slot_specific import SlotSpecificModify
from .errors import (ActionError, DuplicateTemplateError, RetractedFactError, RunawayError,
                     ReteError, SlotValueError, StageCycleError, UnknownFactError,
                     UnknownStageError, UnknownTemplateError, did_you_mean)
from .journal import Journal, _tags
from .match_errors import match_error
from .joinorder import JOIN_ORDERS
from .model import Fact, Template
from .alpha import AlphaNode
from .network import RootMemory
from .tokens import MISSING, delete_token, hkey

__all__ = ["Session", "Context", "Firing"]


def _lkey(template: str, vals: dict):
    k = (template, tuple(vals.values()))
    try:
        hash(k)
    except TypeError:
        k = hkey(k)
    return k


class Session(NetworkEditing, Journal, SlotSpecificModify, OnDemand):
    """Working memory plus the compiled productions, run by an agenda.

    Every change either completes or raises with the session unchanged:
    compile errors detach what was built, a test that raises while a fact is
    matched undoes that change (:class:`MatchError`), an action that raises
    undoes the whole :meth:`run` (:class:`ActionError`).

    ``strategy`` orders activations of equal stage and salience (``recency``,
    ``mea``, ``depth``, ``breadth``: :mod:`rete.agenda`); ``stages`` names the
    stages in order; ``join_order`` is ``"control-last"`` (control patterns on
    a state cycle are joined last, :mod:`rete.joinorder`) or ``"written"``.

    >>> from rete import ModifyFact, P, Rule, Session
    >>> s = Session(strategy="depth")
    >>> _ = s.deftemplate("light", "state")
    >>> s.add(Rule("toggle").when(P("light", state="off").as_("l"))
    ...       .then(ModifyFact("l", state="on")))
    >>> s.assert_fact("light", state="off").id
    1
    >>> s.run()
    1
    """

    def __init__(self, strategy: str = "recency", stages: Iterable[str] = ("default",),
                 join_order: str = "control-last"):
        if join_order not in JOIN_ORDERS:
            raise ReteError(f"unknown join order {join_order!r}; choose one of "
                            f"{', '.join(JOIN_ORDERS)}")
        self.templates: dict[str, Template] = {}
        self.functions: dict[str, Callable] = dict(builtin_functions.BUILTINS)
        self.productions: dict[str, Any] = {}        # name -> ProductionNode
        self.alpha_roots: dict[str, AlphaNode] = {}
        self.alpha_memories: dict = {}
        self._next_amem_id = 0
        self.root = RootMemory()
        self.facts: dict[int, Fact] = {}
        self.by_template: dict[str, dict[int, Fact]] = {}
        self.fact_amems: dict[int, list] = {}
        self.stages: list[str] = []
        self.stage_index: dict[str, int] = {}
        self._focus_cache: dict = {}
        self._stage_after: list[tuple[str | None, str]] = []
        self.agenda = Agenda(self, strategy)
        self.compiler = Compiler(self)
        self._next_id = 1
        self._time = 0
        self._halted = False
        self.trace_enabled = False
        self.trace: list[Firing] = []
        self.listeners: list[Callable] = []   # fn(kind, fact, old_values) on every change
        #: a hook the layer above fills: ``slot_values(template, slot)`` is the
        #: collection of values that slot can hold, or None when any value may
        #: be there; a production whose constant is outside it is refused with
        #: an UnknownSlotValueError when it compiles (the engine knows no domain)
        self.slot_values: Callable[[str, str], Any] | None = None
        self.firings = 0
        # journal: None when nothing records; _marks[i] is where checkpoint i began
        self._journal: list | None = None
        self._marks: list[int] = []
        # timetags at the open marks; _horizon: the newest undo point (latest
        # mark or guarded change). A match over a fact newer than it can never
        # be rebuilt by an undo, so its deletion is not journalled.
        self._mark_times: list[int] = []
        self._horizon: int | None = None
        self._rolling = False                 # undoing: truth maintenance is off
        self._restore: dict | None = None     # while undoing: agenda state by match
        self._rebuilt: dict | None = None     # while undoing: tokens made again, by match
        self._tms_queue: deque = deque()      # production tokens that lost their match
        self._unblocked: list = []            # gated tokens to pass on once deletions end
        # (template, values) -> {logical fact: None}: a modify can make two equal
        self._logical: dict = {}
        # modify of slots no condition reads: renew the matches instead of
        # rebuilding them (same result; see rete.slot_reads). False: always rebuild
        self.slot_specific = True
        # (template -> slots conditions read, templates renewed at once); lazy
        self._reactive: tuple | None = None
        self._renewals: list = []             # (match token or fact, seq): see _flush_renewals
        self._below: dict = {}                # node -> production nodes below it (cache)
        self._firing = None                   # the token firing (renewals wait while one is)
        # the firing token, when a modify in its own actions renewed it instead
        # of rebuilding it: for its logical asserts it is gone, as a rebuild leaves it
        self._renewed_firing = None
        # "control-last": control patterns on a state cycle are joined last
        # (rete.joinorder); "written": every condition as written
        self.join_order = join_order
        self._batch: list = []                # productions being added together
        # on-demand productions (rete.demand): what they provide and who reads
        # it, worked out when first needed; the journals pause_journal set aside
        self._demand_index = None
        self._paused: list = []
        self._passed: dict = {}
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
        if old is not None and old.slots != t.slots:
            self._fill_slots(t)
        return t

    def extend_template(self, name: str, *slots: str, defaults: Mapping | None = None) -> Template:
        """Add slots to a template (a schema extension); existing facts get the defaults."""
        old = self.templates.get(name)
        if old is None:
            raise UnknownTemplateError(f"unknown template {name!r}"
                                       f"{did_you_mean(name, self.templates)}")
        t = old.extended(*slots, defaults=defaults)
        self.templates[name] = t
        self._fill_slots(t)
        return t

    def _fill_slots(self, t: Template) -> None:
        for f in self.by_template.get(t.name, {}).values():
            for s, v in t._blank.items():
                if s not in f.values:
                    f.values[s] = v

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
        saved = list(self._stage_after)
        for a, b in zip(order, order[1:]):
            self._stage_after.append((a, b))
        for s in order:
            if s not in self.stage_index:
                self._stage_after.append((None, s))
        try:
            self._relayout_stages()
        except StageCycleError:
            self._stage_after[:] = saved
            raise

    def define_stage(self, name: str, after: Iterable[str] = (), before: Iterable[str] = ()) -> None:
        """Declare a stage with ordering constraints relative to others."""
        saved = list(self._stage_after)
        self._stage_after.append((None, name))
        for a in after:
            self._stage_after.append((a, name))
        for b in before:
            self._stage_after.append((name, b))
        try:
            self._relayout_stages()
        except StageCycleError:
            self._stage_after[:] = saved
            raise

    def _relayout_stages(self) -> None:
        g = nx.DiGraph()
        seen: dict = {}
        for a, b in self._stage_after:
            for n in (a, b):
                if n is not None and n not in seen:
                    seen[n] = len(seen)
        g.add_nodes_from(seen)
        g.add_edges_from((a, b) for a, b in self._stage_after if a is not None)
        try:
            order = list(nx.lexicographical_topological_sort(g, key=seen.__getitem__))
        except nx.NetworkXUnfeasible:
            cycle = [e[0] for e in nx.find_cycle(g)]
            raise StageCycleError(cycle)
        old_names = list(self.stages)
        self.stages = order
        self.stage_index = {s: i for i, s in enumerate(order)}
        self._focus_cache = {}
        self._demand_index = None
        for pnode in self.productions.values():
            pnode.stage_index = self.stage_index[pnode.production.stage]
        if old_names != order:
            self.agenda.resize(len(order), remap=lambda a: a.pnode.stage_index)

    # ------------------------------------------------------------ working memory

    def facts_of(self, template: str) -> list[Fact]:
        """The facts of ``template`` in working memory, as a new list (empty for a
        template that has none, declared or not). Facts that a production
        provides on demand (:mod:`rete.demand`) are brought up to date first."""
        d = self._demand_index
        if d is None:
            d = self._demand()
        if template in d.provided:
            self.demand(template)
        return list(self.by_template.get(template, {}).values())

    def _values(self, template: str, values: Mapping | None, slots: Mapping) -> dict:
        """Complete slot values for a new fact (defaults, then ``None``)."""
        t = self.templates.get(template)
        if t is None:
            raise UnknownTemplateError(f"unknown template {template!r}"
                                       f"{did_you_mean(template, self.templates)}")
        out = dict(t._blank)
        for src in (values, slots):
            if not src:
                continue
            for k, v in src.items():
                if k not in out:
                    r = t.resolve(k)
                    if r is None:
                        raise SlotValueError(
                            f"template {t.name!r} has no slot {k!r}{did_you_mean(k, t.slots)} "
                            f"(slots: {', '.join(t.slots)})")
                    k = r
                out[k] = v
        return out

    def assert_fact(self, template: str, values: Mapping | None = None, /, **slots) -> Fact:
        """Assert a fact; returns it. Slot names not in the template are an error."""
        vals = self._values(template, values, slots)
        return self._guarded(self._assert_vals, template, vals, None, None, None)

    def _assert_vals(self, template: str, vals: dict, support, pnode, tok) -> Fact | None:
        j = self._journal
        if support is not None:
            if support.dead or support is self._renewed_firing:
                # the match that would support it is gone (earlier in the same firing)
                return None
            lk = _lkey(template, vals)
            twins = self._logical.get(lk)
            f = next(iter(twins)) if twins else None
            if f is not None and f.alive and f.support is not None:
                # a logical assert of a fact already present adds support to it
                if support not in f.support:
                    f.support[support] = None
                    if support.supported is None:
                        support.supported = {}
                    support.supported[f] = None
                    if j is not None:
                        j.append(("S+", support.node, _tags(support), support, f))
                return f
        f = Fact(self._next_id, template, vals)
        self._next_id += 1
        if pnode is not None:
            f.origin = (pnode.production.name, tuple([x.id for x in pnode.written_facts(tok)]))
        if support is not None:
            f.support = {support: None}
            if support.supported is None:
                support.supported = {}
            support.supported[f] = None
            if j is not None:
                j.append(("S+", support.node, _tags(support), support, f))
        if j is not None:
            j.append(("A", f))
        self._insert(f)
        return f

    def _insert(self, f: Fact, tag: int | None = None) -> None:
        if tag is None:
            self._time += 1
            f.timetag = self._time
        else:
            f.timetag = tag
        f.alive = True
        fid = f.id
        self.facts[fid] = f
        bt = self.by_template.get(f.template)
        if bt is None:
            bt = self.by_template[f.template] = {}
        bt[fid] = f
        if f.support is not None:
            lk = _lkey(f.template, f.values)
            twins = self._logical.get(lk)
            if twins is None:
                self._logical[lk] = {f: None}
            else:
                twins[f] = None
        for fn in self.listeners:
            fn("assert", f, None)
        hits: list = []
        self.fact_amems[fid] = hits
        root = self.alpha_roots.get(f.template)
        if root is not None:
            ins = root.insert_fn
            if ins is None:
                ins = root.compile(f.template)[0]
            ins(f, hits)
        if self._unblocked:
            self._flush_unblocked()

    def _remove(self, f: Fact) -> None:
        fid = f.id
        f.alive = False
        del self.facts[fid]
        del self.by_template[f.template][fid]
        if f.support is not None:
            lk = _lkey(f.template, f.values)
            twins = self._logical.get(lk)
            if twins is not None:
                twins.pop(f, None)
                if not twins:
                    del self._logical[lk]
        for fn in self.listeners:
            fn("retract", f, None)
        hits = self.fact_amems.pop(fid, None)
        if hits:
            root = self.alpha_roots[f.template]
            rem = root.remove_fn
            if rem is None:
                rem = root.compile(f.template)[1]
            rem(f, hits)
        toks = f.tokens
        if toks:
            # a snapshot: taking the first key of a dict emptied from the front
            # rescans the deleted slots every time (quadratic on big facts)
            for tok in list(toks):
                if not tok.dead:
                    delete_token(tok)
            f.tokens = {}
        negs = f.neg_results
        if negs:
            f.neg_results = {}
            for tok in negs:
                if not tok.dead:
                    tok.node.fact_removed(tok, f)
        if self._unblocked:
            self._flush_unblocked()

    def _flush_unblocked(self) -> None:
        """Settle the gates a change queued, once its deletions are done.

        Gates that open go first; a gate that would close waits until nothing
        is left to open, and is judged again then: inside ``exists (A and not
        B)`` the change that takes one result away may unblock another, and the
        match below the gate, which never really went away, must not be broken
        and rebuilt."""
        q = self._unblocked
        try:
            i = 0
            closing = []
            while True:
                while i < len(q):
                    tok = q[i]
                    i += 1
                    if tok.node.closes(tok):
                        closing.append(tok)
                    else:
                        tok.node.unblock(tok)
                if not closing:
                    break
                tok = closing.pop()
                tok.node.unblock(tok)
        finally:
            q.clear()

    def _live(self, fact: Fact | int) -> Fact:
        if isinstance(fact, bool) or not isinstance(fact, (int, Fact)):
            raise UnknownFactError(f"not a fact: {fact!r}")
        if isinstance(fact, int):
            f = self.facts.get(fact)
            if f is None:
                if 0 < fact < self._next_id:
                    raise RetractedFactError(f"fact f-{fact} was already retracted")
                raise UnknownFactError(f"no fact f-{fact} in this session")
            return f
        cur = self.facts.get(fact.id)
        if cur is not fact:
            if cur is None and not fact.alive and 0 < fact.id < self._next_id:
                raise RetractedFactError(f"fact f-{fact.id} was already retracted")
            raise UnknownFactError(f"fact f-{fact.id} is not in this session")
        return fact

    def retract(self, fact: Fact | int) -> None:
        """Retract a fact (by object or id)."""
        # (a live fact object, the usual case, needs none of _live's questions;
        # mypy before 1.20 does not narrow fact on its __class__, hence the ignore)
        f = (fact if fact.__class__ is Fact and self.facts.get(fact.id) is fact  # type: ignore[union-attr, unused-ignore]
             else self._live(fact))
        self._guarded(self._retract_fact, f)

    def _retract_fact(self, f: Fact) -> None:
        j = self._journal
        if j is not None:
            j.append(("R", f))
        sup = f.support
        if sup:
            for tok in sup:
                if tok.supported:
                    tok.supported.pop(f, None)
                if j is not None and not tok.dead:
                    j.append(("S-", tok.node, _tags(tok), tok, f))
            f.support = {}
        self._remove(f)

    def modify(self, fact: Fact | int, values: Mapping | None = None, /, **slots) -> Fact:
        """Change slots of a fact; it keeps its id and gets a new timetag.

        The effect is a retract followed by an assert: every match over the
        fact is new afterwards (it may fire again). When no condition reads the
        changed slots, the matches are renewed in place rather than rebuilt
        (:attr:`slot_specific`; the outcome is the same).
        """
        # (as in retract, and the same ignore for mypy before 1.20)
        f: Fact = (fact if fact.__class__ is Fact and self.facts.get(fact.id) is fact  # type: ignore[union-attr, assignment, unused-ignore]
                   else self._live(fact))
        t = self.templates[f.template]
        names = t._names
        changes = {}
        for src in (values, slots):
            if not src:
                continue
            for k, v in src.items():
                r = names.get(k)
                if r is None:
                    r = t.resolve(k)
                if r is None:
                    raise SlotValueError(
                        f"template {t.name!r} has no slot {k!r}{did_you_mean(k, t.slots)} "
                        f"(slots: {', '.join(t.slots)})")
                changes[r] = v
        return self._guarded(self._modify_fact, f, changes)

    def _modify_fact(self, f: Fact, changes: dict) -> Fact:
        old = f.values
        if self.slot_specific and f.support is None and self._renew(f, old, changes):
            return f
        j = self._journal
        if j is not None:
            j.append(("M", f, old, f.timetag))
        self._remove(f)
        f.values = {**old, **changes}
        self._insert(f)
        return f

    def _guarded(self, fn, *args):
        """Run one change; if anything raises, undo it and raise a typed error."""
        j = self._journal
        temp = j is None
        pos = 0 if j is None else len(j)
        horizon = self._horizon
        # (whatever interrupts it - Ctrl-C between two steps - the temporary
        # journal and the undo point are put back: the setup is inside the try)
        try:
            if temp:
                self._journal = []
            self._horizon = self._time
            r = fn(*args)
            if self._tms_queue:
                self._settle()
        except BaseException as e:
            self._tms_queue.clear()
            self._unblocked.clear()
            self._undo(pos)
            if isinstance(e, ReteError) or not isinstance(e, Exception):
                raise
            raise match_error(e, self.functions, "the change") from e
        finally:
            self._horizon = horizon
            if temp:        # even if the undo failed: journaling must not stay on
                self._journal = None
        return r

    # ------------------------------------------------------------ truth maintenance

    def _settle(self) -> None:
        """Retract the logical facts whose last support went away (to a fixpoint)."""
        q = self._tms_queue
        while q:
            tok = q.popleft()
            sup = tok.supported
            tok.supported = None
            if not sup:
                continue
            for f in sup:
                fs = f.support
                if fs is not None and fs.pop(tok, MISSING) is not MISSING and not fs and f.alive:
                    self._retract_fact(f)

    # ------------------------------------------------------------ running

    @property
    def firing(self) -> bool:
        """Whether a production's action is running now: a caller that is one
        (a rule's action calling back into what runs the session) must not run
        the session again."""
        return self._firing is not None

    @property
    def halted(self) -> bool:
        """Whether an action called :meth:`halt` in the current or last run."""
        return self._halted

    def halt(self) -> None:
        """Stop the current run after the firing in progress."""
        self._halted = True

    def run(self, limit: int | None = None, stages: Iterable[str] | None = None,
            max_firings: int | None = None) -> int:
        """Fire activations until none is left, ``limit`` is reached or an action halts.

        ``stages`` restricts the run to those stages (the focus). Returns the
        number of firings. If an action raises, working memory and agenda are
        rolled back to where the run began and :class:`ActionError` is raised.
        ``max_firings``: a guard against rules that never settle: a run that has
        fired that many times and would fire again is rolled back the same way,
        with :class:`RunawayError` naming the rule next in line (``limit``, by
        contrast, stops a run quietly and keeps what it did).
        """
        if stages is None:
            allowed = None
        else:
            # (the focus cache looked up here: a tree or perft runs twice a node)
            allowed = self._focus_cache.get(stages) if stages.__class__ is tuple else None
            if allowed is None:
                allowed = self._focus(stages)
        d = self._demand_index
        if d is None:
            d = self._demand()
        if d.provided:
            # on-demand productions: passed over in their turn unless demanded;
            # once passed over, fired first when demanded (rete.demand)
            return self._run(allowed, limit, max_firings, d.stages, self._overdue_demanded,
                             d.stores)
        return self._run(allowed, limit, max_firings, (), None, None)

    def _run_on_demand(self, stages: tuple, wanted) -> int:
        """Fire the pending activations of the production nodes ``wanted`` (a
        container), which stand in ``stages``, in agenda order."""
        return self._run((), None, None, stages, lambda act: act.pnode in wanted, None)

    def _run(self, allowed, limit, max_firings, first, pick, gate) -> int:
        """:meth:`run` with the focus worked out: ``allowed``, the stage indices
        to fire from (None: all); ``first``, stage indices of on-demand
        productions whose activations fire before any other when ``pick(act)``
        (looked for only while one of the token stores ``gate``, when given, is
        not empty: a reader of what they provide has a partial match)."""
        self._halted = False
        n = 0
        marks = self._marks
        mark = len(marks)         # the checkpoint taken below
        # Matching allocates tokens by the million and frees them by reference
        # counting (deletion breaks every token/parent and token/activation
        # link); the cyclic collector would only rescan the live network over
        # and over, so it is paused while the run lasts. The checkpoint and the
        # pause are taken inside the try, and the commit made there: whatever
        # interrupts the run (Ctrl-C), the collector is back on and no
        # checkpoint stays open (rollback ignores a mark that is not).
        gc_on = gc.isenabled()
        try:
            # (checkpoint() spelt out: the journal is turned on last)
            j = self._journal
            if j is None:
                j = []
            marks.append(len(j))
            self._mark_times.append(self._time)
            self._journal = j
            self._horizon = self._time
            if gc_on:
                gc.disable()
            agenda = self.agenda
            while limit is None or n < limit:
                act = None
                if first and (gate is None or any(gate)):
                    act = agenda.pop_on_demand(first, pick)
                if act is None:
                    act = agenda.pop(allowed, self if pick is not None else None)
                if act is None:
                    break
                if max_firings is not None and n >= max_firings:
                    agenda.add(act.pnode, act.token, act.seq)     # (rolled back below)
                    raise RunawayError(act.pnode.production.name, n)
                if act.pnode.on_demand and self._paused:
                    # a firing on demand belongs to the state it derives from:
                    # recorded where that is, not in the paused request's run
                    # (rete.demand)
                    j = self._journal
                    self._journal = self._paused[0]
                    try:
                        self._fire(act)
                    finally:
                        self._journal = j
                else:
                    self._fire(act)
                n += 1
                if self._halted:
                    break
            if mark < len(marks):
                # (commit(mark) spelt out)
                del marks[mark:]
                times = self._mark_times
                del times[mark:]
                if times:
                    self._horizon = times[-1]
                else:
                    self._horizon = None
                    self._journal = None
        except BaseException:
            self.rollback(mark)
            raise
        finally:
            if gc_on:
                gc.enable()
        return n

    def _focus(self, stages) -> tuple:
        """The stage indices of a run's focus, in firing order (cached by the
        stage names given: callers run the same few focuses over and over)."""
        key = stages if isinstance(stages, (str, tuple)) else None
        if key is not None:
            hit = self._focus_cache.get(key)
            if hit is not None:
                return hit
        idx = set()
        for s in ([stages] if isinstance(stages, str) else stages):
            if s not in self.stage_index:
                raise UnknownStageError(f"stage {s!r} is not declared")
            idx.add(self.stage_index[s])
        out = tuple(sorted(idx))
        if key is not None:
            self._focus_cache[key] = out
        return out

    def _fire(self, act) -> None:
        pnode = act.pnode
        tok = act.token
        facts = tok.facts
        self.firings += 1
        j = self._journal
        if j is not None:
            j.append(("F", pnode, _tags(tok), tok, act.seq))
        ctx: Context | None
        if self.trace_enabled:
            ctx = Context(self, tok, pnode)
            self.trace.append(Firing(pnode.production.name, pnode.production.stage,
                                     tuple(f.id for f in pnode.written_facts(tok)), ctx.bindings))
        ctx = None
        was_firing = self._firing
        was_renewed = self._renewed_firing      # (an action may run the agenda)
        self._firing = tok          # (truthy: inside an action list)
        self._renewed_firing = None
        a = None
        try:
            for a in pnode.compiled:
                kind = a[0]
                if kind == "assert":
                    t = self.templates[a[1]]
                    vals = dict(t._blank)
                    for s, g in a[2]:
                        vals[s] = g(facts)
                    self._assert_vals(a[1], vals, tok if a[3] else None, pnode, tok)
                elif kind == "modify":
                    f = facts[a[1]]
                    if not f.alive:
                        raise RetractedFactError(f"fact f-{f.id} was already retracted")
                    changes = {}
                    for s, g in a[2]:
                        changes[s] = g(facts)
                    self._modify_fact(f, changes)
                elif kind == "retract":
                    f = facts[a[1]]
                    if f.alive:
                        self._retract_fact(f)
                elif kind == "call":
                    if ctx is None:
                        ctx = Context(self, tok, pnode)
                    if self._renewals:      # the function may look at the agenda
                        self._flush_renewals()
                    args = a[2]
                    if len(args) == 1:      # (most calls take one argument)
                        a[1](ctx, args[0](facts))
                    else:
                        a[1](ctx, *[g(facts) for g in args])
                elif kind == "halt":
                    self._halted = True
                if self._tms_queue:
                    self._settle()
            a = None        # a failure from here on is no one action's
            if self._renewals:
                self._flush_renewals()
        except ActionError:
            raise
        except Exception as e:
            raise ActionError(pnode.production.name, e, _action_at(pnode, a)) from e
        finally:
            self._firing = was_firing
            self._renewed_firing = was_renewed

    # ------------------------------------------------------------ observability

    def activations(self) -> list:
        """The agenda in firing order."""
        if self._renewals:
            self._flush_renewals()
        return self.agenda.pending()

    def explain(self, fact: Fact | int) -> dict:
        """Why a fact is here: the production and facts that asserted or support it."""
        f = fact if isinstance(fact, Fact) else self.facts.get(fact)
        if f is None:
            raise UnknownFactError(f"no fact {fact!r} in this session")
        out: dict[str, Any] = {"fact": f, "asserted_by": None, "from_facts": (),
                               "logical": f.support is not None, "support": []}
        if f.origin is not None:
            out["asserted_by"], ids = f.origin
            out["from_facts"] = tuple(self.facts.get(i, i) for i in ids)
        if f.support:
            for tok in f.support:
                pn = _pnode_of(tok)
                out["support"].append({
                    "rule": pn.production.name if pn else None,
                    "facts": pn.written_facts(tok) if pn else
                    tuple(x for x in tok.facts if x is not None)})
        return out

    def graph(self) -> nx.DiGraph:
        """The network as a networkx ``DiGraph``: alpha and beta nodes with their
        ``kind``, ``label`` and ``size`` (the facts or tokens they hold)."""
        from .graph import network_graph
        return network_graph(self)

    def to_dot(self) -> str:
        """The network as Graphviz DOT text (:meth:`graph` drawn)."""
        from .graph import to_dot
        return to_dot(self.graph())

    def stats(self) -> dict:
        """Counts: ``nodes`` and ``memory_sizes`` by kind, ``facts``, ``productions``,
        ``activations``, and ``joined_last`` (rule -> the templates of its control
        patterns joined last, :mod:`rete.joinorder`)."""
        from .graph import network_stats
        return network_stats(self)


def _pnode_of(tok):
    return tok.node if getattr(tok.node, "kind", "") == "production" else None


def _action_at(pnode, action) -> tuple | None:
    """``(source, line, column)`` of the rule text's action whose compiled form is
    ``action`` (None for a production built in Python, or no action)."""
    lines = pnode.production.action_lines
    if action is None or not lines:
        return None
    for i, a in enumerate(pnode.compiled):
        if a is action:
            line, col = lines[i]
            return (pnode.production.source, line, col) if line else None
    return None
