"""Productions that fire on demand: derived facts worked out when they are read.

A production whose ``meta`` names templates under ``on_demand`` (``Rule(...,
on_demand="check")``; rule text ``meta(on_demand: "check")``) declares that
what its actions write is facts of those templates, derived from the rest of
working memory. It is matched like any other production, but its activation
fires only when something reads what it provides:

* a partial match reaches a condition on a provided template, i.e. some join
  or negated condition on that template has tokens on its left side (its
  rule is on the way to reading it);
* Python reads the facts through :meth:`Session.facts_of` (or calls
  :meth:`Session.demand`).

While no one reads them, its activation stays pending: a change of working
memory that is made and taken back (a move made and unmade at a perft leaf)
never runs it. When a rule demands it in its turn (stage, salience,
strategy), it fires then; if its turn comes with no demand, it is passed
over, and from then on it fires before anything else as soon as a rule
demands it, in any run, whatever the focus (it would have fired already).
Python's demand fires it at once. So a rule that reads a provided template
sees the same facts as if the production fired at every run that reaches
its stage (``tests/rete/test_on_demand.py`` compares the two on random
programs of changes, checkpoints, rollbacks and reads), as long as the
production's own matches cover what it derives from (``fide.check-detection``
matches the ``game`` fact, which every move modifies). The pass-over is
journalled, so a rollback restores it with the rest.

A firing on demand belongs to the state it derives from, not to the request
that asked: if the journal is paused (:meth:`Session.pause_journal`, a
request asserted and taken back), it is recorded in the journal that was
open before the pause, so that a rollback of the change that made the facts
stale also takes back what was derived from it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._state import SessionState

if TYPE_CHECKING:
    from .network import ProductionNode

__all__ = ["OnDemand", "demand_templates"]


def demand_templates(meta) -> tuple:
    """The templates a production's ``meta`` says it provides on demand (``()``:
    it fires as usual). A string names one template; an iterable, several."""
    v = meta.get("on_demand") if meta else None
    if not v:
        return ()
    if isinstance(v, str):
        return tuple(v.replace(",", " ").split())
    return tuple(v)


class DemandIndex:
    """What a session's on-demand productions provide and who reads it
    (worked out again whenever a production or a stage is added or removed)."""

    __slots__ = ("provided", "readers", "stores", "stages")

    def __init__(self, session) -> None:
        # template -> the on-demand production nodes that provide it
        self.provided: dict[str, tuple] = {}
        for pnode in session.productions.values():
            for t in pnode.on_demand:
                self.provided[t] = self.provided.get(t, ()) + (pnode,)
        # template -> the tokens on the left of each node whose right input is
        # a memory of that template (the stores' dicts, which live as long as
        # their nodes); stores: all of them, once each
        self.readers: dict[str, tuple] = {}
        for amem in session.alpha_memories.values():
            t = amem.template
            if t in self.provided:
                self.readers[t] = self.readers.get(t, ()) + tuple(
                    n.left_store.tokens for n in amem.successors)
        self.stores = tuple({id(d): d for ds in self.readers.values() for d in ds}.values())
        # the stages on-demand productions stand in
        self.stages = tuple(sorted({p.stage_index for ps in self.provided.values()
                                    for p in ps}))


class OnDemand(SessionState):
    """Demand for on-demand productions (a part of :class:`rete.Session`)."""

    _demand_index: DemandIndex | None

    def _demand(self) -> DemandIndex:
        d = self._demand_index
        if d is None:
            d = self._demand_index = DemandIndex(self)
        return d

    def _demanded(self, pnode: ProductionNode) -> bool:
        """Whether a partial match is on the way to reading what ``pnode`` provides."""
        d = self._demand_index
        readers = (d if d is not None else self._demand()).readers
        for t in pnode.on_demand:
            for tokens in readers.get(t, ()):
                if tokens:
                    return True
        return False

    def _pass_over(self, act) -> None:
        """The agenda reached ``act``, of an on-demand production, in its turn
        and left it pending: from now on it (and every older pending one of its
        stage) fires first when demanded, as it would have fired already."""
        stage = act.stage
        old = self._passed.get(stage)
        seq = self.agenda.seq
        if old is None or old < seq:
            j = self._journal
            if j is not None:
                j.append(("O", stage, old))
            self._passed[stage] = seq

    def _overdue_demanded(self, act) -> bool:
        """Whether ``act``, of an on-demand production, was passed over in its
        turn and is demanded now."""
        p = self._passed.get(act.stage)
        return p is not None and act.seq <= p and self._demanded(act.pnode)

    def demand(self, *templates: str) -> int:
        """Fire the pending activations of the on-demand productions that provide
        these templates (what :meth:`facts_of` does before it answers); returns
        how many fired."""
        d = self._demand()
        wanted: set = set()
        for t in templates:
            for p in d.provided.get(t, ()):
                # (a pending activation is on one of its tokens: a derivation
                # has few, most often one)
                for tok in p.tokens:
                    if tok.activation is not None:
                        wanted.add(p)
                        break
        if not wanted:
            return 0
        stages = tuple(sorted({p.stage_index for p in wanted}))
        halted = self._halted       # (a run clears it: an action may be asking)
        try:
            return self._run_on_demand(stages, wanted)
        finally:
            self._halted = halted

    if TYPE_CHECKING:
        _halted: bool

        def _run_on_demand(self, stages: tuple, wanted: Any) -> int: ...

