"""Strength levels 1..10: the limits each one searches with.

A level is a depth and a node budget (so that a level plays the same
strength on any machine, and the same move for the same random seed), and,
at the lowest levels, noise: a random number of centipawns up to ``noise``
added to each root move's score, so that the weakest levels miss what they
would otherwise see. ``movetime`` caps the time as well where a caller asks
for it (the UCI ``go`` without limits, ``houserules play``).

=====  =====  ======  =====  ========  =====================================
level  depth  nodes   noise  captures  plays like
=====  =====  ======  =====  ========  =====================================
1      1      -       1000   no        a beginner: a near-random move, but
                                       mates
2      1      -       250    no        takes what hangs, often misses the
                                       best
3      1      -       0      yes       one ply and the captures that follow
4      2      2500    0      yes       a full two-ply search
5      3      3000    0      yes       three plies where the budget allows
6      4      5000    0      yes
7      5      7500    0      yes
8      6      12000   0      yes
9      8      18000   0      yes
10     64     27000   0      yes       as deep as 27000 nodes go
=====  =====  ======  =====  ========  =====================================

"captures": whether the search goes on past its depth through the captures
(quiescence); the two weakest levels take the static score at the horizon,
which also keeps them cheap: searching every capture sequence after every
root move with the full window that noise needs cost them ten times the
nodes of level 3. Each level searches strictly more than the one below:
noise falls off sharply at levels 1 to 3, then depth and node budget rise,
the budget by half again at each level from 6 up (a level 10 of 16000
nodes against a level 9 of 13000 scored an even 50%).
(Budgets smaller than a full depth-2 search, ~850 nodes in a quiet
middlegame, made two levels of the same depth play alike.)

A node costs about a third of a millisecond of CPU in the pure build (every
move is made and taken back through the productions; a quarter in the
compiled one), so level 5 thinks up to about 1 s a move, level 10 about
seven seconds (more on a loaded machine).

Dice Chess (:mod:`houserules.engine.dice_bot`) reads ``dice_candidates``:
how many of its best turns by the static score it searches further, over
the opponent's 56 possible rolls (0: the static score alone; 2, 4, 6, 8, 12,
16 and 24 at levels 4 to 10), and ``dice_noise``, the weakest levels' errors.
"""
from __future__ import annotations

from dataclasses import dataclass

from .search import MAX_QUIESCENCE, Limits


@dataclass(frozen=True)
class Level:
    """The limits of one strength level."""

    level: int
    depth: int
    nodes: int | None
    noise: int
    dice_candidates: int
    dice_noise: int
    #: plies of captures searched past ``depth`` (0: the static score there)
    quiescence: int = MAX_QUIESCENCE

    def limits(self, movetime: float | None = None, stop=None) -> Limits:
        """The search limits of this level (and ``movetime`` seconds at most)."""
        return Limits(depth=self.depth, nodes=self.nodes, movetime=movetime, stop=stop)


LEVELS = {
    1: Level(1, 1, None, 1000, 0, 400, quiescence=0),
    2: Level(2, 1, None, 250, 0, 150, quiescence=0),
    3: Level(3, 1, None, 0, 0, 0),
    4: Level(4, 2, 2500, 0, 2, 0),
    5: Level(5, 3, 3000, 0, 4, 0),
    6: Level(6, 4, 5000, 0, 6, 0),
    7: Level(7, 5, 7500, 0, 8, 0),
    8: Level(8, 6, 12000, 0, 12, 0),
    9: Level(9, 8, 18000, 0, 16, 0),
    10: Level(10, 64, 27000, 0, 24, 0),
}
#: the level used when none is given (the command line's default)
DEFAULT_LEVEL = 5


class LevelError(ValueError):
    """A strength level that is not a whole number 1..10."""


def get_level(level) -> Level:
    """The :class:`Level` for ``level`` (1..10); anything else is a LevelError."""
    if isinstance(level, bool) or not isinstance(level, int) or level not in LEVELS:
        raise LevelError(f"a level is a whole number from 1 to 10, not {level!r}")
    return LEVELS[level]
