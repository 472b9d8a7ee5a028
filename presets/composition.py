"""Which presets go together: requirements, incompatibilities, cycles and
conflicts, checked with networkx before any rule set is built, and the order
the presets are applied in."""
from __future__ import annotations

import itertools
from functools import lru_cache
from typing import Iterable

import networkx as nx

from .base import (ConflictingPresetsError, IncompatiblePresetsError, MissingRequirementError,
                   PresetError, PresetMeta, RequirementCycleError, UnknownPresetError)
from . import catalog
from .catalog import all_presets, id_list, unknown_message

__all__ = ["GEOMETRY_CATEGORY", "incompatibilities", "incompatibility_reason",
           "incompatible_error", "conflicts", "requirement_graph", "with_requirements",
           "check_composition"]

# board-geometry presets rebuild every movement rule over a new topology; other
# presets then build on ``rules.topology``, so they are applied first and do not
# conflict with presets that later rewrite a movement rule
GEOMETRY_CATEGORY = "Board Geometry"


def incompatibilities() -> dict[str, set[str]]:
    """Incompatibility declared on either side holds both ways."""
    out: dict[str, set[str]] = {pid: set() for pid in catalog.preset_modules()}
    for meta in all_presets():
        for other in meta.incompatible_with:
            out.setdefault(meta.id, set()).add(other)
            out.setdefault(other, set()).add(meta.id)
    return out


def incompatibility_reason(a: str, b: str) -> str | None:
    """Why presets ``a`` and ``b`` cannot be loaded together, as either declares
    it (``PresetMeta.incompatible_because``); None for a compatible pair."""
    mods = catalog.preset_modules()
    for x, y in ((a, b), (b, a)):
        if x in mods and y in mods[x].META.incompatible_because:
            return mods[x].META.incompatible_because[y]
    return None


def incompatible_error(a: str, b: str) -> IncompatiblePresetsError:
    why = incompatibility_reason(a, b)
    return IncompatiblePresetsError(f"presets {a!r} and {b!r} are incompatible"
                                    + (f": {why}" if why else ""))


@lru_cache(maxsize=1)
def conflicts() -> dict[str, frozenset[str]]:
    """Pairs the metadata allows but loading refuses: both rewrite one production
    in different ways (:class:`ConflictingPresetsError`). Found by composing
    every such pair (with its requirements) once."""
    out: dict[str, set[str]] = {pid: set() for pid in catalog.preset_modules()}
    mods = catalog.preset_modules()
    for a, b in itertools.combinations(sorted(mods), 2):
        ids = list(dict.fromkeys([*mods[a].META.requires, *mods[b].META.requires, a, b]))
        from .registry import load    # (load checks a composition with this module)
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
    ids = id_list(ids)
    unknown = [i for i in ids if i not in catalog.preset_modules()]
    if unknown:
        raise UnknownPresetError(unknown_message(unknown))
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


def check_composition(ids: Iterable[str]) -> list[str]:
    """Refuse a bad combination (typed errors); return the ids in application order."""
    ids = list(dict.fromkeys(id_list(ids)))
    mods = catalog.preset_modules()
    unknown = [i for i in ids if i not in mods]
    if unknown:
        raise UnknownPresetError(unknown_message(unknown))
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
                raise incompatible_error(a, b)
    order_graph = nx.DiGraph()
    order_graph.add_nodes_from(ids)
    order_graph.add_edges_from((r, i) for i in ids for r in metas[i].requires)
    # geometry first, then by the order given
    rank = {i: (0 if metas[i].category == GEOMETRY_CATEGORY else 1, n) for n, i in enumerate(ids)}
    return list(nx.lexicographical_topological_sort(order_graph, key=lambda i: rank[i]))
