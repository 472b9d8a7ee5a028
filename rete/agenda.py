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

Refraction: an activation fires at most once; it comes back only if its token
is rebuilt, i.e. one of its facts is retracted and asserted again or modified.
"""
from __future__ import annotations

import heapq

from .errors import ReteError

STRATEGIES = ("recency", "mea", "depth", "breadth")


class Activation:
    __slots__ = ("pnode", "token", "seq", "dead", "stage")

    def __init__(self, pnode, token, seq, stage):
        self.pnode = pnode
        self.token = token
        self.seq = seq
        self.dead = False
        self.stage = stage

    @property
    def production(self):
        return self.pnode.production

    @property
    def facts(self):
        return tuple(f for f in self.token.facts if f is not None)

    def __repr__(self):
        ids = ", ".join(f"f-{f.id}" for f in self.facts)
        return f"<activation {self.pnode.production.name}: {ids}>"


class Agenda:
    def __init__(self, session, strategy: str = "recency"):
        self.session = session
        self.heaps: list[list] = []
        self.live = 0
        self.seq = 0
        self.set_strategy(strategy)

    def set_strategy(self, strategy: str) -> None:
        if strategy not in STRATEGIES:
            raise ReteError(f"unknown strategy {strategy!r}; choose one of {', '.join(STRATEGIES)}")
        self.strategy = strategy
        # re-key what is pending
        pending = [a for h in self.heaps for *_, a in h if not a.dead]
        self.heaps = [[] for _ in self.heaps]
        for a in pending:
            heapq.heappush(self.heaps[a.stage], (*self._key(a), a))

    def resize(self, nstages: int, remap=None) -> None:
        pending = [a for h in self.heaps for *_, a in h if not a.dead]
        self.heaps = [[] for _ in range(nstages)]
        for a in pending:
            if remap is not None:
                a.stage = remap(a)
            heapq.heappush(self.heaps[a.stage], (*self._key(a), a))

    def _key(self, act: Activation) -> tuple:
        sal = -act.pnode.production.salience
        st = self.strategy
        if st == "depth":
            return (sal, -act.seq)
        if st == "breadth":
            return (sal, act.seq)
        tags = sorted((f.timetag for f in act.token.facts if f is not None), reverse=True)
        neg = tuple(-t for t in tags)
        if st == "recency":
            return (sal, neg, -act.seq)
        first = next((f.timetag for f in act.token.facts if f is not None), 0)
        return (sal, -first, neg, -act.seq)

    def add(self, pnode, tok) -> None:
        s = self.session
        if s._refracted is not None and s._refracted and \
                s._signature(pnode, tok) in s._refracted:
            return
        self.seq += 1
        act = Activation(pnode, tok, self.seq, pnode.stage_index)
        tok.activation = act
        heapq.heappush(self.heaps[act.stage], (*self._key(act), act))
        self.live += 1

    def remove(self, act: Activation) -> None:
        if not act.dead:
            act.dead = True
            self.live -= 1

    def pop(self, allowed=None) -> Activation | None:
        """The next activation to fire (and take it off the agenda)."""
        if not self.live:
            return None
        for i, h in enumerate(self.heaps):
            if allowed is not None and i not in allowed:
                continue
            while h:
                act = h[0][-1]
                if act.dead:
                    heapq.heappop(h)
                    continue
                heapq.heappop(h)
                act.dead = True
                self.live -= 1
                act.token.activation = None
                return act
        return None

    def pending(self) -> list[Activation]:
        """Live activations in firing order."""
        out = []
        for h in self.heaps:
            out.extend(a for *_, a in sorted(h, key=lambda e: e[:-1]) if not a.dead)
        return out

    def clear(self) -> None:
        for h in self.heaps:
            for *_, a in h:
                if not a.dead:
                    a.dead = True
                    a.token.activation = None
            h.clear()
        self.live = 0
