"""RULES.md is generated from the implementing modules and must be current."""
from pathlib import Path

from presets import registry
from houserules.rulesdoc import render

ROOT = Path(__file__).resolve().parents[1]


def test_rules_md_is_current():
    current = (ROOT / "RULES.md").read_text(encoding="utf-8")
    assert current == render(), "RULES.md is stale: run `python -m houserules.rulesdoc > RULES.md`"


def test_every_preset_and_layout_is_described():
    text = render()
    for m in registry.all_presets():
        assert f"(`{m.id}`)" in text
    for layout in ("standard", "dual-classic", "knightmate", "monster", "pawns-only"):
        assert f"`{layout}`" in text
    for section in ("## Standard chess (FIDE)", "## Positions", "## Custom rule files",
                    "## Custom modifiers", "## Dice Chess"):
        assert section in text


def test_all_29_presets_are_registered():
    assert len(registry.all_presets()) == 29
    assert len(registry.PRESET_MODULES) == 29
