"""Descriptor models (version 1): effect primitives, trigger primitives, square
filters and target resolvers, as pydantic v2 models.

A descriptor is validated in two passes (:func:`validate_descriptor`): a walk
over the raw JSON that checks the version, the kinds, the nesting depth and the
node count (so an oversized descriptor is refused before pydantic builds
anything), then the pydantic models (parameters). Every refusal is a
:class:`DescriptorError` carrying a JSON path (``$.primitives[0].params.delta``)
and the reason.
"""
from __future__ import annotations

import re
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from chess_rules.errors import ChessError
from chess_rules.position import RESERVED_TOKEN_KEYS

MAX_RECURSION_DEPTH = 3
MAX_PRIMITIVE_COUNT = 50
DESCRIPTOR_VERSION = 1

PieceType = Literal["pawn", "knight", "bishop", "rook", "queen", "king"]
NonRoyalType = Literal["pawn", "knight", "bishop", "rook", "queen"]
Color = Literal["white", "black"]
ColorOrBoth = Literal["white", "black", "both"]
Square = Annotated[int, Field(ge=0, le=63)]

#: attribute names with a meaning of their own; every other PascalCase name is a
#: whole-number attribute that starts at 0
SPECIAL_ATTRS = {"Hp": "hp", "PieceType": "type", "CaptureFlag": "capture-flag"}
READ_ONLY_ATTRS = {"Color", "Position", "Square", "Moved", "Type"}
ATTR_RE = re.compile(r"^[A-Z][A-Za-z0-9]{0,31}$")

TRIGGER_KINDS = ("on-turn-start", "on-capture", "on-damaged", "on-move", "on-turn-end",
                 "on-promotion", "on-check-received", "on-check-delivered",
                 "on-moved-onto-square", "on-captured")
EFFECT_KINDS = ("add-to-attribute", "seed-attribute", "add-aura", "set-capture-flag",
                "conditional", "set-board-topology")
KINDS = TRIGGER_KINDS + EFFECT_KINDS

#: the piece attribute (WME) each trigger seeds
HOOK_ATTR = {
    "on-turn-start": "OnTurnStartHooks", "on-capture": "OnCaptureHooks",
    "on-damaged": "OnDamagedHooks", "on-move": "OnMoveHooks",
    "on-turn-end": "OnTurnEndHooks", "on-promotion": "OnPromotionHooks",
    "on-check-received": "OnCheckReceivedHooks", "on-check-delivered": "OnCheckDeliveredHooks",
    "on-moved-onto-square": "OnMovedOntoSquareHooks", "on-captured": "OnCapturedHooks",
    "conditional": "ConditionalHooks",
}


# ---------------------------------------------------------------- errors


class ModifierError(ChessError):
    """Anything wrong with a custom modifier (descriptor, name, file, composition)."""


class DescriptorError(ModifierError, ValueError):
    """A descriptor refused at validation. ``path`` is a JSON path into the
    descriptor (``$`` is its root), ``reason`` says why."""

    def __init__(self, path: str, reason: str, source: str | None = None):
        self.path = path
        self.reason = reason
        self.source = source
        where = f"{source}: " if source else ""
        super().__init__(f"bad modifier descriptor: {where}{path}: {reason}")

    def __reduce__(self):
        return (type(self), (self.path, self.reason, self.source))


class DescriptorVersionError(DescriptorError):
    """The descriptor's ``version`` is missing or not 1."""


class UnknownKindError(DescriptorError):
    """A primitive ``kind`` that is not one of the 16 known kinds."""


class RecursionDepthError(DescriptorError):
    """Primitives nested deeper than MAX_RECURSION_DEPTH."""


class PrimitiveCountError(DescriptorError):
    """More than MAX_PRIMITIVE_COUNT primitive nodes in one descriptor."""


class BadParamsError(DescriptorError):
    """A primitive's parameters (or another field) fail the schema."""


class UnknownModifierError(ModifierError):
    """A gallery name that does not exist, or a descriptor file that cannot be read."""


class ModifierCompositionError(ModifierError):
    """A valid descriptor that the rule set cannot take (e.g. Hp without piece-hp)."""


class ModifierBoardError(ModifierCompositionError):
    """A modifier attached to a rule set on a board other than 8x8 (its squares,
    auras and topologies are those of the 64-square board)."""


# ---------------------------------------------------------------- leaf models


def _whole(v, what: str):
    """``v`` if it is a whole number: a Literal of numbers takes ``true`` and
    ``1.0`` for 1 even in strict mode (they compare equal)."""
    if isinstance(v, bool) or not isinstance(v, int):
        raise ValueError(f"{what} is a whole number, not {v!r}")
    return v


class _Model(BaseModel):
    # strict: "1" is no whole number and true no 1 (as the exported JSON schema says)
    model_config = ConfigDict(extra="forbid", populate_by_name=True, strict=True)


#: keys of an extended position (and piece slots) an attribute's token may not take:
#: ``Half`` would be written ``half:f3=1``, which reads back as the half-move count.
#: Those the position reader keeps, and the tokens of this project's rule sets
#: (``mod:`` the modifiers', ``winner:`` Dice Chess's); a token a rule set declares
#: besides is refused when the modifier is attached to it.
RESERVED_KEYS = set(RESERVED_TOKEN_KEYS) | {"mod", "winner"}


def _token_key(attr: str) -> str:
    """The key an attribute is written under (``AttackBonus`` -> ``attack-bonus``)."""
    return re.sub(r"(?<!^)([A-Z])", r"-\1", attr).lower()


def _check_attr(v: str, allow_special: bool = True) -> str:
    if v in READ_ONLY_ATTRS:
        raise ValueError(f"attribute {v!r} is read-only (moves change it, primitives do not)")
    if not ATTR_RE.match(v):
        raise ValueError(f"attribute {v!r} must be a PascalCase name (A-Z, a-z, 0-9; at most 32)")
    if v not in SPECIAL_ATTRS and _token_key(v) in RESERVED_KEYS:
        raise ValueError(f"attribute {v!r} would be written as '{_token_key(v)}:' in a "
                         f"position, a key positions reserve; choose another name")
    if not allow_special and v in SPECIAL_ATTRS:
        raise ValueError(f"attribute {v!r} cannot be an aura's: an aura's attribute is the sum "
                         f"of the auras on a piece, worked out again at every move, and {v} "
                         f"is the piece's own state (its hit points, type or capture flag), "
                         f"which that would overwrite; give the aura an attribute of its own")
    return v


class SquaresFilter(_Model):
    """An explicit list of squares, 0..63 (a1 = 0, h8 = 63)."""

    kind: Literal["squares"]
    squares: list[Square] = Field(min_length=1, max_length=64)

    def matches(self, sq: int) -> bool:
        return sq in self.squares


class PredicateFilter(_Model):
    """A file (0 = a .. 7 = h), a rank (0 = rank 1 .. 7 = rank 8), or both."""

    kind: Literal["predicate"]
    file: Annotated[int, Field(ge=0, le=7)] | None = None
    rank: Annotated[int, Field(ge=0, le=7)] | None = None

    @model_validator(mode="after")
    def _one_of(self):
        if self.file is None and self.rank is None:
            raise ValueError("a predicate filter needs at least one of 'file' and 'rank'")
        return self

    def matches(self, sq: int) -> bool:
        return (self.file is None or sq % 8 == self.file) and \
            (self.rank is None or sq // 8 == self.rank)


SquareFilter = Annotated[Union[SquaresFilter, PredicateFilter], Field(discriminator="kind")]


class TargetSquares(_Model):
    """Every piece standing on one of these squares when the effect applies."""

    squares: list[Square] = Field(min_length=1, max_length=64)


class RelationFilter(_Model):
    piece_type: PieceType | None = Field(default=None, alias="pieceType")


class TargetRelation(_Model):
    """Every ally (the hooked piece excluded) or every enemy of the hooked piece."""

    relation: Literal["ally", "enemy"]
    filter: RelationFilter | None = None


TargetResolver = Union[Literal["self", "attacker", "defender"], TargetSquares, TargetRelation]


class Condition(_Model):
    """What a ``conditional`` tests; every field given must hold (at least one).

    ``attr``/``op``/``value`` compare an attribute of the hooked piece;
    ``pieceType``, ``color``: the hooked piece's; ``inCheck``: the hooked piece is a
    royal piece standing attacked now; ``sideToMove``; ``square``: the hooked piece
    stands on a matching square; ``event``: fields of ``ctx.event`` equal these."""

    attr: str | None = None
    op: Literal["==", "!=", "<", "<=", ">", ">="] = "=="
    value: int | None = None
    piece_type: PieceType | None = Field(default=None, alias="pieceType")
    color: Color | None = None
    in_check: bool | None = Field(default=None, alias="inCheck")
    side_to_move: Color | None = Field(default=None, alias="sideToMove")
    square: SquareFilter | None = None
    event: dict[str, Union[bool, int, str, None]] | None = None

    @field_validator("attr")
    @classmethod
    def _attr(cls, v):
        return None if v is None else _check_attr(v)

    @model_validator(mode="after")
    def _some(self):
        if (self.attr is None) != (self.value is None):
            raise ValueError("'attr' and 'value' go together")
        if self.attr == "PieceType":
            raise ValueError("compare the type with 'pieceType', not 'attr'")
        if all(x is None for x in (self.attr, self.piece_type, self.color, self.in_check,
                                   self.side_to_move, self.square, self.event)):
            raise ValueError("a condition needs at least one test")
        return self


# ---------------------------------------------------------------- effect primitives


class AddToAttributeParams(_Model):
    attr: str
    delta: Annotated[int, Field(ge=-100, le=100)]

    @field_validator("attr")
    @classmethod
    def _attr(cls, v):
        _check_attr(v)
        if v == "PieceType":
            raise ValueError("'PieceType' is not a number; use seed-attribute")
        return v


class SeedAttributeParams(_Model):
    attr: str
    value: Union[int, str]

    @field_validator("attr")
    @classmethod
    def _attr(cls, v):
        return _check_attr(v)

    @model_validator(mode="after")
    def _typed(self):
        if self.attr == "PieceType":
            if self.value not in ("pawn", "knight", "bishop", "rook", "queen"):
                raise ValueError(f"'PieceType' takes pawn, knight, bishop, rook or queen "
                                 f"(never king), not {self.value!r}")
        elif isinstance(self.value, str) or isinstance(self.value, bool):
            raise ValueError(f"attribute {self.attr!r} takes a whole number")
        elif not -1000 <= self.value <= 1000:
            raise ValueError(f"value {self.value} is out of range (-1000..1000)")
        elif self.attr == "Hp" and self.value < 1:
            raise ValueError("'Hp' is seeded with 1 or more (a piece dies by damage)")
        elif self.attr == "CaptureFlag" and self.value not in (0, 1):
            raise ValueError("'CaptureFlag' is 0 or 1")
        return self


class AddAuraParams(_Model):
    radius: Annotated[int, Field(ge=1, le=7)]
    target_attr: str = Field(alias="targetAttr")
    delta: Annotated[int, Field(ge=-100, le=100)]
    affects: Literal["allies", "enemies", "all"] = "allies"

    @field_validator("target_attr")
    @classmethod
    def _attr(cls, v):
        return _check_attr(v, allow_special=False)


class SetCaptureFlagParams(_Model):
    flag: Literal[0, 1]

    @field_validator("flag", mode="before")
    @classmethod
    def _whole_flag(cls, v):
        return _whole(v, "the flag")


class SetBoardTopologyParams(_Model):
    topology: Literal["plain", "cylinder"]


class AddToAttribute(_Model):
    kind: Literal["add-to-attribute"]
    params: AddToAttributeParams


class SeedAttribute(_Model):
    kind: Literal["seed-attribute"]
    params: SeedAttributeParams


class AddAura(_Model):
    kind: Literal["add-aura"]
    params: AddAuraParams


class SetCaptureFlag(_Model):
    kind: Literal["set-capture-flag"]
    params: SetCaptureFlagParams


class SetBoardTopology(_Model):
    kind: Literal["set-board-topology"]
    params: SetBoardTopologyParams


class ConditionalParams(_Model):
    if_: Condition = Field(alias="if")
    then: list["Primitive"] = Field(default_factory=list)
    else_: list["Primitive"] = Field(default_factory=list, alias="else")


class Conditional(_Model):
    kind: Literal["conditional"]
    params: ConditionalParams


# ---------------------------------------------------------------- trigger primitives


class TriggerParams(_Model):
    target: TargetResolver = "self"
    primitives: list["Primitive"] = Field(default_factory=list)


class ColorTriggerParams(TriggerParams):
    color: ColorOrBoth = "both"


class SquareTriggerParams(TriggerParams):
    filter: SquareFilter


class OnTurnStart(_Model):
    kind: Literal["on-turn-start"]
    params: ColorTriggerParams


class OnTurnEnd(_Model):
    kind: Literal["on-turn-end"]
    params: ColorTriggerParams


class OnCapture(_Model):
    kind: Literal["on-capture"]
    params: TriggerParams


class OnCaptured(_Model):
    kind: Literal["on-captured"]
    params: TriggerParams


class OnDamaged(_Model):
    kind: Literal["on-damaged"]
    params: TriggerParams


class OnMove(_Model):
    kind: Literal["on-move"]
    params: TriggerParams


class OnPromotion(_Model):
    kind: Literal["on-promotion"]
    params: TriggerParams


class OnCheckReceived(_Model):
    kind: Literal["on-check-received"]
    params: TriggerParams


class OnCheckDelivered(_Model):
    kind: Literal["on-check-delivered"]
    params: TriggerParams


class OnMovedOntoSquare(_Model):
    kind: Literal["on-moved-onto-square"]
    params: SquareTriggerParams


Primitive = Annotated[Union[
    AddToAttribute, SeedAttribute, AddAura, SetCaptureFlag, Conditional, SetBoardTopology,
    OnTurnStart, OnTurnEnd, OnCapture, OnCaptured, OnDamaged, OnMove, OnPromotion,
    OnCheckReceived, OnCheckDelivered, OnMovedOntoSquare,
], Field(discriminator="kind")]


class AppliesTo(_Model):
    """Which pieces a descriptor attaches to when no squares are given."""

    color: ColorOrBoth = "both"
    piece_types: list[PieceType] | None = Field(default=None, alias="pieceTypes")
    squares: list[Square] | None = None

    def matches(self, ptype: str, color: str, sq: int) -> bool:
        return (self.color in ("both", color)
                and (self.piece_types is None or ptype in self.piece_types)
                and (self.squares is None or sq in self.squares))


class Descriptor(_Model):
    """A custom modifier: primitives applied to the pieces it attaches to."""

    version: Literal[1]

    @field_validator("version", mode="before")
    @classmethod
    def _whole_version(cls, v):
        return _whole(v, "the version")
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]{0,63}$")
    name: str = ""
    description: str = ""
    requires: list[str] = Field(default_factory=list,
                                description="presets the descriptor needs (e.g. piece-hp)")
    applies_to: AppliesTo = Field(default_factory=AppliesTo, alias="appliesTo")
    primitives: list[Primitive] = Field(default_factory=list)

    @field_validator("requires")
    @classmethod
    def _known_presets(cls, v):
        from presets.registry import all_presets      # (the registry imports the presets)
        known = {m.id for m in all_presets()}
        for pid in v:
            if pid not in known:
                raise ValueError(f"{pid!r} is no preset (presets: houserules presets)")
        return v


_models: tuple[type[BaseModel], ...] = (
    ConditionalParams, TriggerParams, ColorTriggerParams, SquareTriggerParams, Descriptor)
for _m in _models:
    _m.model_rebuild()

# ---------------------------------------------------------------- validation


def _structure(raw: Any) -> None:
    """Version, kinds, depth and count, on the raw JSON (before pydantic)."""
    if not isinstance(raw, dict):
        raise BadParamsError("$", f"a descriptor is a JSON object, not {type(raw).__name__}")
    if "version" not in raw:
        raise DescriptorVersionError("$.version", f"missing (this engine reads version "
                                                  f"{DESCRIPTOR_VERSION})")
    v = raw["version"]
    if v != DESCRIPTOR_VERSION or isinstance(v, bool):
        raise DescriptorVersionError("$.version", f"version {v!r} is not supported "
                                                  f"(this engine reads version {DESCRIPTOR_VERSION})")
    count = 0

    def walk(nodes, path, depth):
        nonlocal count
        if not isinstance(nodes, list):
            raise BadParamsError(path, "expected a list of primitives")
        for i, node in enumerate(nodes):
            p = f"{path}[{i}]"
            if depth > MAX_RECURSION_DEPTH:
                raise RecursionDepthError(
                    p, f"primitives nested {depth} levels deep; at most MAX_RECURSION_DEPTH = "
                       f"{MAX_RECURSION_DEPTH}")
            count += 1
            if count > MAX_PRIMITIVE_COUNT:
                raise PrimitiveCountError(
                    p, f"more than MAX_PRIMITIVE_COUNT = {MAX_PRIMITIVE_COUNT} primitive nodes "
                       "in one descriptor")
            if not isinstance(node, dict):
                raise BadParamsError(p, "a primitive is a JSON object with 'kind' and 'params'")
            kind = node.get("kind")
            if kind not in KINDS:
                raise UnknownKindError(f"{p}.kind", f"unknown primitive kind {kind!r} "
                                                    f"(known: {', '.join(KINDS)})")
            params = node.get("params")
            if not isinstance(params, dict):
                continue  # pydantic reports it
            if kind in TRIGGER_KINDS and "primitives" in params:
                walk(params["primitives"], f"{p}.params.primitives", depth + 1)
            if kind == "conditional":
                for branch in ("then", "else"):
                    if branch in params:
                        walk(params[branch], f"{p}.params.{branch}", depth + 1)

    walk(raw.get("primitives", []), "$.primitives", 1)


def _json_path(raw: Any, loc: tuple) -> str:
    """A pydantic error location as a JSON path into ``raw`` (union tags skipped)."""
    path = "$"
    cur = raw
    fresh = False
    for part in loc:
        if fresh and isinstance(cur, dict) and isinstance(part, str) and part == cur.get("kind"):
            fresh = False
            continue  # the tag of a discriminated union comes first
        fresh = False
        if isinstance(cur, list) and isinstance(part, int) and 0 <= part < len(cur):
            path += f"[{part}]"
            cur = cur[part]
            fresh = True
        elif isinstance(cur, dict) and isinstance(part, str) and part in cur:
            path += f".{part}"
            cur = cur[part]
            fresh = True
        elif isinstance(cur, dict) and isinstance(part, str) and part.rstrip("_") in cur:
            path += f".{part.rstrip('_')}"
            cur = cur[part.rstrip("_")]
        elif isinstance(part, str) and (part in KINDS or "[" in part or "-" in part
                                        or part[:1].isupper() or part in ("str", "int", "bool")):
            continue  # a union branch or tag
        elif isinstance(cur, dict):
            path += f".{part}"
            cur = None
        else:
            path += f"[{part}]" if isinstance(part, int) else f".{part}"
            cur = None
    return path


def _given(raw: Any, loc: tuple) -> bool:
    """Does the error's location name a value the descriptor gives (not a missing one)?"""
    path = _json_path(raw, loc)
    return not path.endswith(f".{loc[-1]}") or _lookup(raw, path) is not _MISSING


_MISSING = object()


def _lookup(raw: Any, path: str):
    cur = raw
    for tok in re.findall(r"\.([^.\[]+)|\[(\d+)\]", path):
        key, idx = tok
        if key:
            if not isinstance(cur, dict) or key not in cur:
                return _MISSING
            cur = cur[key]
        else:
            i = int(idx)
            if not isinstance(cur, list) or i >= len(cur):
                return _MISSING
            cur = cur[i]
    return cur


def _top_level_only(d: Descriptor) -> None:
    """``set-board-topology`` fixes the geometry when the rule set is built."""
    def walk(nodes, path, top):
        for i, n in enumerate(nodes):
            p = f"{path}[{i}]"
            if n.kind == "set-board-topology" and not top:
                raise BadParamsError(p, "set-board-topology is allowed only at the top level "
                                        "(the board's geometry is fixed when the rules are built)")
            if n.kind in TRIGGER_KINDS:
                walk(n.params.primitives, f"{p}.params.primitives", False)
            elif n.kind == "conditional":
                walk(n.params.then, f"{p}.params.then", False)
                walk(n.params.else_, f"{p}.params.else", False)
    walk(d.primitives, "$.primitives", True)


def validate_descriptor(raw: Any, source: str | None = None) -> Descriptor:
    """Validate a descriptor (a dict, JSON text or a :class:`Descriptor`).

    Raises a :class:`DescriptorError` subclass naming the JSON path and the reason.
    """
    if isinstance(raw, Descriptor):
        raw = raw.model_dump(by_alias=True, exclude_none=True)
    if isinstance(raw, (str, bytes)):
        import json
        try:
            raw = json.loads(raw)
        except json.JSONDecodeError as e:
            raise BadParamsError("$", f"not JSON: {e.msg} at line {e.lineno} column {e.colno}",
                                 source) from None
        except (RecursionError, ValueError) as e:   # nested past the parser's depth...
            raise BadParamsError("$", f"not JSON this reader can take: {e}", source) from None
    try:
        _structure(raw)
    except DescriptorError as e:
        e.source = source
        raise type(e)(e.path, e.reason, source) from None
    try:
        d = Descriptor.model_validate(raw)
    except ValidationError as e:
        errs = e.errors()
        err = max(errs, key=lambda x: (_given(raw, x["loc"]), x["type"] != "extra_forbidden",
                                       len(x["loc"])))
        path = _json_path(raw, err["loc"])
        msg = err["msg"]
        if msg.startswith("Value error, "):
            msg = msg[len("Value error, "):]
        more = len(errs) - 1
        if more:
            msg += f" (and {more} more problem{'s' if more > 1 else ''})"
        raise BadParamsError(path, msg, source) from None
    try:
        _top_level_only(d)
    except DescriptorError as e:
        raise type(e)(e.path, e.reason, source) from None
    return d


def count_nodes(nodes) -> tuple[int, int]:
    """(node count, maximum depth) of a list of validated primitives."""
    n = 0
    deepest = 0

    def walk(ns, depth):
        nonlocal n, deepest
        for x in ns:
            n += 1
            deepest = max(deepest, depth)
            if x.kind in TRIGGER_KINDS:
                walk(x.params.primitives, depth + 1)
            elif x.kind == "conditional":
                walk(x.params.then, depth + 1)
                walk(x.params.else_, depth + 1)
    walk(nodes, 1)
    return n, deepest


def descriptor_schema() -> dict:
    """The JSON Schema of a version-1 descriptor."""
    s = Descriptor.model_json_schema(by_alias=True)
    s["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    s["title"] = "houserules custom modifier descriptor (version 1)"
    s["x-caps"] = {"MAX_RECURSION_DEPTH": MAX_RECURSION_DEPTH,
                   "MAX_PRIMITIVE_COUNT": MAX_PRIMITIVE_COUNT}
    return s
