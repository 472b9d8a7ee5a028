"""king-heals on the Game API."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import pytest

from _v1 import game, kind_at
from chess_rules.game import Game
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


@pytest.mark.parametrize("presets, fen, move", [
    # a king with hp to spare may stand next to the other: bare kings mate
    (["piece-hp", "king-heals"], "8/8/8/8/8/8/8/k1K5 w - - 0 1 hp:c1=3", "c1b2"),
    (["piece-hp", "king-heals", "dual-king"], "8/8/8/8/8/8/8/k1K5 w - - 0 1 hp:c1=3", "c1b2"),
    # poison kills a king whatever the material
    (["piece-hp", "poisoned-squares"], "4k3/8/8/8/8/4K3/8/8 w - - 0 1", "e3e4"),
])
def test_no_position_is_dead_where_a_king_is_lost_otherwise(presets, fen, move):
    g = Game(fen, presets=presets)
    assert g.outcome() is None
    g.push(move)
    assert g.outcome() is not None and g.outcome().winner is not None


def test_bare_kings_stay_dead_under_piece_hp_alone():
    out = Game("8/8/8/8/8/8/8/k1K5 w - - 0 1", presets=["piece-hp"]).outcome()
    assert out.reason == "insufficient material"
