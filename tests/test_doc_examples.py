"""Examples in the docs that are not doctests (rule text shown as a block) still
load and run, so that a reader who copies one gets what the page promises."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import rete.language
from rete import Session
from rete.language import load_rules

ROOT = Path(__file__).resolve().parents[1]


def _engine_md_rule_text() -> str:
    text = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    section = text.split("## The rule language", 1)[1]
    return re.search(r"```\n(.*?)```", section, re.S).group(1)


def _language_docstring_rule_text() -> str:
    doc = rete.language.__doc__.split("Example::", 1)[1]
    block = doc.split("\nValues are", 1)[0]
    return "\n".join(line[4:] for line in block.splitlines())


@pytest.mark.parametrize("source", [_engine_md_rule_text, _language_docstring_rule_text],
                         ids=["docs/engine.md", "rete.language"])
def test_the_rule_language_example_loads_and_fires(source):
    greeted = []
    s = Session()
    s.register_function("is_adult", lambda age: age >= 18)
    s.register_function("greet", lambda ctx, name, word: greeted.append((name, word)))
    load_rules(s, source(), "example.hr")
    assert "adults" in s.productions
    s.assert_fact("person", name="ada", age=36)
    s.assert_fact("friend", a="ada", b="bob")
    assert s.run() == 1
    assert greeted == [("ada", "hello")]
    assert [f.values["to"] for f in s.facts_of("greeting")] == ["ada"]


def _rule_lines(text: str) -> list[str]:
    return [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]


def test_the_rule_file_example_in_chess_rules_custom_is_the_example_file():
    import chess_rules.rule_files
    doc = chess_rules.rule_files.__doc__
    name = re.search(r"Example, ``(examples/rules/[\w.]+)``::", doc).group(1)
    shown = doc.split("::", 1)[1].split("\nLoad it with", 1)[0]
    assert _rule_lines(shown) == _rule_lines((ROOT / name).read_text(encoding="utf-8"))


def _fenced_blocks(text: str):
    """(info string, body) of each fenced block of a Markdown text."""
    info, body = None, []
    for line in text.splitlines():
        if line.startswith("```"):
            if info is None:
                info, body = line[3:].strip(), []
            else:
                yield info, "\n".join(body) + "\n"
                info = None
        elif info is not None:
            body.append(line)


def _scenario_blocks():
    for rel in ["README.md", "docs/scenario-language.md", "docs/fairy.md"]:
        text = (ROOT / rel).read_text(encoding="utf-8")
        for n, (info, block) in enumerate(_fenced_blocks(text)):
            if not info and re.search(r'^\s*scenario "', block, re.M):
                yield pytest.param(rel, block, id=f"{rel}-{n}")


@pytest.mark.parametrize("rel, block", list(_scenario_blocks()))
def test_the_scenario_examples_pass(rel, block):
    from houserules.scenarios import parse_text, run_scenario
    scenarios = parse_text(block, rel)
    assert scenarios
    for sc in scenarios:
        run_scenario(sc)
