"""Rule sets built from a variant's specification, cached per process.

A worker receives a :class:`~houserules.lab.spec.Variant` (preset ids, rule
text, descriptor JSON, a layout id: plain data) and builds the rule set here,
once per process: the next game of the same variant reuses it.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache

from chess_rules.ruleset import RuleSet

from .spec import Variant

__all__ = ["VariantRules", "variant_rules"]


@dataclass(frozen=True)
class VariantRules:
    """A variant's rule set and the position its games start from."""

    ruleset: RuleSet        # a Dice Chess rule set when ``dice``
    start: str              # FEN, or DFEN without dice for Dice Chess
    dice: bool


def variant_rules(variant: Variant) -> VariantRules:
    """The rule set of ``variant`` (cached by its rules, not its name).
    Bad rules raise the typed error of the layer that refuses them."""
    return _build(variant.rules_key())


@lru_cache(maxsize=32)
def _build(key: str) -> VariantRules:
    v = Variant.model_validate({**json.loads(key), "name": "-"})
    from chess_rules.rule_files import load_rule_text
    from chess_rules.fide import fide_rules
    from presets import load
    from presets.layouts import get_layout, preferred_layout
    from presets.modifiers import attach
    rs = load(*v.presets, config=v.config) if (v.presets or v.config) else fide_rules()
    for i, text in enumerate(v.rule_texts, 1):
        rs = load_rule_text(rs, text, source=f"<rules {i}>")
    for m in v.modifiers:
        rs = attach(rs, m)
    if v.fen:
        start = v.fen
    elif v.layout:
        start = get_layout(v.layout).fen
    else:
        start = rs.config.get("start-fen") or preferred_layout(v.presets).fen
    if v.dice:
        from dice import dice_rules
        rs = dice_rules(rs)
        if not v.fen:
            start = " ".join(start.split()[:6]) + " -"      # no dice yet: the first turn rolls
    return VariantRules(rs, start, v.dice)
