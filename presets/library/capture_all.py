"""Capture All: capture every enemy piece to win; kings are ordinary pieces.

Royalty (rule-set data): the royal set is empty for both sides, so there is no
check, no checkmate and no self-check filter (``fide.check-detection``,
``fide.check-resolution`` and ``fide.king-capture-illegal`` find no royal piece
and do nothing): a king may move onto an attacked square, stay attacked, and be
captured like any piece. Castling needs only the castling right and an empty
path between king and rook (``fide.castling`` skips the attack test for a king
that is not royal).

Productions (override): ``fide.checkmate-win`` is replaced by the wipe-out win (a
side with no pieces left loses, judged on every position: the result is
recorded, so the game is over at once); ``fide.insufficient-material`` is
removed (kings capture, so even king against king is not dead);
``fide.stalemate-draw`` is replaced by the same draw, judged only for a side that
still has pieces (so the wipe-out alone decides an empty side).

Rulings (ours where marked):

* Captures are not compulsory: ordinary legal-move semantics.
* The side that captures the last enemy piece wins, and the game is over at
  once: (ours) also mid-turn, when the capture is the first half-move of a
  turn under ``double-move`` / ``monster-rules`` (as checkmate on either
  half-move ends the game), and when a side's own last piece dies of poison at
  the end of its turn (``piece-hp`` with ``poisoned-squares``).
* (ours) A position set up with the side *not* to move bare is over, that side
  the loser (its result is the setup's, no production's), as in Fairy-Stockfish.
* (ours) A side with pieces but no legal move is stalemated: a draw, as in FIDE
  (unlike ``last-piece-standing``, where it loses). The fifty-move and
  repetition draws stay.
* Promotion is unchanged (no promotion to a king).
* With ``piece-hp`` only lethal damage removes a piece, so only that counts
  toward the wipe-out.

Differences from Fairy-Stockfish (a custom variant: ``king = -``, ``commoner =
k``, ``castlingKingPiece = k``, ``extinctionValue = loss``,
``extinctionPieceTypes = *``; tests/presets/test_v2_differential.py): none found
in legal moves (castling of the non-royal king across attacked squares
included), perft or results on positions from seeded random playouts.
"""
from rete import Exists, P, Rule, V
from rete.model import AssertLogical

from presets.base import PresetMeta
from presets.royalty import bare_opponent_at_setup, bare_side_rule, set_royal

META = PresetMeta(
    id="capture-all", name="Capture All", category="Objectives",
    description="Capture every enemy piece to win; kings are not royal (no check), captures "
                "are not compulsory.",
    objective="count-pieces",
    mode="override",
    affects=["fide.check-resolution", "fide.check-detection", "fide.checkmate-win",
             "fide.stalemate-draw", "fide.insufficient-material"],
    incompatible_with=["suicide-chess", "knightmate-rules", "coregal", "dual-king",
                       "weak-dual-king", "last-piece-standing", "capture-to-win",
                       "king-heals"],
    incompatible_because={
        "capture-to-win": (
            "two win conditions for one game: capturing every enemy piece, against "
            "the first capture"),
        "last-piece-standing": (
            "two readings of one wipe-out objective: a side with no legal move "
            "draws, against loses"),
        "king-heals": (
            "king-heals heals royal pieces, and capture-all has none"),
    },
    gallery="v2",
)


def apply(rules, config) -> None:
    set_royal(rules, ())
    rules.remove("fide.insufficient-material")
    rules.replace(bare_side_rule(rules, META.id, "all pieces captured", it_wins=False,
                                 doc="capture-all: a side with no pieces left has been wiped "
                                     "out and loses."))
    rules.replace(Rule("fide.stalemate-draw", stage="result", salience=40,
                       doc="capture-all: a side to move with pieces but no legal move is "
                           "stalemated: a draw.")
                  .when(P("status", color=V.c, moves=0), Exists(P("piece", color=V.c)))
                  .then(AssertLogical("result", winner="draw", reason="stalemate")))
    rules.setup_hooks.append(bare_opponent_at_setup("all pieces captured", it_wins=False))
