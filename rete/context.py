"""What a firing leaves and what an action sees: :class:`Firing` (a line of
the trace) and :class:`Context` (the bindings of the match, and the session
its actions change)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping

from .model import Fact, Production

if TYPE_CHECKING:
    from .network import ProductionNode
    from .tokens import MatchToken


@dataclass
class Firing:
    """One line of the trace: which production fired on which facts."""

    rule: str
    stage: str
    facts: tuple
    bindings: dict

    def __str__(self):
        ids = ", ".join(f"f-{i}" for i in self.facts)
        b = " ".join(f"?{k}={_shown(v)}" for k, v in self.bindings.items()
                     if not isinstance(v, Fact))
        return f"FIRE {self.rule} [{self.stage}] {ids}" + (f"  {b}" if b else "")


def _shown(v) -> str:
    # the facts a collect binds, by id (one fact bound is left out: its id is listed)
    if isinstance(v, tuple) and v and all(isinstance(x, Fact) for x in v):
        return "(" + ", ".join(f"f-{x.id}" for x in v) + ")"
    return repr(v)


class Context:
    """What an action sees: the bindings of its match (``ctx["n"]`` for ``?n``,
    ``bindings``, ``facts``), its ``rule`` and the session (``ctx.session``); it
    changes working memory with ``assert_fact``, ``assert_logical``, ``modify``
    and ``retract``, and ends the run with ``halt``."""

    __slots__ = ("session", "token", "pnode")

    # (Any: a layer built on the engine gives its sessions attributes of its
    # own, which its rules' functions read here: ctx.session.chess)
    session: Any
    token: MatchToken
    pnode: ProductionNode

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
        if slot is not None and not isinstance(slot, str):
            return slot.query(self.token.facts)     # a Collect: the facts it collects
        f = self.token.facts[pos]
        return f if slot is None else f.values.get(slot)

    @property
    def bindings(self) -> dict:
        return {k: self[k] for k in self.pnode.bindings}

    @property
    def facts(self) -> tuple:
        """The matched facts, in the order the rule names them."""
        return self.pnode.written_facts(self.token)

    def assert_fact(self, template: str, values: Mapping | None = None, /, **slots) -> Fact:
        """Assert a fact that stays (as the ``assert`` action does), and return it."""
        s = self.session
        vals = s._values(template, values, slots)
        return s._guarded(s._assert_vals, template, vals, None, self.pnode, self.token)

    def assert_logical(self, template: str, values: Mapping | None = None, /, **slots) -> Fact:
        """Assert a fact that lives as long as this firing's match does."""
        s = self.session
        vals = s._values(template, values, slots)
        return s._guarded(s._assert_vals, template, vals, self.token, self.pnode, self.token)

    def retract(self, fact: Fact) -> None:
        """Take ``fact`` out of working memory."""
        self.session.retract(fact)

    def modify(self, fact: Fact, values: Mapping | None = None, /, **slots) -> Fact:
        """Change slots of ``fact`` (its id stays, its timetag is renewed), and return it."""
        return self.session.modify(fact, {**(values or {}), **slots})

    def halt(self) -> None:
        """End the run after this firing (the rest stays on the agenda)."""
        self.session.halt()
