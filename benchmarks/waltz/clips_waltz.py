"""Waltz on CLIPS 6.4 through clipspy: the classic waltz.clp rules and deffunctions.

The data comes as facts (lines and the ``duplicate`` stage), so the classic
``begin`` rule that asserted one hard-coded figure is not needed. CLIPS runs
with its default ``depth`` strategy.
"""
from __future__ import annotations

CONSTRUCTS = [
    "(deftemplate stage (slot value))",
    "(deftemplate line (slot p1) (slot p2))",
    "(deftemplate edge (slot p1) (slot p2) (slot joined) (slot label) (slot plotted))",
    "(deftemplate junction (slot p1) (slot p2) (slot p3) (slot base_point) (slot jtype))",
    "(deffunction get_x (?p) (div ?p 100))",
    "(deffunction get_y (?p) (mod ?p 100))",
    """(deffunction get_angle (?p1 ?p2)
        (bind ?dx (- (get_x ?p2) (get_x ?p1)))
        (bind ?dy (- (get_y ?p2) (get_y ?p1)))
        (if (= ?dx 0)
         then (if (> ?dy 0) then (return (/ (pi) 2)) else (return (/ (pi) -2)))
         else (if (= ?dy 0)
               then (if (> ?dx 0) then (return 0.0) else (return (pi)))
               else (return (atan2 ?dy ?dx)))))""",
    """(deffunction inscribed_angle (?bp ?p1 ?p2)
        (bind ?t (abs (- (get_angle ?bp ?p1) (get_angle ?bp ?p2))))
        (if (> ?t (pi)) then (bind ?t (- (* 2 (pi)) ?t)))
        (abs ?t))""",
    """(deffunction make-3_junction (?bp ?p1 ?p2 ?p3)
        (bind ?a12 (inscribed_angle ?bp ?p1 ?p2))
        (bind ?a13 (inscribed_angle ?bp ?p1 ?p3))
        (bind ?a23 (inscribed_angle ?bp ?p2 ?p3))
        (bind ?s1213 (+ ?a12 ?a13))
        (bind ?s1223 (+ ?a12 ?a23))
        (bind ?s1323 (+ ?a13 ?a23))
        (if (< ?s1213 ?s1223)
         then (if (< ?s1213 ?s1323)
               then (bind ?sum ?s1213) (bind ?shaft ?p1) (bind ?b1 ?p2) (bind ?b2 ?p3)
               else (bind ?sum ?s1323) (bind ?shaft ?p3) (bind ?b1 ?p1) (bind ?b2 ?p2))
         else (if (< ?s1223 ?s1323)
               then (bind ?sum ?s1223) (bind ?shaft ?p2) (bind ?b1 ?p1) (bind ?b2 ?p3)
               else (bind ?sum ?s1323) (bind ?shaft ?p3) (bind ?b1 ?p1) (bind ?b2 ?p2)))
        (if (< (abs (- ?sum (pi))) 0.001)
         then (bind ?jtype tee)
         else (if (> ?sum (pi)) then (bind ?jtype fork) else (bind ?jtype arrow)))
        (assert (junction (p1 ?b1) (p2 ?shaft) (p3 ?b2) (base_point ?bp) (jtype ?jtype))))""",
    """(defrule reverse_edges
        (stage (value duplicate))
        ?f2 <- (line (p1 ?p1) (p2 ?p2))
        =>
        (assert (edge (p1 ?p1) (p2 ?p2) (joined false)))
        (assert (edge (p1 ?p2) (p2 ?p1) (joined false)))
        (retract ?f2))""",
    """(defrule done_reversing (declare (salience -10))
        ?f1 <- (stage (value duplicate))
        (not (line))
        =>
        (modify ?f1 (value detect_junctions)))""",
    """(defrule make-3_junction (declare (salience 10))
        (stage (value detect_junctions))
        ?f2 <- (edge (p1 ?bp) (p2 ?p1) (joined false))
        ?f3 <- (edge (p1 ?bp) (p2 ?p2&~?p1) (joined false))
        ?f4 <- (edge (p1 ?bp) (p2 ?p3&~?p1&~?p2) (joined false))
        =>
        (make-3_junction ?bp ?p1 ?p2 ?p3)
        (modify ?f2 (joined true))
        (modify ?f3 (joined true))
        (modify ?f4 (joined true)))""",
    """(defrule make_L
        (stage (value detect_junctions))
        ?f2 <- (edge (p1 ?bp) (p2 ?p2) (joined false))
        ?f3 <- (edge (p1 ?bp) (p2 ?p3&~?p2) (joined false))
        (not (edge (p1 ?bp) (p2 ~?p2&~?p3)))
        =>
        (assert (junction (jtype L) (base_point ?bp) (p1 ?p2) (p2 ?p3)))
        (modify ?f2 (joined true))
        (modify ?f3 (joined true)))""",
    """(defrule done_detecting (declare (salience -10))
        ?f1 <- (stage (value detect_junctions))
        (not (edge (joined false)))
        =>
        (modify ?f1 (value find_initial_boundary)))""",
    """(defrule initial_boundary_junction_L
        ?f1 <- (stage (value find_initial_boundary))
        (junction (jtype L) (base_point ?bp) (p1 ?p1) (p2 ?p2))
        ?f3 <- (edge (p1 ?bp) (p2 ?p1))
        ?f4 <- (edge (p1 ?bp) (p2 ?p2))
        (not (junction (base_point ?x&:(> ?x ?bp))))
        =>
        (modify ?f3 (label B))
        (modify ?f4 (label B))
        (modify ?f1 (value find_second_boundary)))""",
    """(defrule initial_boundary_junction_arrow
        ?f1 <- (stage (value find_initial_boundary))
        (junction (jtype arrow) (base_point ?bp) (p1 ?p1) (p2 ?p2) (p3 ?p3))
        ?f3 <- (edge (p1 ?bp) (p2 ?p1))
        ?f4 <- (edge (p1 ?bp) (p2 ?p2))
        ?f5 <- (edge (p1 ?bp) (p2 ?p3))
        (not (junction (base_point ?x&:(> ?x ?bp))))
        =>
        (modify ?f3 (label B))
        (modify ?f4 (label +))
        (modify ?f5 (label B))
        (modify ?f1 (value find_second_boundary)))""",
    """(defrule second_boundary_junction_L
        ?f1 <- (stage (value find_second_boundary))
        (junction (jtype L) (base_point ?bp) (p1 ?p1) (p2 ?p2))
        ?f3 <- (edge (p1 ?bp) (p2 ?p1))
        ?f4 <- (edge (p1 ?bp) (p2 ?p2))
        (not (junction (base_point ?x&:(< ?x ?bp))))
        =>
        (modify ?f3 (label B))
        (modify ?f4 (label B))
        (modify ?f1 (value labeling)))""",
    """(defrule second_boundary_junction_arrow
        ?f1 <- (stage (value find_second_boundary))
        (junction (jtype arrow) (base_point ?bp) (p1 ?p1) (p2 ?p2) (p3 ?p3))
        ?f3 <- (edge (p1 ?bp) (p2 ?p1))
        ?f4 <- (edge (p1 ?bp) (p2 ?p2))
        ?f5 <- (edge (p1 ?bp) (p2 ?p3))
        (not (junction (base_point ?x&:(< ?x ?bp))))
        =>
        (modify ?f3 (label B))
        (modify ?f4 (label +))
        (modify ?f5 (label B))
        (modify ?f1 (value labeling)))""",
    """(defrule match_edge
        (stage (value labeling))
        ?f2 <- (edge (p1 ?p1) (p2 ?p2) (label ?label&+|-|B))
        ?f3 <- (edge (p1 ?p2) (p2 ?p1) (label nil))
        =>
        (modify ?f2 (plotted t))
        (modify ?f3 (label ?label) (plotted t)))""",
    """(defrule label_L
        (stage (value labeling))
        (junction (jtype L) (base_point ?p1))
        (edge (p1 ?p1) (p2 ?p2) (label +|-))
        ?f4 <- (edge (p1 ?p1) (p2 ~?p2) (label nil))
        =>
        (modify ?f4 (label B)))""",
    """(defrule label_tee_A (declare (salience 5))
        (stage (value labeling))
        (junction (jtype tee) (base_point ?bp) (p1 ?p1) (p2 ?p2) (p3 ?p3))
        ?f3 <- (edge (p1 ?bp) (p2 ?p1) (label nil))
        ?f4 <- (edge (p1 ?bp) (p2 ?p3))
        =>
        (modify ?f3 (label B))
        (modify ?f4 (label B)))""",
    """(defrule label_tee_B
        (stage (value labeling))
        (junction (jtype tee) (base_point ?bp) (p1 ?p1) (p2 ?p2) (p3 ?p3))
        ?f3 <- (edge (p1 ?bp) (p2 ?p1))
        ?f4 <- (edge (p1 ?bp) (p2 ?p3) (label nil))
        =>
        (modify ?f3 (label B))
        (modify ?f4 (label B)))""",
    """(defrule label_fork-1
        (stage (value labeling))
        (junction (jtype fork) (base_point ?bp))
        (edge (p1 ?bp) (p2 ?p1) (label +))
        ?f4 <- (edge (p1 ?bp) (p2 ?p2&~?p1) (label nil))
        ?f5 <- (edge (p1 ?bp) (p2 ~?p2&~?p1))
        =>
        (modify ?f4 (label +))
        (modify ?f5 (label +)))""",
    """(defrule label_fork-2
        (stage (value labeling))
        (junction (jtype fork) (base_point ?bp))
        (edge (p1 ?bp) (p2 ?p1) (label B))
        (edge (p1 ?bp) (p2 ?p2&~?p1) (label -))
        ?f5 <- (edge (p1 ?bp) (p2 ~?p2&~?p1) (label nil))
        =>
        (modify ?f5 (label B)))""",
    """(defrule label_fork-3
        (stage (value labeling))
        (junction (jtype fork) (base_point ?bp))
        (edge (p1 ?bp) (p2 ?p1) (label B))
        (edge (p1 ?bp) (p2 ?p2&~?p1) (label B))
        ?f5 <- (edge (p1 ?bp) (p2 ~?p2&~?p1) (label nil))
        =>
        (modify ?f5 (label -)))""",
    """(defrule label_fork-4
        (stage (value labeling))
        (junction (jtype fork) (base_point ?bp))
        (edge (p1 ?bp) (p2 ?p1) (label -))
        (edge (p1 ?bp) (p2 ?p2&~?p1) (label -))
        ?f5 <- (edge (p1 ?bp) (p2 ~?p2&~?p1) (label nil))
        =>
        (modify ?f5 (label -)))""",
]

# label_arrow-1A .. 5B: (name, salience, known edge end, its label test,
#  f4 end, f4 nil?, f5 end, f5 nil?, new f4 label, new f5 label)
ARROWS = (
    ("1A", 5, "?p1", "?label&B|-", "?p2", True, "?p3", False, "+", "?label"),
    ("1B", 0, "?p1", "?label&B|-", "?p2", False, "?p3", True, "+", "?label"),
    ("2A", 5, "?p3", "?label&B|-", "?p2", True, "?p1", False, "+", "?label"),
    ("2B", 0, "?p3", "?label&B|-", "?p2", False, "?p1", True, "+", "?label"),
    ("3A", 5, "?p1", "+", "?p2", True, "?p3", False, "-", "+"),
    ("3B", 0, "?p1", "+", "?p2", False, "?p3", True, "-", "+"),
    ("4A", 5, "?p3", "+", "?p2", True, "?p1", False, "-", "+"),
    ("4B", 0, "?p3", "+", "?p2", False, "?p1", True, "-", "+"),
    ("5A", 5, "?p2", "-", "?p1", False, "?p3", True, "+", "+"),
    ("5B", 0, "?p2", "-", "?p1", True, "?p3", False, "+", "+"),
)


def _arrow_rule(name, sal, known, ktest, e4, n4, e5, n5, l4, l5) -> str:
    nil = " (label nil)"
    return (f"(defrule label_arrow-{name} (declare (salience {sal}))\n"
            f"  (stage (value labeling))\n"
            f"  (junction (jtype arrow) (base_point ?bp) (p1 ?p1) (p2 ?p2) (p3 ?p3))\n"
            f"  (edge (p1 ?bp) (p2 {known}) (label {ktest}))\n"
            f"  ?f4 <- (edge (p1 ?bp) (p2 {e4}){nil if n4 else ''})\n"
            f"  ?f5 <- (edge (p1 ?bp) (p2 {e5}){nil if n5 else ''})\n"
            f"  =>\n"
            f"  (modify ?f4 (label {l4}))\n"
            f"  (modify ?f5 (label {l5})))")


CONSTRUCTS += [_arrow_rule(*a) for a in ARROWS]
CONSTRUCTS += [
    """(defrule done_labeling (declare (salience -10))
        ?f1 <- (stage (value labeling))
        =>
        (modify ?f1 (value plot_remaining_edges)))""",
    """(defrule plot_remaining
        (stage (value plot_remaining_edges))
        ?f2 <- (edge (plotted nil) (label ~nil))
        =>
        (modify ?f2 (plotted t)))""",
    """(defrule plot_boundaries
        (stage (value plot_remaining_edges))
        ?f2 <- (edge (plotted nil) (label nil))
        =>
        (modify ?f2 (plotted t)))""",
    """(defrule done_plotting (declare (salience -10))
        ?f1 <- (stage (value plot_remaining_edges))
        (not (edge (plotted nil)))
        =>
        (modify ?f1 (value done)))""",
]


def run(data, strategy: str = "depth") -> dict:
    import clips

    from .generate import clips_facts

    env = clips.Environment()
    env.strategy = getattr(clips.Strategy, strategy.upper())
    for c in CONSTRUCTS:
        env.build(c)
    env.reset()
    env.load_facts(clips_facts(data))
    firings = env.run()
    edges, junctions, stage = [], [], []
    for f in env.facts():
        name = f.template.name
        if name == "edge":
            edges.append((int(f["p1"]), int(f["p2"]), str(f["label"])))
        elif name == "junction":
            junctions.append((int(f["base_point"]), str(f["jtype"])))
        elif name == "stage":
            stage.append(str(f["value"]))
    return {"firings": firings, "edges": sorted(edges), "junctions": sorted(junctions),
            "stage": stage}
