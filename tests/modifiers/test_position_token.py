"""The ``mod:`` token: a position under modifiers, written and read back, is
the same game (attributes, hooks, legal moves, and every move after)."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chess_rules.errors import FenError
from chess_rules.fide import fide_rules
from chess_rules.game import Game
from presets import load
from presets.modifiers import attach, gallery_names, load_descriptor, piece_hooks

from .helpers import add, desc, game
from .test_properties import SQ, descriptors

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def _state(g):
    # a piece's "moved" is written only for pawns (FEN's castling rights carry
    # the king's and rooks'; nothing reads a knight's): compared for pawns
    pieces = sorted(tuple(sorted((k, v) for k, v in f.values.items()
                                 if k != "moved" or f.values["type"] == "pawn"))
                    for f in g.pieces())
    hooks = {f.values["square"]: piece_hooks(g, f.values["square"]) for f in g.pieces()}
    return g.fen(), pieces, hooks, [m.uci() for m in g.legal_moves()]


def _read_back_along_a_playout(g, seed: int, plies: int = 8):
    """At every ply the position read back from g.fen() is the same game, and
    stays so for the next move."""
    rnd = random.Random(seed)
    for _ in range(plies):
        if g.outcome() is not None:
            return
        again = Game(g.fen(), ruleset=g.ruleset)
        assert _state(again) == _state(g)
        m = rnd.choice(g.legal_moves()).uci()
        g.push(m)
        again.push(m)
        assert _state(again) == _state(g)


def test_a_start_bonus_is_not_counted_twice():
    g = game(None, (desc(add("AttackBonus", 2)), None))
    assert g.piece_at("e1").values["attack-bonus"] == 2
    assert g.fen().endswith(" mod:-")
    again = Game(g.fen(), ruleset=g.ruleset)
    assert again.piece_at("e1").values["attack-bonus"] == 2


def test_a_piece_attached_by_square_keeps_its_hook_after_it_moved():
    g = game(None, ("berserker", ["g1"]))
    g.push("g1f3")
    g.push("e7e5")
    assert g.fen().endswith(" attack-bonus:f3=1 mod:f3=0")
    again = Game(g.fen(), ruleset=g.ruleset)      # g1 is empty now: no new start
    assert piece_hooks(again, "f3") == {"OnMoveHooks": ["berserker $.primitives[0]"]}
    again.push("f3g5")
    assert again.piece_at("g5").values["attack-bonus"] == 2


def test_without_the_token_a_position_is_a_game_start():
    rs = attach(fide_rules(), "berserker", squares=["e1"])
    g = Game("4k3/8/8/8/8/8/8/4K3 w - - 0 1", ruleset=rs)
    assert piece_hooks(g, "e1") == {"OnMoveHooks": ["berserker $.primitives[0]"]}


@pytest.mark.parametrize("text, problem", [
    ("mod:z9=0", "'z9' is not a square"),
    ("mod:e4=0", "empty square"),
    ("mod:e1", "should read square=hook"),
    ("mod:e1=x", "'x' is neither a hook number nor an aura"),
    ("mod:e1=0,e1=0", "given twice"),
    ("mod:e1=7", "no hook 7 in the attached modifiers"),
    ("mod:e1=a1:hp:2", "neither a hook number nor an aura"),
    ("mod:e1=a1:hp-bonus:2:friends", "is not an aura"),
    ("mod:e1=a1:hp-bonus:2:allies", "no aura a1:hp-bonus:2:allies"),
])
def test_a_bad_token_is_a_fen_error(text, problem):
    rs = attach(fide_rules(), "berserker", squares=["e1"])
    with pytest.raises(FenError, match=problem):
        Game(f"4k3/8/8/8/8/8/8/4K3 w - - 0 1 {text}", ruleset=rs)


def test_the_token_is_unknown_without_modifiers():
    with pytest.raises(FenError, match="unknown key 'mod'"):
        Game("4k3/8/8/8/8/8/8/4K3 w - - 0 1 mod:-")


@pytest.mark.parametrize("name", gallery_names())
def test_every_gallery_recipe_reads_back(name):
    d = load_descriptor(name)
    base = load(*d.requires) if d.requires else fide_rules()
    if "piece-hp" not in base.presets and _uses_hp(name):
        base = load("piece-hp", *d.requires)
    g = Game(KIWIPETE, ruleset=attach(base, d))
    _read_back_along_a_playout(g, seed=len(name))


def _uses_hp(name: str) -> bool:
    from presets.modifiers.engine import Registry
    r = Registry()
    r.register(load_descriptor(name))
    return r.uses_hp


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(d=descriptors(), squares=st.lists(SQ, min_size=1, max_size=6),
       seed=st.integers(0, 10**6))
def test_random_descriptors_read_back(d, squares, seed):
    occupied = {f.values["square"] for f in Game(KIWIPETE).pieces()}
    squares = [q for q in squares if q in occupied] or [4]
    g = Game(KIWIPETE, ruleset=attach(fide_rules(), d, squares=squares))
    _read_back_along_a_playout(g, seed)
