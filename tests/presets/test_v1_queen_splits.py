"""queen-splits on the Game API."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _v1 import game, kind_at

P = "queen-splits"


def test_scenarios():
    g = game("4k3/8/8/8/3p4/8/8/3Q3K w - - 0 1", P)
    g.push("d1d4")
    assert (kind_at(g, "d4"), kind_at(g, "d5"), kind_at(g, "d1")) == ("R", "B", None)
    g = game("4k2K/8/8/2PPP3/2PnP3/2PQP3/8/8 w - - 0 1", P, "piece-hp")
    g.push("d3d4")
    assert g.fen() == "4k2K/8/8/2PPP3/2PRP3/2PnP3/8/8 b - - 0 1 hp:d3=1"
    g = game("4k3/8/8/8/8/8/7p/K6Q w - - 0 1", P)
    g.push("h1h2")
    assert kind_at(g, "h3") == "B"
    g = game("7k/6pp/8/8/8/8/1B6/K5Q1 w - - 0 1", P)
    g.push("g1g7")
    assert not g.is_check() and g.outcome() is None


def test_edges():
    g = game("4k3/1b6/8/8/3p4/8/8/3Q3K w - - 0 1", P)
    assert "d1d4" in g.legal_uci()
    assert "d1d4" not in game("4k3/1b6/8/8/3p4/8/8/3Q3K w - - 0 1").legal_uci()
    g = game("3r4/4P3/8/k7/8/8/8/4K3 w - - 0 1", P)
    g.push("e7d8q")
    assert (kind_at(g, "d8"), kind_at(g, "e8")) == ("R", "B")
