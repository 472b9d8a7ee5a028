"""The default Dice Chess rule set is the user's to edit, and a rule set that
never spends a die is refused with a typed error, not a recursion limit."""
from __future__ import annotations

import pytest

import dice
from dice.game import DiceGame, default_ruleset, is_plain_dice
from dice.rules import dice_rules
from dice.turns import EngineBackend

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 NNP"


def test_editing_the_default_rule_set_changes_no_other_game():
    before = dice.legal_turn_tree(START)
    mine = default_ruleset()
    mine.remove("fide.knight-move")
    assert "fide.knight-move" in default_ruleset().productions
    assert "b1c3" in DiceGame(START).legal_uci()
    dice.turns._CACHE.clear()
    assert dice.legal_turn_tree(START) == before
    # the edited copy plays by its own rules: no knight moves at all
    assert all(not u.startswith(("b1", "g1")) for u in DiceGame(START, mine).legal_uci())


def test_an_unedited_copy_keeps_the_pair_shortcut_and_an_edited_one_loses_it():
    assert is_plain_dice(default_ruleset())
    assert EngineBackend(DiceGame(START, default_ruleset())).commutes
    removed = default_ruleset()
    removed.remove("fide.castling")
    assert not is_plain_dice(removed)
    swapped = default_ruleset()
    swapped.functions["spend-die"] = lambda ctx, *a: None     # same productions, other action
    assert not is_plain_dice(swapped)
    configured = default_ruleset()
    configured.config["start-fen"] = START
    assert not is_plain_dice(configured)
    # a rule set built anew is Dice Chess too, but not the one the argument was checked on
    assert not is_plain_dice(dice_rules())


def test_a_rule_set_that_spends_no_die_is_refused_by_name():
    rs = default_ruleset()
    rs.remove("dice.spend-die")
    with pytest.raises(dice.TurnTreeError, match=r"a2a3 spent no die \(3 left") as e:
        dice.legal_turn_tree(START, rs)
    assert isinstance(e.value, dice.DiceError)
    # the game itself stays usable: its micro-moves are listed and played
    g = DiceGame(START, rs)
    g.push("b1c3")
    assert g.dice_letters() == "NNP"
