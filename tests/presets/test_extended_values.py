"""A piece attribute in an extended FEN is read as it is written: a whole
number is digits with an optional minus. ``int`` alone also reads ``+2``,
``2_0`` (as 20) and other digits, so such a token was taken silently as a
number the position never wrote; now the slot's own check refuses it."""
from __future__ import annotations

import pytest

from chess_rules.errors import FenError
from chess_rules.game import Game

FEN = "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1"


@pytest.mark.parametrize("value", ["+2", "2_0", "\u0663", "0x2", "9" * 5000],
                         ids=["plus", "underscore", "arabic-indic", "hex", "5000-digits"])
def test_a_hit_point_value_not_written_as_digits_is_refused(value):
    with pytest.raises(FenError, match="whole number of hit points"):
        Game(f"{FEN} hp:e4={value}", presets=["piece-hp"])


@pytest.mark.parametrize("value, hp", [("3", 3), ("1", 1), ("12", 12)])
def test_digits_read_back(value, hp):
    g = Game(f"{FEN} hp:e4={value}", presets=["piece-hp"])
    assert g.piece_at("e4").values["hp"] == hp
    assert Game(g.fen(), presets=["piece-hp"]).fen() == g.fen()


def test_a_preset_token_under_rules_without_the_preset_names_the_preset():
    # a position copied from a piece-hp game, read under FIDE (or another
    # preset): "unknown key 'hp'" alone did not say which rules write it
    for presets in ([], ["wrap-board"], ["coregal"]):
        with pytest.raises(FenError, match="unknown key 'hp'.*preset 'piece-hp'"):
            Game(f"{FEN} hp:e4=1", presets=presets)
    with pytest.raises(FenError, match="unknown key 'mod'.*modifiers"):
        Game(f"{FEN} mod:-")
    with pytest.raises(FenError) as e:
        Game(f"{FEN} zz:-")
    assert "unknown key 'zz'" in str(e.value) and "preset" not in str(e.value)
