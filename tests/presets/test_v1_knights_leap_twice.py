"""knights-leap-twice on the Game API."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _v1 import game, independent_perft2, moves_from, refused_by

P = "knights-leap-twice"


def test_scenarios():
    g = game("7k/8/8/8/8/8/8/1N5K w - - 0 1", P)
    assert "b1c4" in g.legal_uci()
    assert g.explain("b1c4").generated_by == ["preset.knight-double-leap"]
    g = game("7k/8/8/8/8/P7/8/1N5K w - - 0 1", P)
    assert "b1c4" in g.legal_uci() and "b1c2" not in g.legal_uci()
    g = game("7k/8/8/8/8/P7/3P4/1N5K w - - 0 1", P)
    assert refused_by(g, "b1c4") == "preset.knight-double-leap"
    g = game("7k/8/8/8/8/2p5/8/1N5K w - - 0 1", P)
    assert moves_from(g, "b1") == {"b1a3", "b1b3", "b1b5", "b1c2", "b1c3", "b1c4", "b1d2",
                                   "b1e4", "b1f1", "b1f3"}


def test_edges():
    g = game("6rk/6pp/8/8/2N5/8/8/K7 w - - 0 1", P)
    g.push("c4e5")
    assert g.is_check() and g.outcome().reason == "checkmate"
    g = game("8/8/8/4k3/8/8/8/N6K b - - 0 1", P)
    assert refused_by(g, "e5d4") == "fide.check-resolution"
    assert "b1b1" not in game("7k/8/8/8/8/8/8/1N5K w - - 0 1", P).legal_uci()
    assert independent_perft2(game(None, P)) == 784
