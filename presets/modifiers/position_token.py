"""The ``mod:`` position token: the hooks and auras seeded on pieces, written
after a FEN and read back, and loaded into a game's working memory."""
from __future__ import annotations

from typing import get_args

from chess_rules.errors import FenError
from chess_rules.squares import SQUARE_NAMES, parse_square

from .effects import ApplyCtx, apply_nodes, recompute_auras
from .models import HOOK_ATTR, AddAuraParams, ModifierError
from .registry import Registry


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
                if int(x) in hooks:     # a hook is seeded once per piece
                    raise FenError("extended", f"mod:{item}: hook {x} is given twice")
                hooks.append(int(x))
                continue
            parts = x[1:].split(":") if x.startswith("a") else []
            try:
                radius_text, attr, delta_text, affects = parts
                radius, delta = int(radius_text), int(delta_text)
            except ValueError:
                raise FenError("extended", f"mod:{item}: {x!r} is neither a hook number nor "
                                           "an aura a<radius>:<attribute>:<delta>:<affects>") \
                    from None
            if affects not in AURA_AFFECTS or not 1 <= radius <= 7:
                raise FenError("extended", f"mod:{item}: {x!r} is not an aura (radius 1..7, "
                                           f"affects one of {', '.join(AURA_AFFECTS)})")
            if (radius, attr, delta, affects) in auras:
                raise FenError("extended", f"mod:{item}: the aura {x!r} is given twice")
            auras.append((radius, attr, delta, affects))
    return out


def _check_attribute_values(game, reg) -> None:
    """The modifiers' attributes a position gives are whole numbers (CaptureFlag
    0 or 1); hit points are piece-hp's to check. Refused as a :class:`FenError`
    before any primitive runs, not at the next move."""
    from chess_rules.errors import FenError
    from chess_rules.squares import SQUARE_NAMES
    for f in game.pieces():
        v = f.values
        for slot in reg.attrs:
            x = v.get(slot)
            if x is None or slot == "hp":
                continue
            ok = type(x) is int and (slot != "capture-flag" or x in (0, 1))
            if not ok:
                want = "0 or 1" if slot == "capture-flag" else "a whole number"
                raise FenError("extended", f"{slot}:{SQUARE_NAMES[v['square']]}={x!r}: "
                                           f"the attribute is {want}")


def setup_modifiers(game, pos) -> None:
    """At game start: apply each attached descriptor's top-level primitives to its
    pieces; from a position with a ``mod:`` token, seed the hooks and auras it lists
    instead."""
    s = game.session
    st = game.state
    reg = s.chess.ruleset.config["modifiers"]
    s.mod_run = None
    _check_attribute_values(game, reg)
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
            if (radius, attr, delta, affects) not in reg.auras:
                raise FenError("extended", f"mod:{SQUARE_NAMES[q]}: no aura a{radius}:{attr}:"
                                           f"{delta}:{affects} in the attached modifiers")
            s.assert_fact("mod-aura", piece=f.id, radius=radius, attr=attr, delta=delta,
                          affects=affects)
