"""Slot-specific modify (a part of :class:`rete.Session`): a modify of slots
that no condition reads keeps the fact's matches and only renews their
activations, instead of retracting and asserting it through the network.

Which slots the conditions read is computed by :mod:`rete.slot_reads`. The
result equals retract-then-assert: the fact gets a new timetag and every
activation over it is new (newest, refraction reset). See
:meth:`SlotSpecificModify._renew` for where the shortcut is not taken.
"""
from __future__ import annotations

from ._state import SessionState
from .journal import _tags
from .model import Fact
from .network import beta_nodes
from .slot_reads import checked_templates, reactive_slots
from .tokens import MISSING


_NONE: frozenset[str] = frozenset()


def _productions_below(node) -> tuple:
    """Every production node reachable from ``node`` through its children."""
    return tuple(n for n in beta_nodes(node) if getattr(n, "kind", None) == "production")


class SlotSpecificModify(SessionState):
    """Renewing matches in place (a part of :class:`rete.Session`; it works on
    the session's memories, journal and agenda)."""

    def reactive_slots(self) -> dict:
        """``template -> slots`` the network's conditions read (``None``: all of them)."""
        if self._reactive is None:
            prods = self.list_productions()
            self._reactive = (reactive_slots(prods, self.templates), checked_templates(prods))
        return self._reactive[0]

    def _renewable(self, f: Fact, old: dict, changes: dict) -> bool:
        """Whether changing ``f`` from ``old`` by ``changes`` leaves every match
        over it as it is: no changed slot is read, and ``f`` is no ``exists``
        witness."""
        r = self._reactive
        watched = (r[0] if r is not None else self.reactive_slots()).get(f.template, _NONE)
        if watched is None:
            return False
        for k, v in changes.items():
            if k in watched:
                ov = old.get(k, MISSING)
                if ov is MISSING or type(ov) is not type(v) or ov != v:
                    return False
        for tok in f.neg_results:
            if tok.node.exists:
                return False
        return True

    def _renew(self, f: Fact, old: dict, changes: dict) -> bool:
        """A modify of slots no condition reads: keep the matches, renew their activations.

        Equal to retract-then-assert (see :mod:`rete.slot_reads`): the fact gets a
        new timetag and every activation over it is new (newest, refraction
        reset); only the rebuild of unchanged matches is saved. Returns False
        (nothing done) where the shortcut would not be exact: a read slot
        changes, a match over the fact supports logical facts, the fact is the
        witness of an ``exists``, or it sits in a negated conjunction.
        """
        if not self._renewable(f, old, changes):
            return False
        j = self._journal
        h = self._horizon
        agenda = self.agenda
        # Inside a firing the matches may wait for the firing's end (an action
        # that goes on to delete them - Miss Manners' next modify - then costs
        # nothing), unless an undo could rebuild one of them (the fact is older
        # than the undo point: its deletion must be journalled now) or one may
        # hold logical support or sit in a negated conjunction.
        # (self._reactive is set: _renewable worked it out above)
        if self._firing and (j is None or (h is not None and f.timetag > h)) \
                and f.template not in self._reactive[1]:        # type: ignore[index]
            prods = None
        else:
            prods = self._matches_over(f)
            if prods is None:
                return False
        firing = self._firing
        if firing is not None and f in firing.facts:
            # a retract-then-assert would delete the firing's own match
            self._renewed_firing = firing
        for fn in self.listeners:
            fn("retract", f, None)
        if j is not None:
            if prods:
                for tok in prods:
                    # what deleting the match would have journalled
                    tags = _tags(tok)
                    if h is None or not tags or max(tags) <= h:
                        act = tok.activation
                        j.append(("D", tok.node, tags, act.seq if act is not None else None))
            j.append(("N", f, old, f.timetag, self._reactive))
        f.values = {**old, **changes}
        self._time += 1
        f.timetag = self._time
        for fn in self.listeners:
            fn("assert", f, None)
        pend = self._renewals
        if prods is None:
            pend.append((f, agenda.seq))        # the matches are looked up at the end
        else:
            # sequence numbers now (later activations are newer), agenda later
            seq = agenda.seq
            agenda.seq += len(prods)
            for tok in prods:
                seq += 1
                pend.append((tok, seq))
        if not self._firing:
            self._flush_renewals()
        return True

    def _flush_renewals(self) -> None:
        """Put the activations of renewed matches (still alive) on the agenda.

        An entry is a match and its new sequence number, or a fact and the
        sequence number at its renewal: its matches made before then (pending
        or fired) get numbers between that one and the next, in order.
        """
        pend = self._renewals
        agenda = self.agenda
        for x, seq in pend:
            if type(x) is Fact:
                if not x.alive or not self._may_match(x):
                    continue
                toks = []
                for tok in self._matches_over(x, strict=False):
                    act = tok.activation
                    if act is None or act.seq <= seq:
                        toks.append(tok)
                step = 1 / (len(toks) + 1)
                for i, tok in enumerate(toks, 1):
                    act = tok.activation
                    if act is not None:
                        agenda.remove(act)
                    agenda.add(tok.node, tok, seq + i * step)
                continue
            if x.dead:
                continue
            act = x.activation
            if act is not None:
                agenda.remove(act)
            agenda.add(x.node, x, seq)
        pend.clear()

    def _may_match(self, f: Fact) -> bool:
        """Whether a production the fact's joins lead to has a match at all: if
        none has, no match is over the fact and its tokens need no walk (Miss
        Manners: the ``count`` renewal, once the ``context`` modify of the same
        firing has taken every ``find_seating`` match away)."""
        below = self._below
        for amem in self.fact_amems.get(f.id, ()):
            for node in amem.successors:
                pnodes = below.get(node)
                if pnodes is None:
                    pnodes = below[node] = _productions_below(node)
                for pn in pnodes:
                    if pn.tokens:
                        return True
        return False

    @staticmethod
    def _matches_over(f: Fact, strict: bool = True):
        """The production tokens over ``f``, depth first in the order they were made;
        ``strict``: None if one supports logical facts or an NCC sub-match holds ``f``."""
        out: dict = {}
        stack = list(reversed(f.tokens))
        pop = stack.pop
        while stack:
            tok = pop()
            node = tok.node
            kind = node.kind
            if kind == "production":
                if strict and tok.supported:
                    return None
                out[tok] = None
            elif strict and kind == "ncc-partner":
                return None
            ch = tok.children
            if ch:
                stack.extend(reversed(ch))
        return out

    def _undo_renew(self, f: Fact, old: dict, old_tag: int) -> None:
        prods = self._matches_over(f, strict=False)
        agenda = self.agenda
        for fn in self.listeners:
            fn("retract", f, None)
        for tok in prods:
            act = tok.activation
            if act is not None:
                agenda.remove(act)
                tok.activation = None
        t = self.templates.get(f.template)
        if t is not None and len(old) != len(t._blank):
            old = {**t._blank, **old}
        f.values = old
        f.timetag = old_tag
        for fn in self.listeners:
            fn("assert", f, None)
        for tok in prods:
            self._restore_token(tok.node, tok)
