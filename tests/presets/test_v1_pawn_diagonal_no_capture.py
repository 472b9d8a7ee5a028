"""pawn-diagonal-no-capture on the Game API."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _v1 import game, kind_at, moves_from, refused_by

P = "pawn-diagonal-no-capture"


def test_scenarios():
    assert moves_from(game("4k3/8/8/8/4P3/8/8/K7 w - - 0 1", P), "e4") == {"e4d5", "e4e5", "e4f5"}
    g = game("4k3/8/8/3n4/4P3/8/8/K7 w - - 0 1", P)
    assert g.explain("e4d5").generated_by[0] == "fide.pawn-capture"
    g = game("4k3/8/8/3N4/4P3/8/8/K7 w - - 0 1", P)
    assert refused_by(g, "e4d5") == "preset.pawn-diagonal-quiet"


def test_edges():
    g = game("4k3/8/8/8/5p2/8/3P4/K7 w - - 0 1", P)
    g.push("d2e3")
    assert g.ep_squares() == []
    g = game("6nk/7p/5P2/8/8/8/K7/B7 w - - 0 1", P)
    g.push("f6g7")
    assert g.outcome().reason == "checkmate"
    g = game("4k3/8/8/8/3p4/8/4P3/K7 w - - 0 1", P)
    g.push("e2e4"); g.push("d4e3")
    assert kind_at(g, "e4") is None
