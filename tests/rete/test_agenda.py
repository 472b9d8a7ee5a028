"""Agenda rules: stage order, salience, the strategies, refraction, halt,
run(limit) and focus."""
from __future__ import annotations

import pytest

from rete import (Call, Halt, ModifyFact, Not, P, ReteError, Rule, Session, StageCycleError,
                  UnknownStageError, V)
from rete.agenda import STRATEGIES


def fired(s, limit=None, stages=None):
    s.trace_enabled = True
    s.trace.clear()
    n = s.run(limit=limit, stages=stages)
    out = [f.rule for f in s.trace]
    assert n == len(out)
    return out


def session(strategy="recency", stages=("default",)):
    s = Session(strategy=strategy, stages=stages)
    for t in ("c1", "c2", "d", "t", "m", "block", "u"):
        s.deftemplate(t, "x")
    return s


def test_stage_order_beats_salience():
    s = session(stages=("early", "late"))
    s.add(Rule("late-high", stage="late", salience=100).when(P("u")),
          Rule("early-low", stage="early", salience=-100).when(P("u")))
    s.assert_fact("u", x=1)
    assert fired(s) == ["early-low", "late-high"]


def test_salience_beats_recency():
    s = session()
    s.add(Rule("old-high", salience=5).when(P("c1")), Rule("new-low").when(P("c2")))
    s.assert_fact("c1", x=1)
    s.assert_fact("c2", x=1)
    assert fired(s) == ["old-high", "new-low"]


def _recency_vs_mea(strategy):
    # R1 over (c1: tag 1, c2: tag 3); R2 over (d: tag 2)
    s = session(strategy)
    s.add(Rule("R1").when(P("c1"), P("c2")), Rule("R2").when(P("d")))
    s.assert_fact("c1", x=1)
    s.assert_fact("d", x=1)
    s.assert_fact("c2", x=1)
    return fired(s)


def _recency_vs_depth(strategy):
    # N's match (t: tag 2) is made last, by the retraction of block; M's (m: tag 3) first
    s = session(strategy)
    s.add(Rule("N").when(P("t"), Not(P("block"))), Rule("M").when(P("m")))
    b = s.assert_fact("block", x=1)
    s.assert_fact("t", x=1)
    s.assert_fact("m", x=1)
    s.retract(b)
    return fired(s)


@pytest.mark.parametrize("strategy, first, second", [
    ("recency", ["R1", "R2"], ["M", "N"]),     # newest facts
    ("mea", ["R2", "R1"], ["M", "N"]),         # newest first-condition fact
    ("depth", ["R1", "R2"], ["N", "M"]),       # newest activation
    ("breadth", ["R2", "R1"], ["M", "N"]),     # oldest activation
])
def test_strategies_differ_as_documented(strategy, first, second):
    assert _recency_vs_mea(strategy) == first
    assert _recency_vs_depth(strategy) == second


def test_all_strategies_are_covered():
    assert set(STRATEGIES) == {"recency", "mea", "depth", "breadth"}
    with pytest.raises(ReteError, match="unknown strategy"):
        Session(strategy="lifo")


def test_set_strategy_reorders_pending_activations():
    s = session("recency")
    s.add(Rule("R1").when(P("c1"), P("c2")), Rule("R2").when(P("d")))
    s.assert_fact("c1", x=1)
    s.assert_fact("d", x=1)
    s.assert_fact("c2", x=1)
    assert [a.production.name for a in s.activations()] == ["R1", "R2"]
    s.agenda.set_strategy("breadth")
    assert [a.production.name for a in s.activations()] == ["R2", "R1"]


def test_recency_orders_single_pattern_matches_newest_first():
    s = session()
    seen = []
    s.register_function("log", lambda ctx, x: seen.append(x))
    s.add(Rule("r").when(P("u", x=V.x)).then(Call("log", V.x)))
    for i in range(5):
        s.assert_fact("u", x=i)
    s.run()
    assert seen == [4, 3, 2, 1, 0]


def test_refraction():
    s = session()
    s.add(Rule("r").when(P("u", x=V.x).as_("f")))
    f = s.assert_fact("u", x=1)
    assert fired(s) == ["r"]
    assert fired(s) == []                   # the same match never fires twice
    s.modify(f, x=2)                        # a new match: fires again
    assert fired(s) == ["r"]


def test_refraction_with_a_self_modifying_rule_terminates_only_by_its_condition():
    s = session()
    s.add(Rule("count").when(P("u", x=V.x).where("x", "lt", 5).as_("f"))
          .then(ModifyFact("f", x=__import__("rete").Expr("add", V.x, 1))))
    s.assert_fact("u", x=0)
    assert s.run() == 5
    assert s.facts_of("u")[0]["x"] == 5


def test_halt_stops_after_the_current_firing():
    s = session()
    s.add(Rule("stop", salience=10).when(P("c1")).then(Halt()),
          Rule("other").when(P("u")))
    s.assert_fact("u", x=1)
    s.assert_fact("c1", x=1)
    assert fired(s) == ["stop"]
    assert [a.production.name for a in s.activations()] == ["other"]
    assert fired(s) == ["other"]            # halting does not stick


def test_run_limit_returns_the_number_of_firings():
    s = session()
    s.add(Rule("r").when(P("u")))
    for i in range(7):
        s.assert_fact("u", x=i)
    assert s.run(limit=3) == 3
    assert len(s.activations()) == 4
    assert s.run(limit=0) == 0
    assert s.run(limit=10) == 4
    assert s.run() == 0


def test_focus_runs_only_the_given_stages():
    s = session(stages=("a", "b", "c"))
    for st in ("a", "b", "c"):
        s.add(Rule(f"in-{st}", stage=st).when(P("u")))
    s.assert_fact("u", x=1)
    assert fired(s, stages=["b"]) == ["in-b"]
    assert fired(s, stages="c") == ["in-c"]
    assert fired(s) == ["in-a"]
    with pytest.raises(UnknownStageError):
        s.run(stages=["nope"])


def test_stage_declarations_and_cycles():
    s = Session(stages=("one", "three"))
    s.define_stage("two", after=["one"], before=["three"])
    assert s.stages == ["one", "two", "three"]
    before = list(s.stages)
    with pytest.raises(StageCycleError) as e:
        s.define_stage("zero", after=["three"], before=["one"])
    assert "cycle" in str(e.value) and "zero" in e.value.cycle
    assert s.stages == before


def test_activation_moves_when_stages_are_relaid_out():
    s = Session(stages=("x", "y"))
    s.deftemplate("u", "x")
    s.add(Rule("rx", stage="x").when(P("u")), Rule("ry", stage="y").when(P("u")))
    s.assert_fact("u", x=1)
    s.define_stage("w", before=["x"])        # indexes of x and y move
    s.add(Rule("rw", stage="w").when(P("u")))
    assert [a.production.name for a in s.activations()] == ["rw", "rx", "ry"]
    assert fired(s) == ["rw", "rx", "ry"]
