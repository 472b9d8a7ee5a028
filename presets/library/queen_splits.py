"""Queen Fission: a queen that captures splits into a rook and a bishop.

``fide.promotion`` (stage apply, salience 5: after the capture and the arrival
of the moving piece) is replaced by the production that settles what the
arriving piece becomes: a pawn reaching the last rank becomes the piece chosen,
as in FIDE; then, if the move captured and the arriving piece is a queen (a
queen's capture, or a capture that promotes to a queen), the queen becomes a
rook on the capture square and a bishop of its colour appears on the first
empty adjacent square, clockwise from N (N, NE, E, SE, S, SW, W, NW,
board-absolute); with no empty adjacent square the bishop is forfeit. Its
``simulate`` metadata reproduces this on a board copy, so the self-check filter
judges a capture on the post-fission board.

Rulings (ours where marked):

* Legality is judged after the whole effect: a capture that leaves the king
  attacked is illegal even if the queen would have blocked, and one whose bishop
  lands on the checking line is legal.
* Check and checkmate are judged on the post-fission board: a capture that would
  mate with a queen but not with the rook does not mate.
* A promoting capture to a queen fissions on the same move; a promotion to a
  queen without capture does not.
* The rook and the bishop have moved (no castling right comes with them).
* (ours) With ``piece-hp`` the capture resolves first (the target is damaged and
  pushed), then the fission; the rook and the bishop keep the queen's hp.
* (ours) Adjacency follows the board's topology (it wraps on ``wrap-board``).

* Scenario 2 as written is impossible: a queen arriving on d4 always leaves an
  empty square next to it (the one it came from or crossed). With the queen on
  d3 and the seven other neighbours taken the bishop lands on d3; the bishop is
  forfeit only when that square is filled too, which happens with ``piece-hp``
  (the damaged target is pushed there first) - both are scenarios.
* ``fide.move-piece`` moves only the piece named by the move, so a bishop born
  on the square the queen left stays there.

Fairy-Stockfish: not compared (no fission).
"""
from rete import Call, P, Rule, V

from presets.base import PresetMeta
from presets.pieces import HP, first_empty_neighbour, new_piece_values

META = PresetMeta(
    id="queen-splits", name="Queen Fission", category="Piece Ability",
    description="A queen that captures becomes a rook on the capture square plus a bishop on "
                "the first empty adjacent square clockwise from N (forfeit if none).",
    # (a queen that captures splits into a rook and a bishop: 830 and the capture)
    piece_values={"queen": 1000},
    mode="override", affects=["fide.promotion"],
)


def arrive(ctx, move, piece):
    s = ctx.session
    st = s.chess
    m = move.values
    v = piece.values
    ptype = v["type"]
    if m["promo"] and ptype == "pawn":
        ptype = m["promo"]
    if m["capture"] and ptype == "queen":
        to = m["to"]
        color = v["color"]
        piece = s.modify(piece, type="rook", moved=True)
        b = first_empty_neighbour(st.colors, st.topology, to)
        if b is not None:
            extra = {}
            if HP in s.templates["piece"].slots and v.get(HP) is not None:
                extra[HP] = v[HP]
            s.assert_fact("piece", new_piece_values(st.ruleset, "bishop", color, b, **extra))
    elif ptype != v["type"]:
        s.modify(piece, type=ptype)


def sim_arrive(st, colors, types, m):
    t = m.to
    if m.promo and types[t] == "pawn":
        types[t] = m.promo
    if m.victim is not None and types[t] == "queen":
        types[t] = "rook"
        b = first_empty_neighbour(colors, st.topology, t)
        if b is not None:
            colors[b], types[b] = colors[t], "bishop"


def apply(rules, config) -> None:
    rules.function("queen-splits.arrive", arrive)
    rules.replace(Rule("fide.promotion", stage="apply", salience=5, simulate=sim_arrive,
                       doc="queen-splits: a pawn reaching the last rank becomes the piece "
                           "chosen; a queen that captured (promotion included) becomes a rook, "
                           "and a bishop appears on the first empty adjacent square clockwise "
                           "from N.")
                  .when(P("move", to=V.t, color=V.c).as_("m"),
                        P("piece", square=V.t, color=V.c).as_("p"))
                  .then(Call("queen-splits.arrive", V.m, V.p)))
