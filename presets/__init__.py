"""Presets: composable rule packs on top of FIDE, loaded by id.

>>> from presets import load
>>> rules = load("pawns-move-backward")
>>> "preset.pawn-backward-push" in rules.productions
True
"""
from .base import (ConflictingPresetsError, IncompatiblePresetsError, MissingRequirementError,
                   PresetBoardError, PresetConfigError, PresetError, PresetMeta,
                   PresetModeError, PresetRules,
                   RequirementCycleError, ScopeConfig, UnknownPresetError)
from .layouts import LAYOUTS, Layout, UnknownLayoutError, get_layout
from .registry import (PRESET_MODULES, all_presets, check_composition, get, incompatibilities,
                       incompatibility_reason,
                       load, preset_table, requirement_graph, validate_config,
                       with_requirements)

__all__ = [
    "ConflictingPresetsError", "IncompatiblePresetsError", "LAYOUTS", "Layout",
    "MissingRequirementError", "PRESET_MODULES", "PresetBoardError", "PresetConfigError",
    "PresetError",
    "PresetMeta", "PresetModeError", "PresetRules", "RequirementCycleError", "ScopeConfig",
    "UnknownLayoutError", "UnknownPresetError", "all_presets", "check_composition", "get",
    "get_layout", "incompatibilities", "incompatibility_reason", "load", "preset_table", "requirement_graph",
    "validate_config", "with_requirements",
]
