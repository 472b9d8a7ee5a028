"""The DFEN API from several threads at once: the tree cache and the idle
session are shared by every caller."""
from __future__ import annotations

import sys
import threading
from collections import OrderedDict

import pytest

import dice.turns as turns
from dice.turns import apply_move, legal_turn_tree, legal_uci_moves, playable_dice

DFENS = [f"4k3/8/8/8/8/8/{'' if i == 0 else i}P{'' if i == 7 else 7 - i}/4K3 w - - 0 1 PK"
         for i in range(8)]


class EvictingCache(OrderedDict):
    """A cache whose entry another thread evicts right after a lookup finds it."""

    def get(self, key, default=None):
        tree = super().get(key, default)
        if tree is not None:
            del self[key]
        return tree


def test_a_cached_tree_evicted_meanwhile_by_another_thread(monkeypatch):
    monkeypatch.setattr(turns, "_CACHE", EvictingCache())
    d = DFENS[0]
    first = legal_turn_tree(d)                  # built and stored
    assert d in turns._CACHE
    assert legal_turn_tree(d) == first          # found, then gone before move_to_end


def test_concurrent_calls_agree_with_serial_ones(monkeypatch):
    # a cache smaller than the positions in play: builds evict one another's trees
    monkeypatch.setattr(turns, "_CACHE", OrderedDict())
    monkeypatch.setattr(turns, "_CACHE_SIZE", 3)
    expected = {}
    for d in DFENS:
        moves = legal_uci_moves(d)
        expected[d] = (legal_turn_tree(d), [apply_move(d, u) for u in moves], playable_dice(d))
    errors, wrong = [], []

    def work(k):
        try:
            for i in range(24):
                d = DFENS[(i * (k + 3)) % len(DFENS)]
                got = (legal_turn_tree(d), [apply_move(d, u) for u in legal_uci_moves(d)],
                       playable_dice(d))
                if got != expected[d]:
                    wrong.append(d)
        except BaseException as e:        # pragma: no cover - the failure reported below
            errors.append(e)
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(old)
    assert not errors and not wrong
    assert len(turns._CACHE) <= 3
