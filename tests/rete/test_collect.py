"""``collect``: a production that matches once while facts match a pattern, with
those facts bound (``Collect(P(...)).as_("xs")`` / ``?xs <- collect p(...)``)."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rete import Assert, Call, Collect, Expr, P, RetractFact, Rule, Session, Test, V
from rete.errors import CollectedFactsError, CompileError, RuleSyntaxError
from rete.language import format_production, load_rules, parse_rules
from rete.negation import NegativeNode


@pytest.fixture
def s():
    s = Session()
    s.deftemplate("ask", "who")
    s.deftemplate("item", "owner", "kind")
    return s


def recorder(s):
    seen = []
    s.register_function("see", lambda ctx, who, xs: seen.append(
        (who, [f.values["kind"] for f in xs])))
    return seen


def test_one_match_for_all_the_facts_joined_on_the_bound_variable(s):
    seen = recorder(s)
    s.add(Rule("tools").when(P("ask", who=V.w), Collect(P("item", owner=V.w)).as_("xs"))
          .then(Call("see", V.w, V.xs)))
    s.assert_fact("item", owner="ada", kind="saw")
    s.assert_fact("item", owner="bob", kind="axe")
    s.assert_fact("item", owner="ada", kind="awl")
    s.assert_fact("ask", who="ada")
    s.assert_fact("ask", who="cy")             # owns nothing: no match
    assert len(s.activations()) == 1
    assert s.run() == 1
    # oldest time tag first
    assert seen == [("ada", ["saw", "awl"])]
    # an exists node does the matching: no token per item
    (node,) = [n for n in s._all_nodes() if type(n) is NegativeNode]
    assert node.exists


def test_the_facts_are_read_when_the_rule_fires(s):
    seen = recorder(s)
    s.add(Rule("tools").when(P("ask", who=V.w), Collect(P("item", owner=V.w)).as_("xs"))
          .then(Call("see", V.w, V.xs)))
    s.assert_fact("ask", who="ada")
    assert s.activations() == []
    first = s.assert_fact("item", owner="ada", kind="saw")
    assert len(s.activations()) == 1           # the first fact makes the match
    s.assert_fact("item", owner="ada", kind="awl")
    assert len(s.activations()) == 1           # further ones join it
    s.retract(first)
    s.run()
    assert seen == [("ada", ["awl"])]
    # fired once; a new fact does not make it fire again (one match, refracted)
    s.assert_fact("item", owner="ada", kind="adze")
    assert s.run() == 0


def test_the_match_goes_with_the_last_fact(s):
    s.add(Rule("tools").when(P("ask", who=V.w), Collect(P("item", owner=V.w)).as_("xs")))
    s.assert_fact("ask", who="ada")
    a = s.assert_fact("item", owner="ada", kind="saw")
    b = s.assert_fact("item", owner="ada", kind="awl")
    s.retract(a)
    assert len(s.activations()) == 1
    s.retract(b)
    assert s.activations() == []


def test_constants_and_no_join(s):
    seen = recorder(s)
    s.add(Rule("saws").when(P("ask", who=V.w), Collect(P("item", kind="saw")).as_("xs"))
          .then(Call("see", V.w, V.xs)))
    s.assert_fact("item", owner="ada", kind="saw")
    s.assert_fact("item", owner="bob", kind="axe")
    s.assert_fact("item", owner="bob", kind="saw")
    s.assert_fact("ask", who="cy")
    s.run()
    assert seen == [("cy", ["saw", "saw"])]


def test_actions_and_context_read_the_facts(s):
    s.deftemplate("total", "who", "n")
    got = {}
    s.register_function("peek", lambda ctx: got.update(ctx.bindings))
    s.add(Rule("count").when(P("ask", who=V.w), Collect(P("item", owner=V.w)).as_("xs"))
          .then(Call("peek"), Assert("total", who=V.w, n=Expr("count", V.xs))))
    s.assert_fact("item", owner="ada", kind="saw")
    s.assert_fact("item", owner="ada", kind="awl")
    s.assert_fact("ask", who="ada")
    s.run()
    assert [f.values for f in s.facts_of("total")] == [{"who": "ada", "n": 2}]
    assert [f.values["kind"] for f in got["xs"]] == ["saw", "awl"] and got["w"] == "ada"


def test_rollback_puts_the_match_back(s):
    seen = recorder(s)
    s.add(Rule("tools").when(P("ask", who=V.w), Collect(P("item", owner=V.w)).as_("xs"))
          .then(Call("see", V.w, V.xs)))
    s.assert_fact("ask", who="ada")
    s.assert_fact("item", owner="ada", kind="saw")
    mark = s.checkpoint()
    s.assert_fact("item", owner="ada", kind="awl")
    s.rollback(mark)
    s.run()
    assert seen == [("ada", ["saw"])]


@pytest.mark.parametrize("rule, message", [
    (Rule("r").when(Collect(P("item")).as_("xs"), P("ask", who=V.xs)), "?xs holds collected facts"),
    (Rule("r").when(Collect(P("item")).as_("xs"), Test("gt", Expr("count", V.xs), 1)),
     "a test or a pattern cannot read it"),
    (Rule("r").when(Collect(P("item")).as_("xs")).then(RetractFact("xs")), "not one fact"),
    (Rule("r").when(Collect(P("item").as_("i")).as_("xs")), "bind the collect"),
    (Rule("r").when(P("ask", who=V.xs), Collect(P("item")).as_("xs")), "bound twice"),
])
def test_compile_errors(s, rule, message):
    with pytest.raises(CompileError, match=re.escape(message)):
        s.add(rule)
    assert "r" not in {p.name for p in s.list_productions()}


def test_collect_takes_one_pattern():
    with pytest.raises(TypeError, match="one pattern"):
        Collect(Test("gt", V.a, 1))


RULE_TEXT = """
rule "tools" stage default
when
  ask(who: ?w)
  ?xs <- collect item(owner: ?w, kind: saw)
then
  call see(?w, ?xs)
end
"""


def test_rule_text_parses_runs_and_writes_back(s):
    seen = recorder(s)
    load_rules(s, RULE_TEXT)
    s.assert_fact("item", owner="ada", kind="saw")
    s.assert_fact("item", owner="ada", kind="awl")
    s.assert_fact("ask", who="ada")
    s.run()
    assert seen == [("ada", ["saw"])]
    (prod,) = parse_rules(RULE_TEXT).productions
    assert prod.conditions[1] == Collect(P("item", owner=V.w, kind="saw"), "xs")
    text = format_production(prod)
    assert "?xs <- collect item(owner: ?w, kind: saw)" in text
    assert parse_rules(text).productions[0].conditions == prod.conditions


@pytest.mark.parametrize("when, then, where", [
    ("\n  test count(?xs) > 1", "call see(?w, ?xs)", "6:14"),
    ("\n  ask(who: ?xs)", "call see(?w, ?xs)", "6:12"),
    ("", "retract ?xs", "7:11"),
    ("", "modify ?xs (kind: 1)", "7:10"),
])
def test_rule_text_misuse_of_collected_facts_points_at_the_use(s, when, then, where):
    recorder(s)
    text = RULE_TEXT.replace("kind: saw)", "kind: saw)" + when).replace("call see(?w, ?xs)", then)
    with pytest.raises(CollectedFactsError) as ei:
        load_rules(s, text, "tools.rules")
    assert str(ei.value).startswith(f"tools.rules:{where}: rule 'tools': ?xs holds collected")
    assert "tools" not in s.productions


@pytest.mark.parametrize("line, message, column", [
    ("?xs <- collect ?i <- item(owner: ?w)", "bind the collect", 10),
    ("?xs <- collect item(owner: ?o & != ?w)", "constants only", 10),
])
def test_rule_text_errors_point_at_the_collect(s, line, message, column):
    text = RULE_TEXT.replace("?xs <- collect item(owner: ?w, kind: saw)", line)
    with pytest.raises(RuleSyntaxError, match=message) as ei:
        load_rules(s, text, "tools.rules")
    assert f"tools.rules:5:{column}" in str(ei.value)


# ---------------------------------------------------------------- against brute force

OPS = st.lists(st.tuples(st.sampled_from(["item", "ask", "drop", "move"]),
                         st.integers(0, 2), st.integers(0, 2)), max_size=30)


@settings(max_examples=150, deadline=None)
@given(OPS)
def test_collected_facts_match_brute_force(ops):
    """After random asserts, retracts and modifies, every firing gets exactly the
    facts that match its pattern then, oldest time tag first; and there is
    one match per ``ask`` that has any."""
    s = Session()
    s.deftemplate("ask", "who")
    s.deftemplate("item", "owner", "kind")
    fired = []
    s.register_function("see", lambda ctx, w, xs: fired.append((w, xs)))
    s.add(Rule("r").when(P("ask", who=V.w), Collect(P("item", owner=V.w, kind=1)).as_("xs"))
          .then(Call("see", V.w, V.xs)))
    items = []
    for op, a, b in ops:
        if op == "item":
            items.append(s.assert_fact("item", owner=a, kind=b))
        elif op == "ask":
            s.assert_fact("ask", who=a)
        elif op == "drop" and items:
            s.retract(items.pop(a % len(items)))
        elif op == "move" and items:
            i = a % len(items)
            items[i] = s.modify(items[i], owner=b)
    asks = [f.values["who"] for f in s.facts_of("ask")]
    want_matches = sum(1 for w in asks
                       if any(f.values["owner"] == w and f.values["kind"] == 1
                              for f in s.facts_of("item")))
    assert len(s.activations()) == want_matches
    s.run()
    for w, xs in fired:
        want = sorted((f for f in s.facts_of("item")
                       if f.values["owner"] == w and f.values["kind"] == 1),
                      key=lambda f: f.timetag)
        assert list(xs) == want


def test_the_trace_shows_collected_facts_by_id(s):
    s.register_function("noop", lambda ctx, xs: None)
    s.add(Rule("tools").when(P("ask", who=V.w), Collect(P("item", owner=V.w)).as_("xs"))
          .then(Call("noop", V.xs)))
    s.trace_enabled = True
    a = s.assert_fact("item", owner="ada", kind="saw")
    b = s.assert_fact("item", owner="ada", kind="awl")
    ask = s.assert_fact("ask", who="ada")
    s.run()
    (firing,) = s.trace
    assert str(firing) == f"FIRE tools [default] f-{ask.id}  ?w='ada' ?xs=(f-{a.id}, f-{b.id})"


def test_the_order_is_by_time_tag_whatever_filled_the_memory(s):
    # a rollback puts a retracted fact back at the end of its memory, and a modify
    # renewed in place keeps its place: the collected order is the time tags' all the same
    seen = recorder(s)
    s.deftemplate("note", "of", "text")
    s.add(Rule("tools").when(P("ask", who=V.w), Collect(P("item", owner=V.w)).as_("xs"))
          .then(Call("see", V.w, V.xs)))
    a, b, c = (s.assert_fact("item", owner="ada", kind=k) for k in "abc")
    mark = s.checkpoint()
    s.retract(a)
    s.rollback(mark)
    s.assert_fact("ask", who="ada")
    s.run()
    assert seen == [("ada", ["a", "b", "c"])]


@pytest.mark.parametrize("slot_specific", [True, False])
def test_a_modify_gives_one_order_renewed_in_place_or_not(slot_specific):
    s = Session()
    s.deftemplate("ask", "who")
    s.deftemplate("item", "owner", "kind", "note")
    s.slot_specific = slot_specific
    seen = recorder(s)
    s.add(Rule("tools").when(P("ask", who=V.w), Collect(P("item", owner=V.w)).as_("xs"))
          .then(Call("see", V.w, V.xs)))
    a = s.assert_fact("item", owner="ada", kind="a")
    s.assert_fact("item", owner="ada", kind="b")
    s.modify(a, note="x")               # a slot no condition reads
    s.assert_fact("ask", who="ada")
    s.run()
    assert seen == [("ada", ["b", "a"])]


def test_a_collect_may_go_unbound_in_rule_text(s):
    load_rules(s, "rule gate when ask(who: ?w) collect item(owner: ?w) then halt end")
    s.assert_fact("ask", who="ada")
    assert s.activations() == []
    s.assert_fact("item", owner="ada", kind="saw")
    assert len(s.activations()) == 1
    (prod,) = parse_rules(format_production(s.productions["gate"].production)).productions
    assert prod.conditions[1] == Collect(P("item", owner=V.w))


@pytest.mark.parametrize("when, then, where", [
    # a valid use before the bad one
    ("?xs <- collect item(owner: ?w)", "call see(?w, ?xs)\n  retract ?xs", "7:11"),
    # the same name inside a not before the collect, and inside the collect's pattern
    ("not item(kind: ?xs)\n  ?xs <- collect item(owner: ?w)\n  test count(?xs) > 1",
     "call see(?w, ?xs)", "6:14"),
    ("?xs <- collect item(kind: ?xs)\n  test count(?xs) > 1", "call see(?w, ?xs)", "5:14"),
])
def test_misuse_is_found_among_other_uses(s, when, then, where):
    recorder(s)
    text = f'rule "tools"\nwhen\n  ask(who: ?w)\n  {when}\nthen\n  {then}\nend\n'
    with pytest.raises(CollectedFactsError) as ei:
        load_rules(s, text, "t.hr")
    assert str(ei.value).startswith(f"t.hr:{where}: ")
