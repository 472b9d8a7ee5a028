"""berolina-pawns: scope, the Parton en-passant rule and the ep-pawn token, through the
Game API (the scenario files cover the rest; test_v2_berolina_fsf.py compares with
Fairy-Stockfish)."""
from __future__ import annotations

import pytest

from chess_rules.errors import FenError
from chess_rules.game import Game
from presets.base import PresetConfigError
from presets.registry import load


def test_target_without_a_taker_is_not_shown():
    g = Game("4k3/8/8/3p4/8/8/4P3/4K3 w - - 0 1", presets=["berolina-pawns"])
    g.push("e2c4")
    assert g.fen() == "4k3/8/8/3p4/2P5/8/8/4K3 b - - 0 1"


def test_unambiguous_target_needs_no_token():
    g = Game("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", presets=["berolina-pawns"])
    g.push("e2c4")
    assert g.fen() == "4k3/8/8/8/2Pp4/8/8/4K3 b - d3 0 1"
    assert Game.from_fen(g.fen(), presets=["berolina-pawns"]).legal_uci() == g.legal_uci()


def test_ambiguous_target_reached_in_play_is_named_and_round_trips():
    # e4 already stands beyond d3; e2-c4 puts a second white pawn there
    g = Game("4k3/8/8/8/3pP3/8/4P3/4K3 w - - 0 1", presets=["berolina-pawns"])
    g.push("e2c4")
    fen = g.fen()
    assert fen == "4k3/8/8/8/2PpP3/8/8/4K3 b - d3 0 1 ep-pawn:d3=c4"
    again = Game.from_fen(fen, presets=["berolina-pawns"])
    assert again.fen() == fen
    again.push("d4d3")
    assert again.piece_at("c4") is None and again.piece_at("e4") is not None
    # without the token the position is refused, with a message that says what to add
    with pytest.raises(FenError, match="ep-pawn:d3=SQ"):
        Game.from_fen(fen.replace(" ep-pawn:d3=c4", ""), presets=["berolina-pawns"])


def test_token_naming_a_non_target_or_an_empty_square_is_refused():
    with pytest.raises(FenError):
        Game("4k3/8/8/8/2PpP3/8/8/4K3 b - - 0 1 ep-pawn:d3=c4", presets=["berolina-pawns"])
    with pytest.raises(FenError):
        Game("4k3/8/8/8/2PpP3/8/8/4K3 b - d3 0 1 ep-pawn:d3=b4", presets=["berolina-pawns"])


@pytest.mark.parametrize("scope,white,black", [
    ("both", ["e2c4", "e2d3", "e2f3", "e2g4"], ["e7c5", "e7d6", "e7f6", "e7g5"]),
    ("white", ["e2c4", "e2d3", "e2f3", "e2g4"], ["e7e5", "e7e6"]),
    ("black", ["e2e3", "e2e4"], ["e7c5", "e7d6", "e7f6", "e7g5"]),
])
def test_scope(scope, white, black):
    g = Game(presets=["berolina-pawns"], config={"berolina-pawns": {"scope": scope}})
    assert sorted(m.uci() for m in g.legal_moves() if m.frm == 12) == white
    g.push("g1f3")
    assert sorted(m.uci() for m in g.legal_moves() if m.frm == 52) == black


def test_default_scope_is_both_and_bad_scope_is_refused():
    assert load("berolina-pawns").productions["fide.pawn-single-push"].doc.endswith("square.")
    with pytest.raises(PresetConfigError):
        load("berolina-pawns", config={"berolina-pawns": {"scope": "none"}})


def test_attack_declaration_is_the_berolina_one():
    # a white Berolina pawn on e4 checks a king on e5, not one on d5 or f5
    for king, check in (("e5", True), ("d5", False), ("f5", False)):
        fen = f"8/8/8/{'4k3' if king == 'e5' else ('3k4' if king == 'd5' else '5k2')}/4P3/8/8/4K3 b - - 0 1"
        assert Game(fen, presets=["berolina-pawns"]).is_check() is check
        assert Game(fen).is_check() is (not check)


def test_repetition_counts_a_berolina_en_passant_target_only_when_it_can_be_taken():
    """After b2-d4 black may take c4xc3 en passant: that position is not the same as
    the same board with black to move later, when the right has gone (FIDE 9.2.3)."""
    g = Game("4k3/8/8/8/2p5/8/1P6/4K3 w - - 0 1", presets=["berolina-pawns"])
    g.push("b2d4")
    assert "c4c3" in g.legal_uci()
    for _ in range(2):
        for m in ("e8d8", "e1d1", "d8e8", "d1e1"):
            g.push(m)
    # the board of move 1 has come back twice, without the en-passant right
    assert g.repetitions() == 2
    assert g.outcome() is None


def test_out_of_scope_pawns_keep_a_replaced_per_piece_mover():
    # a rule set whose single push matches one pawn at a time (not collected):
    # Berolina for White only hands Black's pawns to it, one by one
    from chess_rules.fide import fide_rules
    from rete import Call, P, Rule, V
    rs = fide_rules()
    inner = rs.functions["gen.pawn-single.plain"]
    rs.function("house.single", lambda ctx, p: inner(ctx, (p,)))
    rs.replace(Rule("fide.pawn-single-push", stage="generate")
               .when(P("movegen", color=V.c), P("piece", type="pawn", color=V.c).as_("p"))
               .then(Call("house.single", V.p)))
    rs = load("berolina-pawns", config={"berolina-pawns": {"scope": "white"}}, base=rs)
    g = Game("4k3/3p4/8/8/8/8/3P4/4K3 b - - 0 1", ruleset=rs)
    assert {"d7d6", "d7d5"} <= set(g.legal_uci())
    g.push("d7d6")
    assert {"d2c3", "d2e3"} <= set(g.legal_uci()) and "d2d3" not in g.legal_uci()


@pytest.mark.parametrize("fen, presets, config, words", [
    # the side out of scope plays FIDE pawns: FIDE's checks of its targets
    ("4k3/8/8/3Pp3/8/8/8/4K3 b - d4 0 1", ["berolina-pawns"],
     {"berolina-pawns": {"scope": "white"}}, "not on rank 3 or 6"),
    ("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1", ["berolina-pawns"],
     {"berolina-pawns": {"scope": "black"}}, None),                   # FIDE target: fine
    ("4k3/8/8/8/4P3/8/4N3/4K3 b - e3 0 1", ["berolina-pawns"],
     {"berolina-pawns": {"scope": "black"}}, "e2 is occupied"),
    # a Berolina pawn jumped over its target from the square before it
    ("4k3/8/8/8/2Pp4/8/4P3/4K3 b - d3 0 1", ["berolina-pawns"], None, "no white Berolina pawn"),
    ("4k3/8/8/8/2Pp4/3N4/8/4K3 b - d3 0 1", ["berolina-pawns"], None, "'d3' is occupied"),
    ("4k3/8/8/8/2Pp4/8/8/4K3 b - d3 0 1", ["berolina-pawns"], None, None),
    # two moves a turn checks the rank only
    ("4k3/8/8/3p4/8/4P3/8/4K3 w - d4 0 1", ["double-move"], None, "not on rank 3 or 6"),
    ("4k3/8/8/8/8/8/8/4K3 w - a1h8 0 1", ["double-move"], None, "not on rank 3 or 6"),
    ("4k3/8/8/3p4/8/4P3/8/4K3 w - d4 0 1", ["monster-rules"], None, "not on rank 3 or 6"),
    # a sprint from any rank: the square it left is empty
    ("4k3/4p3/8/3Pp3/8/8/8/4K3 w - e6 0 1", ["double-pawn-sprint"], None, "e7 is occupied"),
    ("4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1", ["double-pawn-sprint"], None, None),
])
def test_en_passant_targets_are_checked_under_presets(fen, presets, config, words):
    if words is None:
        Game(fen, presets=presets, config=config)
        return
    with pytest.raises(FenError, match=words):
        Game(fen, presets=presets, config=config)


def test_several_moves_a_turn_may_fill_a_target_or_the_square_its_pawn_left():
    # double-move (a second half-move) and Dice Chess (more micro-moves): the
    # engine's own output must read back
    import dice
    from dice.rules import dice_rules
    for extra in ("double-move", "monster-rules"):
        rs = load(extra, "double-pawn-sprint")
        g = Game(ruleset=rs)
        g.push("e2e4")
        g.push("f1e2")                      # the square the pawn left, refilled
        assert Game(g.fen(), ruleset=rs).fen() == g.fen()
    rs = dice_rules(load("berolina-pawns"))
    d = "rnbqkbnr/pppppppp/8/8/3P4/2N5/P1PPPPPP/R1BQKBNR b KQkq c3 1 1 PPN"   # c3 filled
    assert dice.legal_turn_tree(d, rs)
