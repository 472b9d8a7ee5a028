"""Positions: FEN, and the extended form that carries state FEN cannot.

An extended position is a FEN followed by ``key:value`` tokens, each written
only where the state differs from its default, so a plain FEN is an extended
position with everything at its defaults::

    4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 moved:e2 hp:e1=3,e2=1 half:1

``moved:SQ,...``    pieces that have moved although their square says otherwise
                    (a pawn back on its home rank after a backward step)
``<slot>:SQ=V,...`` a piece attribute added by a preset (``hp`` with piece-hp)
``half:N``          the half-move within a multi-move turn (0 = first)

A preset that adds a piece slot may give per-type defaults in
``RuleSet.config['slot-defaults'][slot] = fn(type, colour)``; a piece whose
value equals its default is not written.
"""
from __future__ import annotations

from .errors import FenError
from .fen import FenPosition, parse_fen
from .squares import SQUARE_NAMES, parse_square

BASE_PIECE_SLOTS = ("type", "color", "square", "moved")


def parse_position(text: str, ruleset) -> FenPosition:
    """Parse a FEN or extended position for ``ruleset`` (raises :class:`FenError`)."""
    if not isinstance(text, str):
        raise FenError("field_count", f"expected FEN text, got {type(text).__name__}")
    strict = ruleset.config.get("strict-ep", True)
    pos = parse_fen(text, extra_fields_allowed=16, strict_en_passant=strict)
    pos.moved = {}
    pos.attrs = {}
    pos.half = 0
    piece_slots = [s for s in ruleset.templates["piece"].slots if s not in BASE_PIECE_SLOTS]
    for tok in pos.extra:
        key, sep, val = tok.partition(":")
        if not sep or not val:
            raise FenError("extended", f"{tok!r} is not a key:value token")
        if key == "moved":
            for name in val.split(","):
                sq = _sq(name, tok)
                if sq not in pos.placement:
                    raise FenError("extended", f"moved:{name} names an empty square")
                pos.moved[sq] = True
        elif key == "half":
            if not val.isdigit():
                raise FenError("extended", f"half:{val} is not a number")
            pos.half = int(val)
        elif key in piece_slots:
            for item in val.split(","):
                name, eq, v = item.partition("=")
                if not eq:
                    raise FenError("extended", f"{key}:{item} should read square=value")
                sq = _sq(name, tok)
                if sq not in pos.placement:
                    raise FenError("extended", f"{key}:{name} names an empty square")
                pos.attrs.setdefault(sq, {})[key] = _value(v, tok)
        else:
            known = ", ".join(["moved", "half"] + piece_slots)
            raise FenError("extended", f"unknown key {key!r} in {tok!r} (known: {known})")
    pos.extra = ()
    return pos


def _sq(name: str, tok: str) -> int:
    try:
        return parse_square(name)
    except ValueError:
        raise FenError("extended", f"{name!r} in {tok!r} is not a square")


def _value(v: str, tok: str):
    try:
        return int(v)
    except ValueError:
        if v in ("true", "false"):
            return v == "true"
        return v


def extended_suffix(game) -> str:
    """The ``key:value`` tokens of a game's position (empty at the defaults)."""
    parts = []
    moved = []
    attrs: dict[str, list[str]] = {}
    t = game.ruleset.templates["piece"]
    extra_slots = [s for s in t.slots if s not in BASE_PIECE_SLOTS]
    for f in game.pieces():
        v = f.values
        sq = v["square"]
        if v["type"] == "pawn" and v["moved"] and sq // 8 == (1 if v["color"] == "white" else 6):
            moved.append(SQUARE_NAMES[sq])
        for slot in extra_slots:
            default = slot_default(game.ruleset, slot, v["type"], v["color"])
            if slot in v and v[slot] != default and v[slot] is not None:
                attrs.setdefault(slot, []).append(f"{SQUARE_NAMES[sq]}={_fmt(v[slot])}")
    if moved:
        parts.append("moved:" + ",".join(moved))
    for slot in extra_slots:
        if attrs.get(slot):
            parts.append(f"{slot}:" + ",".join(attrs[slot]))
    half = game._game_fact().values.get("half", 0)
    if half:
        parts.append(f"half:{half}")
    return (" " + " ".join(parts)) if parts else ""


def slot_default(ruleset, slot: str, ptype: str, color: str):
    """A piece slot's default: ``config['slot-defaults'][slot](type, colour)`` if a
    preset gave one (hp depends on the piece type), else the template default."""
    fn = ruleset.config.get("slot-defaults", {}).get(slot)
    if fn is not None:
        return fn(ptype, color)
    return ruleset.templates["piece"].defaults.get(slot)


def _fmt(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)
