"""Presets, custom modifiers and Dice Chess are written for the 8x8 board:
over a rule set on another board each is refused with a typed error naming it
and the board, and the rule set is left as it was."""
from __future__ import annotations

import pytest

import presets
from chess_rules.errors import ArgumentError
from chess_rules.game import Game
from chess_rules.variants import load_variant
from dice import DiceBoardError, DiceGame, dice_rules
from presets import PresetBoardError
from presets.modifiers import ModifierBoardError, attach


@pytest.mark.parametrize("variant, board", [("capablanca", "10x8"), ("gardner", "5x5")])
def test_a_preset_over_another_board_is_refused(variant, board):
    rules = load_variant(variant)
    before = dict(rules.productions)
    with pytest.raises(PresetBoardError, match=rf"preset 'piece-hp' .* a {board} board"):
        presets.load("piece-hp", base=rules)
    assert rules.productions == before and rules.presets == []
    assert isinstance(PresetBoardError("x"), ArgumentError)
    Game(ruleset=rules)         # the variant still plays


def test_presets_over_a_variant_on_8x8_still_load():
    assert presets.load("piece-hp", base=load_variant("almost")).presets == ["piece-hp"]


def test_a_modifier_over_another_board_is_refused():
    rules = load_variant("losalamos")
    with pytest.raises(ModifierBoardError, match=r"modifier 'berserker' .* a 6x6 board"):
        attach(rules, "berserker")
    assert "modifiers" not in rules.config


def test_dice_chess_over_another_board_is_refused():
    rules = load_variant("embassy")
    with pytest.raises(DiceBoardError, match=r"Dice Chess .* \(embassy\) .* a 10x8 board"):
        dice_rules(rules)
    with pytest.raises(DiceBoardError):
        DiceGame(ruleset=rules)
