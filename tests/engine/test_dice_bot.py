"""The Dice Chess bot: whole legal turns, for plain Dice Chess and over presets."""
import random

import pytest

from dice import DiceGame, roll, turn_tree
from dice.dfen import START_DFEN
from houserules.engine import choose_dice_turn
from houserules.engine.dice_bot import ROLLS


def test_the_56_rolls_and_their_chances():
    assert len(ROLLS) == 56 == len({r for r, _ in ROLLS})
    assert abs(sum(p for _, p in ROLLS) - 1) < 1e-12
    chance = dict(ROLLS)
    assert chance["PPP"] == 1 / 216 and chance["PPN"] == 3 / 216 and chance["PNB"] == 6 / 216


@pytest.mark.parametrize("level", [1, 3, 5])
def test_a_turn_is_a_whole_legal_turn(level):
    rng = random.Random(level)
    dfen = roll(START_DFEN, rng)
    path = choose_dice_turn(dfen, level, rng)
    assert tuple(path) in set(turn_tree(dfen).paths())


def test_takes_the_king_when_the_dice_allow():
    # a white rook on e1 facing the black king on e8, a rook die rolled
    dfen = "4k3/8/8/8/8/8/8/K3R3 w - - 0 1 RPP"
    assert choose_dice_turn(dfen, 4, random.Random(1))[-1] == "e1e8"


def test_over_a_preset_the_games_rules_are_played():
    g = DiceGame("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 PKK", presets=["piece-hp"])
    path = choose_dice_turn(g, 5, random.Random(2))
    assert tuple(path) in set(turn_tree(g.dfen(), g.ruleset).paths())


def test_an_unrolled_position_is_refused():
    with pytest.raises(ValueError, match="not rolled"):
        choose_dice_turn(START_DFEN.rsplit(" ", 1)[0] + " -", 5, random.Random(0))
