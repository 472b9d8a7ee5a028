"""bishops-ignore-color on the Game API."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _v1 import game, moves_from, refused_by

P = "bishops-ignore-color"


def test_scenarios():
    assert "c1d1" in game("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", P).legal_uci()
    g = game("4k3/8/8/8/8/8/8/1NB1K3 w - - 0 1", P)
    assert refused_by(g, "c1b1") == "preset.bishop-orthogonal-step"
    g = game("4k3/8/8/8/8/8/1p6/2B1K3 w - - 0 1", P)
    assert {"c1b2", "c1c2"} <= set(g.legal_uci())


def test_edges():
    g = game("4k3/8/8/8/8/8/8/2B1K3 w - - 10 20", P)
    assert "c1c3" not in g.legal_uci()
    g.push("c1c2")
    assert g.fen().split()[4] == "11"
    g = game("8/8/8/8/3k4/8/2B5/7K w - - 0 1", P)
    g.push("c2d3")
    assert g.is_check()
    assert moves_from(game("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", P), "c1") == {
        "c1a3", "c1b1", "c1b2", "c1c2", "c1d1", "c1d2", "c1e3", "c1f4", "c1g5", "c1h6"}
