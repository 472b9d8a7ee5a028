"""explosive-rook on the Game API."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _v1 import game, refused_by


P = "explosive-rook"


def test_scenarios():
    g = game("7k/3p4/3p4/3p4/1R1pnn2/3p4/3p4/K7 w - - 0 1", P)
    g.push("b4d4")
    assert g.fen() == "7k/3p4/8/8/3R4/8/8/K7 b - - 0 1"
    g = game("7k/8/8/3K4/1R1p4/8/8/8 w - - 0 1", P)
    g.push("b4d4")
    assert g.outcome().winner == "black"
    g = game("7k/8/8/8/p7/n7/R7/nnbn3K w - - 0 1", P)
    g.push("a2a1")
    assert g.fen().split()[0] == "7k/8/8/8/p7/8/8/R2n3K"


def test_edges():
    g = game("7k/8/8/8/1R1pr1p1/8/8/K7 w - - 0 1", P)
    g.push("b4d4")
    assert g.piece_at("g4") is not None
    g = game("k7/7b/8/5N2/1R3p2/8/8/1K6 w - - 0 1", P)
    assert refused_by(g, "b4f4") == "fide.check-resolution"
