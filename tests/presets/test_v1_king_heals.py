"""king-heals on the Game API."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import pytest

from _v1 import game, kind_at
from presets.base import MissingRequirementError

P = ("piece-hp", "king-heals")


def hp(g, sq):
    return g.piece_at(sq).values["hp"]


def test_scenarios():
    g = game("4k3/8/8/8/8/8/8/4K3 w - - 0 1", *P)
    g.push("e1d1")
    assert hp(g, "d1") == 2
    g = game("4k3/8/8/8/8/8/8/4K3 w - - 0 1 hp:e1=3", *P)
    g.push("e1d1")
    assert hp(g, "d1") == 3
    g = game("4r2k/8/8/8/8/8/8/4K3 b - - 0 1 hp:e1=2", *P)
    g.push("e8e1")
    assert kind_at(g, "e2") == "K" and hp(g, "e2") == 1 and g.outcome() is None
    g.push("e2d3")
    assert hp(g, "d3") == 2


def test_edges():
    with pytest.raises(MissingRequirementError):
        game(None, "king-heals")
    g = game("4r2k/8/8/8/8/8/8/3K4 w - - 0 1 hp:d1=2", *P)
    g.push("d1e1")
    assert hp(g, "e1") == 2
    g = game("7k/6pp/8/8/8/8/8/R6K w - - 0 1", *P)
    g.push("a1a8")
    assert g.outcome().reason == "checkmate"
