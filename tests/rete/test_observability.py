"""Trace, explain, the network as a networkx graph / DOT with node counts and
memory sizes, and ``houserules rete graph FILE``."""
from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import pytest

from rete import Not, P, Rule, Session, UnknownFactError, V
from rete.language import load_rules

RULES = """
template person (name age)
template adult (name)
template lonely (name)
template friend (a b)

rule adults
when
  person(name: ?n, age: ?a & >= 18)
then
  assert logical adult(name: ?n)
end

rule lonely salience 5
when
  adult(name: ?n)
  not friend(a: ?n)
then
  assert lonely(name: ?n)
end
"""


@pytest.fixture
def s():
    s = Session()
    load_rules(s, RULES)
    return s


def test_trace_lists_firings_with_rule_stage_facts_and_bindings(s):
    s.trace_enabled = True
    ada = s.assert_fact("person", name="Ada", age=36)
    s.assert_fact("person", name="Kid", age=9)
    assert s.run() == 2
    t0, t1 = s.trace
    assert (t0.rule, t0.stage, t0.facts) == ("adults", "default", (ada.id,))
    assert t0.bindings == {"n": "Ada", "a": 36}
    (adult,) = s.facts_of("adult")
    assert t1.rule == "lonely" and t1.facts == (adult.id,)
    assert str(t0).startswith(f"FIRE adults [default] f-{ada.id}") and "?n='Ada'" in str(t0)


def test_trace_is_off_by_default(s):
    s.assert_fact("person", name="Ada", age=36)
    s.run()
    assert s.trace == []


def test_explain_a_derived_fact(s):
    ada = s.assert_fact("person", name="Ada", age=36)
    s.run()
    (adult,) = s.facts_of("adult")
    ex = s.explain(adult)
    assert ex["fact"] is adult and ex["asserted_by"] == "adults"
    assert ex["from_facts"] == (ada,) and ex["logical"] is True
    assert ex["support"] == [{"rule": "adults", "facts": (ada,)}]
    (lonely,) = s.facts_of("lonely")
    ex = s.explain(lonely.id)
    assert ex["asserted_by"] == "lonely" and ex["logical"] is False and ex["support"] == []
    assert s.explain(ada)["asserted_by"] is None
    with pytest.raises(UnknownFactError):
        s.explain(9999)


def test_graph_has_every_node_kind_with_sizes(s):
    s.add(Rule("ncc").when(P("person", name=V.n), Not(P("friend", a=V.n, b=V.m),
                                                      P("person", name=V.m))),
          Rule("bob").when(P("friend", b="Bob")))
    s.assert_fact("person", name="Ada", age=36)
    s.assert_fact("person", name="Bob", age=40)
    s.assert_fact("friend", a="Ada", b="Bob")
    g = s.graph()
    assert isinstance(g, nx.DiGraph) and nx.is_directed_acyclic_graph(
        nx.DiGraph((a, b) for a, b, d in g.edges(data=True) if d.get("kind") != "ncc-partner"))
    kinds = {d["kind"] for _, d in g.nodes(data=True)}
    assert {"alpha-root", "alpha-test", "alpha-memory", "root", "join", "beta-memory",
            "negative", "ncc", "ncc-partner", "production"} <= kinds
    person_mems = [d for _, d in g.nodes(data=True)
                   if d["kind"] == "alpha-memory" and d["label"] == "amem person"]
    assert sorted(d["size"] for d in person_mems) == [2, 2]
    prods = {d["label"]: d["size"] for _, d in g.nodes(data=True) if d["kind"] == "production"}
    assert prods == {"P adults": 2, "P lonely": 0, "P ncc": 1, "P bob": 1}
    (test,) = [d for _, d in g.nodes(data=True) if d["kind"] == "alpha-test"]
    assert test["label"] == "b == 'Bob'"


def test_stats_count_nodes_and_memory_sizes(s):
    st0 = s.stats()
    assert st0["productions"] == 2 and st0["facts"] == 0
    assert st0["nodes"]["production"] == 2 and st0["nodes"]["negative"] == 1
    for i in range(3):
        s.assert_fact("person", name=f"p{i}", age=20 + i)
    st = s.stats()
    assert st["facts"] == 3 and st["activations"] == 3
    assert st["memory_sizes"]["production"] == 3
    assert st["nodes"] == st0["nodes"]          # facts change sizes, not the network
    s.run()
    assert s.stats()["memory_sizes"]["negative"] == 3


def test_dot_export(s):
    s.assert_fact("person", name="Ada", age=36)
    dot = s.to_dot()
    assert dot.startswith("digraph rete {") and dot.rstrip().endswith("}")
    g = s.graph()
    assert dot.count(" -> ") == g.number_of_edges()
    assert 'label="P adults\\n(1)"' in dot
    assert "shape=invtriangle" in dot          # the negative node


def test_cli_rete_graph(tmp_path, capsys):
    from houserules.cli import main
    f = tmp_path / "r.hr"
    f.write_text(RULES)
    assert main(["rete", "graph", str(f)]) == 0
    st = json.loads(capsys.readouterr().out)
    assert st["productions"] == 2 and st["nodes"]["production"] == 2
    assert st["nodes"]["negative"] == 1
    assert main(["rete", "graph", str(f), "--dot"]) == 0
    assert capsys.readouterr().out.startswith("digraph rete {")
    # a file that declares functions its program registers (Miss Manners)
    manners = str(Path(__file__).resolve().parents[2] / "benchmarks" / "manners" / "manners.hr")
    assert main(["rete", "graph", manners, "--dot"]) == 0
    assert "P find_seating [joined last: context]" in capsys.readouterr().out
    assert main(["rete", "graph", manners]) == 0
    assert json.loads(capsys.readouterr().out)["joined_last"] == {
        "are_we_done": ["context"], "find_seating": ["context"], "make_path": ["context"],
        "path_done": ["context"]}
    bad = tmp_path / "bad.hr"
    bad.write_text("rule broken when person(name: ?n then end")
    assert main(["rete", "graph", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.hr:1:" in err


def test_cli_rete_graph_of_the_chess_rule_set(capsys):
    """Without FILE, the chess rule set's network: FIDE, or with presets and rule files."""
    from houserules.cli import main
    from chess_rules.fide import fide_rules
    example = str(Path(__file__).resolve().parents[2] / "examples" / "rules"
                  / "rook_steps_diagonally.hr")
    assert main(["rete", "graph"]) == 0
    fide = json.loads(capsys.readouterr().out)
    assert fide["productions"] == len(fide_rules().productions)
    assert main(["rete", "graph", "--rules", example]) == 0
    custom = json.loads(capsys.readouterr().out)
    assert custom["productions"] == fide["productions"] + 1
    assert main(["rete", "graph", "--preset", "pawns-move-backward", "--dot"]) == 0
    assert "P preset.pawn-backward-push" in capsys.readouterr().out
    # a file that edits the chess rules, given as a program of its own, says how to show it
    assert main(["rete", "graph", example]) == 2
    err = capsys.readouterr().err
    assert "stage 'generate' is not declared" in err
    assert f"'houserules rete graph --rules {example}'" in err
    assert main(["rete", "graph", example, "--preset", "piece-hp"]) == 2
    assert "not both" in capsys.readouterr().err


def test_rete_graph_hint_keeps_the_errors_position():
    # the hint for a file that edits the chess rules is added to the same error:
    # its line, column and source stay for a caller that reads them
    from houserules.cli import _program_session
    from rete.errors import UnknownStageError
    example = str(Path(__file__).resolve().parents[2] / "examples" / "rules"
                  / "rook_steps_diagonally.hr")
    with pytest.raises(UnknownStageError) as e:
        _program_session(example)
    assert (e.value.source, e.value.line) == (example, 4)        # the stage word
    assert isinstance(e.value.column, int)
    assert "houserules rete graph --rules" in str(e.value)
