"""Compiling descriptors onto a rule set, and the 12-stage dispatcher.

Working memory:

``mod-hook``  one per seeded hook: ``piece`` (the piece fact's id), ``attr`` (the
              ``On*Hooks`` attribute, e.g. ``OnMoveHooks``) and ``hook`` (an index
              into the registry's hook table). This is the piece's ``On*Hooks``
              attribute as a WME of its own, so it outlives the piece fact for
              ``on-captured``.
``mod-aura``  one per aura a piece projects: ``piece``, ``radius``, ``attr``,
              ``delta``, ``affects``.
piece slots   every attribute a descriptor names (``AttackBonus`` is the slot
              ``attack-bonus``, default 0; ``Hp`` is piece-hp's ``hp``;
              ``PieceType`` is ``type``; ``CaptureFlag`` is ``capture-flag``).

Productions: ``modifiers.snapshot`` (apply stage, first) records the board before
the move; ``modifiers.<stage>`` runs a dispatch stage once per move, in the
agenda stages ``mod.auras`` .. ``mod.turn-start`` placed after ``turn-end`` and
before ``result`` (only the stages some attached trigger needs get a production;
``modifiers.turn-start`` always closes the move); ``modifiers.capture-flag`` (filter stage) drops captures by a
piece whose CaptureFlag is 1.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, get_args

from rete import Call, P, Rule, Template, V

from chess_rules.errors import FenError
from chess_rules.squares import SQUARE_NAMES, opposite, parse_square

from .models import (HOOK_ATTR, AddAuraParams, SPECIAL_ATTRS, TRIGGER_KINDS, Descriptor,
                     ModifierCompositionError, ModifierError)

STAGE_NAMES = ("auras", "damaged", "capture", "captured", "promotion", "move",
               "moved-onto-square", "check-received", "check-delivered", "conditional",
               "turn-end", "turn-start")
DISPATCH_STAGES = tuple(f"mod.{n}" for n in STAGE_NAMES)

HOOK_TEMPLATE = Template("mod-hook", ("piece", "attr", "hook"))
AURA_TEMPLATE = Template("mod-aura", ("piece", "radius", "attr", "delta", "affects"))


def attr_slot(attr: str) -> str:
    """The piece slot an attribute lives in: ``AttackBonus`` -> ``attack-bonus``."""
    if attr in SPECIAL_ATTRS:
        return SPECIAL_ATTRS[attr]
    out = []
    for i, ch in enumerate(attr):
        if ch.isupper() and i:
            out.append("-")
        out.append(ch.lower())
    return "".join(out)


# ---------------------------------------------------------------- the registry


@dataclass
class Registry:
    """The compiled modifiers of a rule set (kept in ``ruleset.config['modifiers']``)."""

    descriptors: list[Descriptor] = field(default_factory=list)
    hooks: list[tuple[int, str, Any]] = field(default_factory=list)   # (desc, path, node)
    hook_ids: dict[tuple[int, str], int] = field(default_factory=dict)
    attachments: list[tuple[int, tuple[int, ...] | None]] = field(default_factory=list)
    attrs: set[str] = field(default_factory=set)          # custom slots
    aura_attrs: set[str] = field(default_factory=set)     # slots recomputed at stage 1
    uses_hp: bool = False
    kinds: set[str] = field(default_factory=set)          # trigger kinds (+ "conditional")

    def clone(self) -> "Registry":
        return Registry(list(self.descriptors), list(self.hooks), dict(self.hook_ids),
                        list(self.attachments), set(self.attrs), set(self.aura_attrs),
                        self.uses_hp, set(self.kinds))

    def __deepcopy__(self, memo):
        return self.clone()

    def register(self, d: Descriptor) -> int:
        di = len(self.descriptors)
        self.descriptors.append(d)

        def walk(nodes, path):
            for i, n in enumerate(nodes):
                p = f"{path}[{i}]"
                k = n.kind
                if k in TRIGGER_KINDS or (k == "conditional" and path == "$.primitives"):
                    self.kinds.add(k)
                    self.hook_ids[(di, p)] = len(self.hooks)
                    self.hooks.append((di, p, n))
                if k in ("add-to-attribute", "seed-attribute"):
                    self._attr(n.params.attr)
                elif k == "add-aura":
                    slot = attr_slot(n.params.target_attr)
                    self.attrs.add(slot)
                    self.aura_attrs.add(slot)
                elif k == "set-capture-flag":
                    self.attrs.add("capture-flag")
                elif k == "on-damaged":
                    self.uses_hp = True
                if k in TRIGGER_KINDS:
                    walk(n.params.primitives, f"{p}.params.primitives")
                    if k == "on-damaged":
                        self.uses_hp = True
                elif k == "conditional":
                    c = n.params.if_
                    if c.attr:
                        self._attr(c.attr)
                    walk(n.params.then, f"{p}.params.then")
                    walk(n.params.else_, f"{p}.params.else")
        walk(d.primitives, "$.primitives")
        return di

    def _attr(self, attr: str) -> None:
        if attr == "Hp":
            self.uses_hp = True
        elif attr != "PieceType":
            self.attrs.add(attr_slot(attr))


def registry_of(session) -> Registry:
    return session.chess.ruleset.config["modifiers"]


# ---------------------------------------------------------------- per-move run state


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


# ---------------------------------------------------------------- effects


def _hp(fact) -> int:
    from presets.piece_hp import hp_of
    return hp_of(fact)


def set_hp(ctx: ApplyCtx, fact, hp: int, run: Run | None) -> None:
    s = ctx.session
    if hp > 0:
        if _hp(fact) != hp:
            s.modify(fact, {"hp": hp})
        return
    from presets.piece_hp import drop_castling_rights, royal_gone
    color, sq = fact.values["color"], fact.values["square"]
    s.retract(fact)
    drop_castling_rights(s, color, sq)
    royal_gone(_Shim(s), color, "its last royal piece was destroyed")
    if run is not None:
        run.board_changed = True


def set_type(ctx: ApplyCtx, fact, ptype: str, run: Run | None) -> None:
    """Change a piece's type, unless it is royal or the change would leave the side
    that is not to move with a royal piece attacked."""
    s = ctx.session
    st = s.chess
    v = fact.values
    if v["type"] == ptype or v["type"] in st.royal[v["color"]]:
        return
    game = next(iter(s.by_template["game"].values()))
    waiting = opposite(game.values["turn"])
    types = st.types[:]
    types[v["square"]] = ptype
    for q in st.royal_squares(st.colors, types, waiting):
        if st.attacked(st.colors, types, q, opposite(waiting)):
            return
    was = v["type"]
    change = {"type": ptype}
    if ptype == "pawn" and v["square"] // 8 != (1 if v["color"] == "white" else 6):
        # as a position read from text would have it: a pawn off its home rank
        # has moved (it never double-steps from there)
        change["moved"] = True
    s.modify(fact, change)
    if was in ("rook", "king"):
        # a rook (or non-royal king) turned into another piece is no longer the
        # one that castles: its right goes, as when it moves
        from presets.piece_hp import drop_castling_rights
        drop_castling_rights(s, fact.values["color"], fact.values["square"])
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
        game = next(iter(s.by_template["game"].values()))
        if game.values["turn"] != c.side_to_move:
            return False
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
    for q in range(64):
        f = st.facts[q]
        if f is None:
            continue
        totals = dict.fromkeys(reg.aura_attrs, 0)
        fc = f.values["color"]
        for sid, ssq, scol, av in sources:
            if sid == f.id:
                continue
            if max(abs(ssq % 8 - q % 8), abs(ssq // 8 - q // 8)) > av["radius"]:
                continue
            rel = av["affects"]
            if (rel == "allies" and scol != fc) or (rel == "enemies" and scol == fc):
                continue
            totals[av["attr"]] += av["delta"]
        changes = {k: t for k, t in totals.items() if (f.values.get(k) or 0) != t}
        if changes:
            s.modify(f, changes)


# ---------------------------------------------------------------- the dispatcher


def snapshot(ctx, move) -> None:
    """First in the apply stage: the board before the move; drop the hooks and auras
    of pieces that are gone."""
    s = ctx.session
    st = s.chess
    pre = {f.id: dict(f.values) for f in s.by_template.get("piece", {}).values()}
    for t in ("mod-hook", "mod-aura"):
        for f in list(s.by_template.get(t, {}).values()):
            if f.values["piece"] not in pre:
                s.retract(f)
    m = dict(move.values)
    ids = [f.id if f is not None else None for f in st.facts]
    victim_sq = m.get("victim")
    s.mod_run = Run(pre, st.colors[:], st.types[:], ids, m, ids[m["from"]],
                    ids[victim_sq] if victim_sq is not None else None)


def _hooks(s, attr: str) -> dict[int, list[int]]:
    """Piece id -> its hooks for ``attr``, in seeding order (indexed once per move)."""
    run = s.mod_run
    idx = run.hook_index
    if idx is None:
        idx = defaultdict(lambda: defaultdict(list))
        for h in sorted(s.by_template.get("mod-hook", {}).values(), key=lambda h: h.id):
            v = h.values
            idx[v["attr"]][v["piece"]].append(v["hook"])
        run.hook_index = idx
    return idx.get(attr) or {}


def _fire(s, reg, run, pid, hook_ids, event, accept=None) -> None:
    """Run a piece's hooks: ``ctx.event`` set, ``ctx.target`` = the hook's target."""
    f = s.facts.get(pid)
    vals = f.values if (f is not None and f.alive) else run.pre.get(pid)
    if vals is None:
        return
    for hid in hook_ids:
        di, path, node = reg.hooks[hid]
        if accept is not None and not accept(node):
            continue
        ctx = ApplyCtx(s, reg, di, pid, dict(vals), dict(event),
                       getattr(node.params, "target", "self"))
        if node.kind == "conditional":
            c = node.params
            if condition_holds(ctx, c.if_):
                apply_nodes(ctx, c.then, f"{path}.params.then", run)
            else:
                apply_nodes(ctx, c.else_, f"{path}.params.else", run)
        else:
            apply_nodes(ctx, node.params.primitives, f"{path}.params.primitives", run)


def _live_pieces_with(s, hooks: dict) -> list:
    st = s.chess
    return [st.facts[q] for q in range(64) if st.facts[q] is not None and st.facts[q].id in hooks]


def _attackers(st, colors, types, sq, by) -> list[int]:
    """Squares of the pieces of ``by`` that attack ``sq`` each on its own (the others
    recoloured so they still block): double check lists both."""
    out = []
    other = opposite(by)
    mine = [q for q in range(64) if colors[q] == by and q != sq]
    for q in mine:
        c2 = colors[:]
        for r in mine:
            if r != q:
                c2[r] = other
        if st.attacked(c2, types, sq, by):
            out.append(q)
    return out


def _moved(s, run) -> list:
    st = s.chess
    out = []
    for q in range(64):
        f = st.facts[q]
        if f is None:
            continue
        old = run.pre.get(f.id)
        if old is not None and old["square"] != q:
            out.append(f)
    out.sort(key=lambda f: (f.id != run.mover, f.values["square"]))
    return out


def dispatch(stage: str):
    def fire(ctx, move) -> None:
        s = ctx.session
        run: Run | None = getattr(s, "mod_run", None)
        if run is None:
            return
        reg = registry_of(s)
        st = s.chess
        m = run.move
        if stage == "auras":
            recompute_auras(s, reg)
        elif stage == "damaged":
            hooks = _hooks(s, "OnDamagedHooks")
            for f in _live_pieces_with(s, hooks):
                old = run.pre.get(f.id)
                if old is None or "hp" not in f.values:
                    continue
                before = old.get("hp")
                before = _hp_default(old) if before is None else before
                now = _hp(f)
                if now < before:
                    ev = {"kind": "damaged", "amount": before - now, "defenderId": f.id,
                          "attackerId": run.mover if f.id == run.victim else None}
                    _fire(s, reg, run, f.id, hooks[f.id], ev)
        elif stage in ("capture", "captured"):
            if not m.get("capture") or run.mover is None:
                return
            dead = run.victim is not None and not _alive(s, run.victim)
            ev = {"kind": "capture", "attackerId": run.mover, "defenderId": run.victim,
                  "lethal": dead, "square": m["to"]}
            if stage == "capture":
                hooks = _hooks(s, "OnCaptureHooks")
                if run.mover in hooks:
                    _fire(s, reg, run, run.mover, hooks[run.mover], ev)
            elif dead:
                hooks = _hooks(s, "OnCapturedHooks")
                if run.victim in hooks:
                    _fire(s, reg, run, run.victim, hooks[run.victim], ev)
        elif stage == "promotion":
            hooks = _hooks(s, "OnPromotionHooks")
            for f in _live_pieces_with(s, hooks):
                old = run.pre.get(f.id)
                if old is not None and old["type"] == "pawn" and f.values["type"] != "pawn":
                    ev = {"kind": "promotion", "promotedFrom": "pawn",
                          "promotedTo": f.values["type"]}
                    _fire(s, reg, run, f.id, hooks[f.id], ev)
        elif stage in ("move", "moved-onto-square"):
            attr = "OnMoveHooks" if stage == "move" else "OnMovedOntoSquareHooks"
            hooks = _hooks(s, attr)
            if not hooks:
                return
            for f in _moved(s, run):
                if f.id not in hooks or not f.alive:
                    continue
                frm, to = run.pre[f.id]["square"], f.values["square"]
                ev = {"kind": "move" if stage == "move" else "moved-onto-square",
                      "from": frm, "to": to, "square": to, "moverId": run.mover}
                accept = None if stage == "move" else (lambda n, to=to: n.params.filter.matches(to))
                _fire(s, reg, run, f.id, hooks[f.id], ev, accept)
        elif stage == "check-received":
            hooks = _hooks(s, "OnCheckReceivedHooks")
            for f in _live_pieces_with(s, hooks):
                v = f.values
                if v["type"] not in st.royal[v["color"]]:
                    continue
                opp = opposite(v["color"])
                if not st.attacked(st.colors, st.types, v["square"], opp):
                    continue
                old = run.pre.get(f.id)
                if old is not None and old["type"] in st.royal[v["color"]] and \
                        st.attacked(run.colors, run.types, old["square"], opp):
                    continue  # edge-triggered: it was in check already
                att = [st.facts[q].id for q in _attackers(st, st.colors, st.types, v["square"], opp)]
                ev = {"kind": "check-received", "attackerIds": att, "defenderId": f.id}
                _fire(s, reg, run, f.id, hooks[f.id], ev)
        elif stage == "check-delivered":
            hooks = _hooks(s, "OnCheckDeliveredHooks")
            if not hooks:
                return
            for color in ("white", "black"):
                opp = opposite(color)
                for q in st.royal_squares(st.colors, st.types, color):
                    if not st.attacked(st.colors, st.types, q, opp):
                        continue
                    king = st.facts[q]
                    now = [st.facts[a].id for a in _attackers(st, st.colors, st.types, q, opp)]
                    old = run.pre.get(king.id)
                    before = set()
                    if old is not None:
                        before = {run.ids[a] for a in
                                  _attackers(st, run.colors, run.types, old["square"], opp)}
                    fresh = [a for a in now if a not in before and a in hooks]
                    fresh.sort(key=lambda a: s.facts[a].values["square"])
                    for a in fresh:
                        ev = {"kind": "check-delivered", "attackerId": a, "defenderId": king.id,
                              "discovered": a != run.mover}
                        _fire(s, reg, run, a, hooks[a], ev)
        elif stage == "conditional":
            hooks = _hooks(s, "ConditionalHooks")
            for f in _live_pieces_with(s, hooks):
                _fire(s, reg, run, f.id, hooks[f.id], {"kind": "after-move", "moverId": run.mover})
        elif stage in ("turn-end", "turn-start"):
            game = next(iter(s.by_template["game"].values()))
            turn = game.values["turn"]
            if turn != m["color"]:  # else a multi-move turn goes on: no turn ended
                color = m["color"] if stage == "turn-end" else turn
                attr = "OnTurnEndHooks" if stage == "turn-end" else "OnTurnStartHooks"
                hooks = _hooks(s, attr)
                for f in _live_pieces_with(s, hooks):
                    _fire(s, reg, run, f.id, hooks[f.id], {"kind": stage, "color": color},
                          lambda n, c=color: n.params.color in ("both", c))
        if stage == "turn-start":
            _finish(ctx, run)

    fire.__name__ = f"modifiers_{stage.replace('-', '_')}"
    return fire


def _finish(ctx, run: Run) -> None:
    """After the last stage: check facts again if a primitive changed the board."""
    s = ctx.session
    if run.board_changed:
        run.board_changed = False
        detect = s.functions.get("detect-check")
        game = next(iter(s.by_template["game"].values()))
        if detect is not None:
            detect(ctx, game)
    s.mod_run = None


def _alive(s, pid) -> bool:
    f = s.facts.get(pid)
    return f is not None and f.alive


def _hp_default(values) -> int:
    from presets.piece_hp import default_hp
    return default_hp(values["type"], values["color"])


def filter_capture_flag(ctx, color) -> None:
    """A piece whose CaptureFlag is 1 may not capture."""
    st = ctx.session.chess
    rule = ctx.pnode.production.name
    for u, mv in list(st.candidates.items()):
        if mv.victim is None:
            continue
        f = st.facts[mv.frm]
        if f is not None and f.values.get("capture-flag") == 1:
            st.drop(u, rule, f"{st.describe(mv.frm)} has CaptureFlag 1 and may not capture")


# ---------------------------------------------------------------- building


def install(rs) -> Registry:
    """Add the modifier machinery to a rule set (once); return its registry."""
    reg = rs.config.get("modifiers")
    if reg is not None:
        reg = reg.clone()
        rs.config["modifiers"] = reg
        return reg
    reg = Registry()
    rs.config["modifiers"] = reg
    rs.templates["mod-hook"] = HOOK_TEMPLATE
    rs.templates["mod-aura"] = AURA_TEMPLATE
    prev = "turn-end"
    for st in DISPATCH_STAGES:
        rs.add_stage(st, after=(prev,), before=("result",))
        prev = st
    rs.config["extra-push-stages"] = DISPATCH_STAGES
    rs.function("modifiers.snapshot", snapshot)
    rs.add(Rule("modifiers.snapshot", stage="apply", salience=1_000_000,
                doc="modifiers: record the board before the move (pre-move snapshot)")
           .when(P("move").as_("m")).then(Call("modifiers.snapshot", V.m)), "modifiers")
    docs = {
        "auras": "recompute aura attributes", "damaged": "fire OnDamagedHooks on pieces whose hp fell",
        "capture": "fire OnCaptureHooks on the attacker",
        "captured": "fire OnCapturedHooks on the lethally captured defender",
        "promotion": "fire OnPromotionHooks on pawns that promoted",
        "move": "fire OnMoveHooks on every piece whose square changed",
        "moved-onto-square": "fire OnMovedOntoSquareHooks whose filter matches the destination",
        "check-received": "fire OnCheckReceivedHooks on royal pieces newly in check",
        "check-delivered": "fire OnCheckDeliveredHooks on pieces newly attacking a royal piece",
        "conditional": "run the standing conditionals",
        "turn-end": "fire OnTurnEndHooks of the mover's colour",
        "turn-start": "fire OnTurnStartHooks of the next side to move",
    }
    for n in STAGE_NAMES:
        rs.function(f"modifiers.fire.{n}", dispatch(n))
    rs.config["modifier-stage-docs"] = docs
    rs.setup_hooks.append(setup_modifiers)
    rs.config["position-tokens"] = {**rs.config.get("position-tokens", {}),
                                    "mod": (read_mod_token, write_mod_token)}
    return reg


#: the dispatch stages each trigger needs (turn-start always runs: it closes the move)
STAGE_OF = {"on-damaged": "damaged", "on-capture": "capture", "on-captured": "captured",
            "on-promotion": "promotion", "on-move": "move",
            "on-moved-onto-square": "moved-onto-square",
            "on-check-received": "check-received", "on-check-delivered": "check-delivered",
            "conditional": "conditional", "on-turn-end": "turn-end",
            "on-turn-start": "turn-start"}


def ensure_stage_rules(rs, reg: Registry) -> None:
    """One dispatcher production per stage some attached trigger needs."""
    need = {"turn-start"} | {STAGE_OF[k] for k in reg.kinds}
    if reg.aura_attrs:
        need.add("auras")
    docs = rs.config.get("modifier-stage-docs", {})
    for n in STAGE_NAMES:
        name = f"modifiers.{n}"
        if n in need and name not in rs.productions:
            rs.add(Rule(name, stage=f"mod.{n}", doc=f"modifiers stage: {docs.get(n, n)}")
                   .when(P("move").as_("m")).then(Call(f"modifiers.fire.{n}", V.m)),
                   "modifiers")


def ensure_capture_flag_filter(rs) -> None:
    if "modifiers.capture-flag" in rs.productions:
        return
    rs.function("modifiers.filter-capture-flag", filter_capture_flag)
    rs.add(Rule("modifiers.capture-flag", stage="filter", salience=15,
                doc="modifiers: a piece whose CaptureFlag is 1 may not capture")
           .when(P("movegen", color=V.c)).then(Call("modifiers.filter-capture-flag", V.c)),
           "modifiers")


def extend_slots(rs, reg: Registry) -> None:
    t = rs.templates["piece"]
    new = [a for a in sorted(reg.attrs) if a not in t.slots]
    if new:
        rs.templates["piece"] = t.extended(*new, defaults={a: 0 for a in new})


# ---------------------------------------------------------------- the position token


AURA_AFFECTS = get_args(AddAuraParams.model_fields["affects"].annotation)


def write_mod_token(game) -> str | None:
    """The ``mod:`` token: the modifiers' game start is behind this position, and
    the pieces carry these hooks and auras.

    ``e1=0.3``: hook ids on the piece on e1, in seeding order;
    ``e1=a1:hp-bonus:2:allies``: an aura (radius, attribute slot, delta,
    affects); items of one square are joined by ``.``; ``-``: nothing seeded.
    Written whenever a descriptor is attached, so that a position read back is
    the same game, not a new start: the top-level primitives are not applied
    again (an ``add-to-attribute`` would count twice, a descriptor attached on a
    square would look for its piece there).
    """
    reg = game.ruleset.config.get("modifiers")
    if reg is None or not reg.attachments:
        return None
    st = game.state
    square_of = {st.facts[q].id: q for q in range(64) if st.facts[q] is not None}
    items: dict[int, list[str]] = {}
    for t, fmt in (("mod-hook", lambda v: str(v["hook"])),
                   ("mod-aura", lambda v: f"a{v['radius']}:{v['attr']}:{v['delta']}:{v['affects']}")):
        for f in sorted(game.session.facts_of(t), key=lambda f: f.id):
            q = square_of.get(f.values["piece"])
            if q is not None:
                items.setdefault(q, []).append(fmt(f.values))
    if not items:
        return "-"
    return ",".join(f"{SQUARE_NAMES[q]}={'.'.join(xs)}" for q, xs in sorted(items.items()))


def read_mod_token(text: str, pos) -> dict[int, tuple[list, list]]:
    """Parse a ``mod:`` value into square -> (hook ids, auras); both are checked
    against the attached descriptors when the game is set up."""
    out: dict[int, tuple[list, list]] = {}
    if text == "-":
        return out
    for item in text.split(","):
        name, eq, rest = item.partition("=")
        try:
            q = parse_square(name)
        except ValueError:
            raise FenError("extended", f"mod:{item}: {name!r} is not a square") from None
        if not eq or not rest:
            raise FenError("extended", f"mod:{item} should read square=hook.hook...")
        if q not in pos.placement:
            raise FenError("extended", f"mod:{item} names an empty square")
        if q in out:
            raise FenError("extended", f"mod:{name} is given twice")
        hooks, auras = out[q] = ([], [])
        for x in rest.split("."):
            if x.isdigit():
                hooks.append(int(x))
                continue
            parts = x[1:].split(":") if x.startswith("a") else []
            try:
                radius, attr, delta, affects = parts
                radius, delta = int(radius), int(delta)
            except ValueError:
                raise FenError("extended", f"mod:{item}: {x!r} is neither a hook number nor "
                                           "an aura a<radius>:<attribute>:<delta>:<affects>") \
                    from None
            if affects not in AURA_AFFECTS or radius < 0:
                raise FenError("extended", f"mod:{item}: {x!r} is not an aura (radius >= 0, "
                                           f"affects one of {', '.join(AURA_AFFECTS)})")
            auras.append((radius, attr, delta, affects))
    return out


def setup_modifiers(game, pos) -> None:
    """At game start: apply each attached descriptor's top-level primitives to its
    pieces; from a position with a ``mod:`` token, seed the hooks and auras it lists
    instead."""
    s = game.session
    st = game.state
    reg = s.chess.ruleset.config["modifiers"]
    s.mod_run = None
    saved = getattr(pos, "tokens", {}).get("mod")
    if saved is not None:
        _seed_saved_hooks(s, st, reg, saved)
        recompute_auras(s, reg)
        return
    for di, squares in reg.attachments:
        d = reg.descriptors[di]
        if squares is not None:
            empty = [q for q in squares if st.facts[q] is None]
            if empty:
                from chess_rules.squares import SQUARE_NAMES
                raise ModifierError(
                    f"modifier {d.id!r} is attached to {', '.join(SQUARE_NAMES[q] for q in empty)}, "
                    f"where no piece stands")
            targets = [st.facts[q] for q in squares]
        else:
            targets = [st.facts[q] for q in range(64) if st.facts[q] is not None
                       and d.applies_to.matches(st.facts[q].values["type"],
                                                st.facts[q].values["color"], q)]
        for f in targets:
            if not f.alive:
                continue
            ctx = ApplyCtx(s, reg, di, f.id, dict(f.values), {"kind": "attach"})
            apply_nodes(ctx, d.primitives, "$.primitives", None, attaching=True)
    recompute_auras(s, reg)


def _seed_saved_hooks(s, st, reg: Registry, saved: dict) -> None:
    for q, (ids, auras) in sorted(saved.items()):
        f = st.facts[q]
        for hid in ids:
            if not 0 <= hid < len(reg.hooks):
                raise FenError("extended", f"mod:{SQUARE_NAMES[q]}: no hook {hid} in the "
                                           f"attached modifiers (they have {len(reg.hooks)})")
            kind = reg.hooks[hid][2].kind
            s.assert_fact("mod-hook", piece=f.id, attr=HOOK_ATTR[kind], hook=hid)
        for radius, attr, delta, affects in auras:
            if attr not in reg.aura_attrs:
                raise FenError("extended", f"mod:{SQUARE_NAMES[q]}: no aura of {attr!r} in the "
                                           "attached modifiers")
            s.assert_fact("mod-aura", piece=f.id, radius=radius, attr=attr, delta=delta,
                          affects=affects)


def check_composition(rs, d: Descriptor, reg: Registry) -> None:
    presets = set(rs.presets)
    need = list(d.requires)
    probe = Registry()
    probe.register(d)
    inferred = probe.uses_hp and "piece-hp" not in need
    if inferred:
        need.append("piece-hp")
    missing = [p for p in need if p not in presets]
    if missing:
        why = " (it reads or writes Hp)" if inferred and "piece-hp" in missing else ""
        raise ModifierCompositionError(
            f"modifier {d.id!r} needs preset{'s' if len(missing) > 1 else ''} "
            f"{', '.join(repr(p) for p in missing)}{why}; add "
            + " ".join(f"--preset {p}" for p in missing))
    for n in d.primitives:
        if n.kind == "set-board-topology":
            want = n.params.topology
            have = rs.topology.name
            if want == have:
                continue
            if want == "plain":
                raise ModifierCompositionError(
                    f"modifier {d.id!r} asks for the plain board, but the rules play on "
                    f"the {have!r} topology")
            if have != "plain":
                raise ModifierCompositionError(
                    f"modifier {d.id!r} asks for the {want!r} topology, but the rules play on "
                    f"the {have!r} topology")
            moved = [name for name, o in rs.origin.items()
                     if o != "fide" and rs.productions[name].stage == "generate"
                     and rs.productions[name].meta.get("attacks") is not None]
            if moved:
                raise ModifierCompositionError(
                    f"modifier {d.id!r} cannot change the board's topology after presets "
                    f"rewrote movement rules ({', '.join(sorted(moved))}); use --preset "
                    "wrap-board instead")


def apply_topology(rs, d: Descriptor) -> None:
    for n in d.primitives:
        if n.kind == "set-board-topology" and n.params.topology == "cylinder" \
                and rs.topology.name != "cylinder":
            from presets import wrap_board
            from presets.base import PresetRules
            wrap_board.apply(PresetRules(rs, wrap_board.META), None)
