"""double-pawn-sprint on the Game API."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _v1 import game, independent_perft2, kind_at, moves_from, refused_by

P = "double-pawn-sprint"


def test_scenarios():
    g = game("4k3/8/3p4/8/4P3/8/8/K7 w - - 0 1", P)
    assert moves_from(g, "e4") == {"e4e5", "e4e6"}
    g.push("e4e6")
    assert g.ep_squares() == [28 + 8]
    g.push("d6e5")
    assert kind_at(g, "e6") is None and kind_at(g, "e5") == "p"
    g = game("3k4/4P3/8/8/8/8/8/K7 w - - 0 1", P)
    assert moves_from(g, "e7") == {"e7e8q", "e7e8r", "e7e8b", "e7e8n"}


def test_edges():
    g = game("4k3/8/8/8/4P3/8/4n3/K7 w - - 0 1".replace("4n3/K7", "8/K7"), P)
    g = game("4k3/8/4n3/8/4P3/8/8/K7 w - - 0 1", P)
    assert refused_by(g, "e4e6") == "fide.pawn-double-push"
    g = game("4k3/8/3p4/8/4P3/8/8/K7 w - - 0 1", P)
    g.push("e4e6"); g.push("e8f8"); g.push("a1a2")
    assert "d6e5" not in g.legal_uci()
    g = game("k7/8/4P3/8/8/8/8/K7 w - - 0 1", P)
    g.push("e6e8q")
    assert kind_at(g, "e8") == "Q" and g.ep_squares() == []
    assert independent_perft2(game(None, P)) == 400
