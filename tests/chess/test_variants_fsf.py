"""Every catalogue variant against Fairy-Stockfish (pyffish), which loads the
same variants.ini text through ``load_variant_config``.

Along seeded random playouts from each variant's start both must agree on the
legal move set at every ply, on perft(2) at sampled plies, and, where our game
ends, on the game being over (at once, by a move-less position, or by the
repetition and move-count rules FSF leaves optional) and on its result. The
sections are loaded into pyffish under a prefix, so FSF's own built-in
variants of the same names (which other tests use) stay as they are.
"""
from __future__ import annotations

import random
import re

import pytest

from chess_rules.game import Game
from chess_rules.variants import catalogue, catalogue_text, load_variant

sf = pytest.importorskip("pyffish")

PREFIX = "hrcat-"
sf.load_variant_config(re.sub(r"^\[([\w-]+):", rf"[{PREFIX}\1:", catalogue_text(), flags=re.M))

NAMES = [s.name for s in catalogue()]


def fsf_winner(value: int, turn: str) -> str | None:
    """FSF's result (for the side to move) as a winner (None: a draw)."""
    if value == 0:
        return None
    return turn if value > 0 else ("black" if turn == "white" else "white")


def check_playouts(name, playouts, plies):
    rules = load_variant(name)
    fen = rules.config["start-fen"]
    variant = PREFIX + name
    assert sf.start_fen(variant) == fen
    rng = random.Random(name)
    for _ in range(playouts):
        game = Game(fen, ruleset=rules)
        played: list[str] = []
        for ply in range(plies):
            outcome = game.outcome()
            ours = sorted(game.legal_uci())
            theirs = sorted(sf.legal_moves(variant, fen, played))
            if outcome is not None:
                over, value = sf.is_immediate_game_end(variant, fen, played)
                if not over and not theirs:
                    over, value = True, sf.game_result(variant, fen, played)
                if not over:
                    over, value = sf.is_optional_game_end(variant, fen, played)
                if not over and all(sf.has_insufficient_material(variant, fen, played)):
                    over, value = True, 0
                assert over, (name, played, outcome)
                assert fsf_winner(value, game.turn) == outcome.winner, (name, played, outcome)
                break
            assert ours == theirs, (name, played, set(ours) ^ set(theirs))
            over, _ = sf.is_immediate_game_end(variant, fen, played)
            assert not over, (name, played)
            if ply % 29 == 3:
                assert game.perft(2) == sum(
                    len(sf.legal_moves(variant, fen, played + [m])) for m in theirs)
            move = rng.choice(ours)
            game.push(move)
            played.append(move)


@pytest.mark.parametrize("name", NAMES)
def test_catalogue_variant_agrees_with_fairy_stockfish(name):
    check_playouts(name, 1, 60)


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_catalogue_variant_agrees_along_long_playouts(name):
    check_playouts(name, 6, 150)


#: positions one move from an end by each rule a catalogue variant adds
#: (variant, FEN, the moves to compare after): the flag, extinction by type and
#: of every piece, stalemate as a win, compulsory captures, Horde's last piece
ENDINGS = [
    ("kingofthehill", "4k3/8/8/8/2K5/8/8/8 w - - 0 1"),
    ("kingofthehill", "8/8/8/8/2K5/8/8/4k3 b - - 0 1"),
    ("extinction", "4k3/8/8/8/8/8/1r6/R3K3 w - - 0 1"),
    ("extinction", "4k3/p7/8/8/8/8/8/R3K3 w - - 0 1"),
    ("kinglet", "4k3/8/8/8/8/8/p7/R3K3 w - - 0 1"),
    ("kinglet", "4k3/8/8/8/8/8/P7/r3K3 b - - 0 1"),
    ("antichess", "8/8/8/8/8/8/p7/R7 w - - 0 1"),
    ("antichess", "8/8/8/8/8/p7/P7/8 w - - 0 1"),
    ("antichess", "8/8/8/8/8/2p5/8/R6k w - - 0 1"),
    ("horde", "4k3/8/8/8/8/8/2q5/3P4 b - - 0 1"),
    ("horde", "4k3/8/8/8/8/8/8/P7 w - - 0 1"),
]


@pytest.mark.parametrize("name, fen", ENDINGS)
def test_endings_agree_with_fairy_stockfish(name, fen):
    variant = PREFIX + name
    rules = load_variant(name)
    game = Game(fen, ruleset=rules)
    theirs = sorted(sf.legal_moves(variant, fen, []))
    assert sorted(game.legal_uci()) == theirs
    for move in theirs:
        game.push(move)
        outcome = game.outcome()
        over, value = sf.is_immediate_game_end(variant, fen, [move])
        if not over and not sf.legal_moves(variant, fen, [move]):
            over, value = True, sf.game_result(variant, fen, [move])
        assert (outcome is not None) == over, (name, fen, move, outcome)
        if over:
            assert outcome.winner == fsf_winner(value, game.turn), (name, fen, move)
        else:
            assert sorted(game.legal_uci()) == sorted(sf.legal_moves(variant, fen, [move]))
        game.pop()
