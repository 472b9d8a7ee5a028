"""pawns-move-backward on the Game API (the .hrt file has every scenario)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _v1 import game, moves_from, refused_by

P = "pawns-move-backward"


def test_scenarios():
    g = game("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1", P)
    assert moves_from(g, "e4") == {"e4e3", "e4e5"}
    g = game("4k3/8/8/8/4P3/3p4/8/4K3 w - - 0 1", P)
    assert "e4d3" not in g.legal_uci()
    g = game("4k3/8/8/8/4P3/4N3/8/4K3 w - - 0 1", P)
    assert refused_by(g, "e4e3") == "preset.pawn-backward-push"


def test_edges():
    g = game("4k3/8/8/4P3/3p4/8/8/4K3 w - - 0 1", P)
    g.push("e5e4")
    assert g.ep_squares() == [] and "d4e3" not in g.legal_uci()
    g = game("4k3/8/8/8/8/4P3/8/7K w - - 37 1", P)
    g.push("e3e2")
    assert g.fen().split()[4] == "0"
    g.push("e8d8")
    assert moves_from(g, "e2") == {"e2e1", "e2e3"}
    assert g.fen().endswith("moved:e2")
