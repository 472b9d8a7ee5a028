"""The join-order planner (rete/joinorder.py): control patterns on a state
cycle are joined last; nothing a user sees changes but the speed."""
from __future__ import annotations

import pytest

from benchmarks.manners import houserules_manners as manners
from benchmarks.manners.generate import generate
from benchmarks.waltz import houserules_waltz as waltz
from rete import Assert, ModifyFact, Not, P, ReteError, Rule, Session, V
from rete.joinorder import control_states


def test_manners_states_form_a_cycle_and_waltz_stages_do_not():
    assert control_states(manners.rules()) == {
        ("context", "state", "assign_seats"), ("context", "state", "make_path"),
        ("context", "state", "check_done")}
    assert control_states(waltz.rules()) == frozenset()


def test_control_pattern_on_a_cycle_is_joined_last():
    s, _ = manners.build(use_text=False)
    fs = s.productions["find_seating"]
    # context (written first) fills the last token position
    assert fs.fact_order is not None and fs.fact_order[0] == len(fs.fact_order) - 1
    assert s.productions["make_path"].fact_order is not None
    # print_results' state (print_results) is not on the cycle: as written
    assert s.productions["print_results"].fact_order is None
    w, _ = manners.build(use_text=False, join_order="written")
    assert all(p.fact_order is None for p in w.productions.values())


def test_the_graph_says_what_was_joined_last():
    s, _ = manners.build(use_text=False)
    labels = {d["label"] for _, d in s.graph().nodes(data=True) if d["kind"] == "production"}
    assert "P find_seating [joined last: context]" in labels
    assert "P print_results" in labels


def test_rule_text_is_planned_as_a_whole():
    s, _ = manners.build(use_text=True)
    assert s.productions["find_seating"].fact_order is not None


def _toggle(join_order: str, strategy: str = "recency") -> Session:
    """ctl flips a <-> b; rule "grow" (gate first, as written) fires in state a."""
    s = Session(strategy=strategy, join_order=join_order)
    s.deftemplate("ctl", "state")
    s.deftemplate("item", "x")
    s.deftemplate("seen", "x")
    s.add(
        Rule("grow")
        .when(P("ctl", state="a").as_("c"), P("item", x=V.x), Not(P("seen", x=V.x)))
        .then(ModifyFact("c", state="b"), Assert("seen", x=V.x)),
        Rule("back").when(P("ctl", state="b").as_("c")).then(ModifyFact("c", state="a")),
    )
    return s


def test_what_the_user_sees_is_in_written_order():
    s = _toggle("control-last")
    assert s.productions["grow"].fact_order is not None
    c = s.assert_fact("ctl", state="a")
    i = s.assert_fact("item", x=1)
    (act,) = s.activations()
    assert act.facts == (c, i)                     # ctl first, as the rule names it
    s.trace_enabled = True
    s.run(1)
    assert s.trace[0].facts == (c.id, i.id)
    seen = next(f for f in s.facts.values() if f.template == "seen")
    assert s.explain(seen)["from_facts"] == (c, i)


@pytest.mark.parametrize("strategy", ["recency", "mea", "depth", "breadth"])
def test_same_run_either_way(strategy):
    runs = []
    for order in ("control-last", "written"):
        s = _toggle(order, strategy)
        s.trace_enabled = True
        s.assert_fact("ctl", state="a")
        for x in range(6):
            s.assert_fact("item", x=x)
        assert s.run() == 12
        runs.append([(f.rule, f.facts) for f in s.trace])
    assert runs[0] == runs[1]


@pytest.mark.parametrize("n", [16, 32])
def test_manners_same_seating_either_way(n):
    data = generate(n)
    a = manners.run(data)
    b = manners.run(data, join_order="written")
    assert a["firings"] == b["firings"]
    assert a["seating"] == b["seating"]


def test_unknown_join_order_is_refused():
    with pytest.raises(ReteError, match="unknown join order 'fastest'"):
        Session(join_order="fastest")
