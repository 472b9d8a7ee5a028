"""The opponents the playground offers: the search engine, at a level.

The page plays against :func:`houserules.engine.choose_move` (chess) and
:func:`houserules.engine.choose_dice_turn` (Dice Chess).
"""
from __future__ import annotations

import random

from houserules.engine import choose_dice_turn, choose_move

#: what the page plays against
ENGINE = "houserules.engine"


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
