"""A search engine for any rule set houserules plays, with strength levels.

>>> import random
>>> from chess_rules.game import Game
>>> from houserules.engine import choose_move
>>> move = choose_move(Game("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"), level=3, rng=random.Random(1))
>>> move.uci(), move.rule
('a1a8', 'fide.rook-move')

``choose_move(game, level, rng)`` picks a move for a chess :class:`Game` (any
presets, custom rules or modifiers); ``choose_dice_turn(game_or_dfen, level,
rng)`` the micro-moves of a whole Dice Chess turn. :class:`Searcher` is the
search itself (limits, information per iteration), :mod:`.levels` the table
of levels, :mod:`.uci` the UCI front end. See docs/engine-play.md.
"""
from __future__ import annotations

import random

from .dice_bot import choose_dice_turn
from .evaluate import Evaluator
from .levels import DEFAULT_LEVEL, LEVELS, Level, LevelError, get_level
from .search import Info, Limits, Result, Searcher, position_key

__all__ = ["choose_move", "choose_dice_turn", "analyse", "Searcher", "Limits", "Info",
           "Result", "Evaluator", "Level", "LEVELS", "LevelError", "DEFAULT_LEVEL",
           "get_level", "position_key"]


def choose_move(game, level: int, rng: random.Random | None = None,
                movetime: float | None = None):
    """The move the engine plays at ``level`` (1..10) in ``game``'s position: a
    legal :class:`~chess_rules.moves.Move` of the game, which is left as it was.
    ``rng`` decides the lowest levels' errors (a seeded one repeats them);
    ``movetime`` (seconds) caps the search besides the level's own limits.
    A game that is over raises ValueError."""
    lv = get_level(level)
    searcher = Searcher(game, noise=lv.noise, rng=rng or random.Random(),
                        quiescence=lv.quiescence)
    return searcher.search(lv.limits(movetime)).move


def analyse(game, limits: Limits, on_info=None) -> Result:
    """Search ``game``'s position within ``limits`` (no noise): the best move,
    its score for the side to move and the principal variation."""
    return Searcher(game, on_info=on_info).search(limits)
