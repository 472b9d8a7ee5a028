"""The Dice Chess rule set is the FIDE rule set edited: check off, dice as facts,
roll and end-turn stages; it composes with presets that change how pieces move."""
from __future__ import annotations

import doctest

import dice.game
from chess_rules.fide import fide_rules
from dice import apply_move, legal_turn_tree, legal_uci_moves
from dice.rules import REMOVED, dice_rules

POS = "4k3/8/8/8/8/8/P7/N3K2R w - - 0 1 NRP"


def test_rule_set_is_fide_edited():
    fide = fide_rules()
    rs = dice_rules(fide)
    names = set(rs.productions)
    assert not names & set(REMOVED)
    assert {"dice.roll", "dice.die-filter", "dice.spend-die", "dice.king-capture",
            "dice.ep-target-drop", "dice.end-turn-ep-clear", "dice.end-turn-toggle"} <= names
    # every FIDE movement production is still there, by name, from FIDE
    for n in ("fide.pawn-single-push", "fide.knight-move", "fide.castling", "fide.en-passant",
              "fide.move-piece", "fide.promotion", "fide.ep-target-set"):
        assert n in names and rs.origin[n] == "fide"
    stages = {p.name: p.stage for p in rs.productions.values()}
    assert stages["dice.die-filter"] == "filter" and stages["dice.spend-die"] == "apply"
    assert stages["dice.roll"] == "roll" and stages["dice.end-turn-toggle"] == "end-turn"
    session = rs.build()
    order = session.stages if hasattr(session, "stages") else None
    if order is not None:
        order = list(order)
        assert order.index("roll") < order.index("generate")
        assert order.index("end-turn") > order.index("result")
    assert set(fide.productions) >= set(REMOVED)       # the base is not changed


def test_composes_with_a_preset_that_changes_moves():
    from presets import load
    rs = load("knights-leap-twice")
    plain = set(legal_uci_moves(POS))
    leap = set(legal_uci_moves(POS, ruleset=rs))
    assert plain == {"a1b3", "a1c2", "a2a3", "a2a4", "h1f1", "h1g1", "h1h2", "h1h3", "h1h4",
                     "h1h5", "h1h6", "h1h7", "h1h8"}
    assert {"a1a5", "a1c1", "a1d4", "a1e3"} <= leap and plain <= leap
    after = apply_move(POS, "a1d4", ruleset=rs)
    assert after == "4k3/8/8/8/3N4/8/P7/4K2R w - - 1 1 RP"
    assert legal_turn_tree(POS, ruleset=rs)["a1d4"]


def test_engine_doctest():
    res = doctest.testmod(dice.game)
    assert res.attempted > 0 and res.failed == 0


def test_movers_wait_for_their_dice():
    # the generators of one piece type, castling and en passant start with the die
    # they need, so a type without a die builds no match at all
    from rete.model import Collect, Exists, as_production
    rs = dice_rules()
    gated = {name for kind, name, _ in rs.history if kind == "gate"}
    assert gated == {"fide.pawn-single-push", "fide.pawn-double-push", "fide.pawn-capture",
                     "fide.knight-move", "fide.bishop-move", "fide.rook-move",
                     "fide.queen-move", "fide.king-move", "fide.castling", "fide.en-passant"}

    def gates(name):
        conds = as_production(rs.productions[name]).conditions
        return [dict(c.conditions[0].slots)["type"] for c in conds
                if isinstance(c, Exists) and not isinstance(c, Collect)]
    assert gates("fide.castling") == ["king", "rook"]
    assert gates("fide.en-passant") == ["pawn"]
    assert gates("fide.queen-move") == ["queen"]

    # a generator of the user's that names no piece type is not gated: what its
    # moves need is for dice.die-filter to judge
    from rete import Call, P, Rule, V
    base = fide_rules()
    base.add(Rule("user.any-step", stage="generate")
             .when(P("movegen", color=V.c), P("piece", color=V.c).as_("p"))
             .then(Call("gen-leap", V.p, "N")), "user")
    rs = dice_rules(base)
    assert "user.any-step" not in {name for kind, name, _ in rs.history if kind == "gate"}
    assert not [c for c in as_production(rs.productions["user.any-step"]).conditions
                if isinstance(c, Exists)]


def test_explain_names_the_missing_die():
    from dice.game import DiceGame
    g = DiceGame("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 PPN")
    for uci, reason in (
            ("e1g1", "castling needs a king die and a rook die (dice left: pawn, pawn, knight)"),
            ("a1a5", "no rook die for the rook on a1 (dice left: pawn, pawn, knight)"),
            ("e1e2", "no king die for the king on e1 (dice left: pawn, pawn, knight)")):
        ex = g.explain(uci)
        assert (ex.legal, ex.rule, ex.reason) == (False, "dice.die-filter", reason)
    ex = g.explain("h8h5")           # not this side's piece: no die is the question
    assert ex.rule is None and "black's" in ex.reason
    g = DiceGame("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 KRN")
    assert g.explain("e1g1").legal and g.explain("e1c1").rule == "fide.castling"
    ex = g.explain("a1b3")           # a rook die, but no rook move goes there
    assert not ex.legal and ex.rule is None


def test_gating_changes_no_tree():
    # the gates are an optimisation: under presets that change how pieces move,
    # the trees of rolled positions are those of the die filter alone
    import random

    from dice.game import DiceGame
    from dice.turns import _tree_of
    from presets import load
    from tests.dice.test_properties import random_rolled_position
    rng = random.Random(7)
    turns = 0
    for preset in ("wrap-board", "berolina-pawns", "knights-leap-twice", "pawns-move-backward"):
        gated, plain = dice_rules(load(preset)), dice_rules(load(preset), gate=False)
        for _ in range(4):
            seed = rng.randrange(10**6)
            d = random_rolled_position(seed, rng.randrange(12))
            a = _tree_of(DiceGame(d, gated), d).to_dict()
            b = _tree_of(DiceGame(d, plain), d).to_dict()
            assert a == b, (preset, d)
            turns += sum(1 for _ in _leaves(a))
    assert turns > 1000            # the trees are not trivial


def _leaves(tree):
    if not tree:
        yield ()
    for sub in tree.values():
        yield from _leaves(sub)


def test_dice_rules_of_dice_rules_is_the_same_game():
    # it failed with "stage 'roll' already exists", where DiceGame takes such a
    # rule set as it is
    once = dice_rules()
    twice = dice_rules(once)
    assert twice is not once and twice.name == once.name == "dice(fide)"
    assert list(twice.productions) == list(once.productions)
    dfen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 PK"
    assert legal_uci_moves(dfen, ruleset=twice) == legal_uci_moves(dfen)


def test_dice_rules_of_what_is_not_a_rule_set_says_so():
    import pytest
    from chess_rules.errors import NotARuleSetError
    with pytest.raises(NotARuleSetError, match=r"not str \(load a preset"):
        dice_rules("piece-hp")
