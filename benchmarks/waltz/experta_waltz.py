"""Waltz on experta: the classic rules and saliences.

``~?p`` constraints become ``TEST`` conditional elements, or ``~MATCH.p``
inside a negation; label alternatives such as ``+|-|B`` are ``P`` predicates.
The junction classifier is :func:`.geometry.classify`.

One workaround: experta cannot wire a ``TEST`` inside ``NOT(AND(...))``
(``KeyError`` in ``wire_rule``) and its field predicates cannot see other
variables, so the boundary rules' "no junction with a greater (smaller) base
point" is a ``TEST`` against the extreme base points of the junctions asserted
so far. Junctions are only made in the detect_junctions stage, which is over
before the boundary rules can match (their first condition is the stage), so
this is the same condition.
"""
from __future__ import annotations

from ..experta_compat import fixed_depth_strategy, import_experta
from .geometry import classify


def _engine_class():
    ex = import_experta()
    Fact, Rule, AS, MATCH, NOT, TEST, P = (ex.Fact, ex.Rule, ex.AS, ex.MATCH, ex.NOT,
                                           ex.TEST, ex.P)

    class Stage(Fact):
        pass

    class Line(Fact):
        pass

    class Edge(Fact):
        pass

    class Junction(Fact):
        pass

    extreme = {"max": None, "min": None}

    def note_junction(bp):
        if extreme["max"] is None or bp > extreme["max"]:
            extreme["max"] = bp
        if extreme["min"] is None or bp < extreme["min"]:
            extreme["min"] = bp

    def one_of(*labels):
        return P(lambda v: v in labels)

    def arrow_rule(name, salience, known, labels, e4, n4, e5, n5, l4, l5):
        """Build one label_arrow rule; ``l5`` None means 'the known edge's label'."""
        kw_known = {"p1": MATCH.bp, "p2": getattr(MATCH, known)}
        if len(labels) > 1:
            kw_known["label"] = MATCH.label & one_of(*labels)
        else:
            kw_known["label"] = labels[0]
        kw4 = {"p1": MATCH.bp, "p2": getattr(MATCH, e4)}
        kw5 = {"p1": MATCH.bp, "p2": getattr(MATCH, e5)}
        if n4:
            kw4["label"] = "nil"
        if n5:
            kw5["label"] = "nil"

        @Rule(Stage(value="labeling"),
              Junction(jtype="arrow", base_point=MATCH.bp, p1=MATCH.p1, p2=MATCH.p2,
                       p3=MATCH.p3),
              Edge(**kw_known),
              AS.f4 << Edge(**kw4),
              AS.f5 << Edge(**kw5),
              salience=salience)
        def rule(self, f4, f5, label=None, **_):
            self.fired += 1
            self.modify(f4, label=l4)
            self.modify(f5, label=label if l5 is None else l5)
        return rule

    class Waltz(ex.KnowledgeEngine):
        __strategy__ = fixed_depth_strategy()

        def __init__(self):
            super().__init__()
            self.fired = 0

        @Rule(Stage(value="duplicate"), AS.f2 << Line(p1=MATCH.p1, p2=MATCH.p2))
        def reverse_edges(self, f2, p1, p2):
            self.fired += 1
            self.declare(Edge(p1=p1, p2=p2, joined="false", label="nil", plotted="nil"))
            self.declare(Edge(p1=p2, p2=p1, joined="false", label="nil", plotted="nil"))
            self.retract(f2)

        @Rule(AS.f1 << Stage(value="duplicate"), NOT(Line()), salience=-10)
        def done_reversing(self, f1):
            self.fired += 1
            self.modify(f1, value="detect_junctions")

        @Rule(Stage(value="detect_junctions"),
              AS.f2 << Edge(p1=MATCH.bp, p2=MATCH.p1, joined="false"),
              AS.f3 << Edge(p1=MATCH.bp, p2=MATCH.p2, joined="false"),
              TEST(lambda p1, p2: p2 != p1),
              AS.f4 << Edge(p1=MATCH.bp, p2=MATCH.p3, joined="false"),
              TEST(lambda p1, p2, p3: p3 != p1 and p3 != p2),
              salience=10)
        def make_3_junction(self, f2, f3, f4, bp, p1, p2, p3):
            self.fired += 1
            jtype, b1, shaft, b2 = classify(bp, p1, p2, p3)
            self.declare(Junction(p1=b1, p2=shaft, p3=b2, base_point=bp, jtype=jtype))
            note_junction(bp)
            self.modify(f2, joined="true")
            self.modify(f3, joined="true")
            self.modify(f4, joined="true")

        @Rule(Stage(value="detect_junctions"),
              AS.f2 << Edge(p1=MATCH.bp, p2=MATCH.p2, joined="false"),
              AS.f3 << Edge(p1=MATCH.bp, p2=MATCH.p3, joined="false"),
              TEST(lambda p2, p3: p3 != p2),
              NOT(Edge(p1=MATCH.bp, p2=~MATCH.p2 & ~MATCH.p3)))
        def make_L(self, f2, f3, bp, p2, p3, **_):
            self.fired += 1
            self.declare(Junction(p1=p2, p2=p3, p3="nil", base_point=bp, jtype="L"))
            note_junction(bp)
            self.modify(f2, joined="true")
            self.modify(f3, joined="true")

        @Rule(AS.f1 << Stage(value="detect_junctions"), NOT(Edge(joined="false")), salience=-10)
        def done_detecting(self, f1):
            self.fired += 1
            self.modify(f1, value="find_initial_boundary")

        @Rule(AS.f1 << Stage(value="find_initial_boundary"),
              Junction(jtype="L", base_point=MATCH.bp, p1=MATCH.p1, p2=MATCH.p2),
              AS.f3 << Edge(p1=MATCH.bp, p2=MATCH.p1),
              AS.f4 << Edge(p1=MATCH.bp, p2=MATCH.p2),
              TEST(lambda bp: bp == extreme["max"]))
        def initial_boundary_junction_L(self, f1, f3, f4, **_):
            self.fired += 1
            self.modify(f3, label="B")
            self.modify(f4, label="B")
            self.modify(f1, value="find_second_boundary")

        @Rule(AS.f1 << Stage(value="find_initial_boundary"),
              Junction(jtype="arrow", base_point=MATCH.bp, p1=MATCH.p1, p2=MATCH.p2,
                       p3=MATCH.p3),
              AS.f3 << Edge(p1=MATCH.bp, p2=MATCH.p1),
              AS.f4 << Edge(p1=MATCH.bp, p2=MATCH.p2),
              AS.f5 << Edge(p1=MATCH.bp, p2=MATCH.p3),
              TEST(lambda bp: bp == extreme["max"]))
        def initial_boundary_junction_arrow(self, f1, f3, f4, f5, **_):
            self.fired += 1
            self.modify(f3, label="B")
            self.modify(f4, label="+")
            self.modify(f5, label="B")
            self.modify(f1, value="find_second_boundary")

        @Rule(AS.f1 << Stage(value="find_second_boundary"),
              Junction(jtype="L", base_point=MATCH.bp, p1=MATCH.p1, p2=MATCH.p2),
              AS.f3 << Edge(p1=MATCH.bp, p2=MATCH.p1),
              AS.f4 << Edge(p1=MATCH.bp, p2=MATCH.p2),
              TEST(lambda bp: bp == extreme["min"]))
        def second_boundary_junction_L(self, f1, f3, f4, **_):
            self.fired += 1
            self.modify(f3, label="B")
            self.modify(f4, label="B")
            self.modify(f1, value="labeling")

        @Rule(AS.f1 << Stage(value="find_second_boundary"),
              Junction(jtype="arrow", base_point=MATCH.bp, p1=MATCH.p1, p2=MATCH.p2,
                       p3=MATCH.p3),
              AS.f3 << Edge(p1=MATCH.bp, p2=MATCH.p1),
              AS.f4 << Edge(p1=MATCH.bp, p2=MATCH.p2),
              AS.f5 << Edge(p1=MATCH.bp, p2=MATCH.p3),
              TEST(lambda bp: bp == extreme["min"]))
        def second_boundary_junction_arrow(self, f1, f3, f4, f5, **_):
            self.fired += 1
            self.modify(f3, label="B")
            self.modify(f4, label="+")
            self.modify(f5, label="B")
            self.modify(f1, value="labeling")

        @Rule(Stage(value="labeling"),
              AS.f2 << Edge(p1=MATCH.p1, p2=MATCH.p2, label=MATCH.label & one_of("+", "-", "B")),
              AS.f3 << Edge(p1=MATCH.p2, p2=MATCH.p1, label="nil"))
        def match_edge(self, f2, f3, label, **_):
            self.fired += 1
            self.modify(f2, plotted="t")
            self.modify(f3, label=label, plotted="t")

        @Rule(Stage(value="labeling"),
              Junction(jtype="L", base_point=MATCH.bp),
              Edge(p1=MATCH.bp, p2=MATCH.p2, label=one_of("+", "-")),
              AS.f4 << Edge(p1=MATCH.bp, p2=MATCH.x, label="nil"),
              TEST(lambda x, p2: x != p2))
        def label_L(self, f4, **_):
            self.fired += 1
            self.modify(f4, label="B")

        @Rule(Stage(value="labeling"),
              Junction(jtype="tee", base_point=MATCH.bp, p1=MATCH.p1, p2=MATCH.p2, p3=MATCH.p3),
              AS.f3 << Edge(p1=MATCH.bp, p2=MATCH.p1, label="nil"),
              AS.f4 << Edge(p1=MATCH.bp, p2=MATCH.p3),
              salience=5)
        def label_tee_A(self, f3, f4, **_):
            self.fired += 1
            self.modify(f3, label="B")
            self.modify(f4, label="B")

        @Rule(Stage(value="labeling"),
              Junction(jtype="tee", base_point=MATCH.bp, p1=MATCH.p1, p2=MATCH.p2, p3=MATCH.p3),
              AS.f3 << Edge(p1=MATCH.bp, p2=MATCH.p1),
              AS.f4 << Edge(p1=MATCH.bp, p2=MATCH.p3, label="nil"))
        def label_tee_B(self, f3, f4, **_):
            self.fired += 1
            self.modify(f3, label="B")
            self.modify(f4, label="B")

        @Rule(Stage(value="labeling"),
              Junction(jtype="fork", base_point=MATCH.bp),
              Edge(p1=MATCH.bp, p2=MATCH.p1, label="+"),
              AS.f4 << Edge(p1=MATCH.bp, p2=MATCH.p2, label="nil"),
              TEST(lambda p1, p2: p2 != p1),
              AS.f5 << Edge(p1=MATCH.bp, p2=MATCH.p3),
              TEST(lambda p1, p2, p3: p3 != p2 and p3 != p1))
        def label_fork_1(self, f4, f5, **_):
            self.fired += 1
            self.modify(f4, label="+")
            self.modify(f5, label="+")

    def fork_rule(name, l1, l2, new):
        @Rule(Stage(value="labeling"),
              Junction(jtype="fork", base_point=MATCH.bp),
              Edge(p1=MATCH.bp, p2=MATCH.p1, label=l1),
              Edge(p1=MATCH.bp, p2=MATCH.p2, label=l2),
              TEST(lambda p1, p2: p2 != p1),
              AS.f5 << Edge(p1=MATCH.bp, p2=MATCH.p3, label="nil"),
              TEST(lambda p1, p2, p3: p3 != p2 and p3 != p1))
        def rule(self, f5, **_):
            self.fired += 1
            self.modify(f5, label=new)
        return rule

    Waltz.label_fork_2 = fork_rule("label_fork_2", "B", "-", "B")
    Waltz.label_fork_3 = fork_rule("label_fork_3", "B", "B", "-")
    Waltz.label_fork_4 = fork_rule("label_fork_4", "-", "-", "-")
    bm = ("B", "-")
    for spec in (("1A", 5, "p1", bm, "p2", True, "p3", False, "+", None),
                 ("1B", 0, "p1", bm, "p2", False, "p3", True, "+", None),
                 ("2A", 5, "p3", bm, "p2", True, "p1", False, "+", None),
                 ("2B", 0, "p3", bm, "p2", False, "p1", True, "+", None),
                 ("3A", 5, "p1", ("+",), "p2", True, "p3", False, "-", "+"),
                 ("3B", 0, "p1", ("+",), "p2", False, "p3", True, "-", "+"),
                 ("4A", 5, "p3", ("+",), "p2", True, "p1", False, "-", "+"),
                 ("4B", 0, "p3", ("+",), "p2", False, "p1", True, "-", "+"),
                 ("5A", 5, "p2", ("-",), "p1", False, "p3", True, "+", "+"),
                 ("5B", 0, "p2", ("-",), "p1", True, "p3", False, "+", "+")):
        setattr(Waltz, f"label_arrow_{spec[0]}", arrow_rule(*spec))

    @Rule(AS.f1 << Stage(value="labeling"), salience=-10)
    def done_labeling(self, f1):
        self.fired += 1
        self.modify(f1, value="plot_remaining_edges")

    @Rule(Stage(value="plot_remaining_edges"),
          AS.f2 << Edge(plotted="nil", label=~ex.L("nil")))
    def plot_remaining(self, f2):
        self.fired += 1
        self.modify(f2, plotted="t")

    @Rule(Stage(value="plot_remaining_edges"), AS.f2 << Edge(plotted="nil", label="nil"))
    def plot_boundaries(self, f2):
        self.fired += 1
        self.modify(f2, plotted="t")

    @Rule(AS.f1 << Stage(value="plot_remaining_edges"), NOT(Edge(plotted="nil")), salience=-10)
    def done_plotting(self, f1):
        self.fired += 1
        self.modify(f1, value="done")

    for fn in (done_labeling, plot_remaining, plot_boundaries, done_plotting):
        setattr(Waltz, fn.__name__, fn)
    return Waltz, Stage, Line, Edge, Junction


def run(data) -> dict:
    Waltz, Stage, Line, Edge, Junction = _engine_class()
    e = Waltz()
    e.reset()
    for a, b in data.lines:
        e.declare(Line(p1=a, p2=b))
    e.declare(Stage(value="duplicate"))
    e.run()
    edges, junctions, stage = [], [], []
    for f in e.facts.values():
        if isinstance(f, Edge):
            edges.append((f["p1"], f["p2"], f["label"]))
        elif isinstance(f, Junction):
            junctions.append((f["base_point"], f["jtype"]))
        elif isinstance(f, Stage):
            stage.append(f["value"])
    return {"firings": e.fired, "edges": sorted(edges), "junctions": sorted(junctions),
            "stage": stage}
