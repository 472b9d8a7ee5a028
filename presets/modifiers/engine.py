"""Compiling descriptors onto a rule set: the machinery installed once, the
dispatch productions the attached triggers need, composition checks.

The parts live in modules of their own: :mod:`.registry` (what the descriptors
compile to), :mod:`.effects` (running primitives on the board),
:mod:`.dispatch` (the 12-stage dispatcher), :mod:`.position_token` (``mod:``).

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

from rete import Call, P, Rule, V

from .dispatch import dispatch, filter_capture_flag, snapshot
from .models import Descriptor, ModifierCompositionError
from .position_token import read_mod_token, setup_modifiers, write_mod_token
from .registry import AURA_TEMPLATE, DISPATCH_STAGES, HOOK_TEMPLATE, STAGE_NAMES, Registry


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
    # the mod: token writes these facts: the repetition key has them through it
    rs.config["keyed-templates"] = sorted(set(rs.config.get("keyed-templates", ()))
                                          | {"mod-hook", "mod-aura"})
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
            # the cylinder is wrap-board's rules: a preset that cannot be loaded
            # with wrap-board cannot have them from a modifier either, and the
            # advice below (load wrap-board instead) would only be refused next
            from presets.registry import incompatibilities, incompatibility_reason
            clash = sorted(incompatibilities().get("wrap-board", set()) & presets)
            if clash:
                raise ModifierCompositionError(
                    f"modifier {d.id!r} asks for the 'cylinder' topology, which is "
                    f"wrap-board's: " + "; ".join(
                        f"preset {p!r} is incompatible with 'wrap-board': "
                        f"{incompatibility_reason(p, 'wrap-board')}" for p in clash))
            if have != "plain":
                raise ModifierCompositionError(
                    f"modifier {d.id!r} asks for the {want!r} topology, but the rules play on "
                    f"the {have!r} topology")
            moved = [name for name, o in rs.origin.items()
                     if o != "fide" and rs.productions[name].stage == "generate"
                     and rs.productions[name].meta.get("attacks") is not None]
            # presets that built their productions on the plain board
            # (pawn-diagonal-no-capture's slant, explosive-rook's blast)
            from presets.registry import TOPOLOGY_BOUND
            moved += [f"{p} (built on the plain board)"
                      for p in rs.config.get(TOPOLOGY_BOUND, ())]
            if moved:
                raise ModifierCompositionError(
                    f"modifier {d.id!r} cannot change the board's topology after presets "
                    f"rewrote movement rules ({', '.join(sorted(moved))}); use --preset "
                    "wrap-board instead")


def apply_topology(rs, d: Descriptor) -> None:
    for n in d.primitives:
        if n.kind == "set-board-topology" and n.params.topology == "cylinder" \
                and rs.topology.name != "cylinder":
            from presets.base import PresetRules
            from presets.catalog import preset_modules
            wrap_board = preset_modules()["wrap-board"]     # (the preset, by its id)
            wrap_board.apply(PresetRules(rs, wrap_board.META), None)
