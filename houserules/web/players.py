"""The opponents the playground offers: the search engine, at a level.

The page plays against :func:`houserules.engine.choose_move` (chess) and
:func:`houserules.engine.choose_dice_turn` (Dice Chess). Where the engine is
not installed in this tree yet, the one-ply greedy bots of the terminal game
stand in for it (whatever the level).
"""
from __future__ import annotations

import random

try:
    from houserules.engine import choose_dice_turn, choose_move  # type: ignore[import-not-found]
    #: what the page plays against
    ENGINE = "houserules.engine"
except ImportError:     # the search engine has not landed: the greedy bots stand in
    ENGINE = "one-ply greedy bot (the search engine is not installed)"
    from houserules.dice_play import choose_turn
    from houserules.play import greedy_move

    def choose_move(game, level: int, rng: random.Random | None = None):
        """The greedy one-ply bot's move (the engine's stand-in)."""
        return greedy_move(game, rng or random.Random())

    def choose_dice_turn(game_or_dfen, level: int, rng) -> list[str]:
        """The greedy bot's turn (the engine's stand-in)."""
        if isinstance(game_or_dfen, str):
            dfen, ruleset = game_or_dfen, None
        else:
            dfen = game_or_dfen.dfen()
            ruleset = None if game_or_dfen.plain_dice else game_or_dfen.ruleset
        return list(choose_turn(dfen, "greedy", rng or random.Random(), ruleset=ruleset))


def bot_move(game, level: int, rng: random.Random):
    """The engine's move in ``game`` at ``level`` (None when there is none)."""
    if not game.legal_moves():
        return None
    return choose_move(game, level, rng)


def bot_turn(game, level: int, rng: random.Random) -> list[str]:
    """The engine's whole Dice Chess turn (micro-moves in UCI) in a rolled ``game``
    (read, not played on: plain Dice Chess goes as DFEN text, which the engine
    keeps its bot for; a preset's Dice Chess as the game, for its rule set)."""
    return list(choose_dice_turn(game.dfen() if game.plain_dice else game, level, rng))
