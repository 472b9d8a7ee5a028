"""rook-warp on the Game API."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _v1 import game, independent_perft2, kind_at, moves_from, refused_by

P = "rook-warp"


def test_scenarios():
    g = game("4k3/8/8/8/8/8/6K1/R7 w - - 0 1", P)
    assert g.explain("a1h1").generated_by == ["fide.rook-move"]
    g = game("4k3/8/8/8/R1N4p/8/8/4K3 w - - 0 1", P)
    assert g.explain("a4h4").generated_by == ["preset.rook-warp-slide"]
    g.push("a4h4")
    assert kind_at(g, "h4") == "R"
    g = game("4k3/8/3N4/8/3R4/8/8/7K w - - 0 1", P)
    assert {"d4d1", "d4d7", "d4d8"} <= moves_from(g, "d4") and "d4d6" not in moves_from(g, "d4")
    g = game("3rk3/8/8/8/3R4/8/8/3N3K w - - 0 1", P)
    assert "d4d1" not in g.legal_uci() and "d4d8" in g.legal_uci()


def test_edges():
    g = game("4k3/8/8/8/8/8/8/4K1NR w K - 0 1", P)
    g.push("h1a1")
    assert g.castling_rights() == "-"
    g = game("8/8/8/8/R1N4k/8/8/4K3 b - - 0 1", P)
    assert g.is_check() and refused_by(g, "h4g4") == "fide.check-resolution"
    assert independent_perft2(game(None, P)) == 484
