"""The rule-language example of docs/engine.md loads and runs as written (once: its
``modify`` takes the person out of the rule's reach, ``score < 1``)."""
from __future__ import annotations

import re
from pathlib import Path

from rete import Session
from rete.language import load_rules

DOC = Path(__file__).resolve().parents[2] / "docs" / "engine.md"


def test_engine_doc_rule_file_loads_and_runs():
    blocks = re.findall(r"```\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert blocks, "docs/engine.md has no rule-language block"
    greeted = []
    s = Session()
    s.register_function("is_adult", lambda age: age >= 18)
    s.register_function("greet", lambda ctx, name, word: greeted.append((name, word)))
    for text in blocks:
        load_rules(s, text, "docs/engine.md")
    s.assert_fact("person", name="ada", age=36)
    s.assert_fact("friend", a="ada", b="bob")
    s.assert_fact("person", name="bob", age=40)
    assert s.run(stages=["main"], limit=10) == 1
    assert greeted == [("ada", "hello")]
    assert [f.values for f in s.facts_of("greeting")] == [{"to": "ada"}]
    assert [f.values for f in s.facts_of("friends")] == [{"of": "ada", "count": 1}]
    # the logical fact lived as long as its match: the rule's own modify ended both
    assert s.facts_of("adult") == []
    ada = next(f for f in s.facts_of("person") if f.values["name"] == "ada")
    assert ada.values["score"] == 1
