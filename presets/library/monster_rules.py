"""Monster: asymmetric multi-move turns - by default White plays two half-moves, Black one.

The turn machinery of ``double-move`` (see that module: ``fide.turn-advance``
and ``fide.ep-target-expire`` replaced, the en-passant drops added, the
half-move within the turn carried as ``half:N``) with the turn structure taken
from the scope:

=========  ===============  ===============
scope      White per turn   Black per turn
=========  ===============  ===============
``white``  2                1   (default; canonical Monster)
``black``  1                2
``both``   2                2   (as ``double-move``; prefer that preset)
=========  ===============  ===============

Preferred layout: ``monster`` (White Ke1 and pawns c2 d2 e2 f2 against Black's
full army): ``houserules play --preset monster-rules --layout
monster``.

Rulings (``double-move``'s):

* Each half-move must leave the mover's royal pieces unattacked: the White king
  may not step into check on the first half-move and out again on the second.
* A half-move that gives check ends the turn (the second half-move is
  forfeited), so no king is ever captured; checkmate on either half-move ends
  the game.
* An en-passant target lives for exactly one opponent turn, both half-moves of
  a two-half-move turn.
* The fifty-move clock counts half-moves; the move number counts whole turns.
* (ours) A side with no legal move in the middle of its turn is stalemated.
* Scope is validated (``white``, ``black`` or ``both``); anything else is
  refused with :class:`~presets.base.PresetConfigError`.
* Incompatible with ``double-move``.

Verification: the python-chess reference of tests/presets/test_v2_double_move.py
for each scope. Fairy-Stockfish has no Monster variant to compare with.
"""
from __future__ import annotations

from typing import Literal

from presets.base import PresetMeta, ScopeConfig
from .double_move import install_turn_structure


class MonsterConfig(ScopeConfig):
    """Which side plays two half-moves a turn (default White)."""

    scope: Literal["white", "black", "both"] = "white"


META = PresetMeta(
    id="monster-rules", name="Monster", category="Multi-move",
    description="Asymmetric multi-move turns: the side(s) in scope play two half-moves a "
                "turn (default White 2, Black 1); a check ends the turn.",
    mode="hybrid", affects=["fide.turn-advance", "fide.ep-target-expire"],
    incompatible_with=["double-move"],
    scope_aware=True, config_model=MonsterConfig, preferred_layout="monster",
    gallery="v2",
)


def halves_for(scope: str) -> dict[str, int]:
    return {"white": 2 if scope in ("white", "both") else 1,
            "black": 2 if scope in ("black", "both") else 1}


def apply(rules, config) -> None:
    scope = config.scope if config is not None else "white"
    install_turn_structure(rules, halves_for(scope), "monster-rules")
