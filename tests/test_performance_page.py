"""docs/performance.md is a reference page: every figure names the command that
reproduces it (a benchmark script that exists, or a make target), and the page
holds no history (how the figures moved belongs in git)."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")


def _tables() -> list[list[list[str]]]:
    """Every Markdown table of the page: its rows (header first), as cells."""
    tables, current = [], []
    for line in PAGE.splitlines() + [""]:
        if line.startswith("|"):
            if not re.fullmatch(r"\|[-| :]+\|", line.strip()):
                current.append([c.strip() for c in line.strip().strip("|").split("|")])
        elif current:
            tables.append(current)
            current = []
    return tables


def test_every_figure_names_a_command_that_exists():
    targets = set(re.findall(r"^([a-z][\w-]*):", (ROOT / "Makefile").read_text(), re.M))
    figures = PAGE.split("## The figures", 1)[1].split("\n## ", 1)[0]
    assert "`make bench`" in figures and "bench" in targets
    commands = [t for t in _tables() if "command" in t[0]]
    assert commands, "a table of the command behind each row"
    rows = [row for table in commands for row in table[1:]]
    assert len(rows) >= 6
    for row in rows:
        cell = row[commands[0][0].index("command")]
        scripts = re.findall(r"`((?:benchmarks|tests)/[\w/]+\.py)", cell)
        assert scripts, row
        for script in scripts:
            assert (ROOT / script).is_file(), row
    for target in re.findall(r"`make ([a-z][\w.-]*)", PAGE):
        assert target in targets, target


def test_the_page_holds_no_history():
    for word in (r"\bstop \d+", r"What was tried", r"How the figures moved", r"\bbefore\b.*\bafter\b"):
        assert not re.search(word, PAGE, re.I), word
