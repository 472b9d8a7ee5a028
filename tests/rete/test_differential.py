"""Differential test of the Rete engine against a brute-force matcher.

Hypothesis builds random templates (2-3 templates with 2-3 small-int slots),
random productions (positive patterns with constants, shared variables and
expression slots; tests on bound variables; ``not`` of a pattern or of a
conjunction, possibly nesting a negation; ``exists`` of a pattern or of a
conjunction; variables shared into negations) and a random sequence of
operations: assert, retract, modify, add/remove/replace a production while
facts are present, checkpoint/rollback/commit, and (in the firing variant)
runs with and without a limit.

After EVERY step the engine is compared with a matcher written here that
knows nothing about Rete: it enumerates every combination of current facts
and evaluates the conditions directly.

* ``test_conflict_set_matches_brute_force``: nothing fires; the agenda (the
  conflict set) must be exactly the set of complete matches, keyed by
  production name and the (id, timetag) of each fact matched by a positive
  pattern.
* The ``..._joined_last`` variants run the same with every independent
  pattern (one sharing no variable with the rest of its rule) joined after
  the other conditions, as the join-order planner does with control patterns
  (``rete/joinorder.py``): the matches, and the agenda in written order, must
  not change.
* ``test_refraction_matches_brute_force``: rules fire (all, or ``limit``
  at a time). The model keeps the set of pending matches: a match is
  pending from the moment it arises until it fires or stops matching; a
  modify is a retract then an assert, so a match that goes and comes back
  within it is new. The engine's agenda must equal the model after each
  step, and a rollback must restore the agenda in the same firing order.

Both variants also check every production node's token set (fired or not)
against the brute-force matches, and finally remove every production and
check that no node, alpha memory or token reference is left behind.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rete import Exists, Not, Pattern, Rule, Session, Test

VALUES = (0, 1, 2)
TEST_FNS = {"lt": lambda a, b: a < b, "ne": lambda a, b: a != b, "le": lambda a, b: a <= b,
            "eq": lambda a, b: a == b, "gt": lambda a, b: a > b}


# ---------------------------------------------------------------- generation


sys.path.insert(0, str(Path(__file__).parent))     # the tests are no package
from _program_gen import ProgramGen, derandomized, engine_term  # noqa: E402


class Gen(ProgramGen):
    """Draws templates and productions (as a small AST the brute force reads)."""

    def pattern(self, bound: list):
        t = self.draw(st.sampled_from(sorted(self.templates)))
        new_here: list = []
        slots = {}
        for s in self.templates[t]:
            term = self.term(bound, new_here)
            if term is not None:
                slots[s] = term
        return ("pat", t, slots), new_here

    def test(self, bound: list):
        fn = self.draw(st.sampled_from(sorted(TEST_FNS)))
        a = ("v", self.draw(st.sampled_from(bound)))
        if self.draw(st.booleans()):
            b = ("v", self.draw(st.sampled_from(bound)))
        else:
            b = ("c", self.draw(st.sampled_from(VALUES)))
        return ("test", fn, a, b)

    def conjunction(self, bound: list, nest: bool):
        """Two or three conditions for a negated / exists conjunction."""
        inner = list(bound)
        p1, new1 = self.pattern(inner)
        conds = [p1]
        inner += new1
        kind = self.draw(st.sampled_from(["pat", "pat", "test", "not"] if nest else
                                         ["pat", "pat", "test"]))
        if kind == "pat":
            p2, new2 = self.pattern(inner)
            conds.append(p2)
            inner += new2
            if self.draw(st.booleans()) and inner:
                conds.append(self.test(inner))
        elif kind == "test":
            if inner:
                conds.append(self.test(inner))
            else:
                p2, _ = self.pattern(inner)
                conds.append(p2)
        else:
            if self.draw(st.booleans()):
                p2, _ = self.pattern(inner)
                conds.append(("not", [p2]))
            else:
                conds.append(("not", self.conjunction(inner, False)))
        return conds

    def production(self):
        n = self.draw(st.integers(1, 4))
        bound: list = []
        conds = []
        for _ in range(n):
            kinds = ["pat", "pat", "pat", "not1", "notN", "ex1", "exN"]
            if bound:
                kinds.append("test")
            k = self.draw(st.sampled_from(kinds))
            if k == "pat":
                p, new = self.pattern(bound)
                conds.append(p)
                bound += new
            elif k == "test":
                conds.append(self.test(bound))
            elif k == "not1":
                p, _ = self.pattern(bound)
                conds.append(("not", [p]))
            elif k == "ex1":
                p, _ = self.pattern(bound)
                conds.append(("exists", [p]))
            elif k == "notN":
                conds.append(("not", self.conjunction(bound, True)))
            else:
                conds.append(("exists", self.conjunction(bound, True)))
        return conds


def to_engine(conds) -> list:
    out = []
    for c in conds:
        if c[0] == "pat":
            slots = tuple((s, engine_term(t)) for s, t in c[2].items())
            out.append(Pattern(c[1], slots))
        elif c[0] == "test":
            out.append(Test(c[1], engine_term(c[2]), engine_term(c[3])))
        elif c[0] == "not":
            out.append(Not(*to_engine(c[1])))
        else:
            out.append(Exists(*to_engine(c[1])))
    return out


# ---------------------------------------------------------------- brute force


def _unify(pat, values, env):
    e = env
    copied = False
    for slot, term in pat[2].items():
        val = values[slot]
        k = term[0]
        if k == "c":
            if val != term[1]:
                return None
        elif k == "v":
            name = term[1]
            if name in e:
                if e[name] != val:
                    return None
            else:
                if not copied:
                    e = dict(e)
                    copied = True
                e[name] = val
        elif val != env[term[1]] + term[2]:
            return None
    return e


def _value(term, env):
    return term[1] if term[0] == "c" else env[term[1]]


def _sat(conds, i, env, wm):
    """Yield the tuples of facts matched by the positive patterns of conds[i:]."""
    if i == len(conds):
        yield ()
        return
    c = conds[i]
    k = c[0]
    if k == "pat":
        for f in wm.get(c[1], ()):
            e = _unify(c, f[1], env)
            if e is not None:
                for rest in _sat(conds, i + 1, e, wm):
                    yield (f,) + rest
    elif k == "test":
        if TEST_FNS[c[1]](_value(c[2], env), _value(c[3], env)):
            yield from _sat(conds, i + 1, env, wm)
    else:
        found = any(True for _ in _sat(c[1], 0, env, wm))
        if found == (k == "exists"):
            yield from _sat(conds, i + 1, env, wm)


def brute_matches(conds, wm) -> set:
    return {tuple((f[0], f[2]) for f in m) for m in _sat(conds, 0, {}, wm)}


class Model:
    """Working memory as the test sees it: id -> (template, values, timetag)."""

    def __init__(self):
        self.facts: dict[int, tuple] = {}
        self.time = 0

    def wm(self):
        out: dict = {}
        for fid, (t, vals, tag) in sorted(self.facts.items()):
            out.setdefault(t, []).append((fid, vals, tag))
        return out


# ---------------------------------------------------------------- engine views


def key_of(pnode, tok) -> tuple:
    """The match's facts in the rule's written order (the engine may join in another)."""
    return tuple((f.id, f.timetag) for f in pnode.written_facts(tok))


def engine_agenda(s) -> list:
    return [(a.production.name, key_of(a.pnode, a.token)) for a in s.activations()]


def engine_tokens(s) -> dict:
    return {name: {key_of(pn, t) for t in pn.tokens} for name, pn in s.productions.items()}


def check_tokens(s, prods, wm):
    tokens = engine_tokens(s)
    assert set(tokens) == set(prods)
    expected = {}
    for name, conds in prods.items():
        exp = brute_matches(conds, wm)
        got = tokens[name]
        assert len(got) == len(s.productions[name].tokens), f"{name}: duplicate tokens"
        assert got == exp, (f"{name}: engine {sorted(got)} != brute force {sorted(exp)}\n"
                            f"conditions: {conds}")
        expected[name] = exp
    return expected


def check_facts(s, model):
    assert {f.id: (f.template, f.values, f.timetag) for f in s.facts.values()} == model.facts


def check_empty_network(s):
    for name in list(s.productions):
        s.remove_production(name)
    assert s.root.children == []
    assert s.alpha_memories == {}
    assert all(r.is_empty() for r in s.alpha_roots.values())
    assert s.agenda.live == 0 and s.activations() == []
    for f in s.facts.values():
        assert not f.tokens and not f.neg_results
        assert s.fact_amems.get(f.id, []) == []


# ---------------------------------------------------------------- the runs


def draw_templates(data):
    n = data.draw(st.integers(2, 3))
    return {f"t{i}": tuple(f"s{j}" for j in range(data.draw(st.integers(2, 3))))
            for i in range(n)}


class _EveryState:
    """Stands for "every control state is on a cycle": the planner then joins
    every independent pattern with a constant test last (rete.joinorder)."""

    def __contains__(self, state) -> bool:
        return True


def run_scenario(data, steps: int, fire: bool, max_facts: int = 7, pool: int = 4,
                 move_all: bool = False):
    templates = draw_templates(data)
    strategy = data.draw(st.sampled_from(["recency", "mea", "depth", "breadth"]))
    s = Session(strategy=strategy)
    if move_all:
        s._control_cycles = _EveryState
    s.trace_enabled = fire
    for t, slots in templates.items():
        s.deftemplate(t, *slots)
    gen = Gen(data, templates)
    names = [f"r{i}" for i in range(pool)]
    prods: dict[str, list] = {}             # what is in the session
    model = Model()
    live: set = set()                       # fire mode: pending matches
    last: dict = {}                         # matches after the previous sub-step
    marks: list = []                        # (engine mark, model facts, live, agenda order)

    def substep():
        """After each change: check tokens, advance the refraction model."""
        nonlocal live, last
        wm = model.wm()
        now = check_tokens(s, prods, wm)
        if fire:
            cur = {(n, k) for n, ks in now.items() for k in ks}
            before = {(n, k) for n, ks in last.items() for k in ks}
            live = (live & cur) | (cur - before)
        last = now

    def check_agenda():
        ag = engine_agenda(s)
        assert len(ag) == len(set(ag)), "duplicate activations"
        assert s.agenda.live == len(ag)
        if fire:
            assert set(ag) == live
        else:
            exp = {(n, k) for n, ks in last.items() for k in ks}
            assert set(ag) == exp

    # start with a couple of productions so that facts meet a network
    for name in names[:data.draw(st.integers(0, 2))]:
        conds = gen.production()
        s.add(Rule(name).when(*to_engine(conds)))
        prods[name] = conds
    substep()

    for _ in range(steps):
        ops = ["assert", "assert", "assert", "retract", "modify", "modify"]
        if not marks:
            ops += ["add", "remove", "replace"]
        ops += ["checkpoint", "rollback", "commit"]
        if fire:
            ops += ["run", "run"]
        op = data.draw(st.sampled_from(ops))
        if op == "assert" and len(model.facts) < max_facts:
            t = data.draw(st.sampled_from(sorted(templates)))
            vals = {sl: data.draw(st.sampled_from(VALUES)) for sl in templates[t]}
            f = s.assert_fact(t, vals)
            model.time += 1
            assert f.timetag == model.time
            model.facts[f.id] = (t, dict(vals), model.time)
            substep()
        elif op == "retract" and model.facts:
            fid = data.draw(st.sampled_from(sorted(model.facts)))
            s.retract(fid)
            del model.facts[fid]
            substep()
        elif op == "modify" and model.facts:
            fid = data.draw(st.sampled_from(sorted(model.facts)))
            t, vals, _ = model.facts[fid]
            slot = data.draw(st.sampled_from(templates[t]))
            v = data.draw(st.sampled_from(VALUES))
            s.modify(fid, {slot: v})
            # a modify is a retract and an assert: first the fact is gone...
            saved = model.facts.pop(fid)
            wm_mid = model.wm()
            if fire:
                mid = {n: brute_matches(c, wm_mid) for n, c in prods.items()}
                cur = {(n, k) for n, ks in mid.items() for k in ks}
                before = {(n, k) for n, ks in last.items() for k in ks}
                live = (live & cur) | (cur - before)
                last = mid
            model.time += 1
            model.facts[fid] = (saved[0], {**vals, slot: v}, model.time)
            substep()
        elif op == "add" and len(prods) < len(names):
            name = next(n for n in names if n not in prods)
            conds = gen.production()
            s.add(Rule(name).when(*to_engine(conds)))
            prods[name] = conds
            substep()
        elif op == "remove" and prods:
            name = data.draw(st.sampled_from(sorted(prods)))
            s.remove_production(name)
            del prods[name]
            live = {a for a in live if a[0] != name}
            last.pop(name, None)
            substep()
        elif op == "replace" and prods:
            name = data.draw(st.sampled_from(sorted(prods)))
            conds = gen.production()
            s.replace_production(Rule(name).when(*to_engine(conds)))
            prods[name] = conds
            live = {a for a in live if a[0] != name}
            last.pop(name, None)           # a replaced production starts afresh
            substep()
        elif op == "checkpoint":
            m = s.checkpoint()
            assert m == len(marks)
            marks.append((m, dict(model.facts), set(live), engine_agenda(s)))
        elif op == "rollback" and marks:
            i = data.draw(st.integers(0, len(marks) - 1))
            m, facts, live_then, order_then = marks[i]
            s.rollback(m)
            del marks[i:]
            model.facts = dict(facts)
            live = set(live_then)
            last = check_tokens(s, prods, model.wm())
            check_facts(s, model)
            # the agenda is back, in the same firing order
            assert engine_agenda(s) == order_then
        elif op == "commit" and marks:
            i = data.draw(st.integers(0, len(marks) - 1))
            s.commit(marks[i][0])
            del marks[i:]
        elif op == "run":
            before = engine_agenda(s)
            limit = data.draw(st.sampled_from([None, 1, 2, 3]))
            n0 = len(s.trace)
            fired = s.run(limit=limit)
            assert fired == (len(before) if limit is None else min(limit, len(before)))
            # they fired in agenda order, each exactly once
            ids_fired = [(fr.rule, fr.facts) for fr in s.trace[n0:]]
            assert ids_fired == [(n, tuple(i for i, _ in k)) for n, k in before[:fired]]
            for a in before[:fired]:
                live.discard(a)
        check_agenda()
        check_facts(s, model)

    while marks:
        m, facts, live_then, order_then = marks.pop(0)
        s.rollback(m)
        marks.clear()
        model.facts = dict(facts)
        live = set(live_then)
        last = check_tokens(s, prods, model.wm())
        check_agenda()
        assert engine_agenda(s) == order_then
    assert s._journal is None
    check_empty_network(s)


FAST = derandomized(250)
DEEP = derandomized(3000)


@FAST
@given(st.data())
def test_conflict_set_matches_brute_force(data):
    run_scenario(data, steps=25, fire=False)


@FAST
@given(st.data())
def test_refraction_matches_brute_force(data):
    run_scenario(data, steps=25, fire=True)


@FAST
@given(st.data())
def test_conflict_set_with_independent_patterns_joined_last(data):
    """The same, with every independent pattern joined after the rest."""
    run_scenario(data, steps=25, fire=False, move_all=True)


@FAST
@given(st.data())
def test_refraction_with_independent_patterns_joined_last(data):
    run_scenario(data, steps=25, fire=True, move_all=True)


@pytest.mark.slow
@DEEP
@given(st.data())
def test_conflict_set_deep(data):
    run_scenario(data, steps=60, fire=False, max_facts=9, pool=5)


@pytest.mark.slow
@DEEP
@given(st.data())
def test_refraction_deep(data):
    run_scenario(data, steps=60, fire=True, max_facts=9, pool=5)


def test_brute_force_sanity():
    """The reference matcher itself, on a hand-checked case."""
    wm = {"a": [(1, {"x": 1}, 1), (2, {"x": 2}, 2)], "b": [(3, {"x": 2}, 3)]}
    conds = [("pat", "a", {"x": ("v", "q")}), ("not", [("pat", "b", {"x": ("v", "q")})])]
    assert brute_matches(conds, wm) == {((1, 1),)}
    conds = [("pat", "a", {"x": ("v", "q")}), ("exists", [("pat", "b", {"x": ("e", "q", 1)})])]
    assert brute_matches(conds, wm) == {((1, 1),)}
    conds = [("pat", "a", {"x": ("v", "q")}), ("pat", "a", {"x": ("v", "r")}),
             ("test", "lt", ("v", "q"), ("v", "r"))]
    assert brute_matches(conds, wm) == {((1, 1), (2, 2))}
