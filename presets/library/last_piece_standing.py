"""Annihilation: a side with no pieces left loses; kings are ordinary pieces.

The rule set has no royal piece (``royal_types`` is empty for both sides), so
there is no check, no checkmate and no self-check filter: a king may move onto
an attacked square, stay attacked, and be captured like any piece. Castling
needs only the castling right and an empty path between king and rook
(``fide.castling`` skips the attack test for a king that is not royal).

Productions (override): ``fide.check-detection``, ``fide.check-resolution``,
``fide.king-capture-illegal`` and ``fide.insufficient-material`` are removed;
``fide.checkmate-win`` is replaced by the annihilation win (a side with no
pieces loses, judged on every position: the result is recorded, so the game is
over at once) and ``fide.stalemate-draw`` by the no-legal-move loss (a side
to move with no legal move loses).

Rulings (ours where marked):

* No check, no pins, no checkmate; moving "into check" is legal.
* A side with pieces but no legal move loses (not a draw).
* (ours) A side left with no pieces loses at once, also when it is not to move:
  mid-turn, its last piece taken on the first half-move of the opponent's turn
  under ``double-move`` / ``monster-rules``, or its own last piece dead of
  poison at the end of its turn (``piece-hp`` with ``poisoned-squares``).
* (ours) A position set up with the side *not* to move bare is over, that side
  the loser (its result is the setup's, no production's).
* No insufficient-material draw: king against king plays on until the fifty-move
  rule or a repetition draws it.
* (ours) Promotion is unchanged (no promotion to a king).

* Scenario 2 of the rule as written is impossible: a lone king always has a move (any
  enemy piece next to it may be captured). A side loses by having no legal
  move only when its pieces are all blocked, e.g. a lone pawn (no king).

Fairy-Stockfish: compared in ``tests/presets/test_v1_fsf.py`` with a non-royal
``k:K`` king, ``extinctionPieceTypes = *`` (loss) and ``stalemateValue =
loss``: legal moves (castling through attacked squares included) and perft
agree; no semantic difference found.
"""
from rete import Assert, Exists, Expr, P, Rule, V

from presets.base import PresetMeta
from presets.royalty import bare_opponent_at_setup, bare_side_rule

META = PresetMeta(
    id="last-piece-standing", name="Annihilation", category="Win/Loss Condition",
    description="A side with no pieces left loses; kings are ordinary pieces (no check or "
                "checkmate), and a side with no legal move loses.",
    objective="count-pieces",
    mode="override",
    affects=["fide.check-detection", "fide.check-resolution", "fide.checkmate-win",
             "fide.stalemate-draw", "fide.king-capture-illegal", "fide.insufficient-material"],
    incompatible_with=["capture-to-win"],
)


def apply(rules, config) -> None:
    for color in ("white", "black"):
        rules.royal_types[color] = ()
    for name in ("fide.check-detection", "fide.check-resolution", "fide.king-capture-illegal",
                 "fide.insufficient-material"):
        rules.remove(name)
    rules.replace(bare_side_rule(rules, META.id, "annihilation", it_wins=False,
                                 doc="last-piece-standing (annihilation): a side with no "
                                     "pieces left loses."))
    rules.replace(Rule("fide.stalemate-draw", stage="result", salience=40,
                       doc="last-piece-standing: a side to move with no legal move loses.")
                  .when(P("status", color=V.c, moves=0), Exists(P("piece", color=V.c)))
                  .then(Assert("result", True, winner=Expr("opposite", V.c),
                               reason="no legal move")))
    rules.setup_hooks.append(bare_opponent_at_setup("annihilation", it_wins=False))
