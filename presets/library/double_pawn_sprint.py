"""Perpetual Sprint: a pawn may advance two squares from any rank.

``fide.pawn-double-push`` is replaced by a production without the home-rank /
has-moved guard: a pawn may advance two squares straight forward from any rank
when both squares are empty. The sprint leaves an en-passant target on the
skipped square for exactly one opponent move, as in FIDE.

Rulings (ours where marked):

* Scenario 2 as written is impossible: after White's ``e4e6`` the target is e5,
  and a black pawn on d6 or f6 may take it en passant (``d6e5`` removes the pawn
  on e6).
* A sprint may land on the last rank, and then promotes (``e6e8q``...). (ours) A
  sprint onto the last rank leaves no en-passant target: the pawn is no longer a
  pawn and no enemy pawn could reach the skipped square's capture.
* Both squares must be empty: a sprint never jumps over a piece.
* Positions: an en-passant target may stand on any rank (the FEN's target is not
  limited to ranks 3 and 6); the pawn that made it stands one square beyond it,
  seen from the side that made it (the side not to move).

Fairy-Stockfish: compared in ``tests/presets/test_v1_fsf.py`` with chess whose
``doubleStepRegion`` is every rank: legal moves (mid-board en passant and the
promoting sprint included) and perft agree; no semantic difference found.
"""
from chess_rules.errors import FenError
from chess_rules.movement import leap, mover_rule
from chess_rules.position import several_moves_a_turn
from chess_rules.squares import SQUARE_NAMES, opposite

from presets.base import PresetMeta

META = PresetMeta(
    id="double-pawn-sprint", name="Perpetual Sprint", category="Movement Modifier",
    description="A pawn may advance two squares straight forward from any rank when both "
                "squares are empty; the skipped square is an en-passant target.",
    mode="override", affects=["fide.pawn-double-push"],
    incompatible_with=["pawns-move-backward"],
)


def infer_ep_pawn(st, target: int) -> int:
    """The pawn a loaded en-passant target captures: one square beyond the target,
    seen from the side that made it (the side not to move), on any rank."""
    maker = opposite(st.game.turn)
    pawn = target + 8 if maker == "white" else target - 8
    if not 0 <= pawn < 64:
        raise FenError("en_passant", f"{SQUARE_NAMES[target]!r} has no square beyond it")
    return pawn


def fix_ep_targets(game, pos) -> None:
    """Point every en-passant target of a loaded position at the pawn beyond it,
    seen from the side that made it (FIDE's loader assumes ranks 3 and 6)."""
    s = game.session
    st = game.state
    maker = opposite(pos.turn)
    named = getattr(pos, "ep_pawns", None) or {}
    for e in list(s.facts_of("ep")):
        sq = e.values["square"]
        if sq in named:
            continue   # the position names its pawn (ep-pawn:, e.g. mid-turn under double-move)
        pawn = sq + 8 if maker == "white" else sq - 8
        if not 0 <= pawn < 64 or st.types[pawn] != "pawn" or st.colors[pawn] != maker:
            raise FenError("en_passant", f"{SQUARE_NAMES[sq]!r} has no {maker} pawn beyond it "
                                         "that could have made it")
        if not several_moves_a_turn(game.ruleset.config):
            # one move a turn: nothing has stepped onto the target or the square
            # the pawn left since (several moves a turn: either may be refilled)
            origin = sq - 8 if maker == "white" else sq + 8
            if st.colors[sq] is not None:
                raise FenError("en_passant", f"{SQUARE_NAMES[sq]!r} is occupied")
            if 0 <= origin < 64 and st.colors[origin] is not None:
                raise FenError("en_passant", f"{SQUARE_NAMES[origin]} is occupied, so no pawn "
                                             f"has just left it")
        if e.values["pawn"] != pawn or e.values["by"] != maker:
            s.modify(e, pawn=pawn, by=maker)


#: two squares straight forward from any rank, through an empty one
SPRINT = leap((0, 2), mode="move", lame=True, ep=True,
              blocked="{blocked} is occupied (a sprint needs both squares empty)")


def apply(rules, config) -> None:
    rule, gen = mover_rule(
        "fide.pawn-double-push", "pawn", (SPRINT,), rules.topology,
        "double-pawn-sprint: a pawn on any rank advances two squares through an empty "
        "one (promoting on the last rank).", "gen.pawn-sprint", meta={})
    rules.function("gen.pawn-sprint", gen)
    rules.replace(rule)
    rules.config["strict-ep"] = False
    rules.config["ep-pawn-infer"] = infer_ep_pawn
    rules.setup_hooks.append(fix_ep_targets)
