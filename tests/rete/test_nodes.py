"""One test group per node kind: alpha tests and memories, joins with hashed
memories on both sides, negative, NCC, exists and production nodes."""
from __future__ import annotations

import pytest

from rete import Assert, Exists, Not, P, Rule, Session, Test, V
from rete.negation import NCCNode, NCCPartner, NegativeNode
from rete.network import BetaMemory, JoinNode, ProductionNode


def names(s):
    return sorted((a.production.name, tuple(f.id for f in a.facts)) for a in s.activations())


def nodes(s, cls):
    return [n for n in s._all_nodes() if type(n) is cls]


@pytest.fixture
def s():
    s = Session()
    s.deftemplate("a", "x", "y")
    s.deftemplate("b", "x", "y")
    s.deftemplate("c", "x")
    return s


# ---------------------------------------------------------------- alpha


def test_constant_tests_filter_facts(s):
    s.add(Rule("r").when(P("a", x=1, y="k")))
    f1 = s.assert_fact("a", x=1, y="k")
    s.assert_fact("a", x=1, y="j")
    s.assert_fact("a", x=2, y="k")
    assert names(s) == [("r", (f1.id,))]


def test_alpha_tests_and_memories_are_shared(s):
    s.add(Rule("r1").when(P("a", x=1, y=V.v)), Rule("r2").when(P("a", y=V.w, x=1)),
          Rule("r3").when(P("a", x=1, y=2)))
    # r1 and r2 test the same constants: one memory; r3 hangs below the same x == 1 test
    assert len(s.alpha_memories) == 2
    root = s.alpha_roots["a"]
    assert list(root.children) == ["x"] and list(root.children["x"]) == [1]
    f = s.assert_fact("a", x=1, y=2)
    assert len(s.fact_amems[f.id]) == 2
    assert names(s) == [("r1", (f.id,)), ("r2", (f.id,)), ("r3", (f.id,))]


def test_slot_predicate_is_an_alpha_test(s):
    s.add(Rule("big").when(P("a", x=V.x).where("x", "gt", 5)))
    s.assert_fact("a", x=3)
    f = s.assert_fact("a", x=9)
    assert names(s) == [("big", (f.id,))]
    (am,) = s.alpha_memories.values()
    assert list(am.items) == [f.id]


def test_same_variable_twice_in_a_pattern(s):
    s.add(Rule("same").when(P("a", x=V.v, y=V.v)))
    s.assert_fact("a", x=1, y=2)
    f = s.assert_fact("a", x=3, y=3)
    assert names(s) == [("same", (f.id,))]


def test_unhashable_slot_values_match_and_join(s):
    s.add(Rule("j").when(P("a", x=V.v), P("b", x=V.v)))
    fa = s.assert_fact("a", x=[1, 2])
    fb = s.assert_fact("b", x=[1, 2])
    s.assert_fact("b", x=(1, 2))           # a tuple never equals a list
    assert names(s) == [("j", (fa.id, fb.id))]
    s.retract(fb)
    assert names(s) == []


# ---------------------------------------------------------------- joins


def test_alpha_code_is_written_again_when_the_network_changes(s):
    # the generated insert and remove name the memories, indexes and joins of
    # the network they were written from: code kept across an edit would miss
    # the new memory, file no fact in the new index, or keep a dropped memory
    s.add(Rule("one").when(P("a", x=1)))
    f1 = s.assert_fact("a", x=1, y=0)
    root = s.alpha_roots["a"]
    assert root.insert_fn is not None and "def insert(f, hits):" in root.source
    s.add(Rule("two").when(P("a", x=2, y=V.y), P("b", y=V.y)))
    assert root.insert_fn is None and root.source is None
    f2 = s.assert_fact("a", x=2, y=5)
    assert "vals.get('x', MISSING)" in root.source and len(s.fact_amems[f2.id]) == 1
    g = s.assert_fact("b", x=0, y=5)
    assert names(s) == [("one", (f1.id,)), ("two", (f2.id, g.id))]
    s.remove_production("two")
    assert root.insert_fn is None
    assert [len(m.items) for m in s.alpha_memories.values()] == [1]
    s.retract(f2)
    s.modify(f1, y=3)
    assert names(s) == [("one", (f1.id,))]
    (am,) = s.alpha_memories.values()
    assert list(am.items) == [f1.id]


def test_alpha_code_is_one_text_per_rule_set():
    def session():
        s = Session()
        s.deftemplate("a", "x", "y")
        s.add(Rule("r").when(P("a", x=1, y=V.y), P("a", x=2, y=V.y)))
        s.assert_fact("a", x=1, y=0)
        return s
    s1, s2 = session(), session()
    r1, r2 = s1.alpha_roots["a"], s2.alpha_roots["a"]
    assert r1.source is r2.source and r1.insert_fn is not r2.insert_fn


def test_join_uses_hashed_memories_on_both_sides(s):
    s.add(Rule("j").when(P("a", x=V.v), P("b", x=V.v)))
    (join,) = [n for n in nodes(s, JoinNode) if n.amem.template == "b"]
    assert join.spec.slots == ("x",)
    assert join.pidx is not None                                # left (token) index
    assert ("x",) in join.amem.indexes                          # right (fact) index
    a = [s.assert_fact("a", x=i) for i in range(5)]
    b = [s.assert_fact("b", x=i) for i in range(3, 8)]
    assert names(s) == [("j", (a[3].id, b[0].id)), ("j", (a[4].id, b[1].id))]
    # buckets hold exactly the tokens/facts with that key
    assert set(join.pidx) == set(range(5))
    assert {k: len(v) for k, v in join.amem.indexes[("x",)][1].items()} == \
        {k: 1 for k in range(3, 8)}
    s.retract(a[3])
    assert 3 not in join.pidx
    assert names(s) == [("j", (a[4].id, b[1].id))]


def test_join_on_two_variables_and_a_test(s):
    s.add(Rule("j").when(P("a", x=V.p, y=V.q), P("b", x=V.p, y=V.r), Test("lt", V.q, V.r)))
    fa = s.assert_fact("a", x=1, y=5)
    s.assert_fact("b", x=1, y=4)
    fb = s.assert_fact("b", x=1, y=6)
    s.assert_fact("b", x=2, y=9)
    assert names(s) == [("j", (fa.id, fb.id))]


def test_cross_product_join_without_shared_variables(s):
    s.add(Rule("x").when(P("a", x=V.p), P("c", x=V.q)))
    for i in range(3):
        s.assert_fact("a", x=i)
    for i in range(2):
        s.assert_fact("c", x=i)
    assert len(s.activations()) == 6


def test_common_prefix_is_shared(s):
    s.add(Rule("r1").when(P("a", x=V.v), P("b", x=V.v)),
          Rule("r2").when(P("a", x=V.v), P("b", x=V.v), P("c", x=V.v)))
    assert len(nodes(s, JoinNode)) == 3                 # a, b shared; c for r2
    assert len(nodes(s, ProductionNode)) == 2
    s.assert_fact("a", x=1)
    s.assert_fact("b", x=1)
    s.assert_fact("c", x=1)
    assert [n for n, _ in names(s)] == ["r1", "r2"]


def test_modify_rematches(s):
    s.add(Rule("j").when(P("a", x=V.v), P("b", x=V.v)))
    fa = s.assert_fact("a", x=1)
    fb = s.assert_fact("b", x=2)
    assert names(s) == []
    s.modify(fb, x=1)
    assert names(s) == [("j", (fa.id, fb.id))]
    s.modify(fa, y="changed")
    assert names(s) == [("j", (fa.id, fb.id))]
    s.modify(fa, x=7)
    assert names(s) == []


# ---------------------------------------------------------------- negative


def test_negative_node_blocks_and_unblocks(s):
    s.add(Rule("lonely").when(P("a", x=V.v), Not(P("b", x=V.v))))
    (neg,) = nodes(s, NegativeNode)
    fa = s.assert_fact("a", x=1)
    assert names(s) == [("lonely", (fa.id,))]
    fb = s.assert_fact("b", x=1)
    assert names(s) == []
    (tok,) = neg.tokens
    assert tok.passing is False and list(tok.results) == [fb]
    fb2 = s.assert_fact("b", x=1)
    s.retract(fb)
    assert names(s) == []                # still blocked by fb2
    s.retract(fb2)
    assert names(s) == [("lonely", (fa.id,))]
    s.assert_fact("b", x=2)              # another key: no effect
    assert names(s) == [("lonely", (fa.id,))]


def test_negation_first_in_a_rule(s):
    s.add(Rule("none").when(Not(P("c", x=1))))
    assert [n for n, _ in names(s)] == ["none"]
    f = s.assert_fact("c", x=1)
    assert names(s) == []
    s.retract(f)
    assert [n for n, _ in names(s)] == ["none"]


# ---------------------------------------------------------------- NCC and exists


def test_ncc_negated_conjunction(s):
    s.add(Rule("no-pair").when(P("c", x=V.v), Not(P("a", x=V.v, y=V.w), P("b", x=V.w))))
    assert len(nodes(s, NCCNode)) == 1 and len(nodes(s, NCCPartner)) == 1
    fc = s.assert_fact("c", x=1)
    assert names(s) == [("no-pair", (fc.id,))]
    fa = s.assert_fact("a", x=1, y=5)
    assert names(s) == [("no-pair", (fc.id,))]          # half a conjunction
    fb = s.assert_fact("b", x=5)
    assert names(s) == []
    s.modify(fb, x=6)
    assert names(s) == [("no-pair", (fc.id,))]
    s.modify(fa, y=6)
    assert names(s) == []
    s.retract(fa)
    assert names(s) == [("no-pair", (fc.id,))]


def test_exists_fires_once_however_many_witnesses(s):
    s.add(Rule("some").when(P("c", x=V.v), Exists(P("a", x=V.v))))
    fc = s.assert_fact("c", x=1)
    assert names(s) == []
    w = [s.assert_fact("a", x=1) for _ in range(3)]
    assert names(s) == [("some", (fc.id,))]
    assert s.run() == 1
    s.retract(w[0])
    s.retract(w[1])
    assert names(s) == []                 # refraction: still the same match
    s.retract(w[2])
    s.assert_fact("a", x=1)
    assert names(s) == [("some", (fc.id,))]


def test_exists_over_a_conjunction(s):
    s.add(Rule("chain").when(P("c", x=V.v), Exists(P("a", x=V.v, y=V.w), P("b", x=V.w))))
    fc = s.assert_fact("c", x=1)
    s.assert_fact("a", x=1, y=2)
    assert names(s) == []
    fb = s.assert_fact("b", x=2)
    assert names(s) == [("chain", (fc.id,))]
    s.retract(fb)
    assert names(s) == []


# ---------------------------------------------------------------- production nodes


def test_production_node_tokens_are_activations(s):
    s.deftemplate("out", "x")
    s.add(Rule("copy").when(P("a", x=V.v)).then(Assert("out", x=V.v)))
    (pn,) = nodes(s, ProductionNode)
    fs = [s.assert_fact("a", x=i) for i in range(3)]
    assert len(pn.tokens) == 3 and all(t.activation is not None for t in pn.tokens)
    assert s.run() == 3
    assert sorted(f["x"] for f in s.facts_of("out")) == [0, 1, 2]
    assert len(pn.tokens) == 3 and all(t.activation is None for t in pn.tokens)
    s.retract(fs[0])
    assert len(pn.tokens) == 2


def test_beta_memory_sizes_follow_matches(s):
    s.add(Rule("j").when(P("a", x=V.v), P("b", x=V.v), P("c", x=V.v)))
    mems = nodes(s, BetaMemory)
    for i in range(4):
        s.assert_fact("a", x=i)
        s.assert_fact("b", x=i % 2)
    s.assert_fact("b", x=3)
    sizes = sorted(len(m.tokens) for m in mems)
    # 4 a tokens; pairs: a0 and a1 with two b each, a3 with one
    assert sizes == [4, 5]
