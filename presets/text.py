"""The presets as text: their settings as ``PRESET.KEY=VALUE`` items (the
command line's ``--config``, a PGN's ``VariantConfig`` tag) and the table
``houserules presets`` prints."""
from __future__ import annotations

import json
from typing import Iterable

from chess_rules.ruleset import RuleSet

from .base import PresetConfigError
from .catalog import all_presets
from .composition import conflicts, incompatibilities, incompatibility_reason

__all__ = ["PRESET_CONFIG", "config_text", "parse_config_text", "parse_config_items", "preset_table"]

#: ``RuleSet.config`` key: each loaded preset's settings that differ from its
#: defaults (``{'monster-rules': {'scope': 'black'}}``), what a PGN's
#: ``VariantConfig`` tag writes so that the game reads back under the same rules
PRESET_CONFIG = "preset-config"

def config_text(ruleset: RuleSet) -> str | None:
    """The settings of the rule set's presets that differ from their defaults, as
    ``PRESET.KEY=VALUE`` items (``monster-rules.scope=black``), one space apart: the
    ``--config`` syntax, read back by :func:`parse_config_text`; None if none."""
    items = []
    for pid, settings in ruleset.config.get(PRESET_CONFIG, {}).items():
        for key, value in settings.items():
            # (the items are whitespace apart: compact JSON, its strings' spaces
            # escaped; json.dumps escapes every other kind of whitespace)
            text = value if isinstance(value, str) and _bare(value) \
                else json.dumps(value, separators=(",", ":")).replace(" ", "\\u0020")
            items.append(f"{pid}.{key}={text}")
    return " ".join(items) or None


def _bare(word: str) -> bool:
    """Whether a str setting can be written as it is: a word JSON would not read
    as something else (``true``, ``3``)."""
    if not word or any(c.isspace() or c in '"\\' for c in word):
        return False
    try:
        json.loads(word)
    except ValueError:
        return True
    return False


def parse_config_text(text: str) -> dict[str, dict]:
    """``PRESET.KEY=VALUE`` items, whitespace apart, as the ``config`` mapping
    :func:`load` takes (see :func:`parse_config_items`)."""
    return parse_config_items(text.split())


def parse_config_items(items: Iterable[str]) -> dict[str, dict]:
    """``PRESET.KEY=VALUE`` items (a value is JSON, or else a bare word: the
    ``--config`` syntax) as the ``config`` mapping :func:`load` takes; a malformed
    item raises :class:`PresetConfigError`."""
    out: dict[str, dict] = {}
    for item in items:
        key, eq, value = item.partition("=")
        pid, dot, field = key.partition(".")
        if not (eq and dot and pid and field):
            raise PresetConfigError(f"{item!r}: expected PRESET.KEY=VALUE")
        try:
            parsed = json.loads(value)
        except ValueError:
            parsed = value
        out.setdefault(pid, {})[field] = parsed
    return out


def preset_table() -> list[dict]:
    """The JSON contract of ``houserules presets --json``."""
    inc = incompatibilities()
    out = []
    for m in all_presets():
        out.append({
            "id": m.id, "name": m.name, "category": m.category, "mode": m.mode,
            "description": m.description, "affects": list(m.affects),
            "requires": list(m.requires),
            "incompatible_with": sorted(inc.get(m.id, ())),
            # why, for each of them (declared on either side of the pair)
            "incompatible_because": {o: incompatibility_reason(m.id, o)
                                     for o in sorted(inc.get(m.id, ()))},
            # allowed by the metadata, refused on loading (both rewrite a production)
            "conflicts_with": sorted(conflicts().get(m.id, ())),
            "scope_aware": m.scope_aware, "configurable": m.configurable,
            "config_schema": m.config_schema(),
            "preferred_layout": m.preferred_layout, "gallery": m.gallery,
        })
    return out
