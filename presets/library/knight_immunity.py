"""Bishop-Proof Knights: a bishop never captures a knight.

Productions (override):

``fide.bishop-move`` is replaced: the bishop slides as in FIDE but a slide
onto an enemy knight is refused; its attack declaration lets the bishop's ray
pass through enemy knights (for check detection only - the
bishop threatens the square beyond, so a knight cannot shield its king from a
bishop; the bishop's own side's knights block as usual).

``fide.pawn-capture`` is replaced by the production it was (whatever the
board's geometry, or a base rule set's own pawn capture) less the capturing
promotions to a bishop onto a knight: the same conditions, its generator called
with all its arguments, the same attacks.

The veto is also published in ``config['capture-vetoes']``, which other
bishop-moving productions honour (the orthogonal step of
``bishops-ignore-color``).

Rulings (ours where marked):

* Knight immunity protects knights from bishops only: a knight may capture a
  bishop, and a queen may capture a knight along a diagonal.
* The ray passes through every enemy knight, however many stand on it (ours).
* The bishop still "attacks" a knight's square: under a royal-knight rule set a
  bishop gives check to a knight it cannot capture (ours).
* A pawn promoting to a bishop cannot capture a knight on that move; it may
  promote to any other piece.
* (ours) On the plain board the bishop goes nowhere FIDE's would not, so K+B v K
  stays a dead position (its mover says so: ``within-fide-moves``).

Fairy-Stockfish: not compared (no capture restriction by victim type).
"""
from chess_rules import geometry as geo
from chess_rules.fide import make_slider_gen, mover
from chess_rules.move_helpers import as_pieces, mover_pattern
from rete import Call
from chess_rules.squares import DIAGONAL

from presets.base import ConflictingPresetsError, PresetMeta

META = PresetMeta(
    id="knight-immunity", name="Bishop-Proof Knights", category="Piece Ability",
    description="A bishop may never capture a knight (a pawn promoting to a bishop included); "
                "for check, a bishop's ray passes through enemy knights.",
    mode="override", affects=["fide.bishop-move", "fide.pawn-capture"],
)


def knight_veto(st, piece_type, victim):
    if piece_type == "bishop" and st.types[victim] == "knight":
        return f"a bishop never captures a knight ({st.describe(victim)})"
    return None


def apply(rules, config) -> None:
    topo = rules.topology
    rays = topo.rays

    def bishop_attacks(colors, types, target, by):
        for d in DIAGONAL:
            for s in rays[d][target]:
                c = colors[s]
                if c is None:
                    continue
                if c == by and types[s] == "bishop":
                    return True
                if c != by and types[s] == "knight":
                    continue          # an enemy knight does not block the bishop's threat
                break
        return False

    gen = make_slider_gen("bishop", topo, geo.BISHOP_DIRS,
                          can_capture=lambda st, to: st.types[to] != "knight")
    rules.function("gen.bishop.knight-immunity", gen)
    bishop_move = mover("fide.bishop-move", "bishop", "gen.bishop.knight-immunity",
                        bishop_attacks,
                        "knight-immunity: a bishop slides diagonally but never captures a "
                        "knight; its threat passes through enemy knights.", group="preset",
                        slides=True)
    # on the plain board it moves a bishop nowhere FIDE's would: K+B v K stays a
    # dead position (on a bouncing or wrapping board the bishop is another piece)
    bishop_move.meta["within-fide-moves"] = topo.name == "plain"
    rules.replace(bishop_move)

    # the pawn capture it builds on (FIDE's, a geometry preset's, or the base's
    # own rule) keeps its behaviour: its generator gets all its arguments (the
    # pawn or pawns the production binds, then any others) and its attacks stay
    old = rules.build_on("fide.pawn-capture")
    call = old.actions[0] if len(old.actions) == 1 else None
    if not isinstance(call, Call):
        raise ConflictingPresetsError(
            f"preset 'knight-immunity' builds on {old.name!r}, but that production's action "
            "is not one call of a generator it could wrap")
    inner = call.fn if callable(call.fn) else rules.functions[call.fn]
    # the moves to judge: those from the pawns the call is given, or where its
    # first argument is no piece, those the production made
    by_piece = bool(call.args) and mover_pattern(old, call.args[0]) is not None

    def pawn_capture(ctx, pieces, *args):
        inner(ctx, pieces, *args)
        st = ctx.session.chess
        rule = ctx.pnode.production.name
        froms = {p.values["square"] for p in as_pieces(pieces)} if by_piece else ()
        for u, m in list(st.candidates.items()):
            if ((m.frm in froms if by_piece else m.rule == rule)
                    and m.promo == "bishop" and m.victim is not None
                    and st.types[m.victim] == "knight"
                    and st.colors[m.victim] != st.colors[m.frm]):
                st.drop(u, rule, knight_veto(st, "bishop", m.victim))

    rules.function("gen.pawn-capture.knight-immunity", pawn_capture)
    meta = dict(old.meta)
    if meta.get("attacks") is None:
        # a base rule's move helper implied its attacks; the wrapper implies none
        implied = rules.attacks_of(old)
        if implied is not None:
            meta["attacks"] = implied
            meta["attack-group"] = "custom"
    rules.replace(old.replace(
        actions=(type(call)("gen.pawn-capture.knight-immunity", *call.args),), meta=meta,
        doc=old.doc + " (knight-immunity: never promoting to a bishop onto a knight)"))
    rules.config.setdefault("capture-vetoes", []).append(knight_veto)
