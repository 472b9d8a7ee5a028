"""The order in which a production's conditions are joined.

Conditions are joined as written, with one exception: a *control pattern on
a state cycle* is joined last.

* A control pattern is a positive pattern that shares no variable with any
  other condition of its rule (a filter on nothing: ``?c <- context(state:
  assign_seats)``) and tests a slot against a constant.
* A state cycle: the rules move a control fact from state to state with
  ``modify`` (a rule gated on ``context(state: a)`` that does ``modify ?c
  (state: b)`` is an edge ``a -> b``), and some states are entered again and
  again (Miss Manners' ``assign_seats -> make_path -> check_done ->
  assign_seats``). A state on such a cycle is left and re-entered all run long.

Written first, a control pattern is the root of its rule's partial matches:
each time its fact leaves the state every partial match below it is deleted,
and each time the fact returns all are built again. Joined last, the partial
matches of the rest are kept up to date as their own facts change, and a
change of state costs one join step per match. For a state that is entered
once (Waltz's stages go ``duplicate -> detect_junctions -> ... -> done``)
the written order is the better one: the rule's matches are not built while
it is switched off. The cycles are found over the productions in the session
and those being added with them (``Session.add(*rules)``, one rule file).

Either way the set of matches is the same; only the order in which the
engine builds them changes. :attr:`rete.network.ProductionNode.fact_order`
gives a token's facts back in the written order, so activations, the trace,
``explain`` and the ``mea`` strategy see the rule as written.
``Session(join_order="written")`` turns the planning off.
"""
from __future__ import annotations

from typing import Callable, Iterable

import networkx as nx

from .model import Exists, Expr, Modify, Not, Pattern, Test, Var, as_production

__all__ = ["JOIN_ORDERS", "control_last", "control_states", "written_index"]

JOIN_ORDERS = ("control-last", "written")


class Moved:
    """A condition joined out of its written place; ``index`` is that place,
    ``last`` whether it is one of those moved to the end (the others only
    shifted up)."""

    __slots__ = ("cond", "index", "last")

    def __init__(self, cond, index: int, last: bool):
        self.cond = cond
        self.index = index
        self.last = last


def control_states(productions: Iterable) -> frozenset:
    """The ``(template, slot, value)`` states that lie on a cycle of state changes."""
    g = nx.DiGraph()
    for prod in productions:
        prod = as_production(prod)
        gates = {}
        for c in prod.conditions:
            if isinstance(c, Pattern) and c.bind:
                gates[c.bind] = (c.template, dict(_constants(c)))
        for a in prod.actions:
            if isinstance(a, Modify) and a.var in gates:
                template, consts = gates[a.var]
                for slot, value in a.slots:
                    slot = _slot_key(slot)
                    if slot in consts and _is_constant(value):
                        g.add_edge((template, slot, consts[slot]), (template, slot, value))
    out = set()
    for comp in nx.strongly_connected_components(g):
        if len(comp) > 1:
            out |= comp
    out.update(n for n, m in g.edges if n == m)
    return frozenset(out)


def control_last(conds, states: Callable[[], frozenset]) -> tuple:
    """``conds`` with the control patterns on a state cycle moved to the end
    (wrapped in :class:`Moved`); ``states()`` gives the cycle states, and is
    called only when the rule has a control pattern at all."""
    conds = tuple(conds)
    uses = [_cond_vars(c) for c in conds]
    candidates = []
    for i, c in enumerate(conds):
        if isinstance(c, Pattern) and any(True for _ in _constants(c)):
            others = set().union(*(uses[:i] + uses[i + 1:]))
            if not uses[i] & others:
                candidates.append(i)
    if not candidates:
        return conds
    on_cycle = states()
    moved = [i for i in candidates
             if any((conds[i].template, s, v) in on_cycle for s, v in _constants(conds[i]))]
    kept = [i for i in range(len(conds)) if i not in moved]
    if not moved or moved == list(range(len(kept), len(conds))):
        return conds
    return tuple(conds[i] if i == n else Moved(conds[i], i, n >= len(kept))
                 for n, i in enumerate(kept + moved))


def written_index(conds: list) -> list:
    """Unwraps :class:`Moved` conditions in place; returns each one's written index."""
    out = []
    for n, c in enumerate(conds):
        if isinstance(c, Moved):
            conds[n] = c.cond
            out.append(c.index)
        else:
            out.append(n)
    return out


def _constants(p: Pattern):
    for slot, value in p.slots:
        if _is_constant(value):
            yield _slot_key(slot), value


def _is_constant(v) -> bool:
    if isinstance(v, (Var, Expr)):
        return False
    try:
        hash(v)
    except TypeError:
        return False
    return True


def _slot_key(slot: str) -> str:
    # ``path_done`` and ``path-done`` name the same slot (Template.resolve)
    return slot.replace("_", "-")


def _cond_vars(c) -> set[str]:
    """Every variable a condition names (a pattern's fact variable included)."""
    if isinstance(c, Pattern):          # slot predicates take constants only
        out = c.variables()
        for _, v in c.slots:
            if isinstance(v, Expr):
                out |= v.variables()
        return out
    if isinstance(c, Test):
        return c.variables()
    if isinstance(c, (Not, Exists)):
        return set().union(*(_cond_vars(x) for x in c.conditions))
    return set()
