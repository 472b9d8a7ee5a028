"""Waltz on durable_rules: the classic rules as a durable ruleset.

Facts are dicts tagged by ``t``; a modify is a retract plus an assert of the
changed fact under a new ``id`` (durable's fact identity). Salience maps to
durable's ``pri`` (lower fires first): ``pri = 10 - salience``. durable
refuses a fact that no rule's tests accept, and nothing in the classic rules
accepts the final ``(stage (value done))``: a rule that accepts it but can
never complete (its second condition matches no fact) is added for that.

Known limit: with durable_rules 2.0.28 this program does not run. Asserting
the first edge fact fails with error 303 (``ERR_MAX_STACK_SIZE``): durable
walks its alpha network for a fact with a fixed-size stack, and the edge
patterns of the 31 Waltz rules open more alternatives than it holds. The
harness reports the error instead of a time.
"""
from __future__ import annotations

import itertools

from .geometry import classify

_RUN = itertools.count()

# label_arrow-1A .. 5B: (name, salience, known edge end, its labels,
#  f4 end, f4 must be nil, f5 end, f5 must be nil, new f4 label, new f5 label or None
#  for "the known edge's label")
_BM = ("B", "-")
ARROWS = (
    ("1A", 5, "p1", _BM, "p2", True, "p3", False, "+", None),
    ("1B", 0, "p1", _BM, "p2", False, "p3", True, "+", None),
    ("2A", 5, "p3", _BM, "p2", True, "p1", False, "+", None),
    ("2B", 0, "p3", _BM, "p2", False, "p1", True, "+", None),
    ("3A", 5, "p1", ("+",), "p2", True, "p3", False, "-", "+"),
    ("3B", 0, "p1", ("+",), "p2", False, "p3", True, "-", "+"),
    ("4A", 5, "p3", ("+",), "p2", True, "p1", False, "-", "+"),
    ("4B", 0, "p3", ("+",), "p2", False, "p1", True, "-", "+"),
    ("5A", 5, "p2", ("-",), "p1", False, "p3", True, "+", "+"),
    ("5B", 0, "p2", ("-",), "p1", True, "p3", False, "+", "+"),
)


def _define(name: str, state: dict):
    from durable.lang import c, m, none, pri, ruleset, when_all

    def new(c_, fact):
        state["n"] += 1
        fact["id"] = state["n"]
        c_.assert_fact(fact)

    def plain(fact):
        return {k: v for k, v in fact._d.items() if k != "sid" and not k.startswith("$")}

    def modify(c_, fact, **changes):
        f = plain(fact)
        c_.retract_fact(f)
        f.update(changes)
        del f["id"]
        new(c_, f)

    def guarded(fn):
        def action(c_):
            try:
                state["fired"] += 1
                fn(c_)
            except BaseException as e:  # noqa: BLE001  (durable swallows it)
                state["errors"].append(f"{fn.__name__}: {type(e).__name__}: {e}")
                raise
        action.__name__ = fn.__name__
        return action

    def sal(s):
        return pri(10 - s)

    def stage(value):
        return (m.t == "stage") & (m.value == value)

    def edge_at(base):
        return (m.t == "edge") & (m.p1 == base)

    with ruleset(name):
        @when_all(sal(0), c.s << stage("duplicate"), c.f2 << (m.t == "line"))
        @guarded
        def reverse_edges(c):
            p1, p2 = c.f2.p1, c.f2.p2
            new(c, {"t": "edge", "p1": p1, "p2": p2, "joined": "false", "label": "nil",
                    "plotted": "nil"})
            new(c, {"t": "edge", "p1": p2, "p2": p1, "joined": "false", "label": "nil",
                    "plotted": "nil"})
            c.retract_fact(plain(c.f2))

        @when_all(sal(-10), c.f1 << stage("duplicate"), none(m.t == "line"))
        @guarded
        def done_reversing(c):
            modify(c, c.f1, value="detect_junctions")

        @when_all(sal(10), c.s << stage("detect_junctions"),
                  c.f2 << (m.t == "edge") & (m.joined == "false"),
                  c.f3 << edge_at(c.f2.p1) & (m.joined == "false") & (m.p2 != c.f2.p2),
                  c.f4 << edge_at(c.f2.p1) & (m.joined == "false") & (m.p2 != c.f2.p2)
                  & (m.p2 != c.f3.p2))
        @guarded
        def make_3_junction(c):
            bp = c.f2.p1
            jtype, b1, shaft, b2 = classify(bp, c.f2.p2, c.f3.p2, c.f4.p2)
            new(c, {"t": "junction", "p1": b1, "p2": shaft, "p3": b2, "base_point": bp,
                    "jtype": jtype})
            modify(c, c.f2, joined="true")
            modify(c, c.f3, joined="true")
            modify(c, c.f4, joined="true")

        @when_all(sal(0), c.s << stage("detect_junctions"),
                  c.f2 << (m.t == "edge") & (m.joined == "false"),
                  c.f3 << edge_at(c.f2.p1) & (m.joined == "false") & (m.p2 != c.f2.p2),
                  none(edge_at(c.f2.p1) & (m.p2 != c.f2.p2) & (m.p2 != c.f3.p2)))
        @guarded
        def make_L(c):
            new(c, {"t": "junction", "p1": c.f2.p2, "p2": c.f3.p2, "p3": "nil",
                    "base_point": c.f2.p1, "jtype": "L"})
            modify(c, c.f2, joined="true")
            modify(c, c.f3, joined="true")

        @when_all(sal(-10), c.f1 << stage("detect_junctions"),
                  none((m.t == "edge") & (m.joined == "false")))
        @guarded
        def done_detecting(c):
            modify(c, c.f1, value="find_initial_boundary")

        for which, stg, nxt, greater in (("initial", "find_initial_boundary",
                                          "find_second_boundary", True),
                                         ("second", "find_second_boundary", "labeling", False)):
            beyond = (m.base_point > c.j.base_point) if greater else \
                (m.base_point < c.j.base_point)

            def boundary_L(c, nxt=nxt):
                modify(c, c.f3, label="B")
                modify(c, c.f4, label="B")
                modify(c, c.f1, value=nxt)
            boundary_L.__name__ = f"{which}_boundary_junction_L"
            when_all(sal(0), c.f1 << stage(stg),
                     c.j << (m.t == "junction") & (m.jtype == "L"),
                     c.f3 << edge_at(c.j.base_point) & (m.p2 == c.j.p1),
                     c.f4 << edge_at(c.j.base_point) & (m.p2 == c.j.p2),
                     none((m.t == "junction") & beyond))(guarded(boundary_L))

            def boundary_arrow(c, nxt=nxt):
                modify(c, c.f3, label="B")
                modify(c, c.f4, label="+")
                modify(c, c.f5, label="B")
                modify(c, c.f1, value=nxt)
            boundary_arrow.__name__ = f"{which}_boundary_junction_arrow"
            when_all(sal(0), c.f1 << stage(stg),
                     c.j << (m.t == "junction") & (m.jtype == "arrow"),
                     c.f3 << edge_at(c.j.base_point) & (m.p2 == c.j.p1),
                     c.f4 << edge_at(c.j.base_point) & (m.p2 == c.j.p2),
                     c.f5 << edge_at(c.j.base_point) & (m.p2 == c.j.p3),
                     none((m.t == "junction") & beyond))(guarded(boundary_arrow))

        @when_all(sal(0), c.s << stage("labeling"),
                  c.f2 << (m.t == "edge") & ((m.label == "+") | (m.label == "-")
                                             | (m.label == "B")),
                  c.f3 << edge_at(c.f2.p2) & (m.p2 == c.f2.p1) & (m.label == "nil"))
        @guarded
        def match_edge(c):
            label = c.f2.label
            modify(c, c.f2, plotted="t")
            modify(c, c.f3, label=label, plotted="t")

        @when_all(sal(0), c.s << stage("labeling"),
                  c.j << (m.t == "junction") & (m.jtype == "L"),
                  c.e << edge_at(c.j.base_point) & ((m.label == "+") | (m.label == "-")),
                  c.f4 << edge_at(c.j.base_point) & (m.p2 != c.e.p2) & (m.label == "nil"))
        @guarded
        def label_L(c):
            modify(c, c.f4, label="B")

        @when_all(sal(5), c.s << stage("labeling"),
                  c.j << (m.t == "junction") & (m.jtype == "tee"),
                  c.f3 << edge_at(c.j.base_point) & (m.p2 == c.j.p1) & (m.label == "nil"),
                  c.f4 << edge_at(c.j.base_point) & (m.p2 == c.j.p3))
        @guarded
        def label_tee_A(c):
            modify(c, c.f3, label="B")
            modify(c, c.f4, label="B")

        @when_all(sal(0), c.s << stage("labeling"),
                  c.j << (m.t == "junction") & (m.jtype == "tee"),
                  c.f3 << edge_at(c.j.base_point) & (m.p2 == c.j.p1),
                  c.f4 << edge_at(c.j.base_point) & (m.p2 == c.j.p3) & (m.label == "nil"))
        @guarded
        def label_tee_B(c):
            modify(c, c.f3, label="B")
            modify(c, c.f4, label="B")

        @when_all(sal(0), c.s << stage("labeling"),
                  c.j << (m.t == "junction") & (m.jtype == "fork"),
                  c.e1 << edge_at(c.j.base_point) & (m.label == "+"),
                  c.f4 << edge_at(c.j.base_point) & (m.p2 != c.e1.p2) & (m.label == "nil"),
                  c.f5 << edge_at(c.j.base_point) & (m.p2 != c.f4.p2) & (m.p2 != c.e1.p2))
        @guarded
        def label_fork_1(c):
            modify(c, c.f4, label="+")
            modify(c, c.f5, label="+")

        for fname, l1, l2, newl in (("label_fork_2", "B", "-", "B"),
                                    ("label_fork_3", "B", "B", "-"),
                                    ("label_fork_4", "-", "-", "-")):
            def fork(c, newl=newl):
                modify(c, c.f5, label=newl)
            fork.__name__ = fname
            when_all(sal(0), c.s << stage("labeling"),
                     c.j << (m.t == "junction") & (m.jtype == "fork"),
                     c.e1 << edge_at(c.j.base_point) & (m.label == l1),
                     c.e2 << edge_at(c.j.base_point) & (m.p2 != c.e1.p2) & (m.label == l2),
                     c.f5 << edge_at(c.j.base_point) & (m.p2 != c.e2.p2) & (m.p2 != c.e1.p2)
                     & (m.label == "nil"))(guarded(fork))

        for aname, s, known, labels, e4, n4, e5, n5, l4, l5 in ARROWS:
            lab = (m.label == labels[0])
            for extra in labels[1:]:
                lab = lab | (m.label == extra)
            ke = edge_at(c.j.base_point) & (m.p2 == getattr(c.j, known)) & lab
            f4 = edge_at(c.j.base_point) & (m.p2 == getattr(c.j, e4))
            f5 = edge_at(c.j.base_point) & (m.p2 == getattr(c.j, e5))
            if n4:
                f4 = f4 & (m.label == "nil")
            if n5:
                f5 = f5 & (m.label == "nil")

            def arrow(c, l4=l4, l5=l5):
                label = c.k.label
                modify(c, c.f4, label=l4)
                modify(c, c.f5, label=label if l5 is None else l5)
            arrow.__name__ = f"label_arrow_{aname}"
            when_all(sal(s), c.s << stage("labeling"),
                     c.j << (m.t == "junction") & (m.jtype == "arrow"),
                     c.k << ke, c.f4 << f4, c.f5 << f5)(guarded(arrow))

        @when_all(sal(-10), c.f1 << stage("labeling"))
        @guarded
        def done_labeling(c):
            modify(c, c.f1, value="plot_remaining_edges")

        @when_all(sal(0), c.s << stage("plot_remaining_edges"),
                  c.f2 << (m.t == "edge") & (m.plotted == "nil") & (m.label != "nil"))
        @guarded
        def plot_remaining(c):
            modify(c, c.f2, plotted="t")

        @when_all(sal(0), c.s << stage("plot_remaining_edges"),
                  c.f2 << (m.t == "edge") & (m.plotted == "nil") & (m.label == "nil"))
        @guarded
        def plot_boundaries(c):
            modify(c, c.f2, plotted="t")

        @when_all(sal(-10), c.f1 << stage("plot_remaining_edges"),
                  none((m.t == "edge") & (m.plotted == "nil")))
        @guarded
        def done_plotting(c):
            modify(c, c.f1, value="done")

        @when_all(c.s << stage("done"), c.never << (m.t == "never"))
        def accept_done(c):  # never fires: it only lets durable accept the final stage fact
            pass


def run(data) -> dict:
    from durable.lang import assert_facts, get_host

    name = f"waltz{next(_RUN)}"
    state = {"fired": 0, "n": 0, "errors": []}
    _define(name, state)
    facts = [{"t": "line", "p1": a, "p2": b} for a, b in data.lines]
    facts.append({"t": "stage", "value": "duplicate"})
    for f in facts:
        state["n"] += 1
        f["id"] = state["n"]
    assert_facts(name, facts)
    if state["errors"]:
        raise RuntimeError("durable action failed: " + "; ".join(state["errors"][:3]))
    edges, junctions, stage = [], [], []
    for f in get_host().get_ruleset(name).get_facts(None):
        t = f.get("t")
        if t == "edge":
            edges.append((f["p1"], f["p2"], f["label"]))
        elif t == "junction":
            junctions.append((f["base_point"], f["jtype"]))
        elif t == "stage":
            stage.append(f["value"])
    return {"firings": state["fired"], "edges": sorted(edges), "junctions": sorted(junctions),
            "stage": stage}
