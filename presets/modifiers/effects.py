"""Running a modifier's primitives on the board: the per-move run state (the
board before the move), the targets of an effect, the effects themselves
(hit points, type, attributes, seeded hooks) and the aura attributes."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chess_rules.squares import opposite
from chess_rules.state import game_fact

from .models import HOOK_ATTR, TRIGGER_KINDS
from .registry import Registry, attr_slot


@dataclass
class Run:
    """The board before the move (taken first thing in the apply stage)."""

    pre: dict[int, dict]          # piece id -> values
    colors: list
    types: list
    ids: list                     # square -> piece id (pre-move)
    move: dict
    mover: int | None
    victim: int | None
    board_changed: bool = False
    hook_index: dict | None = None   # attr -> piece id -> hook ids (None: stale)
    left: dict | None = None      # piece id -> type as the move's rules left it


class _Shim:
    """What piece-hp's ``royal_gone`` needs from an action context."""

    def __init__(self, session):
        self.session = session

    def assert_fact(self, template, values=None, /, **slots):
        return self.session.assert_fact(template, values, **slots)


@dataclass
class ApplyCtx:
    """``PrimitiveApplyContext``: the hooked piece, the event and the target."""

    session: Any
    reg: Registry
    desc: int
    piece: int                    # the hooked piece's fact id
    self_values: dict             # its values (from the snapshot when it is gone)
    event: dict
    target: Any = "self"

    def live(self, pid):
        f = self.session.facts.get(pid)
        return f if f is not None and f.alive and f.template == "piece" else None

    @property
    def self_color(self) -> str:
        f = self.live(self.piece)
        return (f.values if f else self.self_values)["color"]


def resolve_targets(ctx: ApplyCtx, target) -> list:
    """The live piece facts a target resolver names."""
    s = ctx.session
    if target == "self":
        f = ctx.live(ctx.piece)
        return [f] if f else []
    if target in ("attacker", "defender"):
        ev = ctx.event
        ids = ev.get(f"{target}Ids")
        if ids is None:
            one = ev.get(f"{target}Id")
            ids = [] if one is None else [one]
        return [f for f in (ctx.live(i) for i in ids) if f is not None]
    st = s.chess
    if hasattr(target, "squares"):
        return [st.facts[q] for q in dict.fromkeys(target.squares) if st.facts[q] is not None]
    mine = ctx.self_color
    want = mine if target.relation == "ally" else opposite(mine)
    ptype = target.filter.piece_type if target.filter else None
    out = []
    for q in range(64):
        f = st.facts[q]
        if f is None or f.id == ctx.piece or f.values["color"] != want:
            continue
        if ptype is None or f.values["type"] == ptype:
            out.append(f)
    return out


def _hp(fact) -> int:
    from presets.pieces import hp_of
    return hp_of(fact)


DESTROYED = "its last royal piece was destroyed"


def _mover(s, run: Run | None) -> str | None:
    """The side that has just moved: the move's; at a game's start (the top-level
    primitives) the side not to move, or mid-turn (``half:`` past 0) the side to
    move, as extinction-chess reads a loaded position."""
    if run is not None:
        return run.move["color"]
    game = s.facts_of("game")
    if not game:
        return None
    turn = game[0].values["turn"]
    return turn if game[0].values.get("half", 0) else opposite(turn)


def _mover_loses_both(s, color: str, mover: str | None) -> None:
    """The mover's last royal piece destroyed after the other side's, by the same
    move's primitives (hooks run in square order): both sides lost theirs, and
    the side that moved loses, as under explosive-rook's blast and
    extinction-chess, not the side whose royal piece stood on the higher square.
    Takes back the other side's loss, so that ``royal_gone`` records the mover's."""
    if color != mover:
        return
    result = s.facts_of("result")
    if len(result) != 1 or result[0].values.get("winner") != mover \
            or result[0].values.get("reason") != DESTROYED:
        return
    st = s.chess
    if st.royal[color] and not any(st.types[q] in st.royal[color] and st.colors[q] == color
                                   for q in range(64)):
        s.retract(result[0])


def set_hp(ctx: ApplyCtx, fact, hp: int, run: Run | None) -> None:
    s = ctx.session
    if hp > 0:
        if _hp(fact) != hp:
            s.modify(fact, {"hp": hp})
        return
    from presets.pieces import drop_castling_rights, drop_ep_targets, royal_gone
    color, sq = fact.values["color"], fact.values["square"]
    s.retract(fact)
    drop_castling_rights(s, color, sq)
    drop_ep_targets(s, sq)
    _mover_loses_both(s, color, _mover(s, run))
    royal_gone(_Shim(s), color, DESTROYED)
    if run is not None:
        run.board_changed = True
    # an aura lives as long as its source: one destroyed after the move's aura
    # stage takes its aura with it now, not at the next move
    recompute_auras(s, ctx.reg)


def set_type(ctx: ApplyCtx, fact, ptype: str, run: Run | None) -> None:
    """Change a piece's type, unless it is royal or the change would leave the side
    that is not to move with a royal piece attacked."""
    s = ctx.session
    st = s.chess
    v = fact.values
    if v["type"] == ptype or v["type"] in st.royal[v["color"]]:
        return
    game = game_fact(s)
    if game is None:
        return          # a rule took the game fact away: the move is refused as such
    waiting = opposite(game.values["turn"])
    types = st.types[:]
    types[v["square"]] = ptype
    for q in st.royal_squares(st.colors, types, waiting):
        if st.attacked(st.colors, types, q, opposite(waiting)):
            return
    was = v["type"]
    change: dict[str, Any] = {"type": ptype}
    if ptype == "pawn" and v["square"] // 8 != (1 if v["color"] == "white" else 6):
        # as a position read from text would have it: a pawn off its home rank
        # has moved (it never double-steps from there)
        change["moved"] = True
    s.modify(fact, change)
    if was in ("rook", "king"):
        # a rook (or non-royal king) turned into another piece is no longer the
        # one that castles: its right goes, as when it moves
        from presets.pieces import drop_castling_rights
        drop_castling_rights(s, fact.values["color"], fact.values["square"])
    elif was == "pawn":
        # a pawn that is no longer one is no longer taken en passant
        from presets.pieces import drop_ep_targets
        drop_ep_targets(s, fact.values["square"])
    if run is not None:
        run.board_changed = True


def set_slot(ctx: ApplyCtx, fact, slot: str, value) -> None:
    if fact.values.get(slot) != value:
        ctx.session.modify(fact, {slot: value})


def seed_hook(ctx: ApplyCtx, fact, hook_id: int, attr: str) -> None:
    s = ctx.session
    for h in s.by_template.get("mod-hook", {}).values():
        v = h.values
        if v["piece"] == fact.id and v["hook"] == hook_id:
            return
    s.assert_fact("mod-hook", piece=fact.id, attr=attr, hook=hook_id)
    run = getattr(s, "mod_run", None)
    if run is not None:
        run.hook_index = None


def apply_nodes(ctx: ApplyCtx, nodes, path: str, run: Run | None, attaching: bool = False):
    """Apply a list of primitives in order (``attaching``: the top level at game start,
    where triggers and conditionals are seeded rather than run)."""
    for i, n in enumerate(nodes):
        p = f"{path}[{i}]"
        k = n.kind
        if k in TRIGGER_KINDS or (attaching and k == "conditional"):
            hid = ctx.reg.hook_ids[(ctx.desc, p)]
            for f in resolve_targets(ctx, ctx.target):
                seed_hook(ctx, f, hid, HOOK_ATTR[k])
            continue
        if k == "conditional":
            c = n.params
            if condition_holds(ctx, c.if_):
                apply_nodes(ctx, c.then, f"{p}.params.then", run)
            else:
                apply_nodes(ctx, c.else_, f"{p}.params.else", run)
            continue
        if k == "set-board-topology":
            continue  # applied when the rule set was built
        for f in resolve_targets(ctx, ctx.target):
            if not f.alive:
                continue
            prm = n.params
            if k == "add-to-attribute":
                if prm.attr == "Hp":
                    set_hp(ctx, f, _hp(f) + prm.delta, run)
                elif prm.attr == "CaptureFlag":
                    set_slot(ctx, f, "capture-flag",
                             min(1, max(0, (f.values.get("capture-flag") or 0) + prm.delta)))
                else:
                    slot = attr_slot(prm.attr)
                    set_slot(ctx, f, slot, (f.values.get(slot) or 0) + prm.delta)
            elif k == "seed-attribute":
                if prm.attr == "Hp":
                    set_hp(ctx, f, prm.value, run)
                elif prm.attr == "PieceType":
                    set_type(ctx, f, prm.value, run)
                else:
                    set_slot(ctx, f, attr_slot(prm.attr), prm.value)
            elif k == "set-capture-flag":
                set_slot(ctx, f, "capture-flag", prm.flag)
            elif k == "add-aura":
                s = ctx.session
                vals = dict(piece=f.id, radius=prm.radius, attr=attr_slot(prm.target_attr),
                            delta=prm.delta, affects=prm.affects)
                if not any(a.values == vals for a in s.by_template.get("mod-aura", {}).values()):
                    s.assert_fact("mod-aura", vals)
                recompute_auras(s, ctx.reg)


def condition_holds(ctx: ApplyCtx, c) -> bool:
    s = ctx.session
    st = s.chess
    f = ctx.live(ctx.piece)
    v = f.values if f is not None else ctx.self_values
    if c.attr is not None:
        if c.attr == "Hp":
            have = _hp(f) if f is not None else v.get("hp") or 0
        else:
            have = v.get(attr_slot(c.attr)) or 0
        want = c.value
        ok = {"==": have == want, "!=": have != want, "<": have < want, "<=": have <= want,
              ">": have > want, ">=": have >= want}[c.op]
        if not ok:
            return False
    if c.piece_type is not None and v["type"] != c.piece_type:
        return False
    if c.color is not None and v["color"] != c.color:
        return False
    if c.square is not None and not c.square.matches(v["square"]):
        return False
    if c.side_to_move is not None:
        game = game_fact(s)
        if game is None or game.values["turn"] != c.side_to_move:
            return False        # (no game fact: a rule took it away, the move is refused)
    if c.in_check is not None:
        checked = (f is not None and v["type"] in st.royal[v["color"]]
                   and st.attacked(st.colors, st.types, v["square"], opposite(v["color"])))
        if checked != c.in_check:
            return False
    if c.event is not None:
        for key, want in c.event.items():
            if ctx.event.get(key) != want:
                return False
    return True


_KING_STEPS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
_DISTANCES: dict = {}


def king_distances(topo) -> tuple:
    """64 x 64: the king steps from one square to another on ``topo`` (on the
    plain board the larger of the file and rank distances; on the cylinder the
    a- and h-files are adjacent). Worked out once per topology."""
    hit = _DISTANCES.get(id(topo))
    if hit is not None and hit[0] is topo:
        return hit[1]
    steps = topo.leap_table(_KING_STEPS)
    rows = []
    for src in range(64):
        dist = [99] * 64
        dist[src] = 0
        frontier = [src]
        while frontier:
            nxt = []
            for q in frontier:
                for t in steps[q]:
                    if dist[t] == 99:
                        dist[t] = dist[q] + 1
                        nxt.append(t)
            frontier = nxt
        rows.append(tuple(dist))
    out = tuple(rows)
    _DISTANCES[id(topo)] = (topo, out)
    return out


def recompute_auras(s, reg: Registry) -> None:
    """Stage 1: every aura attribute of every piece is the sum of the auras on it."""
    if not reg.aura_attrs:
        return
    st = s.chess
    sources = []
    for a in s.by_template.get("mod-aura", {}).values():
        src = s.facts.get(a.values["piece"])
        if src is not None and src.alive:
            sources.append((src.id, src.values["square"], src.values["color"], a.values))
    dist = king_distances(st.topology)
    for q in range(64):
        f = st.facts[q]
        if f is None:
            continue
        totals = dict.fromkeys(reg.aura_attrs, 0)
        fc = f.values["color"]
        for sid, ssq, scol, av in sources:
            if sid == f.id:
                continue
            if dist[ssq][q] > av["radius"]:
                continue
            rel = av["affects"]
            if (rel == "allies" and scol != fc) or (rel == "enemies" and scol == fc):
                continue
            totals[av["attr"]] += av["delta"]
        changes = {k: t for k, t in totals.items() if (f.values.get(k) or 0) != t}
        if changes:
            s.modify(f, changes)
