"""Property tests: random valid descriptors never crash the engine nor break chess
invariants; random invalid ones are always refused with a located error."""
from __future__ import annotations

import copy
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chess_rules.fide import fide_rules
from chess_rules.game import Game
from chess_rules.squares import opposite
from presets import load
from presets.modifiers import (MAX_PRIMITIVE_COUNT, MAX_RECURSION_DEPTH, TRIGGER_KINDS,
                               DescriptorError, DescriptorVersionError, PrimitiveCountError,
                               RecursionDepthError, UnknownKindError, attach, count_nodes,
                               validate_descriptor)
from presets.modifiers.models import _lookup

PIECES = ["pawn", "knight", "bishop", "rook", "queen"]
SQ = st.integers(0, 63)


def attrs(hp):
    return st.sampled_from(["Alpha", "Beta", "CaptureFlag"] + (["Hp"] if hp else []))


def condition(hp):
    return st.one_of(
        st.fixed_dictionaries({"attr": attrs(hp), "op": st.sampled_from(["==", "!=", "<", ">="]),
                               "value": st.integers(-2, 3)}),
        st.fixed_dictionaries({"pieceType": st.sampled_from(PIECES + ["king"])}),
        st.fixed_dictionaries({"color": st.sampled_from(["white", "black"])}),
        st.fixed_dictionaries({"inCheck": st.booleans()}),
        st.fixed_dictionaries({"sideToMove": st.sampled_from(["white", "black"])}),
        st.fixed_dictionaries({"square": st.fixed_dictionaries(
            {"kind": st.just("predicate"), "rank": st.integers(0, 7)})}),
        st.fixed_dictionaries({"event": st.fixed_dictionaries(
            {"lethal": st.booleans()})}),
    )


def target():
    return st.one_of(
        st.sampled_from(["self", "attacker", "defender"]),
        st.fixed_dictionaries({"squares": st.lists(SQ, min_size=1, max_size=4)}),
        st.fixed_dictionaries({"relation": st.sampled_from(["ally", "enemy"])}),
        st.fixed_dictionaries({"relation": st.sampled_from(["ally", "enemy"]),
                               "filter": st.fixed_dictionaries(
                                   {"pieceType": st.sampled_from(PIECES + ["king"])})}),
    )


def effect(hp):
    def add(a, d):
        return {"kind": "add-to-attribute", "params": {"attr": a, "delta": d}}
    seeds = st.one_of(
        st.builds(lambda a, v: {"kind": "seed-attribute", "params": {"attr": a, "value": v}},
                  st.sampled_from(["Alpha", "Beta"]), st.integers(-5, 5)),
        st.builds(lambda t: {"kind": "seed-attribute",
                             "params": {"attr": "PieceType", "value": t}},
                  st.sampled_from(PIECES)),
    )
    if hp:
        seeds = st.one_of(seeds, st.builds(
            lambda v: {"kind": "seed-attribute", "params": {"attr": "Hp", "value": v}},
            st.integers(1, 4)))
    return st.one_of(
        st.builds(add, attrs(hp), st.integers(-2, 2)),
        seeds,
        st.builds(lambda r, d, a: {"kind": "add-aura", "params": {
            "radius": r, "targetAttr": "Glow", "delta": d, "affects": a}},
            st.integers(1, 3), st.integers(-2, 2), st.sampled_from(["allies", "enemies", "all"])),
        st.builds(lambda f: {"kind": "set-capture-flag", "params": {"flag": f}},
                  st.sampled_from([0, 1])),
    )


def node(hp, depth):
    """A primitive that may nest down to ``depth`` levels (itself included)."""
    if depth <= 1:
        return effect(hp)
    inner = st.lists(st.deferred(lambda: node(hp, depth - 1)), max_size=3)
    kinds = [k for k in TRIGGER_KINDS if hp or k != "on-damaged"]

    def trigger(kind, prims, tgt, color, flt):
        params = {"primitives": prims, "target": tgt}
        if kind in ("on-turn-start", "on-turn-end"):
            params["color"] = color
        if kind == "on-moved-onto-square":
            params["filter"] = flt
        return {"kind": kind, "params": params}

    flt = st.one_of(
        st.fixed_dictionaries({"kind": st.just("squares"),
                               "squares": st.lists(SQ, min_size=1, max_size=8)}),
        st.fixed_dictionaries({"kind": st.just("predicate"), "file": st.integers(0, 7)}),
        st.fixed_dictionaries({"kind": st.just("predicate"), "rank": st.integers(0, 7)}),
    )
    return st.one_of(
        effect(hp),
        st.builds(trigger, st.sampled_from(kinds), inner, target(),
                  st.sampled_from(["white", "black", "both"]), flt),
        st.builds(lambda c, t, e: {"kind": "conditional", "params": {"if": c, "then": t, "else": e}},
                  condition(hp), inner, inner),
    )


def descriptors(hp=False):
    """Valid descriptors: nesting can pass the count limit, and such a one is
    refused for its count, so it is left out."""
    return st.builds(lambda ps: {"version": 1, "id": "prop", "primitives": ps},
                     st.lists(node(hp, MAX_RECURSION_DEPTH), min_size=1, max_size=5)
                     ).filter(lambda d: _count(d["primitives"]) <= MAX_PRIMITIVE_COUNT)


def _count(nodes) -> int:
    """Primitive nodes in a raw list, nested ones included."""
    n = 0
    for node_ in nodes:
        n += 1
        prm = node_["params"]
        if node_["kind"] in TRIGGER_KINDS:
            n += _count(prm["primitives"])
        elif node_["kind"] == "conditional":
            n += _count(prm["then"]) + _count(prm["else"])
    return n


def check_invariants(g: Game, hp: bool) -> None:
    s = g.session
    state = g.state
    pieces = s.facts_of("piece")
    squares = [f.values["square"] for f in pieces]
    assert len(squares) == len(set(squares)), "two pieces on one square"
    assert sum(1 for q in range(64) if state.facts[q] is not None) == len(pieces)
    for f in pieces:
        assert state.facts[f.values["square"]] is f
        assert state.types[f.values["square"]] == f.values["type"]
    decided = g.outcome_if_decided() is not None
    kings = {c: sum(1 for f in pieces if f.values["type"] == "king" and f.values["color"] == c)
             for c in ("white", "black")}
    if hp:
        assert all(k <= 1 for k in kings.values())
        assert decided or all(k == 1 for k in kings.values())
    else:
        assert kings == {"white": 1, "black": 1}
    waiting = opposite(g.turn)
    for q in state.royal_squares(state.colors, state.types, waiting):
        assert not state.attacked(state.colors, state.types, q, g.turn), \
            "the side not to move is in check"
    for m in g.legal_moves():
        assert m.victim is None or state.types[m.victim] != "king"


#: presets under which "one king a side, never left in check" still holds
SOUND_PRESETS = [None, "wrap-board", "double-move", "knights-leap-twice", "pawns-move-backward"]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(d=descriptors(), squares=st.lists(SQ, min_size=1, max_size=6), seed=st.integers(0, 10**6),
       preset=st.sampled_from(SOUND_PRESETS))
def test_random_valid_descriptors_keep_chess_sound(d, squares, seed, preset):
    desc = validate_descriptor(d)
    n, depth = count_nodes(desc.primitives)
    assert n <= MAX_PRIMITIVE_COUNT and depth <= MAX_RECURSION_DEPTH
    base = load(preset) if preset else fide_rules()
    squares = [q for q in squares if q < 16 or q >= 48] or [4]   # occupied at the start
    g = Game(ruleset=attach(base, d, squares=squares))
    _play_and_undo(g, seed, hp=False)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(d=descriptors(hp=True), squares=st.lists(SQ, min_size=1, max_size=6),
       seed=st.integers(0, 10**6))
def test_random_valid_descriptors_with_piece_hp(d, squares, seed):
    fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
    occupied = set(p.values["square"] for p in Game(fen).pieces())
    squares = [q for q in squares if q in occupied] or [4]
    g = Game(fen, ruleset=attach(load("piece-hp"), d, squares=squares))
    _play_and_undo(g, seed, hp=True)


def _snapshot(g):
    return (g.fen(), sorted(tuple(sorted(f.values.items())) for f in g.session.facts_of("piece")))


def _play_and_undo(g, seed, hp):
    rnd = random.Random(seed)
    start = _snapshot(g)
    check_invariants(g, hp)
    played = 0
    for _ in range(12):
        moves = g.legal_moves()
        if not moves:
            break
        g.push(rnd.choice(moves))
        played += 1
        check_invariants(g, hp)
    for _ in range(played):
        g.pop()
    assert _snapshot(g) == start


# ---------------------------------------------------------------- invalid descriptors


def _nodes(raw):
    """(path, node) of every primitive node in a raw descriptor."""
    out = []

    def walk(ns, path):
        for i, n in enumerate(ns):
            p = f"{path}[{i}]"
            out.append((p, n))
            prm = n["params"]
            if n["kind"] in TRIGGER_KINDS:
                walk(prm["primitives"], f"{p}.params.primitives")
            elif n["kind"] == "conditional":
                walk(prm["then"], f"{p}.params.then")
                walk(prm["else"], f"{p}.params.else")
    walk(raw["primitives"], "$.primitives")
    return out


def _at(raw, path):
    return _lookup(raw, path)


@settings(max_examples=80, deadline=None)
@given(d=descriptors(hp=True), how=st.sampled_from(
    ["version", "kind", "param-type", "extra-field", "deep", "count"]), pick=st.integers(0, 10**6))
def test_random_invalid_descriptors_are_refused_with_a_located_error(d, how, pick):
    raw = copy.deepcopy(d)
    nodes = _nodes(raw)
    path, victim = nodes[pick % len(nodes)]
    expect_cls, expect_prefix = DescriptorError, "$"
    if how == "version":
        raw["version"] = [0, 2, "1", None, 1.5][pick % 5]
        expect_cls, expect_prefix = DescriptorVersionError, "$.version"
    elif how == "kind":
        victim["kind"] = "on-" + "xyz"[pick % 3] + "-happens"
        expect_cls, expect_prefix = UnknownKindError, f"{path}.kind"
    elif how == "param-type":
        key = sorted(victim["params"])[pick % len(victim["params"])]
        victim["params"][key] = {"not": "valid"} if key != "if" else 17
        expect_prefix = f"{path}.params"
    elif how == "extra-field":
        victim["params"]["surprise"] = 1
        expect_prefix = f"{path}.params"
    elif how == "deep":
        deep = {"kind": "add-to-attribute", "params": {"attr": "Alpha", "delta": 1}}
        for _ in range(MAX_RECURSION_DEPTH):
            deep = {"kind": "on-move", "params": {"primitives": [deep]}}
        raw["primitives"].insert(0, deep)
        expect_cls = RecursionDepthError
        expect_prefix = "$.primitives[0]" + ".params.primitives[0]" * MAX_RECURSION_DEPTH
    elif how == "count":
        filler = {"kind": "set-capture-flag", "params": {"flag": 0}}
        raw["primitives"] += [filler] * (MAX_PRIMITIVE_COUNT + 1 - len(nodes))
        expect_cls = PrimitiveCountError
    try:
        validate_descriptor(raw)
    except DescriptorError as e:
        assert isinstance(e, expect_cls), (how, e)
        assert e.path.startswith(expect_prefix), (how, e.path, expect_prefix, str(e))
        assert e.reason and e.path in str(e)
        # the path names something in the descriptor (or a missing field of it)
        parent = e.path.rsplit(".", 1)[0] if not e.path.endswith("]") else e.path
        assert parent == "$" or _at(raw, parent) is not None
        return
    raise AssertionError(f"accepted an invalid descriptor ({how} at {path})")
