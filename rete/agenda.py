"""The agenda: activations ordered by stage, then salience, then a strategy.

Stages are priority bands in a declared order: an activation of an earlier
stage always fires before one of a later stage. ``Session.run(stages=...)``
restricts a run to some stages (the focus). Within a stage, higher salience
fires first; ties are broken by the conflict-resolution strategy:

``recency`` (default)
    the activation whose facts are newest wins: timetags sorted newest first,
    compared lexicographically (OPS5's LEX without the specificity step);
    ties go to the newest activation.
``mea``
    the timetag of the first condition's fact decides first, then ``recency``.
``depth``
    the newest activation first (CLIPS's default).
``breadth``
    the oldest activation first (first in, first out).

"Newest activation" means the one created last (its sequence number); an
activation that a rollback restores keeps the sequence number it had.

Refraction: an activation fires at most once; it comes back only if its token
is rebuilt, i.e. one of its facts is retracted and asserted again or modified,
or a negated condition that it depends on is broken and holds again.
"""
from __future__ import annotations

from heapq import heapify, heappop, heappush
from itertools import count

from .errors import ReteError

STRATEGIES = ("recency", "mea", "depth", "breadth")


_uid = count()


class Activation:
    __slots__ = ("pnode", "token", "seq", "dead", "stage", "uid")

    def __init__(self, pnode, token, seq, stage):
        self.pnode = pnode
        self.token = token
        self.seq = seq
        self.dead = False
        self.stage = stage
        self.uid = next(_uid)     # unique: heap entries never compare activations

    @property
    def production(self):
        return self.pnode.production

    @property
    def facts(self):
        """The matched facts, in the order the rule names them."""
        return self.pnode.written_facts(self.token)

    def __repr__(self):
        ids = ", ".join(f"f-{f.id}" for f in self.facts)
        return f"<activation {self.pnode.production.name}: {ids}>"


# OPS5 LEX: timetags newest first, compared one by one; where one list runs out
# first, the longer one wins. The tags are negated (a heap pops the least), so
# a 0 closes each list: it sorts after every tag.

def _recency_key(act):
    tags = [-f.timetag for f in act.token.facts if f is not None]
    tags.sort()
    tags.append(0)
    return (act.pnode.neg_salience, tuple(tags), -act.seq, act.uid, act)


def _mea_key(act):
    facts = act.pnode.written_facts(act.token)      # the first condition's fact first
    first = facts[0].timetag if facts else 0
    tags = sorted([-f.timetag for f in facts])
    tags.append(0)
    return (act.pnode.neg_salience, -first, tuple(tags), -act.seq, act.uid, act)


def _depth_key(act):
    return (act.pnode.neg_salience, -act.seq, act.uid, act)


def _breadth_key(act):
    return (act.pnode.neg_salience, act.seq, act.uid, act)


_KEYS = {"recency": _recency_key, "mea": _mea_key, "depth": _depth_key,
         "breadth": _breadth_key}


class Agenda:
    """One heap per stage; removed activations are dropped lazily (and compacted)."""

    def __init__(self, session, strategy: str = "recency"):
        self.session = session
        self.heaps: list[list] = []
        self.live = 0
        self.ndead = 0
        self.seq = 0
        self.set_strategy(strategy)

    def set_strategy(self, strategy: str) -> None:
        if strategy not in STRATEGIES:
            raise ReteError(f"unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}")
        self.strategy = strategy
        self._key = _KEYS[strategy]
        self._rebuild()

    def _rebuild(self, nstages: int | None = None, remap=None) -> None:
        pending = [e[-1] for h in self.heaps for e in h if not e[-1].dead]
        self.heaps = [[] for _ in range(len(self.heaps) if nstages is None else nstages)]
        key = self._key
        for a in pending:
            if remap is not None:
                a.stage = remap(a)
            self.heaps[a.stage].append(key(a))
        for h in self.heaps:
            heapify(h)
        self.ndead = 0

    def resize(self, nstages: int, remap=None) -> None:
        self._rebuild(nstages, remap)

    def add(self, pnode, tok, seq: float | None = None) -> None:
        if seq is None:
            self.seq += 1
            seq = self.seq
        act = Activation(pnode, tok, seq, pnode.stage_index)
        tok.activation = act
        heappush(self.heaps[act.stage], self._key(act))
        self.live += 1

    def remove(self, act: Activation) -> None:
        if not act.dead:
            act.dead = True
            self.live -= 1
            self.ndead += 1
            if not self.live:
                # every entry left is dead (a modify that took a whole batch of
                # matches away): drop them at once instead of sifting them out
                for h in self.heaps:
                    h.clear()
                self.ndead = 0
            elif self.ndead > 256 and self.ndead > 8 * self.live:
                self._compact()

    def _compact(self) -> None:
        for h in self.heaps:
            h[:] = [e for e in h if not e[-1].dead]
            heapify(h)
        self.ndead = 0

    def pop(self, allowed=None, demand=None) -> Activation | None:
        """The next activation to fire (and take it off the agenda).

        ``allowed``: the stage indices to take from, in ascending order (the
        run's focus); None for every stage. ``demand``: when given (the
        session), an activation of an on-demand production (:mod:`rete.demand`)
        is passed over, and stays pending, unless ``demand._demanded(its
        production node)``; ``demand._pass_over(it)`` is told."""
        if not self.live:
            return None
        heaps = self.heaps
        held = None
        try:
            for i in (range(len(heaps)) if allowed is None else allowed):
                h = heaps[i]
                while h:
                    e = heappop(h)
                    act = e[-1]
                    if act.dead:
                        self.ndead -= 1
                        continue
                    if demand is not None and act.pnode.on_demand and \
                            not demand._demanded(act.pnode):
                        demand._pass_over(act)
                        if held is None:
                            held = []
                        held.append((h, e))
                        continue
                    act.dead = True
                    self.live -= 1
                    act.token.activation = None
                    return act
            return None
        finally:
            if held is not None:
                for h, e in held:
                    heappush(h, e)

    def peek_on_demand(self, stages, pick):
        """The heap entry of the first live activation of an on-demand production
        in ``stages`` (stage indices, ascending) for which ``pick(activation)``
        holds, or None; it stays on the agenda."""
        heaps = self.heaps
        for i in stages:
            best = None
            for e in heaps[i]:
                act = e[-1]
                if not act.dead and act.pnode.on_demand and (best is None or e < best) \
                        and pick(act):
                    best = e
            if best is not None:
                return best
        return None

    def pop_on_demand(self, stages, pick) -> Activation | None:
        """Take off the agenda the activation :meth:`peek_on_demand` finds."""
        if not self.live:
            return None
        e = self.peek_on_demand(stages, pick)
        if e is None:
            return None
        act = e[-1]
        # (its entry stays in the heap, dead, as for any removed activation)
        act.dead = True
        self.live -= 1
        self.ndead += 1
        act.token.activation = None
        return act

    def pending(self) -> list[Activation]:
        """Live activations in firing order."""
        out: list[Activation] = []
        for h in self.heaps:
            out.extend(e[-1] for e in sorted(h) if not e[-1].dead)
        return out

    def clear(self) -> None:
        for h in self.heaps:
            for e in h:
                a = e[-1]
                if not a.dead:
                    a.dead = True
                    a.token.activation = None
            h.clear()
        self.live = 0
        self.ndead = 0
