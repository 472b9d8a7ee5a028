"""Weak Dual King: two kings per side, and losing one is survivable.

Royalty (rule-set data): the royal set is every king, as in FIDE, but this
preset changes what royalty means:

* moves are not filtered for self-check: a king may move onto or stay on an
  attacked square, and may be captured;
* a side with no king left loses;
* a side to move whose every king is attacked, and which has no move that leaves
  at least one king unattacked, is checkmated.

Productions (hybrid):

``fide.check-resolution``, ``fide.king-capture-illegal`` and
``fide.insufficient-material`` are removed. ``weak-dual-king.mate-filter`` (stage
filter) is added: when every king of the side to move is attacked and no
candidate move leaves one of them unattacked, every move is dropped - the game
is over, so there are no legal moves.
``fide.checkmate-win`` is replaced (no legal move with every king attacked:
checkmate), ``fide.stalemate-draw`` likewise (no legal move otherwise: a draw),
and ``weak-dual-king.no-royal-left`` is added (a side with no king loses, at once:
the result is recorded on the move that captures the last king).

``fide.check-detection`` is kept: an attacked king of the side to move is "in
check" (``Game.is_check``), which decides nothing by itself.

Preferred layout: ``dual-classic``.

Rulings (ours where marked):

* While at least one king is safe, or some move makes one safe, every move is
  legal - including one that leaves both kings attacked (a "sacrifice").
* Capturing one of two kings does not end the game; capturing the last one does.
* A side with one king left plays on with it; it may still leave it attacked
  (and lose it), except that with it attacked and no move saving it the side is
  checkmated.
* Only the e-file king castles, with the usual FIDE conditions for that king
  (not out of, through or into an attacked square).
* (ours) A side to move with no legal move at all is stalemated (a draw) when
  at least one of its kings is unattacked; with every king attacked it is
  checkmated.
* (ours) No dead-position draw by material: kings can capture kings, so even
  king against king is not dead. The fifty-move and repetition draws stay.
* (ours) A position set up with no king on either side is a draw; with no king
  on one side, that side has lost.

Fairy-Stockfish has no counterpart (its pseudo-royal pieces are always filtered
for self-check; ``dupleCheck`` forbids leaving *every* royal piece attacked, which
is not this rule either), so this preset is pinned by scenarios and playout
invariants only.
"""
from rete import Call, Exists, P, Rule, V

from chess_rules.squares import SQUARE_NAMES, opposite

from presets.base import PresetMeta
from presets.royalty import add_no_royal_left

META = PresetMeta(
    id="weak-dual-king", name="Weak Dual King", category="King Variants",
    description="Two kings per side; losing one is survivable. No self-check filter; a side "
                "loses with no king left, or when every king is attacked and no move saves one.",
    mode="hybrid",
    affects=["fide.check-resolution", "fide.king-capture-illegal", "fide.checkmate-win",
             "fide.stalemate-draw", "fide.insufficient-material"],
    incompatible_with=["knightmate-rules", "coregal", "dual-king", "suicide-chess",
                       "capture-all", "last-piece-standing", "king-heals"],
    incompatible_because={
        "suicide-chess": (
            "weak-dual-king keeps the kings royal, and suicide-chess has no royal "
            "piece"),
        "capture-all": (
            "weak-dual-king keeps the kings royal, and capture-all has no royal "
            "piece"),
        "last-piece-standing": (
            "weak-dual-king keeps the kings royal, and last-piece-standing has no "
            "royal piece"),
        "king-heals": (
            "each decides its own way when a king may be left attacked and "
            "captured: by its hit points, against while another king is safe"),
    },
    preferred_layout="dual-classic", gallery="v2",
)


def _all_kings_attacked(st, colors, types, color) -> bool:
    kings = st.royal_squares(colors, types, color)
    if not kings:
        return False
    opp = opposite(color)
    return all(st.attacked(colors, types, s, opp) for s in kings)


def mate_filter(ctx, color):
    """Every king attacked and no candidate saves one: drop every candidate."""
    st = ctx.session.chess
    if not st.candidates or not _all_kings_attacked(st, st.colors, st.types, color):
        return
    for m in st.candidates.values():
        colors, types = st.simulate(m)
        if not _all_kings_attacked(st, colors, types, color):
            return
    rule = ctx.pnode.production.name
    kings = ", ".join(SQUARE_NAMES[s] for s in st.royal_squares(st.colors, st.types, color))
    why = f"checkmate: every king ({kings}) is attacked and no move leaves one unattacked"
    for u in list(st.candidates):
        st.drop(u, rule, why)


def checkmate(ctx, status):
    st = ctx.session.chess
    c = status.values["color"]
    if _all_kings_attacked(st, st.colors, st.types, c):
        ctx.assert_logical("result", winner=opposite(c), reason="checkmate")


def stalemate(ctx, status):
    st = ctx.session.chess
    c = status.values["color"]
    if st.royal_squares(st.colors, st.types, c) and \
            not _all_kings_attacked(st, st.colors, st.types, c):
        ctx.assert_logical("result", winner="draw", reason="stalemate")


def apply(rules, config) -> None:
    for name in ("fide.check-resolution", "fide.king-capture-illegal",
                 "fide.insufficient-material"):
        rules.remove(name)
    rules.function("weak-dual-king.mate-filter", mate_filter)
    rules.function("weak-dual-king.checkmate", checkmate)
    rules.function("weak-dual-king.stalemate", stalemate)
    rules.add(Rule("weak-dual-king.mate-filter", stage="filter", salience=5,
                   doc="weak-dual-king: with every king of the side to move attacked and no "
                       "move leaving one unattacked, the side is checkmated: no legal move.")
              .when(P("movegen", color=V.c), Exists(P("check", color=V.c)))
              .then(Call("weak-dual-king.mate-filter", V.c)))
    rules.replace(Rule("fide.checkmate-win", stage="result", salience=50,
                       doc="weak-dual-king: a side to move with no legal move and every king "
                           "attacked is checkmated and loses.")
                  .when(P("status", color=V.c, moves=0).as_("s"), Exists(P("check", color=V.c)))
                  .then(Call("weak-dual-king.checkmate", V.s)))
    rules.replace(Rule("fide.stalemate-draw", stage="result", salience=40,
                       doc="weak-dual-king: a side to move with no legal move and a king not "
                           "attacked is stalemated: a draw.")
                  .when(P("status", color=V.c, moves=0).as_("s"))
                  .then(Call("weak-dual-king.stalemate", V.s)))
    add_no_royal_left(rules, META.id, "no king left")

