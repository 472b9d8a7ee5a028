"""docs/performance.md is a reference page: every figure names the command that
reproduces it (a benchmark script that exists, or a make target), and the page
holds no history (how the figures moved belongs in git)."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")


def _figures() -> list[list[str]]:
    section = PAGE.split("## Figures", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    return [[c.strip() for c in row.strip("|").split("|")] for row in rows[1:]]


def test_every_figure_names_a_command_that_exists():
    targets = set(re.findall(r"^([a-z][\w-]*):", (ROOT / "Makefile").read_text(), re.M))
    rows = _figures()
    assert len(rows) >= 10
    for row in rows:
        command = row[-1].strip("`")
        assert command, row
        if command.startswith("make "):
            assert command.split()[1] in targets, row
        else:
            assert (ROOT / command.split()[0]).is_file(), row


def test_the_page_holds_no_history():
    for word in (r"\bstop \d+", r"What was tried", r"How the figures moved", r"\bbefore\b.*\bafter\b"):
        assert not re.search(word, PAGE, re.I), word
