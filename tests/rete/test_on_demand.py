"""Productions that fire on demand (rete.demand): derived facts worked out when read.

The program: ``x(v)`` facts; ``square`` derives ``sq(v: x*x)`` from the one
``x`` fact (on demand, or as usual in the eager twin); ``use`` reads ``sq``
once a ``want`` fact asks for a value.
"""
from __future__ import annotations

from textwrap import dedent

from hypothesis import given, settings, strategies as st

from rete import Call, P, Rule, Session, V
from rete.language import format_production, load_rules


def program(on_demand: bool = True, reader_stage: str = "b", derive_stage: str = "b",
            reader_salience: int = -20):
    """A session with the program above; returns it and the log of what fired."""
    s = Session(stages=("a", "b", "c"))
    s.deftemplate("x", "v")
    s.deftemplate("sq", "v")
    s.deftemplate("want", "v")
    log: list = []

    def derive(ctx, x):
        log.append(("derive", x.values["v"]))
        for f in ctx.session.facts_of("sq"):
            ctx.session.retract(f)
        ctx.session.assert_fact("sq", v=x.values["v"] ** 2)

    s.register_function("derive", derive)
    s.register_function("use", lambda ctx, v: log.append(("use", v)))
    meta = {"on_demand": "sq"} if on_demand else {}
    s.add(Rule("square", stage=derive_stage, salience=-10, **meta)
          .when(P("x").as_("x")).then(Call("derive", V.x)))
    s.add(Rule("use", stage=reader_stage, salience=reader_salience)
          .when(P("want", v=V.v), P("sq", v=V.v)).then(Call("use", V.v)))
    return s, log


def sq_values(s) -> list:
    return sorted(f.values["v"] for f in s.facts_of("sq"))


def test_not_fired_until_read():
    s, log = program()
    s.assert_fact("x", v=3)
    assert s.run() == 0
    assert log == []
    assert s.by_template.get("sq", {}) == {}        # (read without asking)
    assert sq_values(s) == [9]                     # facts_of asks
    assert log == [("derive", 3)]
    assert sq_values(s) == [9]                     # up to date: no second firing
    assert log == [("derive", 3)]


def test_eager_twin_fires_at_once():
    s, log = program(on_demand=False)
    s.assert_fact("x", v=3)
    assert s.run() == 1
    assert log == [("derive", 3)]


def test_a_reader_with_a_partial_match_demands_it_in_turn():
    # the reader (salience -20) comes after the derivation (-10) in the same
    # stage: once a want fact reaches the sq condition, it fires in its turn
    s, log = program()
    x = s.assert_fact("x", v=3)
    s.run()
    s.assert_fact("want", v=16)
    s.modify(x, v=4)
    assert s.run() == 2
    assert log == [("derive", 4), ("use", 16)]


def test_passed_over_it_fires_first_when_demanded_outside_its_stage():
    s, log = program(reader_stage="c", derive_stage="a")
    x = s.assert_fact("x", v=2)
    s.run(stages=("a",))
    assert log == []                # passed over: no reader had a partial match
    s.assert_fact("want", v=4)
    assert s.run(stages=("c",)) == 2
    assert log == [("derive", 2), ("use", 4)]
    s.modify(x, v=5)
    # not reached in its turn yet: a rule's demand leaves it, as a run that
    # leaves its stage out would
    assert s.run(stages=("c",)) == 0
    s.run(stages=("a",))
    s.run(stages=("c",))
    assert log[2:] == [("derive", 5)]     # no want for 25


def test_a_change_made_and_taken_back_never_fires_it():
    s, log = program()
    x = s.assert_fact("x", v=3)
    assert sq_values(s) == [9]
    for v in range(4, 10):
        m = s.checkpoint()
        s.modify(x, v=v)
        s.run()
        s.rollback(m)
    assert log == [("derive", 3)]
    assert sq_values(s) == [9]
    assert log == [("derive", 3)]         # rolled back to a state already derived


def test_rollback_takes_back_what_was_derived_inside():
    s, log = program()
    x = s.assert_fact("x", v=3)
    s.run()
    m = s.checkpoint()
    s.modify(x, v=4)
    s.run()
    assert sq_values(s) == [16]
    s.rollback(m)
    # the derivation at the mark was still pending: it is again, and gives 9
    assert s.by_template.get("sq", {}) == {}
    assert sq_values(s) == [9]
    assert log == [("derive", 4), ("derive", 3)]


def test_a_paused_journal_still_records_the_derivation():
    # asked while a request runs unjournaled (what a move generation does):
    # the derived facts belong to the position, and a rollback of the change
    # that made them stale takes them back
    s, log = program()
    x = s.assert_fact("x", v=3)
    assert sq_values(s) == [9]
    m = s.checkpoint()
    s.modify(x, v=4)
    s.run()
    with s.unjournaled():
        assert sq_values(s) == [16]
    s.rollback(m)
    assert [f.values["v"] for f in s.by_template["sq"].values()] == [9]
    assert sq_values(s) == [9]
    assert log == [("derive", 3), ("derive", 4)]


def test_a_rule_asking_in_a_paused_request_is_recorded_too():
    # the request (want) asserted, run and retracted unjournaled; its reader
    # demands the derivation outside the focus: rolled back with the change
    s, log = program(reader_stage="c", derive_stage="a")
    x = s.assert_fact("x", v=3)
    assert sq_values(s) == [9]
    m = s.checkpoint()
    s.modify(x, v=4)
    s.run(stages=("a",))
    with s.unjournaled():
        w = s.assert_fact("want", v=16)
        s.run(stages=("c",))
        s.retract(w)
    assert log == [("derive", 3), ("derive", 4), ("use", 16)]
    s.rollback(m)
    assert [f.values["v"] for f in s.by_template["sq"].values()] == [9]


def test_demand_returns_the_firings_and_ignores_other_templates():
    s, log = program()
    s.assert_fact("x", v=7)
    assert s.demand("want") == 0
    assert s.demand("sq") == 1
    assert s.demand("sq") == 0
    assert log == [("derive", 7)]


def test_rule_text_meta_declares_it():
    s = Session()
    load_rules(s, dedent('''
        template x (v)
        template sq (v)
        rule square meta(on_demand: "sq")
        when
            x(v: ?v)
        then
            assert sq(v: ?v)
        end
    '''))
    s.assert_fact("x", v=3)
    assert s.run() == 0
    assert s.by_template.get("sq", {}) == {}
    assert sq_values(s) == [3]
    assert "on_demand" in format_production(s.productions["square"].production)


OPS = st.lists(st.one_of(
    st.tuples(st.just("set"), st.integers(0, 4)),
    st.tuples(st.just("want"), st.integers(0, 16)),
    st.just(("checkpoint",)), st.just(("rollback",)), st.just(("read",)),
    st.just(("pop-want",))), max_size=30)


@settings(max_examples=150, deadline=None)
@given(OPS, st.sampled_from([("b", "b", -20), ("b", "b", 0), ("c", "a", 0), ("a", "c", 0)]))
def test_same_results_as_eager(ops, layout):
    """Random changes, checkpoints, rollbacks and reads: the reader fires the
    same matches in the same order, and every read sees the same derived facts,
    as in the twin whose derivation fires at every run."""
    reader_stage, derive_stage, sal = layout
    runs = []
    for lazy in (False, True):
        s, log = program(lazy, reader_stage, derive_stage, sal)
        x = s.assert_fact("x", v=1)
        s.run()
        seen: list = []
        marks: list = []
        wants: list = []
        for op in ops:
            if op[0] == "set":
                s.modify(x, v=op[1])
                s.run()
            elif op[0] == "want":
                wants.append(s.assert_fact("want", v=op[1]))
                s.run()
            elif op[0] == "pop-want":
                live = [w for w in wants if w.alive]
                if live:
                    s.retract(live[-1])
                    s.run()
            elif op[0] == "checkpoint":
                marks.append(s.checkpoint())
            elif op[0] == "rollback" and marks:
                s.rollback(marks.pop())
            elif op[0] == "read":
                seen.append(sq_values(s))
        seen.append(sq_values(s))
        runs.append((seen, [e for e in log if e[0] == "use"]))
    assert runs[0] == runs[1]
