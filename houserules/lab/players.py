"""The bots the lab plays with, by level: the search engine's.

The lab calls the engine through two functions only:
``choose_move(game, level, rng)`` (a chess move) and
``choose_dice_turn(game_or_dfen, level, rng)`` (the micro-moves of one Dice
Chess turn, in UCI), both :mod:`houserules.engine`'s. ``ENGINE`` names them in
each run's record, so a database says which bots played its games.
"""
from __future__ import annotations

from houserules.engine import choose_dice_turn, choose_move

__all__ = ["choose_move", "choose_dice_turn", "ENGINE"]

#: the bots' source, stored with each run
ENGINE = "houserules.engine"
