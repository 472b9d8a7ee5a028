"""Truth maintenance (support chains, retraction cascades, logical and explicit
assertions) and productions added, removed and replaced while facts are present."""
from __future__ import annotations

import pytest

from rete import (Assert, AssertLogical, Not, P, RetractFact, Rule, Session,
                  UnknownProductionError, V)
from rete.network import JoinNode


def chain_session():
    s = Session()
    for t in ("a", "b", "c", "d"):
        s.deftemplate(t, "x")
    s.add(Rule("a->b").when(P("a", x=V.x)).then(AssertLogical("b", x=V.x)),
          Rule("b->c").when(P("b", x=V.x)).then(AssertLogical("c", x=V.x)),
          Rule("c->d").when(P("c", x=V.x)).then(AssertLogical("d", x=V.x)))
    return s


def xs(s, t):
    return sorted(f["x"] for f in s.facts_of(t))


# ---------------------------------------------------------------- truth maintenance


def test_support_chain_and_retraction_cascade():
    s = chain_session()
    a = s.assert_fact("a", x=1)
    s.assert_fact("a", x=2)
    s.run()
    assert xs(s, "b") == xs(s, "c") == xs(s, "d") == [1, 2]
    s.retract(a)                       # b1 loses support, then c1, then d1
    assert xs(s, "b") == xs(s, "c") == xs(s, "d") == [2]


def test_explain_follows_the_support():
    s = chain_session()
    a = s.assert_fact("a", x=1)
    s.run()
    (d,) = s.facts_of("d")
    ex = s.explain(d)
    assert ex["logical"] is True and ex["asserted_by"] == "c->d"
    (c,) = s.facts_of("c")
    assert ex["support"] == [{"rule": "c->d", "facts": (c,)}]
    (b,) = s.facts_of("b")
    assert s.explain(b)["from_facts"] == (a,)
    assert s.explain(a)["asserted_by"] is None and s.explain(a)["logical"] is False


def test_modify_that_breaks_support_retracts():
    s = Session()
    s.deftemplate("temp", "v")
    s.deftemplate("alarm")
    s.add(Rule("hot").when(P("temp", v=V.v).where("v", "gt", 30)).then(AssertLogical("alarm")))
    t = s.assert_fact("temp", v=35)
    s.run()
    assert len(s.facts_of("alarm")) == 1
    s.modify(t, v=20)
    assert s.facts_of("alarm") == []


def test_two_supports_keep_a_fact_until_both_go():
    s = Session()
    s.deftemplate("src", "x")
    s.deftemplate("flag")
    s.add(Rule("any").when(P("src", x=V.x)).then(AssertLogical("flag")))
    a = s.assert_fact("src", x=1)
    b = s.assert_fact("src", x=2)
    s.run()
    (flag,) = s.facts_of("flag")             # one fact, two supports
    assert len(flag.support) == 2
    s.retract(a)
    assert s.facts_of("flag") == [flag]
    s.retract(b)
    assert s.facts_of("flag") == []


def test_logical_and_explicit_assertions_are_independent():
    s = Session()
    s.deftemplate("src", "x")
    s.deftemplate("flag", "x")
    s.add(Rule("l").when(P("src", x=V.x)).then(AssertLogical("flag", x=V.x)),
          Rule("e").when(P("src", x=V.x)).then(Assert("flag", x=V.x)))
    src = s.assert_fact("src", x=1)
    s.run()
    assert len(s.facts_of("flag")) == 2
    s.retract(src)
    (left,) = s.facts_of("flag")             # the unconditional one stays
    assert left.support is None and s.explain(left)["asserted_by"] == "e"


def test_negation_in_support_retracts_when_the_blocker_arrives():
    s = Session()
    s.deftemplate("p", "x")
    s.deftemplate("q", "x")
    s.deftemplate("r", "x")
    s.add(Rule("p-not-q").when(P("p", x=V.x), Not(P("q", x=V.x))).then(AssertLogical("r", x=V.x)))
    s.assert_fact("p", x=1)
    s.run()
    assert xs(s, "r") == [1]
    q = s.assert_fact("q", x=1)
    assert xs(s, "r") == []
    s.retract(q)
    assert xs(s, "r") == []                  # comes back only by firing again
    s.run()
    assert xs(s, "r") == [1]


def test_removing_a_production_withdraws_its_support():
    s = chain_session()
    s.assert_fact("a", x=1)
    s.run()
    s.remove_production("b->c")
    assert xs(s, "b") == [1] and xs(s, "c") == [] and xs(s, "d") == []


def test_explicit_retract_of_a_logical_fact():
    s = chain_session()
    s.assert_fact("a", x=1)
    s.run()
    (c,) = s.facts_of("c")
    s.retract(c)
    assert xs(s, "d") == [] and xs(s, "b") == [1]


# ---------------------------------------------------------------- productions while facts are present


def test_new_production_sees_existing_facts():
    s = Session()
    s.deftemplate("a", "x")
    s.deftemplate("b", "x")
    for i in range(3):
        s.assert_fact("a", x=i)
        s.assert_fact("b", x=i)
    s.add(Rule("j").when(P("a", x=V.v), P("b", x=V.v), Not(P("a", x=5))))
    assert len(s.activations()) == 3
    s.add(Rule("j2").when(P("a", x=V.v), P("b", x=V.v)))      # shares the join with j
    assert len(s.activations()) == 6


def test_new_production_below_a_shared_negation_and_ncc():
    s = Session()
    for t in ("a", "b", "c"):
        s.deftemplate(t, "x")
    s.assert_fact("a", x=1)
    s.assert_fact("a", x=2)
    s.assert_fact("b", x=2)
    s.add(Rule("n1").when(P("a", x=V.v), Not(P("b", x=V.v))))
    s.add(Rule("n2").when(P("a", x=V.v), Not(P("b", x=V.v)), P("c")))
    s.add(Rule("ncc").when(P("a", x=V.v), Not(P("b", x=V.v), P("c", x=V.v))))
    s.assert_fact("c", x=2)
    got = sorted((a.production.name, a.facts[0]["x"]) for a in s.activations())
    assert got == [("n1", 1), ("n2", 1), ("ncc", 1)]


def test_remove_production_frees_its_nodes_and_keeps_shared_ones():
    s = Session()
    s.deftemplate("a", "x")
    s.deftemplate("b", "x")
    s.deftemplate("c", "x")
    s.add(Rule("r1").when(P("a", x=V.v), P("b", x=V.v)),
          Rule("r2").when(P("a", x=V.v), P("b", x=V.v), P("c", x=V.v)))
    for t in ("a", "b", "c"):
        s.assert_fact(t, x=1)
    before = s.stats()["nodes"]
    s.remove_production("r2")
    after = s.stats()["nodes"]
    assert after["production"] == before["production"] - 1
    assert after["join"] == before["join"] - 1
    assert not any(am.template == "c" for am in s.alpha_memories.values())
    assert [a.production.name for a in s.activations()] == ["r1"]
    s.remove_production("r1")
    assert s.root.children == [] and s.alpha_memories == {}
    assert all(not f.tokens for f in s.facts.values())
    with pytest.raises(UnknownProductionError):
        s.remove_production("r1")


def test_replace_production_swaps_the_network_in_place():
    s = Session()
    s.deftemplate("a", "x")
    s.deftemplate("out", "x")
    s.add(Rule("r").when(P("a", x=V.v).where("x", "gt", 1)).then(Assert("out", x=V.v)))
    for i in range(4):
        s.assert_fact("a", x=i)
    assert len(s.activations()) == 2
    s.replace_production(Rule("r", salience=3).when(P("a", x=V.v).where("x", "lt", 1))
                         .then(Assert("out", x=V.v)))
    assert [a.facts[0]["x"] for a in s.activations()] == [0]
    assert s.get_production("r").salience == 3
    assert [p.name for p in s.list_productions()] == ["r"]
    s.run()
    assert [f["x"] for f in s.facts_of("out")] == [0]
    with pytest.raises(UnknownProductionError):
        s.replace_production(Rule("nope").when(P("a")))


def test_replacement_that_fails_to_compile_keeps_the_old_one():
    s = Session()
    s.deftemplate("a", "x")
    s.add(Rule("r").when(P("a", x=V.v)))
    s.assert_fact("a", x=1)
    nodes_before = s.stats()["nodes"]
    with pytest.raises(Exception):
        s.replace_production(Rule("r").when(P("a", nope=V.v)))
    assert [a.production.name for a in s.activations()] == ["r"]
    assert s.stats()["nodes"] == nodes_before


def test_retract_action_and_removal_of_the_firing_rule():
    s = Session()
    s.deftemplate("a", "x")
    s.add(Rule("eat").when(P("a", x=V.v).as_("f")).then(RetractFact("f")))
    for i in range(3):
        s.assert_fact("a", x=i)
    assert s.run() == 3 and s.facts_of("a") == []
    assert any(isinstance(n, JoinNode) for n in s._all_nodes())
