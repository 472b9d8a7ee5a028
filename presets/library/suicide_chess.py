"""Suicide Chess, played as Antichess (Losing Chess): lose all your pieces to win.

Royalty (rule-set data): the royal set is empty for both sides, so there is no
check, no checkmate and no self-check filter (``fide.check-detection``,
``fide.check-resolution`` and ``fide.king-capture-illegal`` find no royal piece and
do nothing): a king is an ordinary piece that may be attacked and captured.

Productions (hybrid):

* ``fide.castling`` is removed, and the castling rights of a loaded position are
  dropped (its FEN then shows ``-``): there is no castling.
* ``suicide-chess.compulsory-capture`` (stage filter) is added: when any capture
  is legal, en passant included, every move that does not capture is dropped.
* Promotion may also choose a king (``config['promotion-types']``).
* ``fide.checkmate-win`` is replaced: a side with no pieces left wins, judged on
  every position (the result is recorded, so the game is over at once).
* ``fide.stalemate-draw`` is replaced: a side to move with no legal move wins.
* ``fide.insufficient-material`` is replaced: only bishops left, every white one
  on one shade and every black one on the other - no capture can ever happen -
  is a draw.

Rulings (ours where marked):

* Captures are compulsory; among several captures the mover chooses freely.
* A side with no legal move wins (stalemate wins); a side with no pieces wins.
* (ours) A side left with no pieces wins at once, also when it is not to move:
  mid-turn, its last piece taken on the first half-move of the opponent's turn
  under ``double-move`` / ``monster-rules``, or its own last piece dead of
  poison at the end of its turn (``piece-hp`` with ``poisoned-squares``).
* (ours) A position set up with the side *not* to move bare is over, that side
  the winner (its result is the setup's, no production's), as in Fairy-Stockfish.
* A pawn promotes to queen, rook, bishop, knight or king.
* The fifty-move and threefold-repetition draws stay.
* (ours) Dead positions are only the opposite-shade bishops above; any other
  material plays on (to the fifty-move rule).

Differences from python-chess ``AntichessBoard`` and Fairy-Stockfish ``antichess``
(tests/presets/test_v2_differential.py): none found in legal moves, perft or
results on positions from seeded random playouts. python-chess also declares one
knight against one knight drawn by material when their squares' parity says they
can never meet (``is_insufficient_material``); here that ending plays on (to the
fifty-move rule). Its opposite-shade bishops rule is the one above.
"""
from rete import Call, Exists, P, Rule, V
from rete.model import AssertLogical

from chess_rules.move_helpers import compulsory_capture

from presets.base import PresetMeta
from presets.royalty import bare_opponent_at_setup, bare_side_rule, set_royal

META = PresetMeta(
    id="suicide-chess", name="Suicide Chess", category="Objectives",
    description="Antichess: captures are compulsory, kings are not royal, no castling, a pawn "
                "may promote to a king; a side with no pieces or no legal move wins.",
    objective="lose-material",
    mode="hybrid",
    affects=["fide.castling", "fide.check-resolution", "fide.checkmate-win",
             "fide.stalemate-draw", "fide.promotion", "fide.insufficient-material"],
    incompatible_with=["capture-all", "knightmate-rules", "coregal", "dual-king",
                       "weak-dual-king", "last-piece-standing", "capture-to-win",
                       "king-heals"],
    incompatible_because={
        "capture-all": (
            "their objectives are opposite: losing every piece wins, against "
            "capturing every enemy piece"),
        "capture-to-win": (
            "their objectives are opposite: losing every piece wins, against the "
            "first capture"),
        "last-piece-standing": (
            "their objectives are opposite: losing every piece wins, against "
            "capturing every enemy piece"),
        "king-heals": (
            "king-heals heals royal pieces, and suicide-chess has none"),
    },
    gallery="v2",
)

PROMOTION_TYPES = ("queen", "rook", "bishop", "knight", "king")


def opposite_bishops(ctx, status):
    st = ctx.session.chess
    shades: dict[str, set[int]] = {"white": set(), "black": set()}
    for s in range(64):
        c = st.colors[s]
        if c is None:
            continue
        if st.types[s] != "bishop":
            return
        shades[c].add((s % 8 + s // 8) % 2)
    w, b = shades["white"], shades["black"]
    if len(w) == 1 and len(b) == 1 and w != b:
        ctx.assert_logical("result", winner="draw", reason="insufficient material")


def drop_castling(game, pos) -> None:
    s = game.session
    for f in list(s.facts_of("castling")):
        s.retract(f)


def apply(rules, config) -> None:
    set_royal(rules, ())
    rules.config["promotion-types"] = PROMOTION_TYPES
    rules.remove("fide.castling")
    rules.setup_hooks.append(drop_castling)
    rules.function("suicide-chess.compulsory-capture", compulsory_capture)
    rules.function("suicide-chess.opposite-bishops", opposite_bishops)
    rules.add(Rule("suicide-chess.compulsory-capture", stage="filter", salience=0,
                   doc="suicide-chess: when a capture is legal, every move that does not "
                       "capture is dropped.")
              .when(P("movegen", color=V.c))
              .then(Call("suicide-chess.compulsory-capture", V.c)))
    rules.replace(bare_side_rule(rules, META.id, "no pieces left", it_wins=True,
                                 doc="suicide-chess: a side with no pieces left wins."))
    rules.replace(Rule("fide.stalemate-draw", stage="result", salience=40,
                       doc="suicide-chess: a side to move with no legal move wins.")
                  .when(P("status", color=V.c, moves=0), Exists(P("piece", color=V.c)))
                  .then(AssertLogical("result", winner=V.c, reason="no legal move")))
    rules.replace(Rule("fide.insufficient-material", stage="result", salience=30,
                       doc="suicide-chess: bishops only, each side's on one shade and the two "
                           "sides' on different shades - no capture is possible: a draw.")
                  .when(P("status").as_("s"))
                  .then(Call("suicide-chess.opposite-bishops", V.s)))
    rules.setup_hooks.append(bare_opponent_at_setup("no pieces left", it_wins=True))
