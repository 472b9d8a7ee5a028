"""What the engine's random-program tests draw alike: fresh variable names and
the term of a pattern's slot. The brute-force, model and CLIPS differential
tests each build their own conditions on top (they put this folder on
``sys.path``: the tests are no package)."""
from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from rete import Expr, V


class ProgramGen:
    """Draws from hypothesis ``data`` for programs over ``templates`` (name ->
    slots). A term is ``("c", value)``, ``("v", name)`` or ``("e", name, delta)``
    (a bound variable plus or minus one), or None for a slot left open."""

    values = (0, 1, 2)
    skips = 2           # weight of an open slot among the term kinds

    def __init__(self, data, templates):
        self.data = data
        self.templates = templates
        self.n = 0

    def draw(self, strategy):
        return self.data.draw(strategy)

    def fresh(self, prefix: str = "v") -> str:
        self.n += 1
        return f"{prefix}{self.n}"

    def term(self, bound: list, new_here: list):
        """A slot's term: open, a constant, a variable bound before (or in this
        pattern: ``new_here``), an expression of a bound one, or a new variable
        (added to ``new_here``)."""
        choices = ["skip"] * self.skips + ["const", "new"]
        if bound:
            choices += ["bound", "bound", "expr"]
        if new_here:
            choices.append("again")
        kind = self.draw(st.sampled_from(choices))
        if kind == "skip":
            return None
        if kind == "const":
            return ("c", self.draw(st.sampled_from(self.values)))
        if kind == "bound":
            return ("v", self.draw(st.sampled_from(bound)))
        if kind == "again":
            return ("v", self.draw(st.sampled_from(new_here)))
        if kind == "expr":
            return ("e", self.draw(st.sampled_from(bound)), self.draw(st.sampled_from((-1, 1))))
        name = self.fresh()
        new_here.append(name)
        return ("v", name)


def engine_term(t):
    """A drawn term as the engine's rules take it: the constant, the variable,
    or the variable plus its delta."""
    if t[0] == "c":
        return t[1]
    if t[0] == "v":
        return V(t[1])
    return Expr("add", V(t[1]), t[2])


def derandomized(examples: int, **kw) -> settings:
    """The settings of the random-program tests: ``examples`` programs drawn the
    same way every run, no deadline, no complaint about slow or large draws."""
    return settings(max_examples=examples, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large], **kw)
