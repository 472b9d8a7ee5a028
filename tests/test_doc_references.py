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
