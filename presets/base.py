"""What a preset is: its metadata and the rule-set edits it makes.

A preset module declares ``META`` (a :class:`PresetMeta`) and a function
``apply(rules, config)`` that edits the rule set through a
:class:`PresetRules`, which enforces the declared mode: an ``additive``
preset cannot remove or replace a production, an ``override`` preset cannot
add one that is not a replacement.

A preset reads a production it replaces with :meth:`PresetRules.build_on` when
the replacement keeps that production's behaviour (berolina-pawns for the side
out of its scope, knight-immunity's pawn capture less its veto), or with
:meth:`PresetRules.get` when it reads it only to rewrite what it does
(rook-warp's attacks). Over a base rule set whose own rules replaced the
production, the registry accepts the first and refuses the second
(:class:`ConflictingPresetsError`), as it refuses a replacement that read
nothing.
"""
from __future__ import annotations

from typing import Any, Callable, Literal

from pydantic import BaseModel, ConfigDict, Field

from chess_rules.errors import ArgumentError, ChessError
from chess_rules.move_helpers import implied_attacks
from chess_rules.ruleset import RuleSet, RuleSetError

Mode = Literal["additive", "override", "hybrid"]
PieceType = Literal["pawn", "knight", "bishop", "rook", "queen", "king"]


class PresetError(ChessError):
    """A preset or a combination of presets that cannot be built."""


class UnknownPresetError(PresetError):
    pass


class MissingRequirementError(PresetError):
    pass


class IncompatiblePresetsError(PresetError):
    pass


class RequirementCycleError(PresetError):
    pass


class ConflictingPresetsError(PresetError):
    pass


class PresetConfigError(PresetError):
    pass


class PresetBoardError(PresetError, ArgumentError):
    """A preset loaded over a rule set on a board other than 8x8: the presets'
    rules, layouts and tables are written for the 64 squares of the standard
    board, so they are refused there rather than misread."""


class PresetModeError(PresetError):
    pass


def redo_hint(origin: str) -> str:
    """How to compose presets with a base whose own rules (``origin``) one of them
    would undo: the presets first, then those rules (Dice Chess: made of them)."""
    if origin == "dice":
        return ("Make Dice Chess of the presets instead: dice.dice_rules(presets.load(...)), "
                "or DiceGame(dfen, presets=[...])")
    return "Load the presets first and apply your rules over them"


class ScopeConfig(BaseModel):
    """Which side(s) a scope-aware preset applies to."""

    model_config = ConfigDict(extra="forbid")
    scope: Literal["white", "black", "both"] = "both"


class PresetMeta(BaseModel):
    """A preset's metadata, exported as JSON by ``houserules presets --json``."""

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)
    id: str
    name: str
    category: str
    description: str
    mode: Mode
    affects: list[str] = Field(default_factory=list, description="base productions affected")
    requires: list[str] = Field(default_factory=list)
    incompatible_with: list[str] = Field(default_factory=list)
    incompatible_because: dict[str, str] = Field(
        default_factory=dict,
        description="why, for each id of incompatible_with (said on one side of a pair)")
    scope_aware: bool = False
    config_model: Any = Field(default=None, exclude=True)
    preferred_layout: str | None = None
    gallery: Literal["v1", "v2"] = "v1"
    # what a search engine (houserules.engine) needs to know to play the preset
    # well; the rules themselves never read these
    piece_values: dict[PieceType, int] = Field(
        default_factory=dict,
        description="centipawn values of piece types where the preset changes their worth")
    objective: Literal["lose-material", "extinction", "count-pieces"] | None = Field(
        default=None,
        description="what the preset's win condition rewards, where it is not checkmate "
                    "(extinction guards the type of the preset's target_type setting)")

    @property
    def configurable(self) -> bool:
        return self.config_model is not None

    def config_schema(self) -> dict | None:
        """The JSON Schema of the preset's configuration, or None if it takes none."""
        return self.config_model.model_json_schema() if self.config_model else None


class PresetRules:
    """The rule set as a preset sees it: edits are checked against the mode."""

    def __init__(self, ruleset: RuleSet, meta: PresetMeta):
        self.ruleset = ruleset
        self.meta = meta
        self.added: list[str] = []
        self.removed: list[str] = []
        self.replaced: list[str] = []
        # productions read to build a replacement on: ``built_on`` those whose
        # behaviour the replacement keeps (build_on), ``read`` every one (get)
        self.built_on: list[str] = []
        self.read: list[str] = []
        self.hints: dict[str, str] = {}
        # whether the preset read the board's topology while it was applied: its
        # productions are then built on that board, and a geometry loaded over
        # them later would not reach them (registry.load refuses that)
        self.read_topology = False

    @property
    def topology(self):
        """The board's topology, read to build productions on it."""
        self.read_topology = True
        return self.ruleset.topology

    @property
    def config(self) -> dict:
        return self.ruleset.config

    def add(self, prod):
        """Add a production under the preset's name (refused for an 'override'
        preset: :class:`PresetModeError`)."""
        if self.meta.mode == "override":
            raise PresetModeError(
                f"preset {self.meta.id!r} is 'override' and may not add {getattr(prod, 'name', prod)!r}; "
                "declare it 'hybrid'")
        try:
            p = self.ruleset.add(prod, self.meta.id)
        except RuleSetError as e:
            raise PresetError(f"preset {self.meta.id!r}: {e}") from e
        self.added.append(p.name)
        return p

    def remove(self, name: str):
        """Take a production out (refused for an 'additive' preset); one that
        another preset removed already is a :class:`ConflictingPresetsError`."""
        self._check_override(name, "remove")
        try:
            p = self.ruleset.remove(name, self.meta.id)
        except RuleSetError as e:
            raise self._missing(name, e) from e
        self.removed.append(name)
        return p

    def replace(self, prod):
        """Put a production in the place of the one of its name (refused for an
        'additive' preset); see :meth:`build_on` and :meth:`get` for one built on
        the production it replaces."""
        name = getattr(prod, "name", None)
        self._check_override(name, "replace")
        try:
            p = self.ruleset.replace(prod, self.meta.id)
        except RuleSetError as e:
            raise self._missing(name, e) from e
        self.replaced.append(p.name)
        return p

    def _missing(self, name, err) -> PresetError:
        """The error for a production that is not there: a conflict when a preset
        loaded before this one removed it (the same conflict as two rewrites, found
        in the other order), else the rule set's own complaint."""
        from .catalog import preset_modules
        for verb, n, origin in reversed(self.ruleset.history):
            if n == name and verb == "remove" and origin != self.meta.id:
                if origin not in preset_modules():        # the base's own rules removed it
                    return ConflictingPresetsError(
                        f"preset {self.meta.id!r} rewrites {name!r}, which the base rule "
                        f"set's own rules ({origin}) removed. {redo_hint(origin)}")
                return ConflictingPresetsError(
                    f"presets {origin!r} and {self.meta.id!r} both rewrite {name!r} "
                    "in different ways")
        return PresetError(f"preset {self.meta.id!r}: {err}")

    def _check_override(self, name, verb):
        if self.meta.mode == "additive":
            raise PresetModeError(
                f"preset {self.meta.id!r} is 'additive' and may not {verb} {name!r}; "
                "declare it 'override' or 'hybrid'")

    def get(self, name: str, *, hint: str | None = None):
        """The production ``name``, read to rewrite it: the replacement does not
        keep what it does (its moves, its attacks). Over a base whose own rules
        replaced ``name``, rewriting it is refused as if it had not been read
        (``hint`` says why, in the refusal); see :meth:`build_on`."""
        p = self.ruleset.productions.get(name)
        if p is None:
            raise self._missing(name, f"no production {name!r} to build on")
        self.read.append(name)
        if hint:
            self.hints[name] = hint
        return p

    def build_on(self, name: str):
        """The production ``name``, to build a replacement on that keeps its
        behaviour: what the preset does not change (a side out of its scope, the
        moves it does not veto) moves and attacks as the production did, its
        generator called with all its arguments. Over a base whose own rules
        replaced ``name`` (a rule file, Python), such a replacement is accepted;
        one read with :meth:`get` is refused, since it would undo them."""
        p = self.get(name)
        self.built_on.append(name)
        return p

    def attacks_of(self, prod):
        """The attacks ``prod`` declares, or else those its move helpers imply
        (``gen-leap``, ``gen-slide``; a rule of the base is given them only when
        the rule set is built): what a replacement that calls another function
        but keeps its captures must declare. None: it attacks nothing."""
        a = prod.meta.get("attacks")
        if a is not None:
            return a
        return implied_attacks(prod, self.topology, self.ruleset.functions)

    def has(self, name: str) -> bool:
        """Whether the rule set has a production of that name."""
        return name in self.ruleset.productions

    def function(self, name: str, fn: Callable):
        """Register a function the preset's productions call by name."""
        self.ruleset.functions[name] = fn
        return fn

    def __getattr__(self, item):
        # everything else (royal_types, topology, templates, setup_hooks, add_stage...)
        return getattr(self.ruleset, item)
