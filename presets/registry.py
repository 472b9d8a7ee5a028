"""The preset registry: load presets by id onto FIDE.

``load(*ids, config=...)`` checks the whole composition before anything is
built (:mod:`presets.composition`: unknown ids, missing requirements,
incompatible pairs declared on either side, cycles in ``requires``, two presets
rewriting the same production), then applies the presets in dependency order
to a copy of the FIDE rule set. The catalogue of preset modules is
:mod:`presets.catalog`; the presets as text (``--config``, ``VariantConfig``,
the ``houserules presets`` table) are :mod:`presets.text`. Their public names
are re-exported here, where they were first.
"""
from __future__ import annotations

import difflib
from functools import lru_cache
from typing import Mapping

from pydantic import BaseModel, ValidationError

from chess_rules.fide import fide_rules
from chess_rules.ruleset import RuleSet, checked_ruleset
from chess_rules.shape import STANDARD

from .base import (ConflictingPresetsError, PresetBoardError, IncompatiblePresetsError, PresetConfigError,
                   PresetError, PresetRules,
                   UnknownPresetError, redo_hint)
from . import catalog
from .catalog import (LIBRARY, PRESET_MODULES, PresetImportError, _id_error, all_presets,
                      get, id_list, kebab_suggestion, preset_modules, unknown_message)
from .composition import (GEOMETRY_CATEGORY, check_composition, conflicts, incompatibilities,
                          incompatibility_reason, incompatible_error, requirement_graph,
                          with_requirements)
from .text import (PRESET_CONFIG, config_text, parse_config_items, parse_config_text,
                   preset_table)

__all__ = [
    "load", "validate_config", "position_keys", "TOPOLOGY_BOUND", "STEP_TABLES",
    # re-exported from presets.catalog, presets.composition and presets.text
    "LIBRARY", "PRESET_MODULES", "PresetImportError", "all_presets", "get", "id_list",
    "kebab_suggestion", "preset_modules", "unknown_message", "GEOMETRY_CATEGORY",
    "check_composition", "conflicts", "incompatibilities", "incompatibility_reason",
    "incompatible_error", "requirement_graph", "with_requirements", "PRESET_CONFIG",
    "config_text", "parse_config_items", "parse_config_text", "preset_table",
]

#: ``RuleSet.config`` key: the presets (not geometry) that read the board's
#: topology while they were applied, so built productions on it
TOPOLOGY_BOUND = "topology-bound"


#: the topology's step and leap tables (chess_rules.topology)
STEP_TABLES = ("steps", "knight_leaps", "king_leaps", "pawn_attacks", "pawn_attackers")


def _steps_changed(old, new) -> bool:
    """Whether a geometry changed the board's steps or leaps (wrap-board does;
    rook-warp keeps the board, bouncing-pieces changes only the diagonal rays -
    and rebuilds by name the sliders that walk them, so a preset that built a
    slider on the old rays rewrote one of those, and is refused as such)."""
    return old is not new and any(getattr(old, t) != getattr(new, t) for t in STEP_TABLES)


def validate_config(preset_id: str, raw) -> object | None:
    """A preset's configuration (a mapping, or None for the defaults) checked
    against its pydantic model, or None for a preset that takes none; a bad value
    raises :class:`PresetConfigError` naming the setting."""
    meta = get(preset_id)
    if meta.config_model is None:
        if raw:
            raise PresetConfigError(f"preset {preset_id!r} takes no configuration (got {raw!r})")
        return None
    try:
        return meta.config_model.model_validate(raw or {})
    except ValidationError as e:
        fields = list(meta.config_model.model_fields)

        def msg(err) -> str:
            if err["type"] == "extra_forbidden" and len(err["loc"]) == 1:
                # pydantic's "Extra inputs are not permitted" says not what is
                close = difflib.get_close_matches(
                    str(err["loc"][0]).replace("-", "_").lower(),
                    [f.lower() for f in fields], n=1, cutoff=0.5)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                return (f"no such setting (the settings: {', '.join(fields)}){hint}")
            return err["msg"]
        msgs = "; ".join(f"{'.'.join(map(str, err['loc'])) or '(config)'}: {msg(err)}"
                         for err in e.errors())
        raise PresetConfigError(f"preset {preset_id!r}: bad configuration: {msgs}") from None


def load(*ids: str, config: Mapping[str, Mapping] | None = None,
         base: RuleSet | None = None) -> RuleSet:
    """FIDE (or ``base``) plus the presets, in dependency order.

    Over a ``base`` that holds presets already, the new ones must compose with
    those (requirements, incompatibilities, productions both rewrite, and no
    geometry that changes the board's steps or leaps under presets that built
    their productions on it: ``config['topology-bound']``, the presets that
    read ``PresetRules.topology``); a preset
    whose rules a modifier of the base applied (``set-board-topology cylinder``
    applies wrap-board's) counts as loaded. A refusal leaves ``base`` as it was.

    >>> rs = load("piece-hp", "king-heals")
    >>> rs.presets
    ['piece-hp', 'king-heals']
    """
    for i in ids:
        if not isinstance(i, str):
            raise _id_error(i, in_load=True)
    if config is not None and not isinstance(config, Mapping):
        raise PresetConfigError(f"the configuration is a mapping of preset id to its "
                                f"settings, not {type(config).__name__}")
    config = dict(config or {})
    rs = (checked_ruleset(base, name="base") or fide_rules()).copy()
    if ids and rs.shape is not STANDARD:
        raise PresetBoardError(
            f"preset {ids[0]!r} is written for the 8x8 board, and the rule set "
            f"({rs.name}) plays on a {rs.shape}: presets are read on 8x8 only")
    for k in config:
        if k in ids:
            continue
        if k in rs.presets:
            # it was configured when the base was made: loading does not redo it
            raise PresetConfigError(
                f"configuration given for {k!r}, which the base rule set ({rs.name}) has "
                f"loaded already: give it where that preset is loaded")
        if isinstance(k, str) and k not in catalog.preset_modules():
            raise PresetConfigError(f"configuration given for {k!r}: "
                                    + unknown_message([k]))
        raise PresetConfigError(f"configuration given for {k!r}, which is not loaded")
    mods = catalog.preset_modules()
    # a base that has presets already: the new ones compose with them (requirements,
    # incompatibilities, productions both rewrite), and none is loaded twice. A
    # preset a modifier applied (set-board-topology cylinder is wrap-board's rules)
    # counts as loaded, though the base does not list it
    already = list(rs.presets)
    by_modifier = sorted({o for o in rs.origin.values() if o in mods and o not in already})
    twice = [i for i in ids if i in already or i in by_modifier]
    if twice:
        how = " (a modifier applied its rules)" if twice[0] in by_modifier else ""
        raise ConflictingPresetsError(
            f"preset {twice[0]!r} is already loaded in the base rule set ({rs.name}){how}")
    present = already + by_modifier
    try:
        order = [i for i in check_composition(present + list(ids)) if i not in present]
    except IncompatiblePresetsError as e:
        if not by_modifier:
            raise
        raise IncompatiblePresetsError(
            f"{e} (a modifier of the base rule set applied the rules of "
            f"{', '.join(repr(i) for i in by_modifier)})") from None
    cfgs = {i: validate_config(i, config.get(i)) for i in order}
    touched: dict[str, str] = {name: origin for name, origin in rs.origin.items()
                               if origin in present}
    # productions the base's own rules (a rule file, Python) replaced: a preset
    # that rewrites one without building on it (PresetRules.build_on: the
    # replacement keeps its behaviour) would undo them, whether it read it
    # (PresetRules.get: to rewrite its moves or attacks) or not
    custom = {name: origin for name, origin in rs.origin.items()
              if origin not in mods and origin != "fide"}
    for pid in order:
        meta = mods[pid].META
        bound = list(rs.config.get(TOPOLOGY_BOUND, []))
        board = rs.topology
        rules = PresetRules(rs, meta)
        mods[pid].apply(rules, cfgs[pid])
        for name in rules.removed + rules.replaced:
            prev = touched.get(name)
            if name in custom and prev is None and name not in rules.built_on:
                why = ""
                if name in rules.read:
                    why = (" (it reads that production but does not keep what it does"
                           + (f": {rules.hints[name]}" if name in rules.hints else "") + ")")
                raise ConflictingPresetsError(
                    f"preset {pid!r} rewrites {name!r}, which the base rule set's own rules "
                    f"({custom[name]}) replaced: it would undo them{why}. "
                    f"{redo_hint(custom[name])}")
            if prev is None:
                pass
            elif GEOMETRY_CATEGORY not in (mods[prev].META.category, meta.category):
                raise ConflictingPresetsError(
                    f"presets {prev!r} and {pid!r} both rewrite {name!r} in different ways")
            elif meta.category == GEOMETRY_CATEGORY != mods[prev].META.category:
                # a board's geometry goes first, and the other preset rewrites its
                # movers over it: applied after (over a base), it would undo them
                raise ConflictingPresetsError(
                    f"preset {pid!r} (board geometry) would undo what {prev!r} made of "
                    f"{name!r}: load them together, and the geometry goes first")
            touched[name] = pid
        if meta.category == GEOMETRY_CATEGORY and bound and _steps_changed(board, rs.topology):
            # the base's presets built their productions on the board it had
            # then (pawn-diagonal-no-capture's slant, explosive-rook's blast...):
            # a geometry that changes the board's steps or leaps, loaded over
            # them, would not reach them
            raise ConflictingPresetsError(
                f"preset {pid!r} (board geometry) would not reach what "
                f"{', '.join(repr(b) for b in bound)} built on the board: load them "
                f"together, and the geometry goes first")
        if rules.read_topology and meta.category != GEOMETRY_CATEGORY:
            rs.config.setdefault(TOPOLOGY_BOUND, []).append(pid)
        cfg = cfgs[pid]
        if isinstance(cfg, BaseModel):
            given = cfg.model_dump(mode="json", exclude_defaults=True)
            if given:
                rs.config.setdefault(PRESET_CONFIG, {})[pid] = given
        rs.presets.append(pid)
    rs.name = "+".join([rs.name if already or base is not None else "fide"] + order)
    return rs


@lru_cache(maxsize=1)
def position_keys() -> dict[str, list[str]]:
    """The keys of extended positions each preset writes beyond FIDE's: its piece
    attributes (``hp``) and its own tokens, as ``{key: [preset ids]}``."""
    base = fide_rules()
    plain = set(base.templates["piece"].slots) | set(base.config.get("position-tokens", {}))
    out: dict[str, list[str]] = {}

    def keys(rs: RuleSet) -> set[str]:
        return set(rs.templates["piece"].slots) | set(rs.config.get("position-tokens", {}))
    for m in all_presets():
        try:
            # the preset's own keys, not those of the presets it requires
            before = keys(load(*m.requires))
            after = keys(load(*with_requirements([m.id])))
        except PresetError:      # (every preset loads with its requirements)
            continue
        for k in sorted(after - before - plain):
            out.setdefault(k, []).append(m.id)
    return out


