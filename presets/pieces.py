"""What presets that add, remove or damage pieces share: a piece's hit points
(piece-hp's ``hp`` slot and its default), the empty square next to one, the
values of a piece that comes into being, and what goes with a piece that leaves
its square other than by its own move (castling rights, en-passant targets,
the game when it was the last royal piece). The piece-hp preset, the other
presets and the custom modifiers' effects all use them."""
from __future__ import annotations

from chess_rules.squares import CLOCKWISE, opposite

__all__ = ["HP", "default_hp", "hp_of", "first_empty_neighbour", "new_piece_values",
           "drop_castling_rights", "drop_ep_targets", "royal_gone"]

HP = "hp"


def default_hp(ptype: str, color: str) -> int:
    return 1 if ptype == "king" else 2


def hp_of(fact) -> int:
    v = fact.values.get(HP)
    return default_hp(fact.values["type"], fact.values["color"]) if v is None else v


def first_empty_neighbour(colors, topo, sq):
    """The first empty square next to ``sq``, clockwise from N, or None."""
    steps = topo.steps
    for d in CLOCKWISE:
        s = steps[d][sq]
        if s is not None and colors[s] is None:
            return s
    return None


def new_piece_values(ruleset, ptype, color, square, **extra) -> dict:
    """Slot values for a piece that comes into being (slot defaults applied)."""
    vals = {"type": ptype, "color": color, "square": square, "moved": True}
    for slot, fn in ruleset.config.get("slot-defaults", {}).items():
        vals[slot] = fn(ptype, color)
    vals.update(extra)
    return vals


def drop_castling_rights(session, color: str, square: int) -> None:
    """Retract ``color``'s castling rights whose king or rook stood on ``square``."""
    for f in list(session.facts_of("castling")):
        v = f.values
        if v["color"] == color and square in (v["king-from"], v["rook-from"]):
            session.retract(f)


def drop_ep_targets(session, square: int) -> None:
    """Retract the en-passant targets whose pawn stood on ``square``: a pawn that
    leaves the board or its square other than by a move of its own (blown up,
    killed by damage, pushed, turned into another piece) takes its target with
    it. Only a rule set of several moves a turn (Dice Chess, double-move) keeps
    a target that long; the target would otherwise name a square with no pawn,
    which no position can say."""
    for f in list(session.facts_of("ep")):
        if f.values["pawn"] == square:
            session.retract(f)


def royal_gone(ctx, color: str, why: str) -> None:
    """If ``color`` had royal pieces and has none left, it loses (unless decided)."""
    s = ctx.session
    st = s.chess
    royal = st.royal[color]
    if not royal or s.facts_of("result"):
        return
    if any(st.types[q] in royal and st.colors[q] == color for q in range(64)):
        return
    ctx.assert_fact("result", winner=opposite(color), reason=why)
