"""Dice Chess over every preset (``dice_rules(presets.load(...))``): the state a
preset adds travels in the DFEN's ``key:value`` tokens, so the text API
(``apply_move``, ``end_turn``) and a game played move by move stay the same game.

On random playouts under each preset, at every micro-move: the DFEN read back is
the same position (same text, same legal micro-moves); the tree's first level
is ``legal_uci_moves``; the chosen path replays through ``apply_move`` on text
to the DFEN the game reaches; ``end_turn`` on text agrees with the game's.
"""
from __future__ import annotations

import random

import pytest

from dice import apply_move, end_turn, legal_uci_moves
from dice.dfen import parse_dfen
from dice.engine import DiceGame
from dice.errors import DfenError
from dice.rules import dice_rules
from dice.turns import _tree_of
from presets import all_presets, load
from presets.layouts import get_layout

PRESETS = [m.id for m in all_presets()]


def _rules(pid):
    meta = {m.id: m for m in all_presets()}[pid]
    return meta, dice_rules(load(pid, *meta.requires))


def _start(meta) -> str:
    fen = get_layout(meta.preferred_layout or "standard").fen
    return " ".join(fen.split()[:6]) + " -"


def play(pid: str, seed: int, turns: int) -> int:
    meta, rs = _rules(pid)
    rng = random.Random(seed)
    g = DiceGame(_start(meta), rs)
    steps = 0
    for _ in range(turns):
        g.roll(rng)
        d = g.dfen()
        tree = _tree_of(DiceGame(d, rs), d).to_dict()
        assert sorted(tree) == legal_uci_moves(d, rs)
        path, t = [], tree
        while t:
            u = rng.choice(sorted(t))
            path.append(u)
            t = t[u]
        text = d
        for u in path:
            text = apply_move(text, u, rs)
            g.push(u)
            assert g.dfen() == text
            back = DiceGame(text, rs)
            assert back.dfen() == text
            assert back.legal_uci() == g.legal_uci()
            steps += 1
        if g.is_game_over():
            break
        after = end_turn(text, rs)
        g.run_end_turn()
        assert g.dfen() == after
    return steps


@pytest.mark.parametrize("pid", PRESETS)
def test_dice_over_preset(pid):
    assert play(pid, seed=1, turns=4) > 0


@pytest.mark.slow
@pytest.mark.parametrize("pid", PRESETS)
def test_dice_over_preset_long(pid):
    for seed in range(2, 8):
        play(pid, seed=seed, turns=25)


def test_preset_state_is_written_and_read():
    _, rs = _rules("piece-hp")
    d = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 PK hp:e2=1"
    g = DiceGame(d, rs)
    assert g.dfen() == d
    assert g.pieces()[0].values.get("hp") is not None
    with pytest.raises(DfenError) as e:          # plain Dice Chess knows no hp
        parse_dfen(d)
    assert e.value.field == "extended" and "hp" in str(e.value)


def test_targets_of_berolina_pawns():
    # a Berolina double step from e2 lands on c4 or g4 and leaves its target on
    # d3 or f3: not in front of the pawn, as the FIDE reading of a DFEN wants
    _, rs = _rules("berolina-pawns")
    g = DiceGame("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 PP", rs)
    g.push("e2c4")
    assert g.dfen() == "4k3/8/8/8/2P5/8/8/4K3 w - d3 0 1 P"
    assert DiceGame(g.dfen(), rs).legal_uci() == g.legal_uci()
    with pytest.raises(DfenError):
        parse_dfen(g.dfen())                     # FIDE: no pawn on d4


def test_with_dice_keeps_the_tokens():
    from dice import with_dice
    _, rs = _rules("piece-hp")
    d = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 - hp:e2=1"
    assert with_dice(d, [1, 6], rs) == "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 PK hp:e2=1"


def test_winner_token_when_the_board_does_not_show_it():
    # coregal: the queen is royal too; taking it ends the game with the king on
    # the board, so the DFEN says who won
    _, rs = _rules("coregal")
    g = DiceGame("3qk3/8/8/8/8/8/8/3RK3 w - - 0 1 R", rs)
    g.push("d1d8")
    assert g.is_game_over() and g.winner() == "white"
    assert g.dfen() == "3Rk3/8/8/8/8/8/8/4K3 w - - 0 1 - winner:white"
    back = DiceGame(g.dfen(), rs)
    assert back.is_game_over() and back.winner() == "white" and back.legal_uci() == []
    with pytest.raises(DfenError) as e:
        DiceGame("3Rk3/8/8/8/8/8/8/4K3 w - - 0 1 - winner:grey", rs)
    assert e.value.field == "extended"
