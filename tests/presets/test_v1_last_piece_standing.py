"""last-piece-standing on the Game API."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _v1 import game

P = "last-piece-standing"


def test_scenarios():
    g = game("4k3/8/8/8/8/8/8/q3K3 b - - 0 1", P)
    assert not g.is_check()
    g.push("a1e1")
    assert g.outcome().winner == "black" and g.outcome().reason == "annihilation"
    out = game("8/8/8/8/8/p7/P7/4K3 b - - 0 1", P).outcome()
    assert out.winner == "white" and out.reason == "no legal move"
    assert game("4k3/8/8/8/8/8/8/4K3 w - - 0 1", P).outcome() is None


def test_edges():
    assert {"e1d1", "e1d2"} <= set(game("4k3/8/8/8/8/8/8/r3K3 w - - 0 1", P).legal_uci())
    assert "e2c3" in game("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", P).legal_uci()
    assert "e1g1" in game("4kr2/8/8/8/8/8/8/4K2R w K - 0 1", P).legal_uci()
