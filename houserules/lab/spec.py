"""What a lab run plays: the spec (a TOML file, or the command line's options).

A spec names the variants to compare and how to play them::

    name = "double-move vs FIDE"
    games = 200            # per variant
    seed = 1               # the run's seed: every game's seed derives from it
    bots = [3, 3]          # the levels of bot A and bot B (they alternate colours)
    max_plies = 200        # a game still going after this many plies is a draw by cap

    [opening]
    random_plies = 4       # uniformly random plies first (Dice Chess: random turns)
    # file = "openings.txt"  # or one opening per line, UCI moves (game i takes line i)

    [[variant]]
    name = "fide"

    [[variant]]
    name = "double-move"
    presets = ["double-move"]

The model below is the reference; ``houserules lab schema`` prints its JSON
Schema. :func:`resolve` turns file references (rule files, modifier files,
the opening file) into the text they hold, so that a resolved spec is
self-contained: it is what is stored with the run and what travels to the
workers, which build the rule sets from it (never a pickled session).
"""
from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from chess_rules.errors import ChessError

__all__ = ["LabSpec", "Variant", "Opening", "LabSpecError", "load_spec", "resolve",
           "spec_schema", "MAX_LEVEL"]

MAX_LEVEL = 10


class LabSpecError(ChessError):
    """A lab spec that cannot be read or played (the message says where and why)."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Variant(_Strict):
    """One variant: FIDE plus presets, rule files, modifiers, a start, or Dice Chess."""

    name: str = Field(min_length=1, max_length=80,
                      description="the name the report shows (unique in the spec)")
    presets: list[str] = Field(default_factory=list,
                               description="preset ids ('houserules presets')")
    config: dict[str, dict[str, Any]] = Field(
        default_factory=dict,
        description="preset settings: {preset id: {key: value}}, as --config sets them")
    rules: list[str] = Field(
        default_factory=list,
        description="rule files (.hr): paths, relative to the spec file; resolved to "
                    "their text")
    rule_texts: list[str] = Field(
        default_factory=list,
        description="rule text given inline (what 'rules' files resolve to)")
    modifiers: list[str | dict[str, Any]] = Field(
        default_factory=list,
        description="modifier descriptors: a gallery name ('houserules modifiers list'), "
                    "a JSON file (resolved to its content) or the descriptor itself")
    layout: str | None = Field(default=None,
                               description="a starting layout id ('houserules layouts')")
    fen: str | None = Field(default=None,
                            description="a start position (FEN; a DFEN for Dice Chess)")
    dice: bool = Field(default=False, description="play it as Dice Chess")

    @model_validator(mode="after")
    def _one_start(self) -> "Variant":
        if self.layout and self.fen:
            raise ValueError("give a layout or a fen, not both")
        return self

    def rules_key(self) -> str:
        """The variant's rules as canonical JSON (the name left out): what a
        worker caches its rule set under."""
        return json.dumps(self.model_dump(exclude={"name"}), sort_keys=True)


class Opening(_Strict):
    """How games are made to differ: random plies first, or an opening file."""

    random_plies: int = Field(default=4, ge=0, le=40,
                              description="uniformly random plies (Dice Chess: turns) "
                                          "played before the bots")
    file: str | None = Field(default=None,
                             description="one opening per line, UCI moves separated by "
                                         "spaces ('#' starts a comment); game i plays line "
                                         "i modulo their number; resolved to 'lines'")
    lines: list[str] = Field(default_factory=list,
                             description="the openings given inline (what 'file' resolves to)")


class LabSpec(_Strict):
    """A lab run: the variants, how many games of each, the bots, the openings."""

    name: str = Field(default="lab", min_length=1, max_length=120,
                      description="what the run is called in the database and the report")
    games: int = Field(default=100, ge=1, le=1_000_000, description="games per variant")
    seed: int = Field(default=0, description="the run's seed: each game's derives from it")
    bots: tuple[int, int] = Field(
        default=(3, 3),
        description=f"the levels (1..{MAX_LEVEL}) of bot A and bot B: A plays White in "
                    "the even-numbered games, B in the odd")
    max_plies: int = Field(default=200, ge=1, le=10_000,
                           description="plies (Dice Chess: turns) after which a game is "
                                       "stopped and counted a draw by cap")
    opening: Opening = Field(default_factory=Opening)
    variant: list[Variant] = Field(min_length=1, description="the variants to compare")

    @field_validator("bots")
    @classmethod
    def _levels(cls, bots: tuple[int, int]) -> tuple[int, int]:
        for level in bots:
            if not 1 <= level <= MAX_LEVEL:
                raise ValueError(f"a bot level is 1..{MAX_LEVEL}, not {level}")
        return bots

    @model_validator(mode="after")
    def _unique_names(self) -> "LabSpec":
        names = [v.name for v in self.variant]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(f"variant names must differ: {', '.join(twice)} more than once")
        if (self.opening.file or self.opening.lines) and any(v.dice for v in self.variant):
            raise ValueError("an opening file is for chess variants: Dice Chess games "
                             "differ by their rolls and random_plies")
        return self


def spec_schema() -> dict:
    """The JSON Schema of a lab spec (``houserules lab schema``)."""
    schema = LabSpec.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "houserules lab spec"
    return schema


def _errors(e: ValidationError, source: str) -> LabSpecError:
    lines = []
    for err in e.errors():
        where = ".".join(str(p) for p in err["loc"]) or "(top level)"
        lines.append(f"  {where}: {err['msg']}")
    return LabSpecError(f"{source}: not a valid lab spec:\n" + "\n".join(lines))


def parse_spec(data: dict, source: str = "<spec>") -> LabSpec:
    """A :class:`LabSpec` from a mapping (a TOML document's), or LabSpecError."""
    try:
        return LabSpec.model_validate(data)
    except ValidationError as e:
        raise _errors(e, source) from None


def load_spec(path: str | os.PathLike) -> LabSpec:
    """The spec in a TOML file, resolved (:func:`resolve`) against its folder."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise LabSpecError(f"cannot read lab spec {str(p)!r}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise LabSpecError(f"{p}: a lab spec is TOML text, and this is not text") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise LabSpecError(f"{p}: not TOML: {e}") from None
    return resolve(parse_spec(data, str(p)), p.parent)


def _read(path: Path, what: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise LabSpecError(f"cannot read {what} {str(path)!r}: "
                           f"{getattr(e, 'strerror', None) or e}") from None


def _modifier(item: str | dict, base: Path) -> str | dict:
    if isinstance(item, dict):
        return item
    p = base / item
    if item.endswith(".json") or os.sep in item or "/" in item or p.is_file():
        try:
            return json.loads(_read(p, "modifier file"))
        except json.JSONDecodeError as e:
            raise LabSpecError(f"modifier file {str(p)!r}: not JSON: {e}") from None
    return item         # a gallery name: the gallery ships with the package


def resolve(spec: LabSpec, base: str | os.PathLike = ".") -> LabSpec:
    """The spec with its files read: rule files become ``rule_texts``, modifier
    files their descriptor, the opening file its ``lines``. Paths are taken
    from ``base``. The result names no file, so it plays the same anywhere."""
    base = Path(base)
    variants = []
    for v in spec.variant:
        texts = list(v.rule_texts) + [_read(base / r, "rule file") for r in v.rules]
        variants.append(v.model_copy(update={
            "rules": [], "rule_texts": texts,
            "modifiers": [_modifier(m, base) for m in v.modifiers]}))
    opening = spec.opening
    if opening.file:
        lines = [line.split("#")[0].strip()
                 for line in _read(base / opening.file, "opening file").splitlines()]
        lines = [line for line in lines if line]
        if not lines:
            raise LabSpecError(f"opening file {opening.file!r} has no opening in it")
        opening = opening.model_copy(update={"file": None,
                                             "lines": list(opening.lines) + lines})
    return spec.model_copy(update={"variant": variants, "opening": opening})
