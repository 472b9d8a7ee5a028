"""The tree builder's transpositions: a set of micro-moves is one position.

Under the Dice Chess rule set over FIDE the builder does not play the second
order of a pair of micro-moves (``dice.turns.COMMUTATION``). These tests check
the claim itself on the engine, by playing every order: each pair of distinct
micro-moves legal in both orders reaches one position (every fact agrees, the
clocks aside), on random rolled positions and on
positions made for the cases the argument names (captures, castling, en
passant, promotion, a piece moving twice). Then trees built with the shortcut
are compared with trees built by playing every prefix.
"""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hst

import presets
from dice.game import DiceGame
from dice.rules import dice_rules
from dice.turns import EngineBackend, _plain, build_tree

from .test_properties import random_rolled_position

SETTINGS = settings(max_examples=10, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])

MADE = [
    # castling (king and rook dice) and the other rook's move, both orders
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 KRR",
    # en passant, a knight that may take the pawn instead, a second pawn
    "4k3/8/8/3pP3/8/8/5N2/4K3 w - d6 0 1 PNP",
    # two targets of the opponent's, pawns on both sides of each
    "4k3/8/8/2pPpP2/8/8/8/4K3 w - c6e6 0 1 PPP",
    # promotion to each piece, then the new piece's die
    "1n2k3/P7/8/8/8/8/8/N3K3 w - - 0 1 PNQ",
    # one knight twice, captures everywhere
    "r1bqk2r/ppp2ppp/2n2n2/3pp3/1bPP4/2N1PN2/PP3PPP/R1BQKB1R w KQkq - 0 6 NNB",
    # Kiwipete with mixed dice
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 QBP",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/Pp2P3/2N2Q1p/1PPBBPPP/R3K2R b KQkq a3 0 1 PPR",
]


def _orders(g: DiceGame, path: tuple, seen: dict, size: int = 2) -> None:
    """Play every order of micro-moves from ``g``; record the position reached by
    each set of ``size`` distinct micro-moves, by order."""
    if len(path) == size and len(set(path)) == size:
        seen.setdefault(frozenset(path), {})[path] = g._every_fact_key()
    if g.is_game_over() or len(path) == size:
        return
    for m in list(g.legal_moves()):
        g._play(m)
        _orders(g, path + (m.uci(),), seen, size)
        g.pop()


def check_commutes(dfen: str) -> int:
    """Assert every pair of micro-moves is one position whatever its order;
    return how many pairs were legal in both orders."""
    seen: dict = {}
    _orders(DiceGame(dfen), (), seen)
    shared = 0
    for by_order in seen.values():
        keys = set(by_order.values())
        assert len(keys) == 1, (dfen, sorted(by_order))
        shared += len(by_order) > 1
    return shared


@pytest.mark.parametrize("dfen", MADE)
def test_made_positions_commute(dfen):
    assert check_commutes(dfen) > 0          # the test saw transpositions


def test_three_moves_need_not_commute():
    # why the builder stops at pairs: UCI names squares, so the same three moves
    # in two orders move different pieces (king to d1 and rook to e2, or the
    # other way round)
    seen: dict = {}
    _orders(DiceGame("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 KRR"), (), seen, size=3)
    orders = seen[frozenset({"e1d1", "h1e1", "e1e2"})]
    assert len(set(orders.values())) == 2


@SETTINGS
@given(seed=hst.integers(0, 10**6), turns=hst.integers(0, 20))
def test_random_rolled_positions_commute(seed, turns):
    check_commutes(random_rolled_position(seed, turns))


class _EveryPrefixPlayed(EngineBackend):
    """The builder's view of a game with no shortcut: no move sets, no memo."""

    def __init__(self, game):
        super().__init__(game)
        self.commutes = False

    def key(self):
        return object()


def _both_trees(dfen: str, ruleset=None):
    quick = _plain(build_tree(EngineBackend(DiceGame(dfen, ruleset)))[0])
    slow = _plain(build_tree(_EveryPrefixPlayed(DiceGame(dfen, ruleset)))[0])
    return quick, slow


@pytest.mark.parametrize("dfen", MADE)
def test_made_positions_same_tree_with_and_without_shortcut(dfen):
    quick, slow = _both_trees(dfen)
    assert quick == slow and quick


@SETTINGS
@given(seed=hst.integers(0, 10**6), turns=hst.integers(0, 30))
def test_random_positions_same_tree_with_and_without_shortcut(seed, turns):
    quick, slow = _both_trees(random_rolled_position(seed, turns))
    assert quick == slow


def test_only_the_fide_dice_rule_set_takes_the_shortcut():
    assert EngineBackend(DiceGame()).commutes
    # the argument was made for FIDE's productions: another rule set (a preset,
    # or a fresh copy a user may have edited) plays every prefix
    assert not EngineBackend(DiceGame(None, dice_rules())).commutes
    assert not EngineBackend(DiceGame(None, presets.load("berolina-pawns"))).commutes


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=hst.integers(0, 10**6), turns=hst.integers(0, 40))
def test_random_rolled_positions_commute_deep(seed, turns):
    check_commutes(random_rolled_position(seed, turns))


def test_a_copy_of_a_plain_dice_chess_game_keeps_the_pair_shortcut():
    from dice.game import DiceGame
    g = DiceGame()
    assert g.plain_dice and g.copy().plain_dice
