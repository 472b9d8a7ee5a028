"""Detonating Rook: a rook's capture blows up the pieces next to it on its rank
and file.

``fide.capture`` is replaced: the target is removed as in FIDE and, when the
capturing piece is a rook, so is every other piece, of either colour, on the
same rank or file within 2 squares of the capture square (d4: b4 c4 e4 f4 d2
d3 d5 d6). The rook itself survives on the capture square. The replaced rule
carries ``simulate`` metadata, so the self-check filter judges the move on the
board after the blast. A side whose last royal piece is blown up
loses at once (the rule asserts the result).

Rulings (ours where marked):

* No chain reaction: only the capturing rook detonates.
* Self-detonation is legal; a side that blows up its own last king loses - (ours)
  even if the blast also takes the enemy king: the mover loses.
* Legality is judged after the blast: a capture that leaves the mover's king
  attacked is illegal, (ours) even when the blast takes the enemy king.
* The blast may take the enemy king (it is not "captured" by the rook; only the
  capture of a royal target itself is illegal), and that side loses.
* (ours) A capture that promotes a pawn to a rook is a rook's capture and
  detonates; a queen that becomes a rook under ``queen-splits`` does not.
* (ours) Castling rights of a king or rook destroyed on its home square are gone.
* (ours) A pawn blown up takes the en-passant target it made with it (under
  ``double-move`` or in Dice Chess a side's own rook may blow up the pawn it
  has just double-stepped).
* (ours) Distance follows the board's topology (it wraps on ``wrap-board``).
* Incompatible with ``piece-hp``.

* Scenarios 1 and 3 as written put a piece on every square the rook could
  arrive through; the scenario files let it arrive through an empty square (or
  from a neighbouring one) and keep the distances of the rule (within 2 squares).
* (ours) A rook's power to blow up a king is not "check": only attacks are.

Fairy-Stockfish: not compared - FSF's atomic explodes on every capture, the
capturer included, in all eight directions.
"""
from rete import Call, P, Rule, Test, V

from chess_rules.squares import ORTHOGONAL

from presets.base import PresetMeta
from presets.pieces import drop_castling_rights, drop_ep_targets, royal_gone

META = PresetMeta(
    id="explosive-rook", name="Detonating Rook", category="Piece Ability",
    description="A rook that captures also removes every other piece on its rank and file "
                "within 2 squares of the capture square; it survives.",
    mode="override", affects=["fide.capture"],
    incompatible_with=["piece-hp"],
    incompatible_because={
        "piece-hp": (
            "under piece-hp a capture deals 1 damage instead of removing the piece, "
            "and the blast removes pieces"),
    },
)

RADIUS = 2


def blast_squares(topo, sq):
    out = []
    for d in ORTHOGONAL:
        s = sq
        for _ in range(RADIUS):
            s = topo.steps[d][s]
            if s is None or s == sq:
                break
            if s not in out:
                out.append(s)
    return out


def _is_rook_capture(piece, promo):
    return (promo or piece) == "rook"


def apply(rules, config) -> None:
    topo = rules.topology
    blasts = [blast_squares(topo, sq) for sq in range(64)]

    def capture(ctx, move, victim):
        s = ctx.session
        st = s.chess
        m = move.values
        s.retract(victim)
        if not _is_rook_capture(m["piece"], m["promo"]):
            return
        hit = set()
        for sq in blasts[m["to"]]:
            f = st.facts[sq]
            if f is not None and sq != m["from"]:
                hit.add(f.values["color"])
                s.retract(f)
                drop_castling_rights(s, f.values["color"], sq)
                drop_ep_targets(s, sq)
        mover = m["color"]
        for color in sorted(hit, key=lambda c: c != mover):   # the mover first
            royal_gone(ctx, color, "its last royal piece was blown up")

    def sim(st, colors, types, m):
        if m.victim is None:
            return
        colors[m.victim] = types[m.victim] = None
        if _is_rook_capture(m.piece, m.promo):
            for sq in blasts[m.to]:
                if sq != m.frm:
                    colors[sq] = types[sq] = None

    rules.function("explosive.capture", capture)
    rules.replace(Rule("fide.capture", stage="apply", salience=20, simulate=sim,
                       doc="explosive-rook: a piece moving onto an enemy piece removes it; a "
                           "rook's capture also removes every other piece on its rank and file "
                           "within 2 squares.")
                  .when(P("move", to=V.t, color=V.c, kind="normal").as_("m"),
                        P("piece", square=V.t, color=V.vc).as_("v"), Test("ne", V.vc, V.c))
                  .then(Call("explosive.capture", V.m, V.v)))
