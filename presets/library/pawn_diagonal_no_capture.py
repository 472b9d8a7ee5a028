"""Slanting Pawns: a pawn may also move one square diagonally forward to an
empty square, without capturing.

``preset.pawn-diagonal-quiet`` adds the quiet diagonal step; every FIDE pawn
rule stays (captures onto enemy pieces, pushes, double steps, en passant).

Rulings:

* The quiet diagonal needs an empty square; onto a friendly piece it is neither
  a quiet move nor a capture.
* It makes no en-passant target; en passant itself is unchanged (a target square
  is empty, so the same UCI move may be both a quiet diagonal and, when a target
  stands there, the en-passant capture: it is one move, and it captures - the
  en-passant production's move is the one kept). Where the capture is not
  legal (it would expose the king), the quiet slant stands: the square is
  empty and the slant exposes nothing (the same position read from its FEN,
  which shows no target then, has the slant too).
* It promotes on the last rank and may give check like any pawn move. A pawn's
  attacks are unchanged (a quiet move is not an attack).
* It follows the board's topology (wraps on ``wrap-board``).

* Edge case 3 as written is impossible (a black pawn on d5 cannot take a pawn
  that went e2-e4); we read it as the black pawn on d4: after ``e2e4`` it may
  take en passant (``d4e3``) or slant quietly (``d4c3``).

Fairy-Stockfish: compared in ``tests/presets/test_v1_fsf.py`` with a custom
pawn ``fmWfceFfmFifmnD`` on the berolina base: legal moves and perft agree,
with one difference: where the quiet slant and an en-passant capture share a
square (and so one UCI move), FSF plays the quiet slant and leaves the pawn;
here the move is the capture.
"""
from rete import Call, P, Rule, V

from chess_rules.fide import add_pawn_move
from chess_rules.moves import Move
from chess_rules.squares import SQUARE_NAMES

from presets.base import PresetMeta

META = PresetMeta(
    id="pawn-diagonal-no-capture", name="Slanting Pawns", category="Movement Modifier",
    description="Pawns may also move one square diagonally forward to an empty square "
                "without capturing; diagonal captures are unchanged.",
    mode="additive", affects=["fide.pawn-capture"],
)


def _ep_capture_here(st, session, to, c) -> bool:
    for e in session.facts_of("ep"):
        v = e.values
        if v["square"] == to and v["by"] != c:
            victim = v["pawn"]
            if st.types[victim] == "pawn" and st.colors[victim] not in (None, c):
                return True
    return False


def apply(rules, config) -> None:
    topo = rules.topology

    def gen_quiet(ctx, p):
        st = ctx.session.chess
        v = p.values
        sq, c = v["square"], v["color"]
        rule = ctx.pnode.production.name
        for to in topo.pawn_attacks[c][sq]:
            oc = st.colors[to]
            if oc is None:
                if _ep_capture_here(st, ctx.session, to, c):
                    # the en-passant capture owns these squares; the slant stands
                    # only if the capture is filtered out (it would expose the king)
                    st.add_yielding(Move(sq, to, None, "pawn", "normal", None, rule))
                else:
                    add_pawn_move(st, sq, to, c, "normal", None, rule)
            elif oc == c:
                st.refuse(SQUARE_NAMES[sq] + SQUARE_NAMES[to], rule,
                          f"{SQUARE_NAMES[to]} holds {c}'s own {st.types[to]}")

    rules.function("gen.pawn-diagonal-quiet", gen_quiet)
    rules.add(Rule("preset.pawn-diagonal-quiet", stage="generate",
                   doc="A pawn moves one square diagonally forward to an empty square "
                       "without capturing.")
              .when(P("movegen", color=V.c), P("piece", type="pawn", color=V.c).as_("p"))
              .then(Call("gen.pawn-diagonal-quiet", V.p)))
