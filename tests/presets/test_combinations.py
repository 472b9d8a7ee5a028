"""Presets in combination: rulings that hold only when two or more presets meet.

Each case here was found by random playouts over combinations of two to four
presets (legal moves, explanations, push/pop, copy, FEN round trip, perft,
CLI, PGN): the game as played and the game loaded from its FEN must agree.
"""
from __future__ import annotations

import pytest

from chess_rules.game import Game
from presets.base import PresetError

BARE = [("suicide-chess", "black", "no pieces left"),
        ("capture-all", "white", "all pieces captured"),
        ("last-piece-standing", "white", "annihilation")]


@pytest.mark.parametrize("multi", ["double-move", "monster-rules"])
@pytest.mark.parametrize("preset,winner,reason", BARE)
def test_a_side_bared_mid_turn_decides_the_game_at_once(preset, winner, reason, multi):
    # White takes Black's last piece on the first half-move of its turn: the
    # game is over there (as checkmate on either half-move ends it), and the
    # position reads back from its FEN as the same finished game
    g = Game("8/5r2/8/8/8/8/2K4B/5R2 w - - 0 9", presets=[preset, multi])
    g.push("f1f7")
    assert g.fen() == "8/5R2/8/8/8/8/2K4B/8 w - - 0 9 half:1"
    out = g.outcome()
    assert out is not None and (out.winner, out.reason) == (winner, reason)
    assert g.legal_uci() == [] and g.perft(1) == 0
    again = Game(g.fen(), presets=[preset, multi])
    assert again.legal_uci() == [] and again.outcome().winner == winner
    g.pop()
    assert g.outcome() is None and "f1f7" in g.legal_uci()


@pytest.mark.parametrize("preset,winner,reason", [
    ("suicide-chess", "white", "no pieces left"),
    ("capture-all", "black", "all pieces captured"),
    ("last-piece-standing", "black", "annihilation")])
def test_a_side_whose_last_piece_is_poisoned_is_bare_at_once(preset, winner, reason):
    # White's last piece (hp 1) ends its turn on d5 and dies of the poison:
    # White is bare with Black to move
    ids = [preset, "piece-hp", "poisoned-squares"]
    g = Game("k7/8/8/8/8/2N5/8/8 w - - 0 1 hp:c3=1", presets=ids)
    g.push("c3d5")
    assert g.fen() == "k7/8/8/8/8/8/8/8 b - - 1 1"
    out = g.outcome()
    assert out is not None and (out.winner, out.reason) == (winner, reason)
    assert g.legal_uci() == [] == Game(g.fen(), presets=ids).legal_uci()
    g.pop()
    assert g.outcome() is None and "c3d5" in g.legal_uci()


@pytest.mark.parametrize("multi", [[], ["double-move"], ["monster-rules"]])
def test_extinction_both_sides_at_once_the_mover_loses_mid_turn_too(multi):
    # the rook takes Black's last pawn on c3 and its blast takes White's on c4:
    # both sides are extinct at once, and the side that has just moved (White,
    # still to move mid-turn under a multi-move preset) loses
    ids = ["explosive-rook", "extinction-chess", *multi]
    g = Game("k7/8/8/8/2P5/R1p5/8/7K w - - 0 1", presets=ids)
    g.push("a3c3")
    out = g.outcome()
    assert out is not None and (out.winner, out.reason) == ("black", "no pawn left")
    again = Game(g.fen(), presets=ids)
    assert again.outcome().winner == "black" and again.legal_uci() == []


# presets whose productions are built on the board the rule set has when they
# are applied (the slant's diagonal steps, the bishop's orthogonal step, the
# blast's reach): loaded together with a geometry, the geometry goes first and
# they wrap; a geometry loaded over them would leave them on the plain board
BUILT_ON_THE_BOARD = ["pawn-diagonal-no-capture", "bishops-ignore-color", "explosive-rook"]


@pytest.mark.parametrize("preset", BUILT_ON_THE_BOARD)
def test_a_geometry_over_a_base_whose_presets_built_on_the_board_is_refused(preset):
    from presets.base import ConflictingPresetsError
    from presets.registry import load
    base = load(preset)
    names, config = dict(base.productions), dict(base.config)
    with pytest.raises(ConflictingPresetsError, match="geometry goes first"):
        load("wrap-board", base=base)
    assert base.productions == names and base.config == config
    assert load(preset, "wrap-board").presets == ["wrap-board", preset]


@pytest.mark.parametrize("preset", BUILT_ON_THE_BOARD)
def test_the_cylinder_modifier_over_presets_built_on_the_board_is_refused(preset):
    from presets.modifiers import ModifierCompositionError, attach, load_descriptor
    from presets.registry import load
    with pytest.raises(ModifierCompositionError, match="cannot change the board's topology"):
        attach(load(preset), load_descriptor("tpl-pacman-style-cross-ref"))


@pytest.mark.parametrize("preset", ["rook-warp", "bouncing-pieces", "bouncing-pieces-2"])
def test_the_cylinder_modifier_over_a_preset_incompatible_with_wrap_board_says_so(preset):
    # the advice for presets built on the plain board (load wrap-board with them)
    # would only lead to the next refusal here: name the preset and the clash
    from presets.modifiers import ModifierCompositionError, attach, load_descriptor
    from presets.registry import load
    base = load(preset)
    with pytest.raises(ModifierCompositionError) as e:
        attach(base, load_descriptor("tpl-pacman-style-cross-ref"))
    msg = str(e.value)
    assert f"{preset!r}" in msg and "incompatible" in msg and "'wrap-board'" in msg
    assert "use --preset wrap-board instead" not in msg
    assert base.presets == [preset] and base.topology.name != "cylinder"


def test_the_slant_wraps_however_wrap_board_is_loaded_with_it():
    from presets.registry import load
    fen = "4k3/8/8/8/8/8/P6P/4K3 w - - 0 1"
    moves = Game(fen, presets=["pawn-diagonal-no-capture", "wrap-board"]).legal_uci()
    assert {"a2h3", "h2a3"} <= set(moves)
    assert Game(fen, ruleset=load("wrap-board", "pawn-diagonal-no-capture")).legal_uci() == moves


@pytest.mark.parametrize("preset", ["pawns-move-backward", "capture-to-win"])
def test_a_geometry_over_presets_that_do_not_build_on_the_board_composes(preset):
    from presets.registry import load
    fen = "4k3/8/8/8/R7/8/P6P/4K3 w - - 0 1"
    together = Game(fen, ruleset=load(preset, "wrap-board")).legal_uci()
    assert Game(fen, ruleset=load("wrap-board", base=load(preset))).legal_uci() == together
    assert "a4h4" in together


@pytest.mark.parametrize("geometry", ["rook-warp", "bouncing-pieces", "bouncing-pieces-2"])
@pytest.mark.parametrize("preset", BUILT_ON_THE_BOARD + ["knights-leap-twice", "berolina-pawns"])
def test_a_geometry_that_keeps_the_steps_over_presets_built_on_the_board_composes(
        preset, geometry):
    # rook-warp keeps the plain board (only the rook's slide warps); the bouncing
    # boards change only the diagonal rays, and rebuild the sliders that walk them
    from presets.registry import load
    fen = "4k3/8/8/8/8/8/P6P/R1B1K1N1 w - - 0 1"
    try:
        together = load(preset, geometry)
    except PresetError:
        return                                  # incompatible either way
    assert Game(fen, ruleset=load(geometry, base=load(preset))).legal_uci() == \
        Game(fen, ruleset=together).legal_uci()


@pytest.mark.parametrize("geometry, rebuilt, says", [
    ("wrap-board", ["fide.rook-move", "fide.knight-move", "fide.pawn-capture"], "cylinder"),
    ("bouncing-pieces", ["fide.bishop-move", "fide.queen-move"], "reflect"),
    ("bouncing-pieces-2", ["fide.bishop-move", "fide.queen-move"], "reflect"),
])
def test_the_rules_a_geometry_rebuilds_say_so_in_their_doc(geometry, rebuilt, says):
    # `houserules rules --preset bouncing-pieces` said "A bishop slides
    # diagonally." for a bishop whose rays reflect: the what-it-does column
    # left out what the geometry changed
    from presets.registry import load
    rows = {r["name"]: r for r in load(geometry).describe()}
    for name in rebuilt:
        assert rows[name]["source"] == geometry
        assert geometry in rows[name]["doc"] and says in rows[name]["doc"], rows[name]["doc"]
