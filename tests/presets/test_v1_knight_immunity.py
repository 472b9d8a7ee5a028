"""knight-immunity on the Game API."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _v1 import game, refused_by

P = "knight-immunity"


def test_scenarios():
    g = game("4k3/8/7n/8/8/8/8/2B1K3 w - - 0 1", P)
    assert refused_by(g, "c1h6") == "fide.bishop-move" and "c1g5" in g.legal_uci()
    assert game("4k3/8/8/b7/8/8/8/4K3 w - - 0 1", P).is_check()
    assert "e5c6" in game("k7/8/2b5/4N3/8/8/7P/6BK w - - 0 1", P).legal_uci()


def test_edges():
    g = game("4k3/8/8/b7/8/2N5/8/4K3 w - - 0 1", P)
    assert g.is_check()
    assert not game("4k3/8/8/b7/8/2N5/8/4K3 w - - 0 1").is_check()
    g = game("n3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", P)
    assert "b7a8b" not in g.legal_uci() and "b7a8q" in g.legal_uci()
    assert "c1h6" in game("4k3/8/7n/8/8/8/8/2Q1K3 w - - 0 1", P).legal_uci()
