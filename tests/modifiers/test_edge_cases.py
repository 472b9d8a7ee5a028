"""Custom modifiers at their edges: attribute names positions reserve, strict
types, auras of a destroyed source, check attribution, and the ``mod:`` and
attribute tokens of a position read back. Each case was found by a bug hunt
(seeded playouts with read-back checks) and fails on the code before its fix."""
from __future__ import annotations

import pytest

from chess_rules.errors import FenError
from chess_rules.fide import fide_rules
from chess_rules.game import Game
from presets import load
from presets.modifiers import attach, validate_descriptor
from presets.modifiers.models import BadParamsError, ModifierCompositionError

from .helpers import add, cond, desc, game, trig

AURA = {"kind": "add-aura", "params": {"radius": 1, "targetAttr": "Glow", "delta": 1}}


@pytest.mark.parametrize("name", ["Half", "EpPawn", "Mod", "Winner"])
def test_an_attribute_named_as_a_position_key_is_refused(name):
    # Half would be written half:f3=1, which reads back as the half-move count
    with pytest.raises(BadParamsError, match="a key positions reserve"):
        validate_descriptor(desc(trig("on-move", add(name, 1))))


@pytest.mark.parametrize("prim", [
    add("Alpha", "1"), add("Alpha", 1.0), add("Alpha", True),
    {"kind": "set-capture-flag", "params": {"flag": True}},
    {"kind": "add-aura", "params": {"radius": "2", "targetAttr": "G", "delta": 1}},
    cond({"attr": "A", "value": "3"}), cond({"attr": "A", "value": True}),
    trig("on-moved-onto-square", add("A", 1), filter={"kind": "squares", "squares": ["27"]}),
])
def test_wrong_json_types_are_refused_as_the_schema_does(prim):
    with pytest.raises(BadParamsError):
        validate_descriptor(desc(prim))


def test_a_version_of_1_0_is_refused():
    with pytest.raises(BadParamsError, match="the version is a whole number"):
        validate_descriptor({"version": 1.0, "id": "x", "primitives": []})


def test_an_aura_goes_with_a_source_destroyed_after_the_aura_stage():
    # the knight carries the aura and loses its last hit points at turn end
    d = desc(AURA, trig("on-turn-end", add("Hp", -2), color="white"), id="src")
    rs = attach(load("piece-hp"), d, squares=["b1"])
    g = Game("4k3/8/8/8/8/8/8/RN2K3 w - - 0 1", ruleset=rs)
    assert g.piece_at("a1").values.get("glow") == 1
    g.push("e1f1")
    assert g.piece_at("b1") is None and not g.piece_at("a1").values.get("glow")
    assert Game(g.fen(), ruleset=rs).fen() == g.fen()


def test_a_primitive_may_not_write_an_auras_attribute():
    with pytest.raises(ModifierCompositionError, match="glow is an aura's attribute"):
        attach(fide_rules(), desc(AURA, trig("on-move", add("Glow", 5)), id="w"),
               squares=["a1"])
    rs = attach(fide_rules(), desc(AURA, id="a"), squares=["a1"])
    with pytest.raises(ModifierCompositionError, match="glow is an aura's attribute"):
        attach(rs, desc(trig("on-move", add("Glow", 5)), id="w"), squares=["b1"])


@pytest.mark.parametrize("fen, move, rook", [("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", "f1"),
                                             ("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", "d1")])
def test_a_castling_rooks_check_is_direct(fen, move, rook):
    d = desc(trig("on-check-delivered", cond({"event": {"discovered": True}},
                                             then=[add("Disc", 1)], else_=[add("Direct", 1)])))
    g = game(fen, (d, None))
    g.push(move)
    assert g.piece_at(rook).values.get("direct") == 1 and not g.piece_at(rook).values.get("disc")


def test_under_knight_immunity_a_bishop_blocked_by_its_own_knight_delivers_no_check():
    d = desc(trig("on-check-delivered", add("Chk", 1)))
    for presets in [(), ("knight-immunity",)]:
        g = game("7k/8/8/4N3/8/2R5/8/B3K3 w - - 0 1", (d, ["a1", "c3"]), presets=presets)
        g.push("c3h3")
        assert g.piece_at("h3").values.get("chk") == 1
        assert not g.piece_at("a1").values.get("chk"), presets


@pytest.mark.parametrize("token, words", [
    ("mod:g1=0.0", "hook 0 is given twice"),
    ("mod:e1=a0:glow:5:allies,g1=0", "radius 1..7"),
    ("mod:e1=a1:glow:5:allies,g1=0", "no aura a1:glow:5:allies"),
    ("mod:e1=a1:glow:1:allies.a1:glow:1:allies,g1=0", "given twice"),
    ("attack-bonus:g1=1.5 mod:g1=0", "attack-bonus:g1='1.5': the attribute is a whole number"),
    ("attack-bonus:g1=true mod:g1=0", "the attribute is a whole number"),
    ("capture-flag:e1=5 mod:g1=0", "the attribute is 0 or 1"),
])
def test_a_mod_token_or_attribute_no_game_can_reach_is_a_fen_error(token, words):
    rs = attach(fide_rules(), desc(AURA, trig("on-move", add("AttackBonus", 1)),
                                   {"kind": "set-capture-flag", "params": {"flag": 1}},
                                   id="m"), squares=["g1"])
    with pytest.raises(FenError, match=words):
        Game("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1 " + token, ruleset=rs)


def test_a_required_preset_that_does_not_exist_is_refused_at_validation():
    with pytest.raises(BadParamsError, match="'peice-hp' is no preset"):
        validate_descriptor(desc(requires=["peice-hp"]))
    assert validate_descriptor(desc(requires=["piece-hp"])).requires == ["piece-hp"]


@pytest.mark.parametrize("base, glow_h1", [("plain", 0), ("wrap-board", 1), ("pacman", 1)])
def test_an_aura_reaches_as_far_as_a_king_steps_on_the_boards_topology(base, glow_h1):
    # on the cylinder a1 and h1 are neighbours: a king steps from one to the
    # other, and a radius-1 aura on a1 reaches h1 (it did not: plain distance)
    rs = {"plain": fide_rules(), "wrap-board": load("wrap-board"),
          "pacman": attach(fide_rules(), "tpl-pacman-style-cross-ref")}[base]
    rs = attach(rs, desc(AURA, id="glow"), squares=["a1"])
    g = Game("4k3/8/8/8/8/8/8/R3K2R w - - 0 1", ruleset=rs)
    assert (g.piece_at("h1").values.get("glow") or 0) == glow_h1
    assert Game(g.fen(), ruleset=rs).fen() == g.fen()


def test_an_attribute_named_as_a_token_the_rule_set_declares_is_refused_at_attach():
    # a rule set's own position token (here 'glow:') would read the attribute's
    # token back as its own: refused when attached to that rule set only
    rs = fide_rules()
    rs.config["position-tokens"] = {"glow": (lambda *a: None, lambda game: None)}
    with pytest.raises(ModifierCompositionError, match="glow is the key of a position token"):
        attach(rs, desc(AURA, id="g"), squares=["a1"])
    assert attach(fide_rules(), desc(AURA, id="g"), squares=["a1"]).name.endswith("mod:g")


@pytest.mark.parametrize("fen, move", [
    ("7K/8/8/4r3/3R4/8/8/k7 w - - 0 1", "h8g8"),     # Black's king on the lower square
    ("k7/8/8/4r3/3R4/8/8/7K w - - 0 1", "h1g1"),     # White's
    ("7K/8/8/4r3/3R4/8/8/k7 b - - 0 1", "a1b1"),
    ("k7/8/8/4r3/3R4/8/8/7K b - - 0 1", "a8b8"),
])
def test_both_last_royal_pieces_destroyed_by_one_move_lose_for_the_mover(fen, move):
    # decay takes the last hp of both kings at the end of the turn: the side
    # that moved loses (as explosive-rook's blast and extinction-chess rule
    # it), not whichever side's king the hooks reached first by square
    rs = attach(load("piece-hp"), "decay")
    g = Game(fen, ruleset=rs)
    mover = g.turn
    g.push(move)
    out = g.outcome()
    assert out is not None and out.winner == ("black" if mover == "white" else "white"), out
    assert g.legal_uci() == []
    g.pop()
    assert g.outcome() is None and g.fen().startswith(fen.rsplit(" ", 2)[0])


@pytest.mark.parametrize("fen, loser", [
    ("7K/8/8/4r3/3R4/8/8/k7 w - - 0 1", "black"),
    ("k7/8/8/4r3/3R4/8/8/7K w - - 0 1", "black"),
    ("7K/8/8/4r3/3R4/8/8/k7 b - - 0 1", "white"),
    ("k7/8/8/4r3/3R4/8/8/7K b - - 0 1", "white"),
])
def test_both_last_royal_pieces_destroyed_at_the_start_lose_for_the_side_not_to_move(fen, loser):
    # the top-level primitives of a game's start: the side that has just moved
    # is the side not to move, as extinction-chess reads a loaded position
    d = desc(add("Hp", -5), appliesTo={"pieceTypes": ["king"]})
    out = Game(fen, ruleset=attach(load("piece-hp"), d)).outcome()
    assert out is not None and out.winner != loser and out.winner is not None, out
