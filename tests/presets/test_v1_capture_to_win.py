"""capture-to-win on the Game API."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _v1 import game

P = "capture-to-win"


def test_scenarios():
    g = game(None, P)
    for m in ("e2e4", "d7d5", "e4d5"):
        g.push(m)
    assert g.outcome().winner == "white" and g.legal_uci() == []
    out = game("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", P).outcome()
    assert out.winner is None and out.reason == "no legal move"
    out = game("R6k/6pp/8/8/8/8/8/7K b - - 0 1", P).outcome()
    assert out.winner is None
    g = game("4kr2/8/8/8/8/8/3q4/4K3 w - - 0 1", P)
    assert g.legal_uci() == ["e1d2"]
    g.push("e1d2")
    assert g.outcome().winner == "white"


def test_edges():
    g = game("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", P)
    g.push("e5d6")
    assert g.outcome().winner == "white"
    g = game("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", P)
    g.push("a7a8q")
    assert g.outcome() is None
    assert game("4k3/8/8/8/8/8/8/4K3 w - - 0 1", P).outcome().winner is None
