"""Property tests on random rolled positions (hypothesis).

On every position: the tree equals an independent enumeration on python-chess
(dice.baseline); ``legal_uci_moves`` is the tree's first level; every
root-to-leaf path replays on the engine, spends the most dice any turn spends
(found by brute force, without the tree) or captures a king; sampled paths
replay through ``apply_move`` step by step; ``playable_dice`` agrees with the
dice the tree's paths spend, and is None off the tree.
"""
from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hst

from dice import apply_move, legal_turn_tree, legal_uci_moves, parse_dfen, playable_dice
from dice.baseline import BaselineTurns, _enumerate, baseline_tree
from dice.dfen import TYPE_FACE
from dice.game import DiceGame


def random_rolled_position(seed: int, turns: int) -> str:
    """Play ``turns`` random turns from the start (each: roll, random micro-moves
    until no die or no move is left, end turn; a king capture stops early), then
    roll for the side to move. Returns the rolled DFEN (or the finished game)."""
    rng = random.Random(seed)
    g = DiceGame()
    for _ in range(turns):
        g.roll(rng)
        while True:
            moves = g.legal_moves()
            if not moves:
                break
            g._play(rng.choice(moves))
            if g.is_game_over():
                return g.dfen()
        g.run_end_turn()
    g.roll(rng)
    return g.dfen()


FAST = settings(max_examples=12, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])
DEEP = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


def _brute_max(g: DiceGame) -> int:
    """The most dice a turn spends, by plain search on the engine's micro-moves."""
    if g.is_game_over():
        return 0
    best = 0
    before = len(g.dice())
    for m in list(g.legal_moves()):
        g._play(m)
        spent = before - len(g.dice())
        best = max(best, spent + (0 if g.is_game_over() else _brute_max(g)))
        g.pop()
    return best


def _walk(g: DiceGame, tree: dict, path: tuple, out: list) -> None:
    """Replay every path of ``tree`` on ``g``: (path, faces spent per step, king taken)."""
    if not tree:
        out.append(path)
        return
    for u, sub in tree.items():
        before = Counter(g.dice())
        g.push(u)
        spent = before - Counter(g.dice())
        _walk(g, sub, path + ((u, tuple(sorted(TYPE_FACE[t] for t in spent.elements())),
                               g.is_game_over()),), out)
        g.pop()


def _baseline_max(dfen: str) -> int:
    """The most dice a turn spends, by python-chess enumeration (no engine)."""
    bt = BaselineTurns(dfen)
    return _enumerate(bt)[1]


def check_position(dfen: str, replays: int, rng: random.Random, brute: bool = False) -> None:
    tree = legal_turn_tree(dfen)
    assert tree == baseline_tree(dfen)
    assert legal_uci_moves(dfen) == sorted(tree)

    g = DiceGame(dfen)
    most = _baseline_max(dfen)
    if brute:
        assert _brute_max(g) == most
    paths: list = []
    _walk(g, tree, (), paths)
    assert g.dfen() == dfen                     # the walk left the game as it was
    if not tree:
        assert most == 0 or g.is_game_over()
        assert paths == [()]
    for p in paths:
        if not p:
            continue
        spent = sum(len(f) for _, f, _ in p)
        king = p[-1][2]
        assert spent == most or king, (dfen, p, most)
        assert all(not k for _, _, k in p[:-1])     # a king capture ends the turn

    # playable dice: for the roll and every prefix of the sampled paths
    sample = rng.sample(paths, min(replays, len(paths)))
    prefixes = {()}
    for p in sample:
        for i in range(1, len(p) + 1):
            prefixes.add(tuple(u for u, _, _ in p[:i]))
    for pre in prefixes:
        expect = Counter()
        for p in paths:
            if tuple(u for u, _, _ in p[:len(pre)]) == pre:
                after = Counter(f for _, faces, _ in p[len(pre):] for f in faces)
                expect |= after
        assert playable_dice(dfen, list(pre)) == sorted(expect.elements()), (dfen, pre)
    assert playable_dice(dfen, ["a1a1"]) is None

    # sampled paths replay through apply_move (each step legal judged afresh)
    for p in sample:
        d = dfen
        for u, faces, _ in p:
            assert u in legal_uci_moves(d)
            nd = apply_move(d, u)
            left = Counter(parse_dfen(d).faces) - Counter(parse_dfen(nd).faces)
            assert sorted(left.elements()) == list(faces)
            assert nd.split()[1] == dfen.split()[1]          # the colour is kept
            d = nd


@FAST
@given(seed=hst.integers(0, 10**6), turns=hst.integers(0, 14))
def test_random_rolled_positions(seed, turns):
    dfen = random_rolled_position(seed, turns)
    check_position(dfen, replays=1, rng=random.Random(seed))


@pytest.mark.slow
@DEEP
@given(seed=hst.integers(0, 10**6), turns=hst.integers(0, 40))
def test_random_rolled_positions_deep(seed, turns):
    dfen = random_rolled_position(seed, turns)
    check_position(dfen, replays=4, rng=random.Random(seed), brute=True)


@FAST
@given(seeds=hst.lists(hst.tuples(hst.integers(0, 10**6), hst.integers(0, 14)),
                       min_size=2, max_size=4))
def test_reload_is_a_fresh_game(seeds):
    # one session reloaded position after position (what turn_tree does) answers
    # as a game built for each position: same DFEN, moves, tree and working memory
    from dice.turns import _tree_of
    reused = DiceGame()
    for seed, turns in seeds:
        dfen = random_rolled_position(seed, turns)
        fresh = DiceGame(dfen)
        reused.reload(dfen)
        assert reused.dfen() == fresh.dfen() == dfen
        assert reused.legal_uci() == fresh.legal_uci()
        assert reused.is_game_over() == fresh.is_game_over()
        assert _tree_of(reused, dfen).to_dict() == _tree_of(fresh, dfen).to_dict()

        def wm(g):
            return sorted((f.template, sorted(f.values.items(), key=str))
                          for f in g.session.facts.values())
        assert wm(reused) == wm(fresh)
        assert reused.session.activations() == []
        assert reused._history == fresh._history


def test_reload_refusals_leave_the_game_as_it_was():
    from dice.errors import DfenError, DiceError
    g = DiceGame("8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1 NPP")
    with pytest.raises(DfenError):
        g.reload("8/8/8 w - - 0 1 NPP")
    assert g.dfen() == "8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1 NPP"
    g.push("c2c4")
    with pytest.raises(DiceError):
        g.reload("8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1 NPP")
    assert g.dfen() == "8/8/8/2k5/2P5/1N6/8/K7 w - c3 0 1 NP"
    g.pop()
    g.reload("4k3/8/8/8/8/8/8/4K3 b - - 3 9 KK")
    assert g.legal_uci() == ["e8d7", "e8d8", "e8e7", "e8f7", "e8f8"]
