"""The engine on boards other than 8x8: it plays legal moves of a Capablanca
(10x8) game, takes a piece left hanging, and its evaluation reads squares on
the game's own board."""
from __future__ import annotations

import random

from chess_rules.game import Game
from houserules.engine import Evaluator, choose_move

HANGING = "rnabqkbcnr/pppppppppp/10/10/10/5c4/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"


def test_the_engine_plays_legal_capablanca_moves():
    game = Game.from_variant("capablanca")
    rng = random.Random(1)
    for _ in range(6):
        legal = game.legal_uci()
        move = choose_move(game, 2, rng)
        assert move.uci() in legal
        game.push(move)


def test_the_engine_takes_a_hanging_chancellor():
    game = Game.from_variant("capablanca", fen=HANGING)
    move = choose_move(game, 2, random.Random(0))
    assert game.state.names[move.to] == "f3" and move.is_capture


def test_the_evaluation_reads_the_boards_own_squares():
    game = Game.from_variant("capablanca", fen="5k4/10/10/10/10/10/10/N4K4 w - - 0 1")
    evaluate = Evaluator(game.ruleset)
    corner = evaluate(game)
    central = evaluate(Game.from_variant("capablanca",
                                         fen="5k4/10/10/10/4N5/10/10/5K4 w - - 0 1"))
    assert central > corner            # a knight on e4 of 10x8 stands better than on a1
    # pawns as far from their homes on a 10-rank board weigh the same: White's
    # on a7 (five steps up), Black's on h4 (five steps down)
    mirrored = Game("4k3/8/8/P7/8/8/7p/8/8/4K3 w - - 0 1", ruleset=_fide_on(8, 10))
    assert Evaluator(mirrored.ruleset)(mirrored) == 0
    ahead = Game("4k3/8/8/P7/8/8/8/7p/8/4K3 w - - 0 1", ruleset=_fide_on(8, 10))
    assert Evaluator(ahead.ruleset)(ahead) < 0      # (Black's is a step further on)


def _fide_on(width, height):
    from chess_rules.fide import fide_rules
    from chess_rules.shape import board_shape
    return fide_rules(board_shape(width, height))
