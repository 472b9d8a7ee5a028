"""Square names in rule text: ``piece(square: e4)`` means the square e4.

Working memory holds a square as its number (a1 = 0 .. h8 = 63: see
:mod:`chess_rules.squares`), and the rule language has no square type, so
``e4`` in rule text is a symbol: compared with a square's number it never
matches, silently. A chess rule file is read with its square names turned into
numbers wherever the value is a square: a constant of a slot that holds one
(``piece.square``, ``move.from`` ...), the arguments of that slot's predicates
that compare it (``square: ?t & member(d4, e4, d5, e5)``, ``square: != e1``,
``to: >= a8``) and the values an ``assert`` or ``modify`` writes there. A text
there that is no square (``square: i9``) is an error when the file loads, where
it used to be a rule that never fires. Numbers still work. A square name
elsewhere (a ``test``, the arguments of a function of the rule set's own) is
left as written: nothing says that it is a square. The names are those of the
rule set's board (``j8`` on Capablanca's 10x8 board is 79).
"""
from __future__ import annotations

from rete.model import AssertFact, Collect, Exists, Modify, Not, Pattern, SlotPred

from .shape import STANDARD, BoardShape

__all__ = ["SQUARE_SLOTS", "with_square_numbers"]

#: the slots of the chess templates whose values are squares
SQUARE_SLOTS: dict[str, frozenset] = {
    "piece": frozenset({"square"}),
    "move": frozenset({"from", "to", "rook-from", "rook-to", "ep-square", "victim"}),
    "ep": frozenset({"square", "pawn"}),
    "castling": frozenset({"king-from", "king-to", "rook-from", "rook-to"}),
    "check": frozenset({"square"}),
}


#: the built-in predicates that compare a slot's value with their arguments
COMPARISONS = frozenset({"eq", "ne", "neq", "lt", "le", "gt", "ge",
                         "=", "!=", "<", "<=", ">", ">=", "member"})


class SquareNameError(ValueError):
    """A text value where a square goes that names no square. ``ref`` says where,
    as rule text's references do (:attr:`rete.transformer.RuleLocation.refs`):
    ``("slot", (template, slot), n)`` for the ``n``-th pattern or ``assert`` of
    that template writing that slot, ``("mslot", (var, slot), n)`` for a modify."""

    def __init__(self, message: str, ref: tuple):
        super().__init__(message)
        self.ref = ref


class _Numbering:
    """One production's walk, in the order rule text writes it (patterns, then
    actions), counting the places that write each slot so that an error can
    name the one that failed."""

    def __init__(self, shape: BoardShape = STANDARD):
        self.seen: dict = {}
        self.shape = shape

    def _place(self, kind: str, key: tuple) -> tuple:
        n = self.seen.get((kind, key), 0)
        self.seen[(kind, key)] = n + 1
        return (kind, key, n)

    def square(self, value, template: str, slot: str, ref: tuple):
        if not isinstance(value, str):
            return value
        shape = self.shape
        try:
            return shape.parse_square(value)
        except ValueError:
            last = len(shape.squares) - 1
            raise SquareNameError(
                f"{template}.{slot} holds a square: {value!r} is none (write a square's "
                f"name, a1 .. {shape.square_names[last]}, or its number, 0 .. {last})",
                ref) from None

    def slots(self, template: str, slots: tuple, kind: str = "slot", owner: str = "") -> tuple:
        names = SQUARE_SLOTS.get(template, ())
        out = []
        for s, v in slots:
            ref = self._place(kind, (owner or template, s))
            out.append((s, self.square(v, template, s, ref) if s in names else v))
        return tuple(out)

    def pattern(self, p: Pattern) -> Pattern:
        names = SQUARE_SLOTS.get(p.template, ())
        refs = {}
        for s in dict.fromkeys([s for s, _ in p.slots] + [sp.slot for sp in p.preds]):
            refs[s] = self._place("slot", (p.template, s))
        slots = tuple((s, self.square(v, p.template, s, refs[s]) if s in names else v)
                      for s, v in p.slots)
        preds = tuple(SlotPred(sp.slot, sp.fn, tuple(self.square(a, p.template, sp.slot,
                                                                 refs[sp.slot])
                                                     for a in sp.args))
                      if sp.slot in names and sp.fn in COMPARISONS else sp for sp in p.preds)
        return Pattern(p.template, slots, p.bind, preds)

    def condition(self, c):
        if isinstance(c, Pattern):
            return self.pattern(c)
        if isinstance(c, Collect):
            return Collect(self.pattern(c.pattern), c.bind)
        if isinstance(c, Not):
            return Not(*map(self.condition, c.conditions))
        if isinstance(c, Exists):
            return Exists(*map(self.condition, c.conditions))
        return c

    def action(self, a, bound: dict):
        if isinstance(a, AssertFact):
            return AssertFact(a.template, self.slots(a.template, a.slots), a.logical)
        if isinstance(a, Modify):
            return Modify(a.var, self.slots(bound.get(a.var, ""), a.slots, "mslot", a.var))
        return a


def _bound_templates(conditions) -> dict[str, str]:
    """Variable -> template, for the facts the conditions bind (``?p <- piece(...)``)."""
    return {c.bind: c.template for c in conditions if isinstance(c, Pattern) and c.bind}


def with_square_numbers(prod, shape: BoardShape = STANDARD):
    """``prod`` with the square names of its square slots turned into numbers
    on the board ``shape`` (the same production when it has none). Raises
    :class:`SquareNameError`."""
    walk = _Numbering(shape)
    conditions = tuple(map(walk.condition, prod.conditions))
    bound = _bound_templates(prod.conditions)
    actions = tuple(walk.action(a, bound) for a in prod.actions)
    if conditions == prod.conditions and actions == prod.actions:
        return prod
    return prod.replace(conditions=conditions, actions=actions,
                        test_lines=prod.test_lines, action_lines=prod.action_lines)
