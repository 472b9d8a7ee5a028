"""Our own PGN export read back by our reader, under every preset and random
combinations of them: the same rules (from the ``Variant`` tag), the same start
(from the ``FEN`` tag, extended fields and a turn begun mid-way included), the
same moves and position, and the text written again is the text read.

Multi-move presets (double-move, monster-rules) write the half-moves of one
turn after one number (``1. e4 d4 1... e5 d5``): the reader plays them in order.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from chess_rules.game import Game
from chess_rules.pgn import read_games
from chess_rules.ruleset_spec import load_ruleset_spec
from presets.layouts import get_layout
from presets.registry import with_requirements

sys.path.insert(0, str(Path(__file__).parent))
from _combinations import METAS, combinations  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def start_of(ids) -> str | None:
    for i in ids:
        if METAS[i].preferred_layout:
            return get_layout(METAS[i].preferred_layout).fen
    return None


def playout(game: Game, rng: random.Random, plies: int) -> Game:
    for _ in range(plies):
        if game.outcome() is not None:
            break
        moves = game.legal_moves()
        if not moves:
            break
        sharp = [m for m in moves if m.victim is not None or m.promo]
        game.push(rng.choice(sharp if sharp and rng.random() < 0.5 else moves))
    return game


def round_trip(g: Game, headers=None, **read) -> Game:
    """Export ``g``, read it back, check it is the same game; the game read."""
    text = g.pgn(headers)
    again = Game.from_pgn(text, **read)
    assert again.ruleset.presets == g.ruleset.presets, text
    assert [m.uci() for m in again.move_stack] == [m.uci() for m in g.move_stack], text
    assert again.fen() == g.fen() and again.outcome() == g.outcome(), text
    (pg,) = read_games(text)
    assert again.pgn(pg.tags) == text
    return again


@pytest.mark.parametrize("pid", sorted(METAS))
def test_every_preset_round_trips(pid):
    ids = with_requirements([pid])
    rng = random.Random(pid)
    g = playout(Game(start_of(ids), presets=ids), rng, 14)
    round_trip(g, {"White": 'Ann "A"', "Event": "round trip"})


@pytest.mark.parametrize("ids", combinations(4, 3031), ids="+".join)
def test_combinations_round_trip(ids):
    rng = random.Random("+".join(ids))
    round_trip(playout(Game(start_of(ids), presets=ids), rng, 24))


@pytest.mark.slow
@pytest.mark.parametrize("ids", combinations(60, 3032), ids="+".join)
def test_combinations_round_trip_long(ids):
    for seed in range(3):
        rng = random.Random(f"{seed}{ids}")
        round_trip(playout(Game(start_of(ids), presets=ids), rng, 80))


@pytest.mark.parametrize("fen", [
    "4k3/8/8/8/4P3/8/8/4K3 w - e3 0 7 half:1",                  # mid-way through a turn
    "rnbqkbnr/pppppppp/8/8/3PP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 9",
])
@pytest.mark.parametrize("preset", ["double-move", "monster-rules"])
def test_multi_move_turns_round_trip_from_a_fen_tag(preset, fen):
    for seed in range(2):
        g = playout(Game(fen, presets=[preset]), random.Random(seed), 10)
        assert "[FEN " in g.pgn()
        round_trip(g)


def test_monster_black_scope_round_trips_with_its_config():
    config = {"monster-rules": {"scope": "black"}}
    g = Game(presets=["monster-rules"], config=config)
    for u in ["e2e4", "e7e5", "d7d5", "g1f3", "g8f6", "b8c6"]:
        g.push(u)
    round_trip(g, config=config)
    # the configuration is written beside the Variant tag: read back without
    # it, the moves were played under the default scope, a different game
    text = g.pgn()
    assert '[VariantConfig "monster-rules.scope=black"]' in text
    round_trip(g)
    assert Game.from_pgn(text).ruleset.config["turn-structure"] == \
        {"white": 1, "black": 2}


def test_a_default_configuration_writes_no_tag():
    for config in (None, {"monster-rules": {"scope": "white"}}):
        g = Game(presets=["monster-rules"], config=config)
        g.push("e2e4")
        assert "VariantConfig" not in g.pgn()
    g = Game(presets=["extinction-chess"], config={"extinction-chess": {"target_type": "knight"}})
    g.push("e2e4")
    assert '[VariantConfig "extinction-chess.target_type=knight"]' in g.pgn()
    round_trip(g)


def test_settings_that_are_no_bare_word_are_written_so_as_to_read_back():
    # no preset has such a setting yet: a list, a string with spaces or quotes,
    # or a word JSON reads as something else must still make one item each
    from presets import load
    from presets.registry import PRESET_CONFIG, config_text, parse_config_text
    settings = {"a": [1, "x y"], "b": "two  words", "c": "true", "d": 'say "hi"',
                "e": {"k": [None, 2.5]}, "f": "plain"}
    rs = load("monster-rules")
    rs.config[PRESET_CONFIG] = {"monster-rules": settings}
    text = config_text(rs)
    assert len(text.split()) == len(settings), text
    assert "monster-rules.f=plain" in text.split()
    assert parse_config_text(text) == {"monster-rules": settings}


def test_a_bad_variant_config_tag_is_refused_at_the_tag():
    from chess_rules.errors import PgnError
    for value, why in [("monster-rules.scope=purple", "scope"),
                       ("monster-rules", "PRESET.KEY=VALUE"),
                       ("piece-hp.x=1", "not loaded")]:
        text = f'[Variant "monster-rules"]\n[VariantConfig "{value}"]\n\n1. e4 *'
        with pytest.raises(PgnError, match=why) as e:
            Game.from_pgn(text)
        assert e.value.line == 2, str(e.value)


def test_hit_points_in_the_fen_tag_round_trip():
    fen = "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1 hp:d2=1,d5=3"
    g = Game(fen, presets=["piece-hp"])
    g.push("d2d5")
    again = round_trip(g)
    assert again.fen() == g.fen() and again.move_stack[0].uci() == "d2d5"


@pytest.mark.parametrize("name", ["horde", "racing_kings", "three_check"])
def test_rule_sets_of_their_own_round_trip_given_the_rule_set(name):
    rs = load_ruleset_spec(str(ROOT / "examples" / "rulesets" / f"{name}.py") + ":build")
    for fen in (None, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"):
        if name == "racing_kings" and fen:
            continue
        g = playout(Game(fen, ruleset=rs), random.Random(name), 16)
        round_trip(g, ruleset=rs)
