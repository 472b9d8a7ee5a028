"""What the compiler refuses, with the rule named, and what it accepts in the
Python builder that rule text cannot say (functions given as callables, tests
of three arguments, several join tests on one pattern)."""
from __future__ import annotations

import pytest

from rete import Call, Exists, Expr, Not, P, RetractFact, Rule, Session, Test, V
from rete.errors import CompileError, UnboundVariableError


def session():
    s = Session()
    s.deftemplate("n", "x", "y")
    return s


@pytest.mark.parametrize("rule,message", [
    (Rule("unhashable").when(P("n", x=[1, 2])), "unhashable constant"),
    (Rule("empty-not").when(P("n"), Not()), "empty not/exists"),
    (Rule("empty-exists").when(P("n"), Exists()), "empty not/exists"),
    (Rule("odd-condition").when(P("n"), "n(x: 1)"), "not a condition: 'n(x: 1)'"),
    (Rule("odd-action").when(P("n")).then("retract"), "not an action: 'retract'"),
    (Rule("slot-not-fact").when(P("n", x=V.v)).then(RetractFact("v")),
     "?v holds a slot value, not a fact"),
    # an alpha test sees one fact: it would compare the slot with the Var object
    (Rule("var-in-pred").when(P("n", x=V.w), P("n", y=V.w).where("x", "=", V.w)),
     "slot predicates take constants only"),
    (Rule("expr-in-pred").when(P("n", x=V.w).where("y", "<", Expr("add", V.w, 1))),
     "slot predicates take constants only"),
    (Rule("text-salience", salience="5").when(P("n")), "salience must be an integer, not '5'"),
    (Rule("bool-salience", salience=True).when(P("n")), "salience must be an integer"),
    (Rule("list-stage", stage=["main"]).when(P("n")), "a stage is named by a string"),
])
def test_compile_errors_name_the_rule(rule, message):
    s = session()
    with pytest.raises(CompileError) as ei:
        s.add(rule)
    assert str(ei.value).startswith(f"rule {rule.name!r}: ")
    assert message in str(ei.value)
    assert rule.name not in s.productions      # nothing half-built is left


def test_an_unbound_variable_in_a_slot_expression_is_refused():
    s = session()
    r = Rule("free").when(P("n", x=Expr("add", V.a, 1)))
    s.register_function("add", lambda a, b: a + b)
    with pytest.raises(UnboundVariableError, match="variable \\?a is not bound"):
        s.add(r)


def test_callables_three_argument_tests_and_several_join_tests():
    s = session()
    fired = []

    def between(lo, v, hi):
        return lo < v < hi

    def log(ctx, a, b):
        fired.append((a, b))

    # two join tests on the second pattern (neither an equality): both must hold
    s.add(Rule("pairs").when(P("n", x=V.a, y=V.lo),
                             P("n", x=V.b, y=V.hi),
                             Test(between, V.lo, V.b, V.hi),
                             Test(lambda a, b: a != b, V.a, V.b),
                             Test(lambda a, b: a % 2 == b % 2, V.a, V.b))
          .then(Call(log, V.a, V.b)))
    assert "between" in s.functions and "log" in s.functions   # registered by name
    for x, y in [(1, 0), (3, 5), (5, 9), (4, 0)]:
        s.assert_fact("n", x=x, y=y)
    s.run()
    expected = sorted((a, b) for a, lo in [(1, 0), (3, 5), (5, 9), (4, 0)]
                      for b, hi in [(1, 0), (3, 5), (5, 9), (4, 0)]
                      if lo < b < hi and a != b and a % 2 == b % 2)
    assert sorted(fired) == expected and expected


def test_a_builtin_of_values_is_no_action_but_the_same_name_registered_for_actions_is():
    s = session()
    with pytest.raises(CompileError, match="'add' is a function of values"):
        s.add(Rule("calls-add").when(P("n", x=V.x)).then(Call("add", V.x, 1)))
    seen = []
    s.register_function("add", lambda ctx, x, y: seen.append(x + y))
    s.add(Rule("calls-own-add").when(P("n", x=V.x)).then(Call("add", V.x, 1)))
    s.assert_fact("n", x=1, y=0)
    s.run()
    assert seen == [2]


@pytest.mark.parametrize("prod, words", [
    ("rule x when a() then end", r"not str \(rule text is loaded with rete.loading.load_rules"),
    (None, "not NoneType"),
    (Rule(5).when(P("n")), r"named by text, not 5 \(int\)"),
    (Rule("").when(P("n")), "name is empty"),
])
def test_session_add_refuses_what_is_not_a_named_production(prod, words):
    # a string or a None reached an AttributeError; a number was compiled as a name
    s = session()
    s.add(Rule("kept").when(P("n")))
    with pytest.raises(CompileError, match=words):
        s.add(Rule("first").when(P("n")), prod)
    assert [p.name for p in s.list_productions()] == ["kept"]
