"""Coregal: the king and the queen are both royal.

Royalty (rule-set data): ``royal_types`` gains ``queen`` beside ``king`` for both
sides (added to whatever royal set is already there, so the preset composes with
``dual-king``). The FIDE royalty productions then apply to every king and every
queen: no move may leave any of them attacked (``fide.check-resolution`` - a
pinned queen may not expose the king, nor a pinned piece the queen), an attacked
king or queen of the side to move is in check (``fide.check-detection``), and a
side to move with a royal piece attacked and no legal move is checkmated
(``fide.checkmate-win``).

Productions (additive): ``coregal.no-royal-left`` (a side with neither king nor
queen loses; only reachable from a position set up that way, or with presets
that let royal pieces be destroyed).

Rulings (ours where marked):

* Every queen is royal, promoted queens included; a side may promote to a queen and then has one more royal piece.
* A position without a queen plays as standard chess (the rule's "if the queen
  is captured, the king remains royal"). A royal queen is never captured in play:
  it may never be left attacked, and ``fide.king-capture-illegal`` refuses a
  capture of a royal piece in a set-up position.
* Castling keeps the FIDE conditions for the king; the queen must not be left
  attacked by it either (the self-check filter judges the board after the
  castling, rook included).
* The FIDE dead-position rule is kept: K v K, K+minor v K, bishops of one
  colour; a queen is never insufficient material.
* With ``piece-hp`` both royals take damage independently (the hp rules read the
  royal set); with ``king-heals`` each royal piece with more than 1 hp is outside
  the self-check filter.

Differences from Fairy-Stockfish's ``coregal`` (tests/presets/test_v2_differential.py):

* FSF lets a side capture an enemy queen that stands attacked in a set-up
  position (the opponent's queen left en prise, which legal play never
  produces), and play goes on; here a royal piece is never captured
  (``fide.king-capture-illegal``).

Legal moves, perft and outcomes agree with FSF on positions from seeded random
playouts.
"""
from presets.base import PresetMeta
from presets.royalty import COLOURS, add_no_royal_left

META = PresetMeta(
    id="coregal", name="Coregal", category="King Variants",
    description="The king and the queen are both royal: neither may be left attacked, and "
                "checkmate of either ends the game.",
    mode="additive", affects=["fide.check-resolution", "fide.check-detection",
                              "fide.checkmate-win"],
    incompatible_with=["knightmate-rules", "weak-dual-king", "suicide-chess", "capture-all",
                       "last-piece-standing"],
    incompatible_because={
        "weak-dual-king": (
            "each makes royalty its own: a royal king and queen, against two kings "
            "either of which may be lost"),
        "suicide-chess": (
            "coregal makes the king and the queen royal, and suicide-chess has no "
            "royal piece"),
        "capture-all": (
            "coregal makes the king and the queen royal, and capture-all has no "
            "royal piece"),
        "last-piece-standing": (
            "coregal makes the king and the queen royal, and last-piece-standing "
            "has no royal piece"),
    },
    gallery="v2",
)


def apply(rules, config) -> None:
    for c in COLOURS:
        types = tuple(rules.royal_types.get(c, ()))
        rules.royal_types[c] = types + tuple(t for t in ("king", "queen") if t not in types)
    add_no_royal_left(rules, META.id, "no royal piece left")
