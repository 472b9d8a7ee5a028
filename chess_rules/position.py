"""Positions: FEN, and the extended form that carries state FEN cannot.

An extended position is a FEN followed by ``key:value`` tokens, each written
only where the state differs from its default, so a plain FEN is an extended
position with everything at its defaults::

    4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 moved:e2 hp:e1=3,e2=1 half:1

``moved:SQ,...``    pieces that have moved although their square says otherwise
                    (a pawn back on its home rank after a backward step)
``<slot>:SQ=V,...`` a piece attribute added by a preset (``hp`` with piece-hp)
``half:N``          the half-move within a multi-move turn (0 = first)
``ep-pawn:T=SQ,...`` the pawn an en-passant target ``T`` captures, where it is not
                    the one the rule set infers (FIDE: the square beyond the
                    target; Berolina pawns: the one diagonal pawn that could have
                    made it; ``RuleSet.config['ep-pawn-infer']``)

A value is given once: the same attribute of one square twice, ``half:`` twice
or the pawn of one target twice is refused, even when the two agree.

A preset that adds a piece slot may give per-type defaults in
``RuleSet.config['slot-defaults'][slot] = fn(type, colour)``; a piece whose
value equals its default is not written.

A result that an event decided (capture-to-win's first capture,
first-promotion-wins' promotion, explosive-rook's blast) is recorded with the
move, not derived from the position, and is not written: the FEN of such a
finished game reads back as a position still to play (a FEN is a position, as in
python-chess, not a game; ``Game`` keeps the result, and ``pop`` takes it back).
Dice Chess, whose turns run across several positions, writes ``winner:`` where
the board does not show the result (see Dice Chess).

A rule set may carry state of its own in a token of its own:
``RuleSet.config['position-tokens'][key] = (read, write)``, where
``read(value, pos)`` parses the text after ``key:`` (raising
:class:`FenError`) into ``pos.tokens[key]``, which the rule set's setup hooks
then load, and ``write(game)`` gives the text back (None: no token). Custom
modifiers use it for ``mod:`` (the hooks and auras seeded on pieces).

Boards other than 8x8 (5 to 12 files ``a``..``l``, 5 to 10 ranks). The FEN
reader and writer (``chess_rules.fen.parse_fen`` with ``shape``, or
``shape=None`` to read the size from the FEN) read them, and a game reads its
positions on its rule set's board (``RuleSet.shape``). A run of more than nine
empty squares is written with two digits (``10``, ``12``) and a square of a
ten-rank board is named ``a10``, as Fairy-Stockfish writes them; a count with
a leading zero or larger than the board is refused. En-passant targets stand
on rank 3 or on the third rank from the top, and ``moved:`` names pawns on the
second rank from their side. (ours) On a board other than 8x8 a castling
letter needs its rook in its corner of the side's first rank (``K``/``k`` the
last file, ``Q``/``q`` the a-file) and the side's king on that rank between
the corners, since the king's home file differs from variant to variant (f1 in
Capablanca chess); the king castles from where it stands to the rule set's
files (``config['castling-king-files']``: the i- and c-files on 10x8).

(ours) Repetition reads the same state: under a preset two positions are one for
the threefold rule only when their extended FENs agree apart from the clocks
(and ``ep-pawn``, the target standing for its capture). A rook back on its square
with fewer hit points, or a pawn that stepped back to its home rank and so has
lost its double step, makes a new position.
"""
from __future__ import annotations

import re

from .errors import FenError, quoted
from .fen import FenPosition, parse_fen
from .geometry import home_rank_test

BASE_PIECE_SLOTS = ("type", "color", "square", "moved")
#: the keys this module reads itself (a piece attribute or a rule set's own
#: token of that name would not read back)
RESERVED_TOKEN_KEYS = frozenset({"moved", "ep-pawn", "half"} | set(BASE_PIECE_SLOTS))


def parse_position(text: str, ruleset) -> FenPosition:
    """Parse a FEN or extended position for ``ruleset`` (raises :class:`FenError`)."""
    if not isinstance(text, str):
        raise FenError("field_count", f"expected FEN text, got {type(text).__name__}")
    strict = ruleset.config.get("strict-ep", True)
    pos = parse_fen(text, extra_fields_allowed=16, strict_en_passant=strict,
                    shape=ruleset.shape)
    read_extended(pos, pos.extra, ruleset)
    pos.extra = ()
    return pos


def read_extended(pos, tokens, ruleset) -> None:
    """Read ``key:value`` tokens into ``pos`` (``moved``, ``attrs``, ``half``,
    ``ep_pawns``, ``tokens``; defaults where none is given) for ``ruleset``, whose
    piece slots and position tokens say which keys it knows (raises :class:`FenError`)."""
    pos.moved = {}
    pos.attrs = {}
    pos.half = 0
    pos.ep_pawns = {}
    pos.tokens = {}
    if not tokens:
        return
    own = ruleset.config.get("position-tokens", {})
    seen: set[str] = set()
    fide_targets = ruleset.config.get("strict-ep", True) and "ep-pawn-infer" not in ruleset.config
    piece_slots = [s for s in ruleset.templates["piece"].slots if s not in BASE_PIECE_SLOTS]
    shape = ruleset.shape
    names = shape.square_names

    def _sq(name: str, tok: str) -> int:
        try:
            return shape.parse_square(name)
        except ValueError:
            raise FenError("extended", f"{quoted(name)} in {quoted(tok)} is not a square")

    for tok in tokens:
        key, sep, val = tok.partition(":")
        if not sep or not val:
            raise FenError("extended", f"{quoted(tok)} is not a key:value token")
        if key == "moved":
            for name in val.split(","):
                sq = _sq(name, tok)
                if sq not in pos.placement:
                    raise FenError("extended", f"moved:{name} names an empty square")
                pos.moved[sq] = True
        elif key == "ep-pawn":
            for item in val.split(","):
                name, eq, v = item.partition("=")
                if not eq:
                    raise FenError("extended", f"ep-pawn:{item} should read target=square")
                t, sq = _sq(name, tok), _sq(v, tok)
                if t not in pos.ep_squares:
                    raise FenError("extended", f"ep-pawn:{name} is not an en-passant target "
                                               "of the position")
                if pos.placement.get(sq, (None,))[0] != "pawn":
                    raise FenError("extended", f"ep-pawn:{item}: there is no pawn on {v}")
                beyond = ep_pawn_default(ruleset, None, t) if fide_targets else sq
                if sq != beyond:
                    # one move per turn: the pawn a target captures is the one that made it
                    raise FenError("extended", f"ep-pawn:{item}: under this rule set the target "
                                               f"{name} captures the pawn beyond it, on "
                                               f"{names[beyond]}")
                if t in pos.ep_pawns:
                    raise FenError("extended", f"ep-pawn:{name} is given twice")
                pos.ep_pawns[t] = sq
        elif key == "half":
            if "turn-structure" not in ruleset.config:
                raise FenError("extended", f"half:{val}: this rule set plays one move per turn "
                                           "(half: is for several, as under double-move)")
            if not val.isascii() or not val.isdigit() or len(val) > 3:
                raise FenError("extended", f"half:{val} is not a number")
            if "half" in seen:
                raise FenError("extended", "half: is given twice")
            seen.add("half")
            pos.half = int(val)
        elif key in piece_slots:
            for item in val.split(","):
                name, eq, v = item.partition("=")
                if not eq:
                    raise FenError("extended", f"{key}:{item} should read square=value")
                sq = _sq(name, tok)
                if sq not in pos.placement:
                    raise FenError("extended", f"{key}:{name} names an empty square")
                held = pos.attrs.setdefault(sq, {})
                if key in held:
                    raise FenError("extended", f"{key}:{name} is given twice")
                held[key] = _value(v, tok)
        elif key in own:
            if key in pos.tokens:
                raise FenError("extended", f"{key}: is given twice")
            pos.tokens[key] = own[key][0](val, pos)
        else:
            known = ", ".join(["moved", "half", "ep-pawn"] + piece_slots + sorted(own))
            raise FenError("extended", f"unknown key {quoted(key)} in {quoted(tok)} (known: "
                                       f"{known}){_whose_key(key)}")


def _whose_key(key: str) -> str:
    """Where a key this rule set does not read comes from, when a preset (``hp:``,
    piece-hp's) or the custom modifiers (``mod:``) write it: a position copied from
    a game under other rules."""
    if key == "mod":
        return ("; mod: is written under custom modifiers: read the position with the "
                "same modifiers attached")
    from .rule_source import NoRuleSourceError, rule_source
    try:
        owners = rule_source().position_key_owners(key)
    except NoRuleSourceError:
        return ""
    if not owners:
        return ""
    return (f"; {key}: is written under preset {' or '.join(map(repr, owners))}: read the "
            f"position under it")


def _value(v: str, tok: str):
    """A piece attribute's text: a whole number written as ``_fmt`` writes one
    (digits, an optional ``-``: not ``+2``, ``2_0`` or ``٣``, which ``int`` would
    also read), ``true``/``false``, else the text itself (for the slot's own
    check to refuse or keep)."""
    if _INT.fullmatch(v):
        try:
            return int(v)
        except ValueError:      # (more digits than int() converts: the check refuses it)
            return v
    if v in ("true", "false"):
        return v == "true"
    return v


_INT = re.compile(r"-?[0-9]+")


def several_moves_a_turn(config) -> bool:
    """Whether a side may move again before the opponent can take an en-passant
    target (Dice Chess, double-move, monster-rules): the target may then be
    filled, and the square its pawn left refilled, so neither is checked."""
    return bool(config.get("ep-target-may-be-occupied")) or "turn-structure" in config


def ep_pawn_default(ruleset, state, target: int) -> int:
    """The pawn an en-passant target captures when the position does not say:
    the rule set's ``config['ep-pawn-infer'](state, target)`` (which may raise
    :class:`FenError`), else the square beyond the target (FIDE)."""
    infer = ruleset.config.get("ep-pawn-infer")
    if infer is not None:
        return infer(state, target)
    shape = ruleset.shape
    width, height = shape.width, shape.height
    rank = target // width
    if rank not in (2, height - 3):
        # pawns that double-step as in FIDE leave targets on ranks 3 and 6 only
        # (a rule set of several moves a turn checks no more than that)
        raise FenError("en_passant", f"{shape.square_names[target]!r} is not on rank 3 or "
                                     f"{height - 2}")
    return target + width if rank < height // 2 else target - width


def extended_suffix(game, eps=None) -> str:
    """The ``key:value`` tokens of a game's position (empty at the defaults);
    ``eps``: the en-passant targets the FEN shows (for ``ep-pawn``)."""
    parts = []
    moved = []
    attrs: dict[str, list[str]] = {}
    t = game.ruleset.templates["piece"]
    extra_slots = [s for s in t.slots if s not in BASE_PIECE_SLOTS]
    shape = game.ruleset.shape
    names = shape.square_names
    is_home = home_rank_test(shape)
    for f in game.pieces():
        v = f.values
        sq = v["square"]
        if v["type"] == "pawn" and v["moved"] and is_home(sq, v["color"]):
            moved.append(names[sq])
        for slot in extra_slots:
            default = slot_default(game.ruleset, slot, v["type"], v["color"])
            if slot in v and v[slot] != default and v[slot] is not None:
                attrs.setdefault(slot, []).append(f"{names[sq]}={_fmt(v[slot])}")
    if moved:
        parts.append("moved:" + ",".join(moved))
    for slot in extra_slots:
        if attrs.get(slot):
            parts.append(f"{slot}:" + ",".join(attrs[slot]))
    ep_pawns = []
    for f in sorted(game.session.facts_of("ep"), key=lambda f: f.values["square"]):
        t = f.values["square"]
        if eps is not None and t not in eps:
            continue
        try:
            inferred = ep_pawn_default(game.ruleset, game.state, t)
        except FenError:
            inferred = None
        if f.values["pawn"] != inferred:
            ep_pawns.append(f"{names[t]}={names[f.values['pawn']]}")
    if ep_pawns:
        parts.append("ep-pawn:" + ",".join(ep_pawns))
    half = game._game_fact().values.get("half", 0)
    if half:
        parts.append(f"half:{half}")
    for key, (_, write) in sorted(game.ruleset.config.get("position-tokens", {}).items()):
        text = write(game)
        if text is not None:
            parts.append(f"{key}:{text}")
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
