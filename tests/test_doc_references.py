"""What the docs name exists: the engine's modules, the make targets, the
commands and options of the CLI."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _read(rel: str) -> str:
    return (ROOT / rel).read_text(encoding="utf-8")


def test_the_engine_page_lists_every_module_of_rete():
    text = _read("docs/engine.md")
    table = text.split("| module | what it holds |", 1)[1].split("\n\n", 1)[0]
    listed = set(re.findall(r"`([\w.]+)`", "\n".join(
        row.split("|")[1] for row in table.splitlines() if row.startswith("| `"))))
    on_disk = {p.name for p in (ROOT / "rete").iterdir()
               if p.suffix in (".py", ".lark") and p.name != "__init__.py"}
    assert listed == on_disk


DOCS = ["README.md", "RULES.md", *sorted(str(p.relative_to(ROOT))
                                         for p in (ROOT / "docs").glob("*.md"))]


def _make_targets() -> set[str]:
    return set(re.findall(r"^([\w-]+):", _read("Makefile"), re.M))


def test_the_readme_set_up_is_make_demo_and_make_test_and_ci_runs_the_same():
    readme = _read("README.md")
    setup = readme.split("## Set-up", 1)[1]
    block = re.search(r"```sh\n(.*?)```", setup, re.S).group(1)
    commands = [line.split("#")[0].strip() for line in block.splitlines()]
    assert commands == ["make demo", "make test"]
    assert {"demo", "test"} <= _make_targets()
    ci = [line.strip() for line in _read(".ci/run").splitlines()
          if line.strip() and not line.startswith("#")]
    assert ci[-1] == "make test"
    assert "`.ci/run`" in setup.split("##", 1)[0]


def test_every_make_target_the_docs_name_exists_and_the_readme_names_them_all():
    targets = _make_targets()
    phony = set(re.search(r"^\.PHONY:(.*)$", _read("Makefile"), re.M).group(1).split())
    readme = _read("README.md")
    for rel in DOCS:
        text = _read(rel)
        named = set(re.findall(r"`make ([a-z][\w-]*)", text)) | {
            ln.split()[1] for block in re.findall(r"```sh\n(.*?)```", text, re.S)
            for ln in block.splitlines() if ln.startswith("make ")}
        assert named <= targets, (rel, named - targets)
    # the README's list of targets is whole: "make bench-perft, bench-dice, ..." counts
    listed = set(re.findall(r"`(?:make )?([a-z][\w-]*)`", readme)) | set(
        re.findall(r"^make ([\w-]+)", readme, re.M))
    assert phony <= listed, phony - listed

