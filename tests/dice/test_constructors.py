"""DiceGame takes its rules as Game does: a rule set, or presets (with their
config) by id; Dice Chess has no PGN, and says so."""
from __future__ import annotations

import pytest

from chess_rules.errors import ChessError
from dice import DiceError, DiceGame, dice_rules
from presets import load

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 NPP"


def test_from_fen_with_presets_plays_dice_chess_over_them():
    # piece-hp's hit points travel as a token: the same game as with the rule set
    dfen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 PP hp:e2=1"
    by_id = DiceGame.from_fen(dfen, presets=["piece-hp"])
    by_rules = DiceGame(dfen, dice_rules(load("piece-hp")))
    assert by_id.ruleset.presets == ["piece-hp"]
    assert by_id.dfen() == by_rules.dfen() == dfen
    assert by_id.legal_uci() == by_rules.legal_uci()
    assert DiceGame.from_fen(dfen, presets="piece-hp").dfen() == dfen     # one id


def test_presets_take_their_config():
    # Berolina pawns for Black only: White's pawns push straight on
    g = DiceGame.from_fen(START, presets=["berolina-pawns"],
                          config={"berolina-pawns": {"scope": "black"}})
    assert "e2e4" in g.legal_uci() and "e2d3" not in g.legal_uci()
    assert "e2d3" in DiceGame.from_fen(START, presets=["berolina-pawns"]).legal_uci()


def test_from_fen_without_presets_is_plain_dice_chess():
    g = DiceGame.from_fen(START)
    assert g.plain_dice and g.dfen() == START


def test_presets_and_a_rule_set_together_are_refused():
    with pytest.raises(ChessError, match="presets .* or a ruleset, not both"):
        DiceGame(START, dice_rules(load("piece-hp")), presets=["piece-hp"])


def test_an_unknown_preset_is_a_typed_error():
    with pytest.raises(ChessError, match="unknown preset 'nope'"):
        DiceGame.from_fen(START, presets=["nope"])


def test_pgn_is_refused_both_ways():
    with pytest.raises(DiceError, match="no PGN form"):
        DiceGame.from_pgn("1. e4 e5 *")
    with pytest.raises(DiceError, match="no PGN form"):
        DiceGame.from_pgn("1. e4 e5 *", presets=["piece-hp"])
    g = DiceGame(START)
    g.push("e2e4")
    with pytest.raises(DiceError, match="no PGN form"):
        g.pgn()
    assert g.dfen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1 NP"
