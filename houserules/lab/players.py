"""The bots the lab plays with, by level: the search engine's.

The lab calls the engine through two functions of this module only:
``choose_move(game, level, rng)`` (a chess move) and
``choose_dice_turn(game_or_dfen, level, rng)`` (the micro-moves of one Dice
Chess turn, in UCI). They are :mod:`houserules.engine`'s. Until that package
is in the tree they fall back on the one-ply bots of ``houserules play``:
level 1 a random mover, level 2 and up the greedy bot (for Dice Chess: level 1
``random``, 2 ``greedy``, 3 and up ``odds``).
"""
from __future__ import annotations

import random

__all__ = ["choose_move", "choose_dice_turn", "ENGINE"]

try:
    from houserules.engine import choose_dice_turn, choose_move  # type: ignore[import-not-found,attr-defined,no-redef,unused-ignore]
    ENGINE = "houserules.engine"
except ImportError:         # the fallback below; removed once the engine is merged
    ENGINE = "one-ply bots (the search engine is not installed)"

    from houserules.dice_play import choose_turn
    from houserules.play import greedy_move

    def choose_move(game, level: int, rng: random.Random | None = None):  # type: ignore[misc,unused-ignore]
        """A legal move of ``game`` for a bot of ``level`` (None: no legal move)."""
        rng = rng or random.Random()
        if level <= 1:
            moves = game.legal_moves()
            return rng.choice(moves) if moves else None
        return greedy_move(game, rng)

    def choose_dice_turn(game_or_dfen, level: int, rng) -> list[str]:  # type: ignore[misc,unused-ignore]
        """The micro-moves (UCI) of one legal turn of a rolled Dice Chess position."""
        from dice.turns import TurnTree, build_tree, EngineBackend
        if isinstance(game_or_dfen, str):
            from dice import DiceGame
            game_or_dfen = DiceGame(game_or_dfen)
        game = game_or_dfen
        nodes, most = build_tree(EngineBackend(game))
        tree = TurnTree(game.dfen(), nodes, most, tuple(game.dice()))
        bot = "random" if level <= 1 else "greedy" if level == 2 else "odds"
        ruleset = None if game.plain_dice else game.ruleset
        return list(choose_turn(game.dfen(), bot, rng, tree, ruleset))
