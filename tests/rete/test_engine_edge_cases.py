"""Edge cases of matching, the agenda and truth maintenance, each found by a
differential run against a brute-force model of the engine (every match
recomputed from scratch after every step), minimised to a few steps."""
from __future__ import annotations

import pytest

from rete import AssertLogical, Exists, ModifyFact, Not, P, Rule, Session, V


def test_a_fact_in_both_halves_of_a_negated_conjunction_does_not_break_its_match():
    # not (t and not t(x: 0)): t(x: 0) matches t but blocks itself, so the
    # conjunction never holds. It reaches the two alpha memories one at a time:
    # the match must not be broken and rebuilt meanwhile (it lost its logical
    # support and fired again)
    s = Session()
    s.deftemplate("t", "x")
    s.deftemplate("flag")
    s.add(Rule("r").when(Not(P("t"), Not(P("t", x=0)))).then(AssertLogical("flag")))
    assert s.run() == 1
    zero = s.assert_fact("t", x=0)
    assert len(s.facts_of("flag")) == 1 and s.activations() == []
    s.assert_fact("t", x=1)                 # blocked by t(x: 0) too
    assert len(s.facts_of("flag")) == 1 and s.activations() == []
    s.retract(zero)                         # now t(x: 1) makes the conjunction hold
    assert s.facts_of("flag") == []


@pytest.mark.parametrize("strategy", ["recency", "mea"])
def test_lex_puts_the_longer_timetag_list_first_when_one_starts_the_other(strategy):
    # 'two' matches tags [2, 1], 'one' [2]: OPS5 LEX (and CLIPS) prefer the longer
    s = Session(strategy=strategy)
    s.deftemplate("a", "x")
    s.deftemplate("b", "x")
    s.add(Rule("one").when(P("a", x=V.x)))
    s.add(Rule("two").when(P("a", x=V.x), P("b", x=V.y)))
    s.assert_fact("b", x=1)
    s.assert_fact("a", x=1)
    assert [a.production.name for a in s.activations()] == ["two", "one"]


@pytest.mark.parametrize("slot_specific", [True, False])
def test_a_logical_assert_after_modifying_the_matched_fact_has_no_support(slot_specific):
    # the modify retracts and asserts the fact, which deletes the firing's own
    # match: a logical assert after it has nothing to rest on. A modify of
    # slots no condition reads renews the match in place instead, with the
    # same outcome
    s = Session()
    s.slot_specific = slot_specific
    s.deftemplate("a", "x", "y")
    s.deftemplate("b", "x")
    s.add(Rule("r").when(P("a", x=V.x).as_("f")).then(ModifyFact("f", y=1),
                                                         AssertLogical("b", x=V.x)))
    s.assert_fact("a", x=1, y=0)
    s.run(limit=1)
    assert s.facts_of("b") == []


def test_a_logical_assert_finds_a_twin_a_modify_made_and_then_lost():
    s = Session()
    s.deftemplate("src", "v")
    s.deftemplate("u", "v")
    s.add(Rule("derive").when(P("src", v=V.v)).then(AssertLogical("u", v=V.v)))
    s.assert_fact("src", v=1)
    s.assert_fact("src", v=2)
    s.run()
    u2 = next(f for f in s.facts_of("u") if f.values["v"] == 2)
    s.modify(u2, v=1)                        # two logical u(1) facts
    s.retract(u2)
    s.assert_fact("src", v=1)
    s.run()                                  # u(1) again: a second support, not a new fact
    (u1,) = s.facts_of("u")
    assert len(u1.support) == 2


def test_a_nested_rollback_restores_logical_support_exactly():
    s = Session()
    s.deftemplate("a", "x")
    s.deftemplate("u")
    s.add(Rule("r").when(P("a", x=V.x)).then(AssertLogical("u")))
    a1 = s.assert_fact("a", x=1)
    a2 = s.assert_fact("a", x=2)
    s.run(limit=1)                           # on a2: u, supported by a2's match
    (u,) = s.facts_of("u")
    m0 = s.checkpoint()
    s.run(limit=1)                           # on a1: a second support
    m1 = s.checkpoint()
    s.retract(a1)
    s.rollback(m1)
    s.rollback(m0)                           # the match on a1 is pending again
    assert [tuple(f.id for f in t.facts) for t in u.support] == [(a2.id,)]
    assert [a.facts for a in s.activations()] == [(a1,)]
    s.retract(a2)
    assert s.facts_of("u") == []


@pytest.mark.parametrize("slot_specific", [True, False])
def test_a_run_inside_an_action_keeps_the_outer_firings_renewed_match(slot_specific):
    # the inner firing must not clear what the outer one knows of its own match
    from rete import Call
    s = Session(stages=["main", "inner"])
    s.slot_specific = slot_specific
    s.deftemplate("a", "x", "y")
    s.deftemplate("out", "x")
    s.deftemplate("n", "x")

    def inner(ctx):
        ctx.session.assert_fact("n", x=1)
        ctx.session.run(stages=["inner"])
    s.functions["inner"] = inner
    s.add(Rule("r", stage="main").when(P("a", x=V.x).as_("f"))
          .then(ModifyFact("f", y=5), Call("inner"), AssertLogical("out", x=V.x)))
    s.add(Rule("i", stage="inner").when(P("n")))
    s.assert_fact("a", x=1, y=0)
    s.run(limit=1, stages=["main"])
    assert s.facts_of("out") == []


@pytest.mark.parametrize("edit", ["remove", "replace"])
def test_rolling_back_past_a_production_edit_leaves_no_unsupported_logical_fact(edit):
    # checkpoints do not record production edits: the fact the removed (or
    # replaced) production supported comes back with the undo, finds no match
    # to support it, and truth maintenance takes it away again
    s = Session()
    s.deftemplate("a", "x")
    s.deftemplate("b", "x")
    s.add(Rule("r").when(P("a", x=V.x)).then(AssertLogical("b", x=V.x)))
    s.assert_fact("a", x=1)
    s.run()
    assert [f["x"] for f in s.facts_of("b")] == [1]
    outer = s.checkpoint()
    m = s.checkpoint()
    if edit == "remove":
        s.remove_production("r")
    else:
        s.replace_production(Rule("r").when(P("a", x=V.x)).then(AssertLogical("b", x=V.x)))
    s.assert_fact("a", x=2)
    s.rollback(m)
    assert s.facts_of("b") == []
    assert [f["x"] for f in s.facts_of("a")] == [1]
    if edit == "replace":           # the new production's match supports it once fired
        s.run()
        (b,) = s.facts_of("b")
        assert b.support
        s.retract(s.facts_of("a")[0])
        assert s.facts_of("b") == []
    s.rollback(outer)               # the outer mark saw the fact's retraction too
    assert all(f.support for f in s.facts_of("b"))


def test_an_exists_over_a_conjunction_with_a_not_keeps_a_match_that_never_went_away():
    # found by the model test: retracting f1 takes away the result through f1
    # and, inside the conjunction, unblocks the one through f4; the exists holds
    # throughout, so the fired match is not pending again
    s = Session()
    s.deftemplate("t", "a", "b", "c")
    s.add(Rule("r").when(Exists(P("t", c=V.v), Not(P("t", a=V.v, b=1)))))
    f1 = s.assert_fact("t", a=1, b=1, c=0)
    s.assert_fact("t", a=0, b=0, c=1)
    assert s.run() == 1
    s.retract(f1)
    assert s.activations() == []
    s.retract(s.facts_of("t")[0])           # now it goes: nothing left to exist
    s.assert_fact("t", a=5, b=0, c=2)
    assert len(s.activations()) == 1


def test_a_run_that_would_fire_past_max_firings_is_rolled_back_whole():
    from rete import Assert, Expr, RunawayError
    s = Session()
    s.deftemplate("n", "x")
    s.add(Rule("again").when(P("n", x=V.x).as_("f")).then(ModifyFact("f", x=Expr("add", V.x, 1))))
    s.add(Rule("other").when(P("n", x=0)).then(Assert("n", x=100)))
    s.assert_fact("n", x=0)
    before = [(a.production.name, a.seq) for a in s.activations()]
    for cap in (0, 1, 50):
        with pytest.raises(RunawayError) as ei:
            s.run(max_firings=cap)
        assert ei.value.firings == cap and ei.value.rule in ("again", "other")
        assert [f["x"] for f in s.facts_of("n")] == [0]
        assert [(a.production.name, a.seq) for a in s.activations()] == before
    assert s.run(limit=3) == 3              # limit, by contrast, keeps what it did


def test_a_production_added_later_does_not_join_on_an_index_a_removed_one_left_stale():
    # found by the model test: the removed rule's index on t.a stayed on the
    # shared alpha memory; with no rule reading t.a a modify of it is renewed
    # in place, which does not touch indexes; the new rule joined on old values
    s = Session()
    s.slot_specific = True
    s.deftemplate("t", "a", "b")
    s.deftemplate("q", "v")
    s.add(Rule("keep").when(P("t")))
    s.add(Rule("old").when(P("q", v=V.x), P("t", a=V.x)))
    f = s.assert_fact("t", a=1, b=0)
    s.assert_fact("q", v=1)
    s.remove_production("old")
    s.modify(f, a=2)
    s.add(Rule("new").when(P("q", v=V.x), P("t", a=V.x)))
    assert [a.production.name for a in s.activations()] == ["keep"]
    s.modify(f, a=1)
    assert sorted(a.production.name for a in s.activations()) == ["keep", "new"]


def test_a_production_that_failed_to_compile_leaves_no_stale_index():
    # its join made an index on t.a, then its left key raised on the tokens
    # present; the index stayed, nothing read t.a, a modify renewed in place
    from rete import Expr, MatchError

    def boom(x):
        if x == 1:
            raise ValueError("boom")
        return x
    s = Session()
    s.slot_specific = True
    s.register_function("boom", boom)
    s.deftemplate("t", "a", "b")
    s.deftemplate("q", "v")
    s.add(Rule("keep").when(P("t")))
    s.add(Rule("qs").when(P("q", v=V.x), P("t")))
    f = s.assert_fact("t", a=1, b=0)
    s.assert_fact("q", v=1)
    with pytest.raises(MatchError):
        s.add(Rule("bad").when(P("q", v=V.x), P("t", a=Expr("boom", V.x))))
    s.modify(f, a=2)
    s.add(Rule("new").when(P("q", v=V.x), P("t", a=V.x)))
    assert sorted(a.production.name for a in s.activations()) == ["keep", "qs"]


def test_a_fact_that_holds_itself_prints_and_its_action_error_is_typed():
    # rule text may write a fact into its own slot (modify ?p (v: ?p)); its repr,
    # and an ActionError whose cause names it, used to raise RecursionError
    from rete import ActionError
    from rete.language import load_rules
    s = Session()
    s.register_function("boom", lambda ctx, f: (_ for _ in ()).throw(KeyError(f)))
    load_rules(s, """template box (v)
rule "loop" when ?b <- box(v: 0) then modify ?b (v: ?b) end
rule "boom" when ?b <- box(v: ?v & != 0) then call boom(?b) end
""", "self.hr")
    f = s.assert_fact("box", v=0)
    with pytest.raises(ActionError, match=r"self.hr:3:\d+: rule 'boom' failed in its action: "
                                          r"KeyError\(<f-\d+ box v=<\.\.\.>>\)"):
        s.run()
    assert f["v"] == 0
    s.modify(f, v=f)
    assert repr(f) == f"<f-{f.id} box v=<...>>"
