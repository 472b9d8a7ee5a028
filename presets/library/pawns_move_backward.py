"""Backward-Marching Pawns: a pawn may also step one square straight back.

The step lands only on an empty square (no backward capture), makes no
en-passant target, and sets the pawn's has-moved flag like any move, so a
pawn back on its home rank cannot double-step again. It resets the
fifty-move clock like any pawn move (``fide.turn-advance`` already does).

Fairy-Stockfish: compared in ``tests/presets/test_v1_fsf.py`` with a custom
pawn ``fmWbmWfceFifmnD`` on the berolina base; legal moves and perft agree
except for one difference, filtered there and pinned by its own test: FSF's
initial double step depends on the square only, so a pawn that stepped back to
its home rank may double-step again in FSF, never here.
"""
from rete import Call, Collect, P, Rule, V

from chess_rules.move_helpers import for_each_piece
from chess_rules.moves import Move
from chess_rules.squares import SQUARE_NAMES

from presets.base import PresetMeta

META = PresetMeta(
    id="pawns-move-backward", name="Backward-Marching Pawns", category="Movement Modifier",
    description="Pawns may also move one square straight backward to an empty square; "
                "no capture, no en passant.",
    mode="additive", affects=["fide.pawn-single-push"],
    incompatible_with=["double-pawn-sprint"],
    incompatible_because={
        "double-pawn-sprint": (
            "a pawn that sprints two squares from any rank and also steps back "
            "would no longer be forward-only (e4e2 beside e4e6)"),
    },
)


def apply(rules, config) -> None:
    back = {"white": "S", "black": "N"}

    def gen_backward(ctx, p):
        st = ctx.session.chess
        v = p.values
        sq, c = v["square"], v["color"]
        # the board the game plays on (read as it runs: a geometry loaded later
        # reaches the step too)
        to = st.topology.steps[back[c]][sq]
        rule = ctx.pnode.production.name
        if to is None:
            return
        if st.colors[to] is None:
            st.add(Move(sq, to, None, "pawn", "normal", None, rule))
        else:
            st.refuse(SQUARE_NAMES[sq] + SQUARE_NAMES[to], rule,
                      f"{SQUARE_NAMES[to]} is occupied (a backward step never captures)")

    rules.function("gen.pawn-backward", for_each_piece(gen_backward))
    rules.add(Rule("preset.pawn-backward-push", stage="generate",
                   doc="A pawn steps one square straight backward to an empty square.")
              .when(P("movegen", color=V.c), Collect(P("piece", type="pawn", color=V.c)).as_("ps"))
              .then(Call("gen.pawn-backward", V.ps)))
