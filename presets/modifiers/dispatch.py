"""The dispatcher: one run per dispatch stage and move, firing the hooks whose
trigger the move met (captures, damage, promotion, moves, check, turn end and
start), and the filter that drops captures by a piece whose CaptureFlag is set."""
from __future__ import annotations

from collections import defaultdict

from chess_rules.squares import opposite
from chess_rules.state import game_fact

from .effects import ApplyCtx, Run, _hp, apply_nodes, condition_holds, recompute_auras
from .registry import registry_of


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


def _fire_all(s, reg, run, events) -> None:
    """Fire the hooks of a stage whose trigger was judged, for every piece, before
    any of them ran: what one hook does (damage, a type) never decides whether
    another piece's hook of the same stage fires (that would follow square order)."""
    for pid, hook_ids, ev in events:
        _fire(s, reg, run, pid, hook_ids, ev)


def _live_pieces_with(s, hooks: dict) -> list:
    st = s.chess
    return [st.facts[q] for q in range(64) if st.facts[q] is not None and st.facts[q].id in hooks]


def _attackers(st, colors, types, sq, by) -> list[int]:
    """Squares of the pieces of ``by`` that attack ``sq`` each on its own: double
    check lists both (:meth:`ChessState.attackers`)."""
    return st.attackers(colors, types, sq, by)


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
        if run.left is None:
            # the first stage to run: no primitive has acted yet, so this is what
            # the move made of each piece (a promotion is the move's, not a type
            # a primitive of an earlier stage changed)
            run.left = {f.id: f.values["type"] for f in st.facts if f is not None}
        if stage == "auras":
            recompute_auras(s, reg)
        elif stage == "damaged":
            hooks = _hooks(s, "OnDamagedHooks")
            events = []
            for f in _live_pieces_with(s, hooks):
                old = run.pre.get(f.id)
                if old is None or "hp" not in f.values:
                    continue
                hp_before = old.get("hp")
                hp_before = _hp_default(old) if hp_before is None else hp_before
                hp_now = _hp(f)
                if hp_now < hp_before:
                    events.append((f.id, hooks[f.id], {
                        "kind": "damaged", "amount": hp_before - hp_now, "defenderId": f.id,
                        "attackerId": run.mover if f.id == run.victim else None}))
            _fire_all(s, reg, run, events)
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
                became = run.left.get(f.id)
                if old is not None and old["type"] == "pawn" and became not in (None, "pawn"):
                    ev = {"kind": "promotion", "promotedFrom": "pawn", "promotedTo": became}
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
            events = []
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
                events.append((f.id, hooks[f.id],
                               {"kind": "check-received", "attackerIds": att, "defenderId": f.id}))
            _fire_all(s, reg, run, events)
        elif stage == "check-delivered":
            hooks = _hooks(s, "OnCheckDeliveredHooks")
            if not hooks:
                return
            events = []
            for color in ("white", "black"):
                opp = opposite(color)
                for q in st.royal_squares(st.colors, st.types, color):
                    if not st.attacked(st.colors, st.types, q, opp):
                        continue
                    king = st.facts[q]
                    now = [st.facts[a].id for a in _attackers(st, st.colors, st.types, q, opp)]
                    old = run.pre.get(king.id)
                    before = set()
                    # a piece that was not royal before the move (a pawn just promoted
                    # to a royal type) was in no check: every attacker is new, as
                    # check-received (stage 8) has it
                    if old is not None and old["type"] in st.royal[color]:
                        before = {run.ids[a] for a in
                                  _attackers(st, run.colors, run.types, old["square"], opp)}
                    fresh = [a for a in now if a not in before and a in hooks]
                    fresh.sort(key=lambda a: s.facts[a].values["square"])
                    for a in fresh:
                        # discovered: the attacker stood still (the castling rook,
                        # a piece piece-hp pushed, moved as much as the mover)
                        was = run.pre.get(a)
                        still = was is not None and was["square"] == s.facts[a].values["square"]
                        events.append((a, hooks[a], {"kind": "check-delivered", "attackerId": a,
                                                     "defenderId": king.id, "discovered": still}))
            _fire_all(s, reg, run, events)
        elif stage == "conditional":
            hooks = _hooks(s, "ConditionalHooks")
            for f in _live_pieces_with(s, hooks):
                _fire(s, reg, run, f.id, hooks[f.id], {"kind": "after-move", "moverId": run.mover})
        elif stage in ("turn-end", "turn-start"):
            game = game_fact(s)
            # no game fact: a rule took it away, and the move is refused as such
            turn = game.values["turn"] if game is not None else m["color"]
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
        game = game_fact(s)
        if detect is not None and game is not None:
            detect(ctx, game)
    s.mod_run = None


def _alive(s, pid) -> bool:
    f = s.facts.get(pid)
    return f is not None and f.alive


def _hp_default(values) -> int:
    from presets.pieces import default_hp
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
