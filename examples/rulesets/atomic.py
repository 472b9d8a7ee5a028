"""Atomic chess: every capture is an explosion.

Composed in Python on top of FIDE with the public API:

* ``atomic.explode`` (stage apply, after FIDE's capture, move and promotion):
  a capture removes the capturing piece too, and every piece but a pawn on
  the eight squares around the capture square (en passant: around the square
  the capturing pawn lands on). Its ``simulate`` hook lets the filters judge
  a move on the board after the blast;
* ``fide.king-move`` is replaced: a king never captures (so it attacks
  nothing, and two kings may stand side by side);
* ``fide.check-resolution`` is replaced by ``atomic.legality``: a move may not
  blow up its own king; one that blows up the enemy king is legal whatever it
  leaves behind; otherwise the mover's king may not stand attacked, unless it
  touches the enemy king (no capture can take a king without blowing up the
  capturer's own);
* ``fide.check-detection`` is replaced: a king touching the enemy king is
  not in check;
* ``fide.castling`` is replaced: castling out of, through or into check
  follows the same touching-kings rule;
* ``fide.king-capture-illegal`` is removed: capturing a king is one more
  explosion (possible only in a position set up with a king en prise);
* ``atomic.king-exploded`` (result): a side whose king is gone has lost;
* ``fide.insufficient-material`` is replaced: only bare kings are dead (a
  king cannot capture, so two kings can never blow each other up).

Rulings as lichess and Fairy-Stockfish's ``atomic``.
"""
from rete import Assert, Call, Expr, Not, P, Rule, V

from chess_rules.fide import fide_rules
from chess_rules.moves import Move
from chess_rules.squares import SQUARE_NAMES, opposite

#: per square, the squares around it (a1: b1 a2 b2)
NEIGHBOURS = fide_rules().topology.leap_table(
    ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)))


def blast(colors, types, to):
    """The squares a capture on ``to`` clears: ``to`` (the capturer) and the
    pieces but pawns around it."""
    out = [to]
    for s in NEIGHBOURS[to]:
        if colors[s] is not None and types[s] != "pawn":
            out.append(s)
    return out


def explode(ctx, move):
    s = ctx.session
    st = s.chess
    for sq in blast(st.colors, st.types, move.values["to"]):
        f = st.facts[sq]
        if f is not None:
            s.retract(f)
            # a rook or king blown up on its home square takes its castling right
            for r in list(s.facts_of("castling")):
                if sq in (r.values["rook-from"], r.values["king-from"]) and \
                        r.values["color"] == f.values["color"]:
                    s.retract(r)


def sim_explode(st, colors, types, m):
    if m.victim is None:
        return
    for sq in blast(colors, types, m.to):
        colors[sq] = types[sq] = None


def _king(colors, types, color):
    for s in range(64):
        if types[s] == "king" and colors[s] == color:
            return s
    return None


def king_in_check(st, colors, types, color) -> bool:
    """Whether ``color``'s king stands attacked and does not touch the enemy king."""
    k = _king(colors, types, color)
    if k is None:
        return False
    ek = _king(colors, types, opposite(color))
    if ek is not None and ek in NEIGHBOURS[k]:
        return False
    return st.attacked(colors, types, k, opposite(color))


def legality(ctx, color):
    st = ctx.session.chess
    rule = ctx.pnode.production.name
    opp = opposite(color)
    for u, m in list(st.candidates.items()):
        colors, types = st.simulate(m)
        if _king(colors, types, color) is None:
            st.drop(u, rule, "it blows up its own king")
        elif _king(colors, types, opp) is None:
            continue
        elif king_in_check(st, colors, types, color):
            st.drop(u, rule, "it leaves the king in check")


def detect_check(ctx, game):
    s = ctx.session
    st = s.chess
    color = game.values["turn"]
    for f in s.facts_of("check"):
        s.retract(f)
    if king_in_check(st, st.colors, st.types, color):
        s.assert_fact("check", color=color, square=_king(st.colors, st.types, color),
                      attackers=None)


def castling(ctx, right, color):
    """Castling as in FIDE (the right, king and rook at home, the squares
    between them empty), with no square of the king's path in check by the
    touching-kings rule."""
    st = ctx.session.chess
    v = right.values
    kf, kt, rf, rt = v["king-from"], v["king-to"], v["rook-from"], v["rook-to"]
    colors, types = st.colors, st.types
    if (types[kf], colors[kf], types[rf], colors[rf]) != ("king", color, "rook", color):
        return
    if any(colors[s] is not None and s not in (kf, rf)
           for s in range(min(kf, kt, rf, rt), max(kf, kt, rf, rt) + 1)):
        return
    step = 1 if kt > kf else -1
    for s in range(kf, kt + step, step):
        c2, t2 = colors[:], types[:]
        c2[kf] = t2[kf] = None
        c2[s], t2[s] = color, "king"
        if king_in_check(st, c2, t2, color):
            st.refuse(right_uci(kf, kt), ctx.pnode.production.name,
                      "the king would castle out of, through or into check")
            return
    st.add(Move(kf, kt, piece="king", kind="castle", rule=ctx.pnode.production.name,
                rook_from=rf, rook_to=rt))


def right_uci(kf, kt):
    return SQUARE_NAMES[kf] + SQUARE_NAMES[kt]


def bare_kings(ctx, status):
    st = ctx.session.chess
    if all(t in (None, "king") for t in st.types):
        ctx.assert_logical("result", winner="draw", reason="insufficient material")


def build():
    rs = fide_rules()
    rs.name = "atomic"
    for name, fn in {"atomic.explode": explode, "atomic.legality": legality,
                     "atomic.detect-check": detect_check, "atomic.castle": castling,
                     "atomic.bare-kings": bare_kings}.items():
        rs.function(name, fn)
    rs.add(Rule("atomic.explode", stage="apply", salience=1, simulate=sim_explode,
                doc="A capture blows up the capturer and every piece but a pawn around the "
                    "capture square.")
           .when(P("move", capture=True).as_("m"))
           .then(Call("atomic.explode", V.m)))
    rs.replace(Rule("fide.king-move", stage="generate",
                    doc="atomic: a king steps one square to an empty square; it never captures.")
               .when(P("movegen", color=V.c), P("piece", type="king", color=V.c).as_("p"))
               .then(Call("gen-leap-quiet", V.p, "N NE E SE S SW W NW")))
    rs.replace(Rule("fide.check-resolution", stage="filter", salience=10,
                    doc="atomic: no move may blow up its own king; one that blows up the enemy "
                        "king is legal; else the king may not be left in check.")
               .when(P("movegen", color=V.c))
               .then(Call("atomic.legality", V.c)))
    rs.replace(Rule("fide.check-detection", stage="post-move", salience=-10,
                    doc="atomic: a king attacked, and not touching the enemy king, is in check.")
               .when(P("game").as_("g"))
               .then(Call("atomic.detect-check", V.g)))
    # a king may be taken only by a blast (a rook beside it, in a position set
    # up so): FIDE's filter against capturing a royal piece goes
    rs.remove("fide.king-capture-illegal")
    rs.replace(Rule("fide.castling", stage="generate",
                    doc="atomic: castling, never out of, through or into check.")
               .when(P("movegen", color=V.c), P("castling", color=V.c).as_("r"))
               .then(Call("atomic.castle", V.r, V.c)))
    rs.add(Rule("atomic.king-exploded", stage="result", salience=70,
                doc="A side whose king was blown up has lost.")
           .when(P("royal", type="king", color=V.c), Not(P("piece", type="king", color=V.c)),
                 Not(P("result")))
           .then(Assert("result", winner=Expr("opposite", V.c), reason="king exploded")))
    rs.replace(Rule("fide.insufficient-material", stage="result", salience=30,
                    doc="atomic: two bare kings can never blow each other up: a draw.")
               .when(P("status").as_("s"))
               .then(Call("atomic.bare-kings", V.s)))
    return rs
