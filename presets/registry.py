"""The preset registry and composition: load presets by id onto FIDE.

``load(*ids, config=...)`` checks the whole composition with networkx before
anything is built — unknown ids, missing requirements, incompatible pairs
(declared on either side), cycles in ``requires``, two presets rewriting the
same production — then applies the presets in dependency order to a copy of
the FIDE rule set.

Adding a preset: write its module (``META`` and ``apply``) and add its name
to ``PRESET_MODULES``.
"""
from __future__ import annotations

import difflib
import importlib
import itertools
import json
from collections import abc
from functools import lru_cache
from types import ModuleType
from typing import Iterable, Mapping

import networkx as nx
from pydantic import BaseModel, ValidationError

from chess_rules.errors import quoted
from rete.errors import did_you_mean
from chess_rules.fide import fide_rules
from chess_rules.ruleset import RuleSet, checked_ruleset

from .base import (ConflictingPresetsError, IncompatiblePresetsError, MissingRequirementError,
                   PresetConfigError, PresetError, PresetMeta, PresetRules,
                   RequirementCycleError, UnknownPresetError, redo_hint)

PRESET_MODULES: list[str] = [
    # v1 gallery
    "pawns_move_backward", "double_pawn_sprint", "pawn_diagonal_no_capture",
    "knights_leap_twice", "bishops_ignore_color", "rook_warp", "wrap_board", "queen_splits",
    "king_heals", "explosive_rook", "capture_to_win", "last_piece_standing", "piece_hp",
    "knight_immunity", "poisoned_squares",
    # v2 gallery
    "knightmate_rules", "coregal", "dual_king", "weak_dual_king", "double_move",
    "monster_rules", "first_promotion_wins", "suicide_chess", "capture_all",
    "extinction_chess", "berolina_pawns", "berolina_pawns_2", "bouncing_pieces",
    "bouncing_pieces_2",
]

# board-geometry presets rebuild every movement rule over a new topology; other
# presets then build on ``rules.topology``, so they are applied first and do not
# conflict with presets that later rewrite a movement rule
GEOMETRY_CATEGORY = "Board Geometry"
#: ``RuleSet.config`` key: the presets (not geometry) that read the board's
#: topology while they were applied, so built productions on it
TOPOLOGY_BOUND = "topology-bound"
#: ``RuleSet.config`` key: each loaded preset's settings that differ from its
#: defaults (``{'monster-rules': {'scope': 'black'}}``), what a PGN's
#: ``VariantConfig`` tag writes so that the game reads back under the same rules
PRESET_CONFIG = "preset-config"


@lru_cache(maxsize=None)
def _modules() -> dict[str, ModuleType]:
    out = {}
    for name in PRESET_MODULES:
        try:
            mod = importlib.import_module(f"presets.{name}")
        except ModuleNotFoundError as e:
            if e.name == f"presets.{name}":
                continue  # not written yet
            raise
        out[mod.META.id] = mod
    return out


def all_presets() -> list[PresetMeta]:
    """The metadata of every preset, in the registry's order (``PRESET_MODULES``)."""
    return [m.META for m in _modules().values()]


def _id_error(i, in_load: bool = False) -> UnknownPresetError:
    hint = (": give each id as an argument of its own, load('piece-hp', 'king-heals'), "
            "or unpack a list, load(*ids)" if in_load and isinstance(i, (list, tuple, set))
            else "")
    return UnknownPresetError(f"a preset is named by its id (a string such as 'piece-hp'), "
                              f"not {i!r}{hint}")


def _id_list(ids) -> list[str]:
    """Preset ids as a list: one id, or an iterable of them (each a string)."""
    if isinstance(ids, str):
        ids = [ids]
    elif isinstance(ids, RuleSet) or not isinstance(ids, abc.Iterable):
        hint = (": a loaded rule set is given as ruleset=, e.g. "
                "Game.from_fen(fen, ruleset=rs)" if isinstance(ids, RuleSet) else "")
        raise UnknownPresetError(f"presets are given by id, one ('piece-hp') or several "
                                 f"(['piece-hp', 'king-heals']), not {type(ids).__name__}"
                                 f"{hint}")
    else:
        ids = list(ids)
    for i in ids:
        if not isinstance(i, str):
            raise _id_error(i)
    return ids


def get(preset_id: str) -> PresetMeta:
    """The metadata of one preset; an unknown id raises :class:`UnknownPresetError`
    (with the closest id, when one is close)."""
    if not isinstance(preset_id, str):
        raise _id_error(preset_id)
    mods = _modules()
    if preset_id not in mods:
        raise UnknownPresetError(_unknown_message([preset_id]))
    return mods[preset_id].META


def incompatibilities() -> dict[str, set[str]]:
    """Incompatibility declared on either side holds both ways."""
    out: dict[str, set[str]] = {pid: set() for pid in _modules()}
    for meta in all_presets():
        for other in meta.incompatible_with:
            out.setdefault(meta.id, set()).add(other)
            out.setdefault(other, set()).add(meta.id)
    return out


def incompatibility_reason(a: str, b: str) -> str | None:
    """Why presets ``a`` and ``b`` cannot be loaded together, as either declares
    it (``PresetMeta.incompatible_because``); None for a compatible pair."""
    mods = _modules()
    for x, y in ((a, b), (b, a)):
        if x in mods and y in mods[x].META.incompatible_because:
            return mods[x].META.incompatible_because[y]
    return None


def _incompatible_error(a: str, b: str) -> IncompatiblePresetsError:
    why = incompatibility_reason(a, b)
    return IncompatiblePresetsError(f"presets {a!r} and {b!r} are incompatible"
                                    + (f": {why}" if why else ""))


@lru_cache(maxsize=1)
def conflicts() -> dict[str, frozenset[str]]:
    """Pairs the metadata allows but loading refuses: both rewrite one production
    in different ways (:class:`ConflictingPresetsError`). Found by composing
    every such pair (with its requirements) once."""
    out: dict[str, set[str]] = {pid: set() for pid in _modules()}
    mods = _modules()
    for a, b in itertools.combinations(sorted(mods), 2):
        ids = list(dict.fromkeys([*mods[a].META.requires, *mods[b].META.requires, a, b]))
        try:
            load(*ids)
        except ConflictingPresetsError:
            out[a].add(b)
            out[b].add(a)
        except PresetError:
            pass                # incompatible, or a requirement's own trouble
    return {k: frozenset(v) for k, v in out.items()}


def requirement_graph(metas: Iterable[PresetMeta] | None = None) -> nx.DiGraph:
    """Edges point from a requirement to the preset that needs it."""
    g = nx.DiGraph()
    for m in (metas if metas is not None else all_presets()):
        g.add_node(m.id)
        for r in m.requires:
            g.add_edge(r, m.id)
    return g


def with_requirements(ids: Iterable[str]) -> list[str]:
    """``ids`` and every preset they require, each requirement before the presets
    that need it: a list :func:`load` takes (it refuses a preset whose
    requirement is missing). Unknown ids raise :class:`UnknownPresetError`.

    >>> with_requirements(["king-heals", "wrap-board"])
    ['piece-hp', 'king-heals', 'wrap-board']
    """
    ids = _id_list(ids)
    unknown = [i for i in ids if i not in _modules()]
    if unknown:
        raise UnknownPresetError(_unknown_message(unknown))
    metas = {m.id: m for m in all_presets()}
    out: list[str] = []

    def add(i, path):
        if i in path:       # a cycle in requires would be walked for ever
            names = path[path.index(i):]
            raise RequirementCycleError("presets require each other in a cycle: "
                                        + " -> ".join(names + [i]))
        for r in metas[i].requires:
            if r not in metas:
                raise UnknownPresetError(f"preset {i!r} requires {r!r}, which is no preset")
            add(r, path + [i])
        if i not in out:
            out.append(i)
    for i in ids:
        add(i, [])
    return out


def kebab_suggestion(name: str, known) -> str:
    """`` (did you mean 'x'?)`` for a misspelt preset id or modifier name: those are
    lower-case kebab-case, so 'PIECE-HP' or 'piece_hp' means 'piece-hp'."""
    return did_you_mean(name.lower().replace("_", "-"), known)


def _unknown_message(ids) -> str:
    known = list(_modules())
    parts = [quoted(i) + kebab_suggestion(i, known) for i in ids]
    return f"unknown preset {', '.join(parts)}; see 'houserules presets' for the list"


def check_composition(ids: Iterable[str]) -> list[str]:
    """Refuse a bad combination (typed errors); return the ids in application order."""
    ids = list(dict.fromkeys(_id_list(ids)))
    mods = _modules()
    unknown = [i for i in ids if i not in mods]
    if unknown:
        raise UnknownPresetError(_unknown_message(unknown))
    metas = {i: mods[i].META for i in ids}
    g = requirement_graph(m.META for m in mods.values())
    sub = g.subgraph(nx.ancestors(g, ids[0]).union(*[nx.ancestors(g, i) for i in ids]) | set(ids)) \
        if ids else g
    try:
        cycle = nx.find_cycle(sub)
        names = [a for a, _ in cycle]
        raise RequirementCycleError("presets require each other in a cycle: "
                                    + " -> ".join(names + names[:1]))
    except nx.NetworkXNoCycle:
        pass
    for i in ids:
        missing = [r for r in metas[i].requires if r not in metas]
        if missing:
            raise MissingRequirementError(
                f"preset {i!r} requires {', '.join(repr(m) for m in missing)}; add it: "
                + " ".join(f"--preset {m}" for m in missing)
                + " on the command line; in Python, among the ids (presets.with_requirements"
                  "(ids) adds every requirement)")
    inc = incompatibilities()
    for a in ids:
        for b in ids:
            if a < b and b in inc.get(a, ()):
                raise _incompatible_error(a, b)
    order_graph = nx.DiGraph()
    order_graph.add_nodes_from(ids)
    order_graph.add_edges_from((r, i) for i in ids for r in metas[i].requires)
    # geometry first, then by the order given
    rank = {i: (0 if metas[i].category == GEOMETRY_CATEGORY else 1, n) for n, i in enumerate(ids)}
    return list(nx.lexicographical_topological_sort(order_graph, key=lambda i: rank[i]))


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
    for k in config:
        if k in ids:
            continue
        if k in rs.presets:
            # it was configured when the base was made: loading does not redo it
            raise PresetConfigError(
                f"configuration given for {k!r}, which the base rule set ({rs.name}) has "
                f"loaded already: give it where that preset is loaded")
        if isinstance(k, str) and k not in _modules():
            raise PresetConfigError(f"configuration given for {k!r}: "
                                    + _unknown_message([k]))
        raise PresetConfigError(f"configuration given for {k!r}, which is not loaded")
    mods = _modules()
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


def config_text(ruleset: RuleSet) -> str | None:
    """The settings of the rule set's presets that differ from their defaults, as
    ``PRESET.KEY=VALUE`` items (``monster-rules.scope=black``), one space apart: the
    ``--config`` syntax, read back by :func:`parse_config_text`; None if none."""
    items = []
    for pid, settings in ruleset.config.get(PRESET_CONFIG, {}).items():
        for key, value in settings.items():
            # (the items are whitespace apart: compact JSON, its strings' spaces
            # escaped; json.dumps escapes every other kind of whitespace)
            text = value if isinstance(value, str) and _bare(value) \
                else json.dumps(value, separators=(",", ":")).replace(" ", "\\u0020")
            items.append(f"{pid}.{key}={text}")
    return " ".join(items) or None


def _bare(word: str) -> bool:
    """Whether a str setting can be written as it is: a word JSON would not read
    as something else (``true``, ``3``)."""
    if not word or any(c.isspace() or c in '"\\' for c in word):
        return False
    try:
        json.loads(word)
    except ValueError:
        return True
    return False


def parse_config_text(text: str) -> dict[str, dict]:
    """``PRESET.KEY=VALUE`` items, whitespace apart, as the ``config`` mapping
    :func:`load` takes (see :func:`parse_config_items`)."""
    return parse_config_items(text.split())


def parse_config_items(items: Iterable[str]) -> dict[str, dict]:
    """``PRESET.KEY=VALUE`` items (a value is JSON, or else a bare word: the
    ``--config`` syntax) as the ``config`` mapping :func:`load` takes; a malformed
    item raises :class:`PresetConfigError`."""
    out: dict[str, dict] = {}
    for item in items:
        key, eq, value = item.partition("=")
        pid, dot, field = key.partition(".")
        if not (eq and dot and pid and field):
            raise PresetConfigError(f"{item!r}: expected PRESET.KEY=VALUE")
        try:
            parsed = json.loads(value)
        except ValueError:
            parsed = value
        out.setdefault(pid, {})[field] = parsed
    return out


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


def preset_table() -> list[dict]:
    """The JSON contract of ``houserules presets --json``."""
    inc = incompatibilities()
    out = []
    for m in all_presets():
        out.append({
            "id": m.id, "name": m.name, "category": m.category, "mode": m.mode,
            "description": m.description, "affects": list(m.affects),
            "requires": list(m.requires),
            "incompatible_with": sorted(inc.get(m.id, ())),
            # why, for each of them (declared on either side of the pair)
            "incompatible_because": {o: incompatibility_reason(m.id, o)
                                     for o in sorted(inc.get(m.id, ()))},
            # allowed by the metadata, refused on loading (both rewrite a production)
            "conflicts_with": sorted(conflicts().get(m.id, ())),
            "scope_aware": m.scope_aware, "configurable": m.configurable,
            "config_schema": m.config_schema(),
            "preferred_layout": m.preferred_layout, "gallery": m.gallery,
        })
    return out
