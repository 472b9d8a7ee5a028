"""poisoned-squares on the Game API."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _v1 import game

P = ("piece-hp", "poisoned-squares")


def test_scenarios():
    g = game("k7/8/8/8/R7/8/8/7K w - - 0 1", *P)
    g.push("a4e4")
    assert g.piece_at("e4").values["hp"] == 1
    g = game("k7/8/8/8/8/2N5/8/7K w - - 0 1 hp:c3=1", *P)
    g.push("c3d5")
    assert g.piece_at("d5") is None
    g = game("k7/8/8/8/4R3/8/8/7K w - - 0 1", *P)
    g.push("e4e7")
    assert g.piece_at("e7").values["hp"] == 2


def test_poison_before_heal():
    g = game("k7/8/8/8/8/4K3/8/8 w - - 0 1", "piece-hp", "king-heals", "poisoned-squares")
    g.push("e3d4")
    assert g.piece_at("d4") is None and g.outcome().winner == "black"
    g = game("k7/8/8/8/8/4K3/8/8 w - - 0 1 hp:e3=2", "piece-hp", "king-heals",
             "poisoned-squares")
    g.push("e3d4")
    assert g.piece_at("d4").values["hp"] == 2
