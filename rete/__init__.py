"""A generic Rete-II production-rule engine.

Knows nothing about chess: templates, facts, productions with patterns,
joins, tests, negation, negated conjunctions and ``exists``; an agenda with
named stages, salience and strategies; truth maintenance; a rule language.

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
from .model import (Assert, AssertFact, AssertLogical, Call, Exists, Expr, Fact, Halt, Modify,
                    ModifyFact, Not, P, Pattern, Production, Retract, RetractFact, Rule,
                    SlotPred, Template, Test, V, Var)
from .declare import template
from .session import Context, Firing, Session

__all__ = [
    "Assert", "AssertFact", "AssertLogical", "Call", "Context", "Exists", "Expr", "Fact",
    "Firing", "Halt", "Modify", "ModifyFact", "Not", "P", "Pattern", "Production", "Retract",
    "RetractFact", "ReteError", "Rule", "Session", "SlotPred", "Template", "Test", "V", "Var",
    "template",
]
