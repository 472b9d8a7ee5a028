"""Knightmate: every knight is royal instead of the king.

Royalty (rule-set data): ``royal_types`` is ``("knight",)`` for both sides, so
the FIDE royalty productions apply to every knight - ``fide.check-resolution``
(no move may leave any of the mover's knights attacked), ``fide.check-detection``
(an attacked knight of the side to move is in check), ``fide.checkmate-win`` and
``fide.stalemate-draw`` - and the king is an ordinary piece: it may be captured,
may move onto or stay on an attacked square, and is never "in check".

Productions (hybrid): ``fide.insufficient-material`` is replaced (a position with
nothing but royal knights is dead); ``knightmate-rules.no-royal-left`` is added
(a side with no knight left loses; reachable only from a position set up that
way, since a royal knight is never captured).

Preferred layout: ``knightmate`` (``rnbnkbnr``/``RNBNKBNR``: the queen replaced by a
third knight).

Rulings (ours where marked):

* Every knight is royal, promoted knights included: "mate the last knight" reads, with the default royal
  semantics (every royal piece must be kept unattacked), as: no move may leave any knight attacked,
  and a side to move with a knight attacked and no legal move is checkmated.
* Castling by the (non-royal) king needs only the castling right and an empty
  path between king and rook - no square-attack condition - and must still leave
  every knight unattacked.
* (ours) Promotion is unchanged: to queen, rook, bishop or knight (the new knight
  is royal); not to king.
* A royal piece is never captured (``fide.king-capture-illegal`` reads the royal
  set): a knight "attacked" by the side not to move in a set-up position still
  cannot be taken.
* (ours) Dead position: only royal knights left (a royal knight can never attack
  another, since it would stand attacked by it). With any other piece on the
  board play goes on (to the fifty-move rule).

Differences from Fairy-Stockfish (tests/presets/test_v2_differential.py):

* FSF's built-in ``knightmate`` has a single royal knight-mover (``k``) and
  non-royal king-movers (``m``), promotes to m/q/r/b and never to the royal
  piece. The differential test therefore uses a custom variant (``king = -``,
  ``commoner = k``, every knight pseudo-royal through ``extinctionPseudoRoyal``),
  whose legal moves, perft and results agree with ours on positions from seeded
  random playouts (castling of the non-royal king across attacks included).
* FSF lets a side capture an enemy knight left en prise in a set-up position
  (the side not to move in check, which legal play never produces) and play on;
  here a royal piece is never captured (``fide.king-capture-illegal``).
"""
from presets.base import PresetMeta
from presets.royalty import add_no_royal_left, replace_insufficient_material, set_royal

META = PresetMeta(
    id="knightmate-rules", name="Knightmate", category="King Variants",
    description="Every knight is royal instead of the king; the king is an ordinary piece "
                "(capturable, not subject to check).",
    # (the royal knights are priced by the game's end; the king is an ordinary
    # piece, a commoner that steps like a king)
    piece_values={"king": 600},
    mode="hybrid", affects=["fide.check-resolution", "fide.check-detection",
                            "fide.checkmate-win", "fide.castling",
                            "fide.insufficient-material"],
    incompatible_with=["coregal", "dual-king", "weak-dual-king", "suicide-chess",
                       "capture-all", "last-piece-standing"],
    incompatible_because={
        "coregal": (
            "each names its own royal pieces: the knights, against the king and the "
            "queen"),
        "dual-king": (
            "each names its own royal pieces: the knights, against two kings"),
        "weak-dual-king": (
            "each names its own royal pieces: the knights, against two kings"),
        "suicide-chess": (
            "knightmate-rules makes the knights royal, and suicide-chess has no "
            "royal piece"),
        "capture-all": (
            "knightmate-rules makes the knights royal, and capture-all has no royal "
            "piece"),
        "last-piece-standing": (
            "knightmate-rules makes the knights royal, and last-piece-standing has "
            "no royal piece"),
    },
    preferred_layout="knightmate", gallery="v2",
)


def apply(rules, config) -> None:
    set_royal(rules, ("knight",))
    replace_insufficient_material(rules, META.id)
    add_no_royal_left(rules, META.id, "no knight left")
