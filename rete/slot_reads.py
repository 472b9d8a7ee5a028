"""Which slots the network reads: the ground for cheap (slot-specific) modifies.

A modify is, by definition, a retract followed by an assert: every match
over the fact is deleted and built again, so its activations are new (newer
recency, refraction reset). When a modify changes only slots that no
condition of any production reads - slots bound to a variable used nowhere
else on the left-hand side, or not mentioned at all - every one of those
matches would be rebuilt exactly as it was. :meth:`Session.modify` then keeps
the matches and only renews their activations, which is the same result
without the rebuild (Miss Manners' ``count`` fact is the classic case).

A slot is *read* (reactive) when some pattern on its template, in any
production (negated and nested patterns included):

* tests it against a constant, an expression or a slot predicate;
* binds it to a variable that occurs anywhere else on the left-hand side
  (another pattern, a test, an expression).

A pattern whose fact variable (``?f <- ...``) is passed to a test or an
expression may have any slot read by that function: all its template's
slots are reactive (:data:`ALL`).
"""
from __future__ import annotations

from collections import Counter

from .model import AssertFact, Call, Exists, Expr, Not, Pattern, Test, Var

ALL = None  # every slot of the template is read


def _walk(conditions):
    for c in conditions:
        if isinstance(c, (Not, Exists)):
            yield from _walk(c.conditions)
        else:
            yield c


def _expr_vars(v, out: list) -> None:
    if isinstance(v, Var):
        out.append(v.name)
    elif isinstance(v, Expr):
        for a in v.args:
            _expr_vars(a, out)


def reactive_slots(productions, templates: dict) -> dict:
    """``template -> frozenset(slots)`` (or :data:`ALL`) that matching reads."""
    out: dict = {}

    def mark(template, slot):
        cur = out.get(template, frozenset())
        if cur is not ALL:
            t = templates.get(template)
            r = t.resolve(slot) if t is not None else slot
            out[template] = cur | {r or slot}

    for prod in productions:
        conds = list(_walk(prod.conditions))
        uses: Counter = Counter()
        opaque: list = []      # variables passed to functions
        for c in conds:
            if isinstance(c, Pattern):
                for _, v in c.slots:
                    names: list = []
                    _expr_vars(v, names)
                    uses.update(names)
                    if isinstance(v, Expr):
                        opaque.extend(names)
            elif isinstance(c, Test):
                names = []
                for a in c.args:
                    _expr_vars(a, names)
                uses.update(names)
                opaque.extend(names)
        opaque_set = set(opaque)
        for c in conds:
            if not isinstance(c, Pattern):
                continue
            if c.bind and c.bind in opaque_set:
                out[c.template] = ALL
                continue
            for slot, v in c.slots:
                if not isinstance(v, Var) or uses[v.name] > 1:
                    mark(c.template, slot)
            for p in c.preds:
                mark(c.template, p.slot)
    return out


def checked_templates(productions) -> frozenset:
    """Templates whose renewals must look at every match at once (not later).

    A match may hold logical support only if its production asserts
    logically or calls a function (which may); a fact may sit in a negated
    conjunction's sub-match. Facts of these templates are renewed by looking
    at their matches when they are modified; others may wait until the firing
    ends (:meth:`Session._renew`).
    """
    out: set[str] = set()
    for prod in productions:
        if any(isinstance(a, Call) or (isinstance(a, AssertFact) and a.logical)
               for a in prod.actions):
            out.update(p.template for p in _walk(prod.conditions) if isinstance(p, Pattern))
        _ncc_templates(prod.conditions, out, False)
    return frozenset(out)


def _ncc_templates(conditions, out: set, inside: bool) -> None:
    for c in conditions:
        if isinstance(c, (Not, Exists)):
            _ncc_templates(c.conditions, out, inside or len(c.conditions) > 1)
        elif isinstance(c, Pattern) and inside:
            out.add(c.template)
