"""The hooks a class of Game that plays a variant overrides (as python-chess's
``Board`` has ``is_variant_end``), and the public operations it uses: DiceGame
is written with these only, no private name of Game (tests/test_layers.py)."""
from __future__ import annotations

import pytest

from chess_rules.errors import ArgumentError, ChessError, IllegalMoveError
from chess_rules.fide import fide_rules
from chess_rules.game import Game, Outcome


class LoudError(IllegalMoveError):
    pass


class Loud(Game):
    """A variant class of its own: other refusals, no repetition record."""

    tracks_repetitions = False

    def illegal_move_error(self, uci, reason, rule):
        return LoudError(uci, "LOUD " + reason, rule)

    def nothing_to_take_back_error(self):
        return ChessError("LOUD nothing")


def test_push_raises_the_error_the_hook_makes():
    g = Loud()
    with pytest.raises(LoudError, match="LOUD"):
        g.push("e2e5")
    with pytest.raises(IllegalMoveError) as plain:
        Game().push("e2e5")
    assert not isinstance(plain.value, LoudError)


def test_pop_raises_the_error_the_hook_makes():
    with pytest.raises(ChessError, match="LOUD nothing"):
        Loud().pop()


def test_a_class_that_tracks_no_repetitions_keeps_no_key():
    g, plain = Loud(), Game()
    for u in ("g1f3", "g8f6", "f3g1", "f6g8"):
        g.push(u)
        plain.push(u)
    assert plain.repetitions() == 2
    assert g.fen() == plain.fen()
    with pytest.raises(ChessError, match="keeps no record of positions"):
        g.repetitions()
    for _ in range(2):                  # threefold under FIDE: not for g
        for u in ("g1f3", "g8f6", "f3g1", "f6g8"):
            g.push(u)
            plain.push(u)
    assert plain.outcome().reason == "threefold repetition"
    assert g.outcome() is None


def test_a_rule_set_names_the_class_that_plays_it():
    rs = fide_rules()
    rs.config["played-with"] = "mypackage.OtherGame"
    with pytest.raises(ArgumentError, match="played with mypackage.OtherGame"):
        Game(ruleset=rs)

    class Other(Game):
        @classmethod
        def refuses_ruleset(cls, ruleset):
            return None
    assert Other(ruleset=rs).legal_uci()


def test_the_dice_rule_set_is_refused_by_game_and_played_by_dice_game():
    from dice import DiceGame, dice_rules
    with pytest.raises(ArgumentError, match="played with dice.DiceGame"):
        Game(ruleset=dice_rules())
    assert DiceGame(ruleset=dice_rules()).dice() == []


def test_the_position_read_through_public_properties():
    g = Game("4k3/8/8/8/8/8/4P3/4K3 w - - 7 12")
    assert (g.halfmove_clock, g.fullmove_number, g.half_moves_in_turn) == (7, 12, 0)
    g.push("e2e4")
    assert g.starting_fen == "4k3/8/8/8/8/8/4P3/4K3 w - - 7 12"
    assert g.movers() == ["white"]
    dm = Game(presets=["double-move"])
    dm.push("e2e4")
    assert dm.half_moves_in_turn == 1 and dm.turn == "white"


def test_reload_sets_up_another_position_on_the_same_network():
    g = Game()
    network = g.session
    g.reload("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
    assert g.session is network
    assert g.legal_uci() == sorted(Game("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").legal_uci())
    g.push("e2e4")
    with pytest.raises(ChessError, match="no move to take back"):
        g.reload("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    assert g.fen() == "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1"


def test_a_journaled_request_drops_the_legal_moves_it_may_have_changed():
    # Dice Chess's roll and end of turn are such requests
    g = Game("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
    before = g.legal_uci()
    with g.request("status", journaled=True, color="white", moves=len(before), check=False):
        pass
    assert g.legal_uci() == before


def test_outcome_from_fact():
    g = Game("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    g.push("a1a8")
    out = g.outcome()
    assert out == Outcome("white", "checkmate", out.rule) and out.rule
