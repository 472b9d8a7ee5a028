"""The rules a playground game is played under, built from what the page chose.

A choice is a layout, preset ids with their settings, rule text in the rule
language, and chess or Dice Chess. The presets' composition is checked first
(unknown ids, missing requirements, incompatible pairs, each refused with the
reason) before anything is built; rule text is parsed by the rule language
only, never evaluated as Python.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from chess_rules.rule_files import load_rule_text
from chess_rules.errors import ChessError
from chess_rules.fen import STARTING_FEN
from chess_rules.game import start_fen
from chess_rules.ruleset import RuleSet
from presets.layouts import LAYOUTS, get_layout, preferred_layout
from presets.registry import check_composition, load
from rete.errors import ReteError

from .errors import RulesError, TooLargeError
from .limits import Limits


@dataclass
class RulesChoice:
    """What the page chose (the rules of one game)."""

    variant: str = "chess"              # 'chess' or 'dice'
    layout: str | None = None
    presets: list[str] = field(default_factory=list)
    config: dict[str, dict] = field(default_factory=dict)
    rules: str | None = None            # rule text in the rule language

    def describe(self) -> dict:
        return {"variant": self.variant, "layout": self.layout, "presets": list(self.presets),
                "config": self.config, "rules": self.rules}


def check_presets(ids: list[str]) -> list[str]:
    """The ids in the order they apply, or :class:`RulesError` saying why they do
    not compose (nothing is built)."""
    try:
        return check_composition(ids)
    except ChessError as e:
        raise RulesError(str(e)) from None


def build_ruleset(choice: RulesChoice, limits: Limits) -> RuleSet:
    """FIDE plus the chosen presets (checked first) and rule text."""
    if choice.rules is not None and len(choice.rules) > limits.max_rule_text:
        raise TooLargeError(f"the rule text has {len(choice.rules)} characters, more than "
                            f"the server's limit of {limits.max_rule_text}")
    check_presets(choice.presets)
    try:
        rs = load(*choice.presets, config=choice.config or None)
        if choice.rules and choice.rules.strip():
            rs = load_rule_text(rs, choice.rules, source="rules")
    except (ChessError, ReteError) as e:
        raise RulesError(str(e)) from None
    return rs


def start_position(choice: RulesChoice, ruleset: RuleSet) -> str:
    """Where a game under ``ruleset`` starts: the chosen layout, else the first
    preset's preferred layout, else the rule set's own start."""
    if choice.layout is not None:
        try:
            fen = get_layout(choice.layout).fen
        except ChessError as e:
            raise RulesError(str(e)) from None
    else:
        own = start_fen(ruleset)
        fen = own if own != STARTING_FEN else preferred_layout(choice.presets).fen
    if choice.variant == "dice" and len(fen.split()) == 6:
        fen += " -"     # no dice yet: the first thing a turn does is roll
    return fen


def layout_table() -> list[dict]:
    """The layouts the picker offers."""
    return [{"id": l.id, "name": l.name, "fen": l.fen, "description": l.description}
            for l in LAYOUTS.values()]
