"""A preset's declared mode is what it does to the network.

For every preset in the registry (a module that does not exist yet is simply
not in ``all_presets()``), the rule set is built twice: FIDE plus the preset's
requirements, then the same plus the preset. The difference of the two
production tables is the preset's effect:

* added     - a name that was not there before;
* removed   - a name that is gone;
* replaced  - a name still there, bound to a different production.

``additive`` presets only add; ``override`` presets only remove or replace;
``hybrid`` presets do both. ``affects`` names real FIDE productions, and every
FIDE production a preset removes or replaces is among them.

The same edits are also read from the rule set's own history (``RuleSet.history``
records each add/remove/replace with the preset that made it), which must agree
with the table diff.
"""
from __future__ import annotations

import pytest

from chess_rules.fide import fide_rules
from presets.registry import all_presets, load

METAS = {m.id: m for m in all_presets()}
FIDE = fide_rules()
FIDE_NAMES = set(FIDE.productions)


def requirements(pid: str) -> list[str]:
    """The preset's requirements, transitively, requirements first."""
    out: list[str] = []

    def visit(i):
        for r in METAS[i].requires:
            if r not in out:
                visit(r)
                out.append(r)
    visit(pid)
    return out


def effect(pid: str) -> tuple[set, set, set]:
    reqs = requirements(pid)
    base = fide_rules()   # one base, so that untouched productions are the same objects
    before = load(*reqs, base=base) if reqs else base
    after = load(*reqs, pid, base=base)
    b, a = before.productions, after.productions
    added = set(a) - set(b)
    removed = set(b) - set(a)
    # a requirement is applied afresh for ``after`` and so rebuilds its own
    # productions; only those now attributed to this preset are its replacements
    replaced = {n for n in set(a) & set(b) if a[n] is not b[n] and after.origin[n] == pid}
    return added, removed, replaced


def history_effect(pid: str) -> tuple[set, set, set]:
    reqs = requirements(pid)
    rs = load(*reqs, pid)
    ops = {"add": set(), "remove": set(), "replace": set()}
    for op, name, origin in rs.history:
        if origin == pid:
            ops[op].add(name)
    return ops["add"], ops["remove"], ops["replace"]


def test_registry_is_not_empty():
    assert "pawns-move-backward" in METAS
    assert len(METAS) >= 15


@pytest.mark.parametrize("pid", sorted(METAS))
def test_declared_mode_matches_the_network_diff(pid):
    meta = METAS[pid]
    added, removed, replaced = effect(pid)
    rewritten = removed | replaced
    where = f"{pid} ({meta.mode}): added={sorted(added)} removed={sorted(removed)} " \
            f"replaced={sorted(replaced)}"
    if meta.mode == "additive":
        assert added and not rewritten, where
    elif meta.mode == "override":
        assert rewritten and not added, where
    else:
        assert meta.mode == "hybrid", where
        assert added and rewritten, where


@pytest.mark.parametrize("pid", sorted(METAS))
def test_history_agrees_with_the_diff(pid):
    added, removed, replaced = effect(pid)
    h_added, h_removed, h_replaced = history_effect(pid)
    assert h_added == added
    assert h_removed == removed
    # a replacement recorded in the history always binds a new production
    assert replaced <= h_replaced


@pytest.mark.parametrize("pid", sorted(METAS))
def test_affects_names_real_fide_productions(pid):
    meta = METAS[pid]
    unknown = [a for a in meta.affects if a not in FIDE_NAMES]
    assert not unknown, f"{pid}: affects names no FIDE production: {unknown}"


@pytest.mark.parametrize("pid", sorted(METAS))
def test_every_rewritten_fide_production_is_declared(pid):
    meta = METAS[pid]
    _, removed, replaced = effect(pid)
    undeclared = sorted(((removed | replaced) & FIDE_NAMES) - set(meta.affects))
    assert not undeclared, f"{pid} rewrites {undeclared} without naming them in 'affects'"


def test_mode_enforcement_refuses_an_additive_preset_that_removes():
    """The mode is enforced at registration, not only checked here."""
    from presets.base import PresetMeta, PresetModeError, PresetRules
    rs = fide_rules().copy()
    meta = PresetMeta(id="x", name="x", category="Test", description="x", mode="additive")
    rules = PresetRules(rs, meta)
    with pytest.raises(PresetModeError):
        rules.remove("fide.castling")
    with pytest.raises(PresetModeError):
        rules.replace(rs.productions["fide.castling"])
    assert "fide.castling" in rs.productions


def test_mode_enforcement_refuses_an_override_preset_that_adds():
    from rete import P, Rule
    from presets.base import PresetMeta, PresetModeError, PresetRules
    rs = fide_rules().copy()
    meta = PresetMeta(id="y", name="y", category="Test", description="y", mode="override")
    rules = PresetRules(rs, meta)
    with pytest.raises(PresetModeError):
        rules.add(Rule("y.new", stage="generate").when(P("movegen")).then())
    assert "y.new" not in rs.productions
