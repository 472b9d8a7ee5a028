"""Colour-Blind Bishops: a bishop may also step one square orthogonally.

``preset.bishop-orthogonal-step`` adds, for every bishop, a one-square step
N/E/S/W to an empty square or onto an enemy piece (a capture). The diagonal
slides of ``fide.bishop-move`` are untouched.

Rulings:

* The step is exactly one square; a friendly piece blocks it.
* It is a bishop move for every other rule: it resets the fifty-move clock only
  when it captures, and it may give check - a bishop attacks its four
  orthogonal neighbours (the production declares that attack, so check
  detection, the self-check filter and castling see it).
* The step follows the board's topology (on ``wrap-board`` a bishop on a4 steps
  west to h4).
* With ``knight-immunity`` the step may not capture a knight either (it honours
  the rule set's ``capture-vetoes``).
* (ours) King and bishop against king is no dead position: the bishop can mate
  with its steps, so ``fide.insufficient-material`` does not call it a draw (FSF
  agrees for its BW piece); king and knight against king still is.

Fairy-Stockfish: compared in ``tests/presets/test_v1_fsf.py`` with the bishop
replaced by a ``BW`` (bishop + wazir) piece: legal moves, promotions included,
and perft agree; no semantic difference found.
"""
from rete import Call, Collect, P, Rule, V

from chess_rules.move_helpers import for_each_piece
from chess_rules.moves import Move
from chess_rules.squares import ORTHOGONAL, SQUARE_NAMES

from presets.base import PresetMeta

META = PresetMeta(
    id="bishops-ignore-color", name="Colour-Blind Bishops", category="Movement Modifier",
    description="A bishop may also make a one-square orthogonal step (N/S/E/W) to an empty "
                "or enemy-occupied square, changing its square colour.",
    mode="additive", affects=["fide.bishop-move"],
)


def capture_veto(st, piece_type: str, victim: int):
    """The reason a ``piece_type`` may not capture on ``victim`` under the active
    rule set (``config['capture-vetoes']``, e.g. from knight-immunity), or None."""
    for veto in st.ruleset.config.get("capture-vetoes", ()):
        why = veto(st, piece_type, victim)
        if why:
            return why
    return None


def apply(rules, config) -> None:
    topo = rules.topology
    steps = [topo.steps[d] for d in ORTHOGONAL]

    def gen_step(ctx, p):
        st = ctx.session.chess
        colors = st.colors
        v = p.values
        sq, c = v["square"], v["color"]
        rule = ctx.pnode.production.name
        for table in steps:
            to = table[sq]
            if to is None:
                continue
            oc = colors[to]
            if oc is None:
                st.add(Move(sq, to, None, "bishop", "normal", None, rule))
            elif oc != c:
                why = capture_veto(st, "bishop", to)
                if why:
                    st.refuse(SQUARE_NAMES[sq] + SQUARE_NAMES[to], rule, why)
                else:
                    st.add(Move(sq, to, None, "bishop", "normal", to, rule))
            else:
                st.refuse(SQUARE_NAMES[sq] + SQUARE_NAMES[to], rule,
                          f"{SQUARE_NAMES[to]} holds {c}'s own {st.types[to]}")

    def attacks(colors, types, target, by):
        for table in steps:
            s = table[target]
            if s is not None and types[s] == "bishop" and colors[s] == by:
                return True
        return False

    rules.function("gen.bishop-orthogonal-step", for_each_piece(gen_step))
    rules.add(Rule("preset.bishop-orthogonal-step", stage="generate", attacks=attacks,
                   doc="A bishop steps one square N, E, S or W to an empty square or "
                       "onto an enemy piece.")
              .when(P("movegen", color=V.c),
                    Collect(P("piece", type="bishop", color=V.c)).as_("ps"))
              .then(Call("gen.bishop-orthogonal-step", V.ps)))
