"""The scenario statement ``ruleset MODULE:NAME``: scenarios on a rule set composed
in Python, from a .hrt file (houserules test, the pytest plugin) or run_scenario."""
from __future__ import annotations

import sys
import textwrap

import pytest

from chess_rules.scenarios import ScenarioError, ScenarioFailure, main, parse_file, parse_text
from chess_rules.scenarios import run_scenario

HOUSE = textwrap.dedent('''
    from chess_rules.fide import fide_rules
    from rete import Call, P, Rule, V

    def build():
        rs = fide_rules()
        rs.add(Rule("house.rook-diagonal-step", stage="generate")
               .when(P("movegen", color=V.c), P("piece", type="rook", color=V.c).as_("p"))
               .then(Call("gen-leap", V.p, "NE NW SE SW")))
        return rs
''')

SCENARIOS = '''
scenario "the step, from the rule set next to this file"
  ruleset house.py:build
  fen 8/8/8/8/3k4/8/8/R3K3 w - - 0 1
  expect legal a1b2
  move a1b2
  expect illegal d4c3 by fide.check-resolution

scenario "with a preset on top"
  ruleset house.py:build
  presets wrap-board
  fen 7k/8/8/8/R7/8/8/K7 w - - 0 1
  expect legal a4h5 a4h3

scenario "in Dice Chess"
  ruleset house.py:build
  dfen 4k3/8/8/8/8/8/8/R3K3 w - - 0 1 RR
  expect legal a1b2

scenario "FIDE has no such step"
  fen 8/8/8/8/3k4/8/8/R3K3 w - - 0 1
  expect illegal a1b2
'''


@pytest.fixture
def suite(tmp_path, monkeypatch):
    """house.py and a scenario file in a directory that is NOT the current one:
    the file's path is read relative to the scenario file."""
    d = tmp_path / "rules"
    d.mkdir()
    (d / "house.py").write_text(HOUSE, encoding="utf-8")
    f = d / "house.hrt"
    f.write_text(SCENARIOS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    return f


def test_scenarios_name_a_python_rule_set(suite):
    for sc in parse_file(suite):
        run_scenario(sc)


def test_houserules_test_runs_them(suite, capsys):
    assert main([str(suite)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "4 passed, 0 failed"


def test_without_the_statement_the_step_is_not_there(suite):
    text = suite.read_text(encoding="utf-8").replace("  ruleset house.py:build\n", "", 1)
    first = parse_text(text, str(suite))[0]
    with pytest.raises(ScenarioFailure):
        run_scenario(first)


def test_a_bad_ruleset_points_at_its_word(suite):
    text = 'scenario "x"\n  ruleset house.py:nope\n  expect count 1\n'
    sc = parse_text(text, str(suite))[0]
    with pytest.raises(ScenarioError) as e:
        run_scenario(sc)
    assert (e.value.line, e.value.column) == (2, 11)
    assert "has no 'nope'" in str(e.value)


def test_a_refused_ruleset_can_be_expected(suite):
    text = 'scenario "x"\n  ruleset nowhere.py:build\n  expect refused RuleSetSpecError\n'
    run_scenario(parse_text(text, str(suite))[0])


def test_ruleset_given_twice_is_a_syntax_error(suite):
    text = 'scenario "x"\n  ruleset a:b\n  ruleset c:d\n  expect count 1\n'
    with pytest.raises(ScenarioError, match="'ruleset' given twice"):
        parse_text(text)


def test_a_scenario_with_its_own_ruleset_refuses_another_from_python(suite):
    from chess_rules.fide import fide_rules
    sc = parse_file(suite)[0]
    with pytest.raises(ScenarioError, match="names its own rule set"):
        run_scenario(sc, ruleset=fide_rules())
