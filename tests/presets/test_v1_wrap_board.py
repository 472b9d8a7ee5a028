"""wrap-board on the Game API."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _v1 import game, independent_perft2, moves_from, refused_by

P = "wrap-board"


def test_scenarios():
    assert "a4h4" in game("7k/8/8/8/R7/8/8/4K3 w - - 0 1", P).legal_uci()
    assert "a1h2" in game("7k/8/8/8/8/8/8/B3K3 w - - 0 1", P).legal_uci()
    assert moves_from(game("4k3/8/n7/7P/8/8/8/4K3 w - - 0 1", P), "h5") == {"h5a6", "h5h6"}
    assert moves_from(game("4k3/8/8/7P/8/8/8/4K3 w - - 0 1", P), "h5") == {"h5h6"}


def test_edges():
    g = game("4k3/8/8/8/b7/8/2P5/R3K2R w KQ - 0 1", P)
    assert refused_by(g, "e1g1") == "fide.castling" and "e1c1" in g.legal_uci()
    assert game("8/8/8/8/R6k/8/8/4K3 b - - 0 1", P).is_check()
    g = game("4k3/7p/8/P7/8/8/8/4K3 b - - 0 1", P)
    g.push("h7h5")
    g.push("a5h6")
    assert g.piece_at("h5") is None
    assert independent_perft2(game(None, P)) == 392
