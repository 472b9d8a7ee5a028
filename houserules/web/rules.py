"""The rules a playground game is played under, built from what the page chose.

A choice is chess, Dice Chess or a variant of the built-in catalogue
(``houserules variants``: capablanca on 10x8, gardner on 5x5, ...), a layout,
preset ids with their settings, and rule text in the rule language. The presets' composition is checked first
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
from chess_rules.variants import catalogue, load_variant
from presets.layouts import LAYOUTS, get_layout, preferred_layout
from presets.registry import check_composition, load
from rete.errors import ReteError

from .errors import RulesError, TooLargeError
from .limits import Limits


@dataclass
class RulesChoice:
    """What the page chose (the rules of one game)."""

    variant: str = "chess"              # 'chess', 'dice' or a catalogue variant's name
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


#: what ``variant`` may be besides a catalogue variant's name
KINDS = ("chess", "dice")


def is_catalogue_variant(variant: str) -> bool:
    """Whether ``variant`` names a variant of the catalogue (not chess or dice)."""
    return variant not in KINDS


def variant_base(choice: RulesChoice) -> RuleSet | None:
    """The catalogue variant's rule set the presets apply over (None for
    chess and Dice Chess, which are FIDE's); an unknown name, or a layout
    given with a variant (which starts from its own position), is a
    :class:`RulesError`."""
    if not is_catalogue_variant(choice.variant):
        return None
    names = [s.name for s in catalogue()]
    if choice.variant not in names:
        raise RulesError(f"unknown variant {choice.variant!r}: chess, dice, or one of the "
                         f"catalogue's: {', '.join(names)}")
    if choice.layout is not None:
        raise RulesError(f"variant {choice.variant!r} starts from its own position: give "
                         f"no layout (a fen sets up another position)")
    return load_variant(choice.variant)


def build_ruleset(choice: RulesChoice, limits: Limits) -> RuleSet:
    """FIDE, or the chosen catalogue variant, plus the chosen presets (checked
    first) and rule text."""
    if choice.rules is not None and len(choice.rules) > limits.max_rule_text:
        raise TooLargeError(f"the rule text has {len(choice.rules)} characters, more than "
                            f"the server's limit of {limits.max_rule_text}")
    base = variant_base(choice)
    check_presets(choice.presets)
    try:
        rs = load(*choice.presets, config=choice.config or None, base=base)
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


def variant_table() -> list[dict]:
    """The catalogue's variants the page offers, with their boards."""
    out = []
    for s in catalogue():
        shape = load_variant(s.name).shape
        out.append({"name": s.name, "description": s.description,
                    "files": shape.width, "ranks": shape.height})
    return out


def layout_table() -> list[dict]:
    """The layouts the picker offers."""
    return [{"id": l.id, "name": l.name, "fen": l.fen, "description": l.description}
            for l in LAYOUTS.values()]
