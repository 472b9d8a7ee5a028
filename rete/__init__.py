"""A generic Rete-II production-rule engine (knows nothing about chess).

Working memory
    Facts (WMEs) of declared templates with named slots; each has an ``id``
    that survives :meth:`Session.modify` and a ``timetag`` that every assert
    or modify renews. Unknown slots are errors at compile time (patterns,
    actions) and at assert/modify time.

Productions
    Data (:class:`Production`): name, stage, salience, conditions and actions,
    built with :class:`Rule`/:func:`P`/:data:`V`/:class:`Not`/:class:`Exists`/
    :class:`Collect`/:class:`Test` or written in the rule language
    (:mod:`rete.language`, grammar ``rules.lark``); both produce equal objects.
    Tests and actions call only functions registered by name: rule text never
    evaluates Python.

Network (:mod:`rete.network`, built by :mod:`rete.compiler`)
    Doorenbos's Rete: a per-template alpha discrimination tree of hashed
    constant tests feeding shared alpha memories; a beta network of joins,
    beta memories, negative, NCC (negated conjunction) and exists nodes (a
    ``collect`` is an exists node whose facts a variable binds), and
    production nodes. Joins on shared variables look partners up in hashed
    indexes on *both* sides (token index on the left, fact index on the
    right): the Rete-II part. Common prefixes are shared; productions can be
    added, replaced and removed while facts are present (new ones are fed
    the existing matches; removal frees every node no one else uses).

Agenda (:mod:`rete.agenda`)
    Activations are ordered by stage (named, ordered priority bands, declared
    with ``stages``/:meth:`Session.define_stage`, cycles refused), then
    salience, then the strategy: ``recency`` (default: newest facts first,
    OPS5 LEX without specificity), ``mea`` (newest first-condition fact),
    ``depth`` (newest activation, CLIPS's default) or ``breadth`` (oldest).
    Refraction: a match fires once until it is rebuilt. ``run(limit, stages)``
    returns the number of firings; ``stages`` is the focus; a ``halt`` action
    stops the run after its firing.

Truth maintenance
    ``assert logical`` ties a fact to the match that asserted it; when the
    last supporting match goes (retract, modify, a negation that becomes
    blocked, removal of the production), the fact is retracted, and so on
    down the chain.

Journal
    :meth:`Session.checkpoint` / :meth:`~Session.rollback` /
    :meth:`~Session.commit` (nested marks) undo working memory, agenda and
    support exactly. Every error (one hierarchy rooted in :class:`ReteError`)
    leaves the session as it was; an action that raises rolls its whole
    :meth:`~Session.run` back (:class:`ActionError`).

Observability
    ``trace_enabled``/``trace`` (which production fired on which facts, with
    bindings), :meth:`Session.explain`, :meth:`Session.graph` (networkx),
    :meth:`Session.to_dot` and :meth:`Session.stats` (node counts and memory
    sizes; also ``houserules rete graph FILE``). See ``docs/engine.md``.

>>> from rete import Session, Rule, P, V, Assert
>>> s = Session()
>>> _ = s.deftemplate("edge", "a", "b"); _ = s.deftemplate("path", "a", "b")
>>> s.add(Rule("step").when(P("edge", a=V.x, b=V.y)).then(Assert("path", a=V.x, b=V.y)))
>>> _ = s.assert_fact("edge", a=1, b=2)
>>> s.run()
1
"""
from .errors import *  # noqa: F401,F403
from .errors import ReteError
from .model import (Assert, AssertFact, AssertLogical, Call, Collect, Exists, Expr, Fact, Halt,
                    Modify, ModifyFact, Not, P, Pattern, Production, Retract, RetractFact, Rule,
                    SlotPred, Template, Test, V, Var)
from .declare import template
from .session import Context, Firing, Session
from .buildinfo import build_kind

__all__ = [
    "Assert", "AssertFact", "AssertLogical", "Call", "Collect", "Context", "Exists", "Expr",
    "Fact", "Firing", "Halt", "Modify", "ModifyFact", "Not", "P", "Pattern", "Production",
    "Retract", "RetractFact", "ReteError", "Rule", "Session", "SlotPred", "Template", "Test", "V",
    "Var", "build_kind", "template",
]
