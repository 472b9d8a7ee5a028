"""Perft on the six positions of the chessprogramming wiki's perft page.

Counts are the published ones (https://www.chessprogramming.org/Perft_Results).
The default run keeps to shallow depths; deeper counts run under ``-m slow``.
Every count runs through the FIDE productions on the engine (legal moves from
the generate and filter stages, moves played by the apply stages).
"""
from __future__ import annotations

import pytest

from chess_rules.game import Game

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
POS3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
POS4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
POS4_MIRROR = "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1"
POS5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
POS6 = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"

PUBLISHED = {
    "start": (START, [20, 400, 8902, 197281, 4865609]),
    "kiwipete": (KIWIPETE, [48, 2039, 97862, 4085603]),
    "pos3": (POS3, [14, 191, 2812, 43238, 674624]),
    "pos4": (POS4, [6, 264, 9467, 422333]),
    "pos4-mirror": (POS4_MIRROR, [6, 264, 9467, 422333]),
    "pos5": (POS5, [44, 1486, 62379, 2103487]),
    "pos6": (POS6, [46, 2079, 89890, 3894594]),
}

# (position, depth) run by default, and the deeper ones run with -m slow
FAST = [("start", 1), ("start", 2), ("start", 3), ("kiwipete", 1), ("kiwipete", 2),
        ("pos3", 1), ("pos3", 2), ("pos3", 3), ("pos4", 1), ("pos4", 2),
        ("pos4-mirror", 1), ("pos4-mirror", 2), ("pos5", 1), ("pos5", 2),
        ("pos6", 1), ("pos6", 2)]
SLOW = [("start", 4), ("kiwipete", 3), ("pos3", 4), ("pos4", 3), ("pos4-mirror", 3),
        ("pos5", 3), ("pos6", 3)]


def _case(name, depth):
    fen, counts = PUBLISHED[name]
    return pytest.param(fen, depth, counts[depth - 1], id=f"{name}-d{depth}")


@pytest.mark.parametrize("fen,depth,expected", [_case(*c) for c in FAST])
def test_perft_published(fen, depth, expected):
    g = Game(fen)
    assert g.perft(depth) == expected
    assert g.fen() == fen            # every move was taken back
    assert g.move_stack == []


@pytest.mark.slow
@pytest.mark.parametrize("fen,depth,expected", [_case(*c) for c in SLOW])
def test_perft_published_deep(fen, depth, expected):
    g = Game(fen)
    assert g.perft(depth) == expected
    assert g.fen() == fen


@pytest.mark.parametrize("name", ["start", "kiwipete", "pos4"])
def test_perft_make_unmake_at_every_node_agrees_with_bulk(name):
    fen, counts = PUBLISHED[name]
    g = Game(fen)
    assert g.perft(2, bulk=False) == counts[1]
    assert g.fen() == fen


def test_perft_divide_sums_to_perft():
    g = Game(KIWIPETE)
    div = g.perft_divide(2)
    assert len(div) == 48
    assert sum(div.values()) == 2039
    # published divide numbers for Kiwipete at depth 2 (a few of them)
    assert div["e1g1"] == 43 and div["e1c1"] == 43 and div["d5e6"] == 46 and div["e5f7"] == 44
    assert g.fen() == KIWIPETE


def test_perft_depth_zero_is_one():
    assert Game().perft(0) == 1


def test_overriding_a_generate_production_changes_perft():
    """No fast path: removing a production from the rule set changes the count."""
    from chess_rules.fide import fide_rules
    rs = fide_rules()
    rs.remove("fide.knight-move")
    g = Game(START, ruleset=rs)
    assert g.perft(1) == 16          # the four knight moves are gone
    rs2 = fide_rules()
    rs2.remove("fide.castling")
    g2 = Game(KIWIPETE, ruleset=rs2)
    assert g2.perft(1) == 46
    assert g2.perft(2, bulk=False) != 2039


def test_removing_the_filter_production_changes_perft():
    from chess_rules.fide import fide_rules
    rs = fide_rules()
    rs.remove("fide.check-resolution")
    # position 4: white is in check; without the filter, moves that ignore it come back
    assert Game(POS4, ruleset=rs).perft(1) > 6


def test_overriding_an_apply_production_changes_perft():
    """Moves are played by the apply productions: without fide.castling-rook the rook
    stays home after castling, and the counts below change."""
    from chess_rules.fide import fide_rules
    rs = fide_rules()
    rs.remove("fide.castling-rook")
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    g, fide = Game(fen, ruleset=rs), Game(fen)
    assert g.perft(1) == fide.perft(1) == 26
    # after 1. O-O the rook on f1 would stop Black's O-O through f8; here it never left h1
    assert fide.perft_divide(2)["e1g1"] == 23
    assert g.perft_divide(2)["e1g1"] == 26
    assert g.perft(2, bulk=False) != fide.perft(2, bulk=False)
    g.push("e1g1")
    assert g.piece_at("h1").values["type"] == "rook" and g.piece_at("f1") is None


@pytest.mark.parametrize("fen,depth", [(KIWIPETE, 2), (POS3, 3), (POS4, 2), (POS5, 2)])
def test_pin_line_filter_agrees_with_simulating_every_candidate(fen, depth):
    """The self-check filter's shortcut (pin lines, used only with the FIDE attack and
    apply effects) gives the same counts as simulating every candidate, which is what
    runs as soon as a production adds its own simulate hook (here a no-op one)."""
    from rete import Call, P, Rule, V
    from chess_rules.fide import fide_rules
    rs = fide_rules()
    rs.function("noop", lambda ctx, m: None)
    rs.add(Rule("test.noop-apply", stage="apply", salience=-50,
                simulate=lambda st, colors, types, m: None)
           .when(P("move").as_("m")).then(Call("noop", V.m)))
    slow = Game(fen, ruleset=rs)
    fast = Game(fen)
    assert slow.state.simulators != fast.state.simulators
    fen_index = {name: v for name, v in PUBLISHED.items()}
    expected = next(c for f, c in fen_index.values() if f == fen)[depth - 1]
    assert slow.perft(depth) == fast.perft(depth) == expected
