"""Nothing in the repository cites a document that is not in it, and RULES.md
is Markdown. The rulings the project follows are stated where they apply (a
preset's docstring, RULES.md, which is assembled from them); a pointer to a
reference document a user does not have ("see DECISIONS.md", "RULES-spec.md",
"the spec's scenario 3") tells them nothing."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: the names of the reference documents the rules were first written from,
#: and the ways prose pointed at them
CITATION = re.compile(r"RULES-spec|DECISIONS|shared/spec|dice-turn-lifecycle|"
                      r"dice-playable-dice|(?i:\bthe spec\b|\bspec's\b|\bspec scenario|"
                      r"\bour spec\b|reference spec|Rulings \(spec)")
#: this file names them to find them
SELF = "tests/test_citations.py"
#: where "the spec" is a thing of the project's own (the lab's run spec, a
#: TOML file the user writes), not a reference document
OWN_SPEC = ("houserules/lab/", "docs/lab.md")


def _tracked() -> list[str]:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the files to scan are what git tracks")
    out = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True,
                         text=True, check=True).stdout
    return [name for name in out.split("\0") if name and name != SELF]


def citations_in(name: str, text: str) -> list[str]:
    """The citations in ``text`` of the tracked file ``name`` (where the spec
    is the lab's own, only the reference documents' names count)."""
    found = citations(text)
    if name.startswith(OWN_SPEC):
        found = [c for c in found if not re.fullmatch(r"(?i)the spec|spec's", c)]
    return found


def citations(text: str) -> list[str]:
    return [m.group(0) for m in CITATION.finditer(text)]


@pytest.mark.parametrize("text, found", [
    ('Rulings (spec, DECISIONS.md, and ours where marked):', ["Rulings (spec", "DECISIONS"]),
    ("the spec's d5 example", ["the spec"]),
    ("# Bouncing (RULES-spec.md \"x\")", ["RULES-spec"]),
    ("def _offsets(spec: str): load_ruleset_spec(spec)", []),
    ("the planner's decisions", []),
])
def test_the_scan_finds_a_citation_and_not_a_name_in_code(text, found):
    assert citations(text) == found


def test_the_lab_may_speak_of_its_own_spec_but_not_cite_one():
    assert citations_in("houserules/lab/spec.py", "the spec's bots") == []
    assert citations_in("houserules/lab/spec.py", "see DECISIONS.md") == ["DECISIONS"]
    assert citations_in("docs/engine.md", "the spec's bots") == ["the spec"]


def test_no_tracked_file_cites_a_document_that_is_not_in_the_repository():
    cited = []
    for name in _tracked():
        try:
            text = (ROOT / name).read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError):
            continue
        for line_no, line in enumerate(text.splitlines(), 1):
            if citations_in(name, line):
                cited.append(f"{name}:{line_no}: {line.strip()}")
    assert not cited, "state the ruling instead of citing:\n" + "\n".join(cited)


def test_rules_md_is_markdown_without_restructuredtext():
    text = (ROOT / "RULES.md").read_text(encoding="utf-8")
    assert not re.findall(r":[a-z]+:`[^`]+`", text)           # :class:`X`, :func:`f`
    outside_fences = re.sub(r"```.*?```", "", text, flags=re.S)
    assert "``" not in outside_fences                          # ``literal``
    assert not re.findall(r"\S::$", outside_fences, flags=re.M)   # Example::
