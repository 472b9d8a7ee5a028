"""docs/tutorial.md shows every command's real output: each ``$ command`` in
its console blocks is run again here (from the repository's root, with the
installed ``houserules``), and what it prints must be what the page shows.
``python tests/test_tutorial.py`` writes the outputs into the page afresh."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "tutorial.md"
BLOCK = re.compile(r"^```\n(\$ .*?)^```$", re.M | re.S)
#: what differs from run to run: a scenario's time
TIMING = re.compile(r"\(\d+\.\d+s\)")


def run(command: str) -> str:
    """What ``command`` prints (stdout and stderr, as a terminal shows them)."""
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
               COLUMNS="80", TERM="dumb", NO_COLOR="1")
    r = subprocess.run(["bash", "-c", command + " 2>&1"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=300)
    return r.stdout


def commands(block: str) -> list[tuple[str, str]]:
    """The block's ``$ command`` lines, each with the output shown under it."""
    out = []
    for part in re.split(r"^\$ ", block, flags=re.M)[1:]:
        command, _, shown = part.partition("\n")
        out.append((command, shown))
    return out


def rendered(text: str) -> str:
    """The page with each command's output run afresh."""
    def fill(m):
        body = "".join(f"$ {c}\n{run(c)}" for c, _ in commands(m.group(1)))
        return "```\n" + body + ("" if body.endswith("\n") else "\n") + "```"
    return BLOCK.sub(fill, text)


def _cases():
    text = PAGE.read_text(encoding="utf-8")
    return [c for m in BLOCK.finditer(text) for c in commands(m.group(1))]


def test_the_tutorial_runs_every_step_of_its_story():
    shown = [c for c, _ in _cases()]
    assert any(c.startswith("cat examples/tutorial/") and c.endswith(".hr") for c in shown)
    assert any(c.startswith("houserules test ") for c in shown)
    assert any("houserules play" in c for c in shown)
    for name in ("knight_steps.hr", "knight_steps.hrt"):
        assert (ROOT / "examples" / "tutorial" / name).is_file()


@pytest.mark.parametrize("command, shown", _cases(), ids=lambda x: x[:60] if isinstance(x, str) else "")
def test_each_command_prints_what_the_tutorial_shows(command, shown):
    got = run(command)
    assert TIMING.sub("(T)", got).rstrip("\n") == TIMING.sub("(T)", shown).rstrip("\n"), \
        "docs/tutorial.md is stale: python tests/test_tutorial.py"


if __name__ == "__main__":
    PAGE.write_text(rendered(PAGE.read_text(encoding="utf-8")), encoding="utf-8")
