"""Composition: every refusal kind, and a smoke test over compatible pairs.

Refusals (each a typed :class:`~presets.base.PresetError`, raised before any
network is built, leaving the base rule set untouched):

* an unknown id (with a close match offered);
* a missing requirement (named, with the option that adds it);
* an incompatible pair, whichever side declares it and in either order;
* a cycle in ``requires`` (a synthetic registry: no shipped preset has one);
* two presets rewriting the same production in contradictory ways;
* bad configuration (a preset that takes none, an unknown key, a bad value,
  configuration for a preset that is not loaded).

Pairs: every compatible pair of registered presets (requirements added)
builds, generates legal moves from its preferred layout (else the standard
start), and its perft(2) is counted three ways that share no code path beyond
move generation: the bulk count, ``perft_divide`` and the sum over the root
moves of the number of legal replies after ``push``. The default run checks the
v1 x v1 pairs; ``-m slow`` checks every pair of the registry.
"""
from __future__ import annotations

import itertools
import types

import pytest

from chess_rules.fide import fide_rules
from chess_rules.game import Game
from chess_rules.ruleset import RuleSet
from presets import catalog, registry
from presets.base import (ConflictingPresetsError, IncompatiblePresetsError,
                          MissingRequirementError, PresetConfigError, PresetError, PresetMeta,
                          RequirementCycleError, UnknownPresetError)
from presets.layouts import get_layout
from presets.registry import all_presets, check_composition, load, with_requirements

METAS = {m.id: m for m in all_presets()}
V1 = ["pawns-move-backward", "double-pawn-sprint", "pawn-diagonal-no-capture",
      "knights-leap-twice", "bishops-ignore-color", "rook-warp", "wrap-board", "queen-splits",
      "king-heals", "explosive-rook", "capture-to-win", "last-piece-standing", "piece-hp",
      "knight-immunity", "poisoned-squares"]


@pytest.fixture
def no_build(monkeypatch):
    """Fail the test if anything compiles a network."""
    def refuse(self):
        raise AssertionError("a network was built for a refused composition")
    monkeypatch.setattr(RuleSet, "build", refuse)


def refused(exc_type, *ids, config=None, base=None):
    base = base or fide_rules()
    names = dict(base.productions)
    with pytest.raises(exc_type) as info:
        load(*ids, config=config, base=base)
    assert isinstance(info.value, PresetError)
    assert base.productions == names, "the base rule set was changed"
    return str(info.value)


# ---------------------------------------------------------------- refusals


def test_unknown_id_is_refused_with_a_suggestion(no_build):
    msg = refused(UnknownPresetError, "pawns-move-backwards")
    assert "pawns-move-backwards" in msg and "did you mean 'pawns-move-backward'" in msg


def test_unknown_id_in_another_case_is_refused_with_a_suggestion(no_build):
    # ids are lower case; one typed in capitals (or with underscores) is still
    # close enough to name the one that was meant
    for typed in ("PIECE-HP", "Piece_HP"):
        msg = refused(UnknownPresetError, typed)
        assert f"{typed!r}" in msg and "did you mean 'piece-hp'" in msg


def test_unknown_id_among_known_ones(no_build):
    msg = refused(UnknownPresetError, "piece-hp", "no-such-preset")
    assert "no-such-preset" in msg


def test_missing_requirement_is_named_with_the_offer_to_add_it(no_build):
    msg = refused(MissingRequirementError, "king-heals")
    assert "'king-heals' requires 'piece-hp'" in msg
    assert "--preset piece-hp" in msg
    # a Python caller is told how to add it there too
    assert "presets.with_requirements(ids)" in msg
    msg = refused(MissingRequirementError, "poisoned-squares", "king-heals")
    assert "piece-hp" in msg


def test_requirement_given_in_any_order_is_accepted():
    rs = load("poisoned-squares", "king-heals", "piece-hp")
    assert rs.presets.index("piece-hp") < rs.presets.index("king-heals")
    assert rs.presets.index("piece-hp") < rs.presets.index("poisoned-squares")


@pytest.mark.parametrize("a,b", [("pawns-move-backward", "double-pawn-sprint"),
                                 ("rook-warp", "wrap-board"),
                                 ("explosive-rook", "piece-hp"),
                                 ("capture-to-win", "last-piece-standing")])
def test_incompatible_pairs_are_refused_in_both_orders(no_build, a, b):
    for ids in ((a, b), (b, a)):
        msg = refused(IncompatiblePresetsError, *ids)
        assert repr(a) in msg and repr(b) in msg


def test_an_incompatible_pair_is_refused_with_the_reason(no_build):
    # which presets clash is not enough: the refusal says why they cannot go
    # together, whichever side declares the reason and in either order
    for ids in (("rook-warp", "wrap-board"), ("wrap-board", "rook-warp")):
        msg = refused(IncompatiblePresetsError, *ids)
        assert msg.startswith("presets 'rook-warp' and 'wrap-board' are incompatible: ")
        assert "wrap" in msg.split(": ", 1)[1]
    msg = refused(IncompatiblePresetsError, "suicide-chess", "knightmate-rules")
    assert "no royal piece" in msg


def test_every_declared_incompatibility_has_a_reason():
    inc = registry.incompatibilities()
    for a, others in inc.items():
        for b in others:
            why = registry.incompatibility_reason(a, b)
            assert why and why == registry.incompatibility_reason(b, a), (a, b)
            with pytest.raises(IncompatiblePresetsError) as e:
                check_composition([*METAS[a].requires, a, *METAS[b].requires, b])
            assert str(e.value).endswith(why)
    for m in METAS.values():
        # a reason for a preset the metadata does not declare incompatible is a slip
        assert set(m.incompatible_because) <= set(m.incompatible_with), m.id
    assert registry.incompatibility_reason("piece-hp", "king-heals") is None


def test_incompatibility_reached_through_a_requirement(no_build):
    # explosive-rook is incompatible with piece-hp, which king-heals requires
    msg = refused(IncompatiblePresetsError, "explosive-rook", "piece-hp", "king-heals")
    assert "'explosive-rook'" in msg and "'piece-hp'" in msg


def test_every_declared_incompatibility_holds_both_ways():
    inc = registry.incompatibilities()
    for a, others in inc.items():
        for b in others:
            if a in METAS and b in METAS:
                assert a in inc[b]
                with pytest.raises(IncompatiblePresetsError):
                    check_composition([b, *METAS[b].requires, a, *METAS[a].requires])


def test_the_preset_table_names_every_pair_that_cannot_load():
    # `houserules presets --json` is the contract: a pair neither incompatible
    # nor conflicting (both rewrite a production) loads
    import itertools
    table = {r["id"]: r for r in registry.preset_table()}
    # (a pair comes with its requirements: ('king-heals', 'last-piece-standing', 'piece-hp'))
    conflicting = {(a, b) for p in CONFLICTING_PAIRS
                   for a, b in itertools.combinations(sorted(p), 2)
                   if not ({a, b} & {r for i in p for r in METAS[i].requires})}
    assert conflicting
    for a, b in itertools.combinations(sorted(METAS), 2):
        listed = b in table[a]["incompatible_with"] or b in table[a]["conflicts_with"]
        assert (b in table[a]["conflicts_with"]) == ((a, b) in conflicting), (a, b)
        assert (a in table[b]["conflicts_with"]) == (b in table[a]["conflicts_with"])
        if not listed:
            reqs = {*METAS[a].requires, *METAS[b].requires}
            try:
                load(*dict.fromkeys([*reqs, a, b]))
            except IncompatiblePresetsError as e:
                # only through a requirement (king-heals needs piece-hp, which
                # explosive-rook is declared incompatible with)
                assert any(f"'{r}'" in str(e) for r in reqs), (a, b, str(e))


def test_presets_compose_with_those_a_base_rule_set_holds():
    hp = load("piece-hp")
    rs = load("king-heals", base=hp)            # its requirement is in the base
    assert rs.presets == ["piece-hp", "king-heals"] and hp.presets == ["piece-hp"]
    msg = refused(IncompatiblePresetsError, "explosive-rook", base=hp)
    assert "'explosive-rook'" in msg and "'piece-hp'" in msg
    with pytest.raises(ConflictingPresetsError, match="already loaded"):
        load("piece-hp", base=hp)
    with pytest.raises(IncompatiblePresetsError):
        load("wrap-board", base=load("rook-warp"))


def test_a_preset_a_modifier_applied_counts_as_loaded():
    # the pacman-style modifier (set-board-topology cylinder) applies wrap-board's
    # rules without listing it: rook-warp is refused over it as over wrap-board
    # itself (attaching the modifier over rook-warp was refused already), and
    # wrap-board is not applied a second time
    from chess_rules.game import Game
    from presets.modifiers import attach
    pacman = attach(load(), "tpl-pacman-style-cross-ref")
    with pytest.raises(IncompatiblePresetsError, match="'rook-warp' and 'wrap-board'.*modifier"):
        load("rook-warp", base=pacman)
    with pytest.raises(ConflictingPresetsError, match="already loaded.*modifier applied"):
        load("wrap-board", base=pacman)
    # a preset that composes with wrap-board builds on the cylinder, as with the preset
    kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    over = Game.from_fen(kiwipete, ruleset=load("knights-leap-twice", base=pacman))
    plain = Game.from_fen(kiwipete, ruleset=load("wrap-board", "knights-leap-twice"))
    assert sorted(over.legal_uci()) == sorted(plain.legal_uci())


@pytest.mark.parametrize("args, kw, cls", [((None,), {}, "UnknownPresetError"),
                                          ((123,), {}, "UnknownPresetError"),
                                          (("piece-hp",), {"config": ["x"]}, "PresetConfigError")])
def test_bad_arguments_to_load_are_preset_errors(args, kw, cls):
    with pytest.raises(PresetError) as ei:
        load(*args, **kw)
    assert type(ei.value).__name__ == cls


def _module(meta: PresetMeta, apply=None):
    return types.SimpleNamespace(META=meta, apply=apply or (lambda rules, cfg: None))


def _meta(pid, **kw):
    return PresetMeta(id=pid, name=pid, category=kw.pop("category", "Test"), description=pid,
                      mode=kw.pop("mode", "additive"), **kw)


def test_one_sided_incompatibility_holds_both_ways(monkeypatch, no_build):
    fake = {"a": _module(_meta("a", incompatible_with=["b"])), "b": _module(_meta("b"))}
    monkeypatch.setattr(catalog, "preset_modules", lambda: fake)
    for ids in (("a", "b"), ("b", "a")):
        with pytest.raises(IncompatiblePresetsError, match="'a' and 'b'"):
            check_composition(ids)


def test_requirement_cycle_is_refused_and_named(monkeypatch, no_build):
    applied = []
    fake = {
        "x": _module(_meta("x", requires=["y"]), lambda r, c: applied.append("x")),
        "y": _module(_meta("y", requires=["z"]), lambda r, c: applied.append("y")),
        "z": _module(_meta("z", requires=["x"]), lambda r, c: applied.append("z")),
        "free": _module(_meta("free")),
    }
    monkeypatch.setattr(catalog, "preset_modules", lambda: fake)
    for ids in (("x",), ("y", "z", "x"), ("free", "z")):
        with pytest.raises(RequirementCycleError) as info:
            load(*ids)
        msg = str(info.value)
        for p in ("x", "y", "z"):
            assert p in msg
        assert "->" in msg
    assert applied == []
    assert check_composition(["free"]) == ["free"]


def test_with_requirements_refuses_a_requirement_cycle(monkeypatch):
    # its walk followed requires for ever: a RecursionError, not the typed error
    fake = {
        "x": _module(_meta("x", requires=["y"])),
        "y": _module(_meta("y", requires=["x"])),
        "free": _module(_meta("free")),
        "lost": _module(_meta("lost", requires=["nowhere"])),
    }
    monkeypatch.setattr(catalog, "preset_modules", lambda: fake)
    with pytest.raises(RequirementCycleError, match="x -> y -> x|y -> x -> y"):
        with_requirements(["x"])
    assert with_requirements(["free"]) == ["free"]
    # (a KeyError, before)
    with pytest.raises(UnknownPresetError, match="'lost' requires 'nowhere'"):
        with_requirements(["lost"])


def test_contradictory_replacements_are_refused(no_build):
    # king-heals replaces fide.check-resolution; last-piece-standing removes it
    msg = refused(ConflictingPresetsError, "piece-hp", "king-heals", "last-piece-standing")
    assert "'king-heals'" in msg and "'last-piece-standing'" in msg
    assert "fide.check-resolution" in msg or "fide.king-capture-illegal" in msg


def test_contradictory_replacements_synthetic(monkeypatch, no_build):
    from rete import Call, P, Rule, V

    def replace_castling(tag):
        def apply(rules, cfg):
            rules.replace(Rule("fide.castling", stage="generate", doc=tag)
                          .when(P("movegen", color=V.c)).then(Call("castle", V.c, V.c)))
        return apply
    fake = {"p": _module(_meta("p", mode="override"), replace_castling("p")),
            "q": _module(_meta("q", mode="override"), replace_castling("q"))}
    monkeypatch.setattr(catalog, "preset_modules", lambda: fake)
    base = fide_rules()
    before = base.productions["fide.castling"]
    with pytest.raises(ConflictingPresetsError, match="'p' and 'q'.*fide.castling"):
        load("p", "q", base=base)
    assert base.productions["fide.castling"] is before
    load("p", base=base)   # alone it builds


def test_geometry_presets_may_rebuild_what_another_preset_rewrites():
    # wrap-board rebuilds every movement rule; knight-immunity then rewrites the
    # bishop's on the cylinder: not a contradiction
    rs = load("knight-immunity", "wrap-board")
    assert rs.presets == ["wrap-board", "knight-immunity"]
    assert rs.origin["fide.bishop-move"] == "knight-immunity"


def test_configuration_for_a_preset_that_takes_none(no_build):
    msg = refused(PresetConfigError, "pawns-move-backward",
                  config={"pawns-move-backward": {"scope": "white"}})
    assert "takes no configuration" in msg


def test_configuration_for_a_preset_not_loaded(no_build):
    msg = refused(PresetConfigError, "piece-hp", config={"wrap-board": {"x": 1}})
    assert "'wrap-board'" in msg and "not loaded" in msg


def test_configuration_for_a_preset_the_base_has_loaded_says_so(no_build):
    # "not loaded" was false: the base has it, configured when it was loaded
    base = load("monster-rules", config={"monster-rules": {"scope": "white"}})
    msg = refused(PresetConfigError, "piece-hp", config={"monster-rules": {"scope": "black"}},
                  base=base)
    assert "'monster-rules'" in msg and "not loaded" not in msg
    assert "base rule set" in msg and "loaded already" in msg
    assert base.presets == ["monster-rules"]


def test_configuration_for_an_unknown_preset_suggests_the_id(no_build):
    msg = refused(PresetConfigError, "monster-rules", config={"monster": {"scope": "black"}})
    assert "'monster'" in msg and "did you mean 'monster-rules'" in msg


def test_an_unknown_setting_is_refused_naming_the_settings(no_build):
    # "Extra inputs are not permitted" named neither the preset's settings nor
    # the one meant (a source writes extinction-chess's as targetType)
    msg = refused(PresetConfigError, "extinction-chess",
                  config={"extinction-chess": {"targetType": "queen"}})
    assert "targetType: no such setting" in msg and "target_type" in msg
    assert "did you mean 'target_type'" in msg and "Extra inputs" not in msg
    msg = refused(PresetConfigError, "monster-rules", config={"monster-rules": {"side": "black"}})
    assert "side: no such setting" in msg and "scope" in msg


@pytest.mark.parametrize("pid", sorted(p for p, m in METAS.items() if m.configurable))
def test_bad_configuration_values_are_refused(no_build, pid):
    ids = [*METAS[pid].requires, pid]
    refused(PresetConfigError, *ids, config={pid: {"no_such_key": 1}})
    schema = METAS[pid].config_schema() or {}
    for key, prop in (schema.get("properties") or {}).items():
        refused(PresetConfigError, *ids, config={pid: {key: {"not": "valid"}}})


def test_scenario_runner_reports_refusals_by_class_name():
    from presets.base import IncompatiblePresetsError as E
    assert E.__name__ == "IncompatiblePresetsError"


# ---------------------------------------------------------------- pairs


def compatible_pairs(pool):
    out = []
    for a, b in itertools.combinations(sorted(pool), 2):
        ids = with_requirements([a, b])
        try:
            check_composition(ids)
        except PresetError:
            continue
        out.append(ids)
    return out


def start_fens(ids) -> list[str]:
    """The pair's preferred layouts, then the standard start."""
    out = [get_layout(METAS[i].preferred_layout).fen for i in ids if METAS[i].preferred_layout]
    return list(dict.fromkeys(out + [get_layout("standard").fen]))


def check_pair(ids):
    rs = load(*ids)
    for fen in start_fens(ids):
        g = Game(fen, ruleset=rs)
        root = g.legal_uci()
        if root:
            break
        # a layout made for one preset may leave the other without a move (no
        # royal knight for knightmate-rules on pawns-only): then it has a verdict
        assert g.outcome() is not None, f"{ids}: no legal move and no verdict at {fen}"
    assert root, f"{ids}: no legal move from any start"
    bulk = g.perft(2)
    divide = g.perft_divide(2)
    assert sorted(divide) == root
    by_push = 0
    for u in root:
        g.push(u)
        by_push += len(g.legal_moves())
        g.pop()
    assert g.legal_uci() == root, f"{ids}: push/pop changed the position"
    assert bulk == sum(divide.values()) == by_push, f"{ids}: {bulk} {sum(divide.values())} {by_push}"
    assert g.perft(2, bulk=False) == bulk
    return bulk


V1_PAIRS = compatible_pairs([p for p in V1 if p in METAS])
ALL_PAIRS = compatible_pairs(METAS)


def fast_subset(pairs, per_preset: int = 2):
    """Each preset in at least ``per_preset`` pairs (the first ones in a fixed
    shuffled order): a fast default that still touches every preset."""
    order = sorted(pairs, key=lambda p: (sum(map(ord, "+".join(p))) * 7919) % 10007)
    seen: dict[str, int] = {}
    out = []
    for p in order:
        if any(seen.get(i, 0) < per_preset for i in p):
            out.append(p)
            for i in p:
                seen[i] = seen.get(i, 0) + 1
    return out


def conflict(ids) -> str | None:
    """The refusal of a pair that passes the metadata checks but whose presets
    rewrite the same production in different ways (found when loading), or None."""
    try:
        load(*ids)
    except ConflictingPresetsError as e:
        return str(e)
    return None


CONFLICTING_PAIRS = [p for p in ALL_PAIRS if conflict(p) is not None]
FAST_PAIRS = fast_subset([p for p in V1_PAIRS if p not in CONFLICTING_PAIRS])
SLOW_PAIRS = [p for p in ALL_PAIRS if p not in FAST_PAIRS and p not in CONFLICTING_PAIRS]


def test_conflicting_pairs_are_refused_whole():
    # the pairs the metadata lets through but loading refuses: each names both
    # presets and the production they rewrite, in either order
    assert CONFLICTING_PAIRS
    for ids in CONFLICTING_PAIRS:
        for order in (ids, ids[::-1]):
            msg = conflict(order)
            assert msg is not None, order
            named = [i for i in ids if f"'{i}'" in msg]
            assert len(named) >= 2 and "'fide." in msg, msg


def test_v1_pair_count():
    # 105 pairs less the 4 incompatible ones and those through piece-hp's
    # incompatibility with explosive-rook (king-heals, poisoned-squares)
    assert len(V1_PAIRS) == 105 - 4 - 2


def test_fast_subset_touches_every_v1_preset():
    assert {i for p in FAST_PAIRS for i in p} >= {p for p in V1 if p in METAS}


@pytest.mark.parametrize("ids", FAST_PAIRS, ids=["+".join(p) for p in FAST_PAIRS])
def test_pair_builds_and_counts(ids):
    check_pair(ids)


@pytest.mark.slow
@pytest.mark.parametrize("ids", SLOW_PAIRS, ids=["+".join(p) for p in SLOW_PAIRS])
def test_every_pair_builds_and_counts(ids):
    check_pair(ids)


# hand-composed counts for simple pairs: each preset's start-position moves are
# independent of the other's, so the pair's root count is FIDE's 20 plus each
# preset's extra moves (pawn-diagonal-no-capture: +14 slanting steps;
# knights-leap-twice: +10 two-leap moves; rook-warp: +2, the rooks' warps
# a1-a8 and h1-h8 capturing the enemy rooks through the back edge;
# bishops-ignore-color: none, the bishops being boxed in)
@pytest.mark.parametrize("ids,count", [
    (["pawn-diagonal-no-capture", "knights-leap-twice"], 20 + 14 + 10),
    (["pawn-diagonal-no-capture", "rook-warp"], 20 + 14 + 2),
    (["bishops-ignore-color", "knights-leap-twice"], 20 + 10),
    (["piece-hp", "queen-splits"], 20),
    (["capture-to-win", "knight-immunity"], 20),
])
def test_hand_composed_root_counts(ids, count):
    assert len(Game(presets=ids).legal_moves()) == count


def test_a_board_geometry_over_a_base_that_rewrote_its_movers_is_refused():
    # loaded together, wrap-board goes first and berolina-pawns rewrites the pawn
    # movers over it; over a base, wrap-board would undo them
    with pytest.raises(ConflictingPresetsError, match="geometry goes first"):
        load("wrap-board", base=load("berolina-pawns"))
    assert load("berolina-pawns", base=load("wrap-board")).presets == \
        load("berolina-pawns", "wrap-board").presets == ["wrap-board", "berolina-pawns"]


def test_with_requirements_puts_each_requirement_before_its_preset():
    for m in all_presets():
        ids = with_requirements([m.id])
        assert ids[-1] == m.id and set(m.requires) <= set(ids[:-1])
        load(*ids)                    # what load takes
    assert with_requirements(["poisoned-squares", "king-heals"]) == \
        ["piece-hp", "poisoned-squares", "king-heals"]
    with pytest.raises(registry.UnknownPresetError, match="did you mean 'king-heals'"):
        with_requirements(["king-heal"])


@pytest.mark.parametrize("call", [
    lambda: registry.get(None), lambda: registry.get(["piece-hp"]),
    lambda: with_requirements([None]), lambda: registry.check_composition([["piece-hp"]]),
])
def test_an_id_that_is_not_text_is_an_unknown_preset_everywhere(call):
    # get, with_requirements and check_composition raised bare TypeErrors
    # ("unhashable type: 'list'") where load said what an id is
    with pytest.raises(registry.UnknownPresetError, match="named by its id"):
        call()


def test_one_id_is_one_preset_not_its_letters():
    assert with_requirements("king-heals") == ["piece-hp", "king-heals"]
    assert registry.check_composition("piece-hp") == ["piece-hp"]


def test_a_list_given_to_load_says_to_give_the_ids_one_by_one():
    with pytest.raises(registry.UnknownPresetError, match=r"unpack a list, load\(\*ids\)"):
        load(["piece-hp", "king-heals"])
