"""Waltz on the houserules engine: the classic CLIPS rules, salience included.

The rules are ``waltz.hr`` (the rule language); :func:`rules` is the same
program through the Python builder (used to check that both give one run).
``make-3_junction`` is a registered function (the junction classifier of
:mod:`.geometry`) that asserts the junction fact. Unset labels are the symbol
``nil`` as in CLIPS. CLIPS's default strategy is depth; this engine's
``depth`` is the same rule (newest activation first), so that is used.
"""
from __future__ import annotations

import os

from rete import (Assert, Call, ModifyFact, Not, P, RetractFact, Rule, Session, Test, V)

from .geometry import classify

RULES_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "waltz.hr")

TEMPLATES = {
    "stage": ("value",),
    "line": ("p1", "p2"),
    "edge": ("p1", "p2", "joined", "label", "plotted"),
    "junction": ("p1", "p2", "p3", "base-point", "jtype"),
}
DEFAULTS = {"edge": {"label": "nil", "plotted": "nil", "joined": "false"},
            "junction": {"p3": "nil"}}


def _stage(value, bind=None):
    p = P("stage", value=value)
    return p.as_(bind) if bind else p


def _labelled(p, *labels):
    return p.where("label", "member", *labels)


def _arrow(name, salience, known_slot, labels, f4_slot, f4_nil, f5_slot, f5_nil,
           f4_label, f5_label):
    """The ten label_arrow rules share one shape."""
    known = P("edge", p1=V.bp, p2=known_slot, label=V.label)
    known = known.where("label", "member", *labels) if len(labels) > 1 else \
        P("edge", p1=V.bp, p2=known_slot, label=labels[0])
    f4 = P("edge", p1=V.bp, p2=f4_slot, label="nil") if f4_nil else P("edge", p1=V.bp, p2=f4_slot)
    f5 = P("edge", p1=V.bp, p2=f5_slot, label="nil") if f5_nil else P("edge", p1=V.bp, p2=f5_slot)
    return (Rule(name, salience=salience)
            .when(_stage("labeling"),
                  P("junction", jtype="arrow", base_point=V.bp, p1=V.p1, p2=V.p2, p3=V.p3),
                  known, f4.as_("f4"), f5.as_("f5"))
            .then(ModifyFact("f4", label=f4_label), ModifyFact("f5", label=f5_label)))


def rules() -> list:
    out = [
        Rule("reverse_edges")
        .when(_stage("duplicate"), P("line", p1=V.p1, p2=V.p2).as_("f2"))
        .then(Assert("edge", p1=V.p1, p2=V.p2, joined="false"),
              Assert("edge", p1=V.p2, p2=V.p1, joined="false"),
              RetractFact("f2")),

        Rule("done_reversing", salience=-10)
        .when(_stage("duplicate", "f1"), Not(P("line")))
        .then(ModifyFact("f1", value="detect_junctions")),

        Rule("make-3_junction", salience=10)
        .when(_stage("detect_junctions"),
              P("edge", p1=V.bp, p2=V.p1, joined="false").as_("f2"),
              P("edge", p1=V.bp, p2=V.p2, joined="false").as_("f3"), Test("ne", V.p2, V.p1),
              P("edge", p1=V.bp, p2=V.p3, joined="false").as_("f4"),
              Test("ne", V.p3, V.p1), Test("ne", V.p3, V.p2))
        .then(Call("make_3_junction", V.bp, V.p1, V.p2, V.p3),
              ModifyFact("f2", joined="true"), ModifyFact("f3", joined="true"),
              ModifyFact("f4", joined="true")),

        Rule("make_L")
        .when(_stage("detect_junctions"),
              P("edge", p1=V.bp, p2=V.p2, joined="false").as_("f2"),
              P("edge", p1=V.bp, p2=V.p3, joined="false").as_("f3"), Test("ne", V.p3, V.p2),
              Not(P("edge", p1=V.bp, p2=V.x), Test("ne", V.x, V.p2), Test("ne", V.x, V.p3)))
        .then(Assert("junction", jtype="L", base_point=V.bp, p1=V.p2, p2=V.p3),
              ModifyFact("f2", joined="true"), ModifyFact("f3", joined="true")),

        Rule("done_detecting", salience=-10)
        .when(_stage("detect_junctions", "f1"), Not(P("edge", joined="false")))
        .then(ModifyFact("f1", value="find_initial_boundary")),
    ]
    for which, stage, nxt, cmp in (("initial", "find_initial_boundary", "find_second_boundary", "gt"),
                                   ("second", "find_second_boundary", "labeling", "lt")):
        out.append(
            Rule(f"{which}_boundary_junction_L")
            .when(_stage(stage, "f1"),
                  P("junction", jtype="L", base_point=V.bp, p1=V.p1, p2=V.p2),
                  P("edge", p1=V.bp, p2=V.p1).as_("f3"),
                  P("edge", p1=V.bp, p2=V.p2).as_("f4"),
                  Not(P("junction", base_point=V.x), Test(cmp, V.x, V.bp)))
            .then(ModifyFact("f3", label="B"), ModifyFact("f4", label="B"),
                  ModifyFact("f1", value=nxt)))
        out.append(
            Rule(f"{which}_boundary_junction_arrow")
            .when(_stage(stage, "f1"),
                  P("junction", jtype="arrow", base_point=V.bp, p1=V.p1, p2=V.p2, p3=V.p3),
                  P("edge", p1=V.bp, p2=V.p1).as_("f3"),
                  P("edge", p1=V.bp, p2=V.p2).as_("f4"),
                  P("edge", p1=V.bp, p2=V.p3).as_("f5"),
                  Not(P("junction", base_point=V.x), Test(cmp, V.x, V.bp)))
            .then(ModifyFact("f3", label="B"), ModifyFact("f4", label="+"),
                  ModifyFact("f5", label="B"), ModifyFact("f1", value=nxt)))
    out += [
        Rule("match_edge")
        .when(_stage("labeling"),
              _labelled(P("edge", p1=V.p1, p2=V.p2, label=V.label), "+", "-", "B").as_("f2"),
              P("edge", p1=V.p2, p2=V.p1, label="nil").as_("f3"))
        .then(ModifyFact("f2", plotted="t"), ModifyFact("f3", label=V.label, plotted="t")),

        Rule("label_L")
        .when(_stage("labeling"),
              P("junction", jtype="L", base_point=V.bp),
              _labelled(P("edge", p1=V.bp, p2=V.p2), "+", "-"),
              P("edge", p1=V.bp, p2=V.x, label="nil").as_("f4"), Test("ne", V.x, V.p2))
        .then(ModifyFact("f4", label="B")),

        Rule("label_tee_A", salience=5)
        .when(_stage("labeling"),
              P("junction", jtype="tee", base_point=V.bp, p1=V.p1, p2=V.p2, p3=V.p3),
              P("edge", p1=V.bp, p2=V.p1, label="nil").as_("f3"),
              P("edge", p1=V.bp, p2=V.p3).as_("f4"))
        .then(ModifyFact("f3", label="B"), ModifyFact("f4", label="B")),

        Rule("label_tee_B")
        .when(_stage("labeling"),
              P("junction", jtype="tee", base_point=V.bp, p1=V.p1, p2=V.p2, p3=V.p3),
              P("edge", p1=V.bp, p2=V.p1).as_("f3"),
              P("edge", p1=V.bp, p2=V.p3, label="nil").as_("f4"))
        .then(ModifyFact("f3", label="B"), ModifyFact("f4", label="B")),

        Rule("label_fork-1")
        .when(_stage("labeling"),
              P("junction", jtype="fork", base_point=V.bp),
              P("edge", p1=V.bp, p2=V.p1, label="+"),
              P("edge", p1=V.bp, p2=V.p2, label="nil").as_("f4"), Test("ne", V.p2, V.p1),
              P("edge", p1=V.bp, p2=V.p3).as_("f5"), Test("ne", V.p3, V.p2), Test("ne", V.p3, V.p1))
        .then(ModifyFact("f4", label="+"), ModifyFact("f5", label="+")),
    ]
    for name, l1, l2, new in (("label_fork-2", "B", "-", "B"), ("label_fork-3", "B", "B", "-"),
                              ("label_fork-4", "-", "-", "-")):
        out.append(
            Rule(name)
            .when(_stage("labeling"),
                  P("junction", jtype="fork", base_point=V.bp),
                  P("edge", p1=V.bp, p2=V.p1, label=l1),
                  P("edge", p1=V.bp, p2=V.p2, label=l2), Test("ne", V.p2, V.p1),
                  P("edge", p1=V.bp, p2=V.p3, label="nil").as_("f5"),
                  Test("ne", V.p3, V.p2), Test("ne", V.p3, V.p1))
            .then(ModifyFact("f5", label=new)))
    bm = ("B", "-")
    out += [
        _arrow("label_arrow-1A", 5, V.p1, bm, V.p2, True, V.p3, False, "+", V.label),
        _arrow("label_arrow-1B", 0, V.p1, bm, V.p2, False, V.p3, True, "+", V.label),
        _arrow("label_arrow-2A", 5, V.p3, bm, V.p2, True, V.p1, False, "+", V.label),
        _arrow("label_arrow-2B", 0, V.p3, bm, V.p2, False, V.p1, True, "+", V.label),
        _arrow("label_arrow-3A", 5, V.p1, ("+",), V.p2, True, V.p3, False, "-", "+"),
        _arrow("label_arrow-3B", 0, V.p1, ("+",), V.p2, False, V.p3, True, "-", "+"),
        _arrow("label_arrow-4A", 5, V.p3, ("+",), V.p2, True, V.p1, False, "-", "+"),
        _arrow("label_arrow-4B", 0, V.p3, ("+",), V.p2, False, V.p1, True, "-", "+"),
        _arrow("label_arrow-5A", 5, V.p2, ("-",), V.p1, False, V.p3, True, "+", "+"),
        _arrow("label_arrow-5B", 0, V.p2, ("-",), V.p1, True, V.p3, False, "+", "+"),

        Rule("done_labeling", salience=-10)
        .when(_stage("labeling", "f1"))
        .then(ModifyFact("f1", value="plot_remaining_edges")),

        Rule("plot_remaining")
        .when(_stage("plot_remaining_edges"),
              P("edge", plotted="nil").where("label", "ne", "nil").as_("f2"))
        .then(ModifyFact("f2", plotted="t")),

        Rule("plot_boundaries")
        .when(_stage("plot_remaining_edges"),
              P("edge", plotted="nil", label="nil").as_("f2"))
        .then(ModifyFact("f2", plotted="t")),

        Rule("done_plotting", salience=-10)
        .when(_stage("plot_remaining_edges", "f1"), Not(P("edge", plotted="nil")))
        .then(ModifyFact("f1", value="done")),
    ]
    return out


def _make_3_junction(ctx, bp, p1, p2, p3):
    jtype, b1, shaft, b2 = classify(bp, p1, p2, p3)
    ctx.assert_fact("junction", p1=b1, p2=shaft, p3=b2, jtype=jtype, **{"base-point": bp})


def build(strategy: str = "depth", use_text: bool = True,
          join_order: str = "control-last") -> Session:
    """A session with the Waltz rules: from ``waltz.hr`` (default) or the Python builder."""
    s = Session(strategy=strategy, join_order=join_order)
    s.register_function("make_3_junction", _make_3_junction)
    if use_text:
        from rete.language import load_rules
        with open(RULES_FILE, encoding="utf-8") as fh:
            load_rules(s, fh.read(), source=RULES_FILE)
    else:
        for name, slots in TEMPLATES.items():
            s.deftemplate(name, *slots, defaults=DEFAULTS.get(name))
        s.add(*rules())
    return s


def _sym(v) -> str:
    """A slot value as CLIPS prints it (the text rules use nil/true/false literals)."""
    if v is None:
        return "nil"
    if v is True or v is False:
        return str(v).lower()
    return str(v)


def run(data, strategy: str = "depth", use_text: bool = True,
        join_order: str = "control-last") -> dict:
    s = build(strategy, use_text, join_order)
    for a, b in data.lines:
        s.assert_fact("line", p1=a, p2=b)
    s.assert_fact("stage", value="duplicate")
    firings = s.run()
    bp = s.templates["junction"].resolve("base_point")
    edges = sorted((f["p1"], f["p2"], _sym(f["label"])) for f in s.facts_of("edge"))
    junctions = sorted((f[bp], _sym(f["jtype"])) for f in s.facts_of("junction"))
    stage = [f["value"] for f in s.facts_of("stage")]
    return {"firings": firings, "edges": edges, "junctions": junctions, "stage": stage}
