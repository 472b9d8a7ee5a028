"""Where a PGN game starts: the FEN tag, which the export must write whenever
the standard start is not where a reader would begin."""
from __future__ import annotations

from pathlib import Path

from chess_rules.fen import STARTING_FEN
from chess_rules.game import Game
from chess_rules.ruleset_spec import load_ruleset_spec

ROOT = Path(__file__).resolve().parents[2]


def horde():
    return load_ruleset_spec(str(ROOT / "examples" / "rulesets" / "horde.py") + ":build")


def test_a_game_from_the_standard_start_under_a_rule_set_with_its_own_start_has_a_fen_tag():
    # without the tag, a reader starts a horde game at the horde's start
    rs = horde()
    g = Game(STARTING_FEN, ruleset=rs)
    g.push("e2e4")
    assert f'[FEN "{STARTING_FEN}"]' in g.pgn() and '[SetUp "1"]' in g.pgn()
    # its own start is written as before, and standard chess has no tag
    own = Game(ruleset=rs)
    assert f'[FEN "{rs.config["start-fen"]}"]' in own.pgn()
    assert "FEN" not in Game().pgn()
