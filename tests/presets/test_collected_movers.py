"""The presets' own movers collect their pieces, as FIDE's do.

Each mover matches once per ``movegen`` request whatever the number of pieces
it moves, and gives exactly the moves of the same production written one piece
at a time (``?p <- piece(...)``, the form these presets had before): compared
on seeded random playouts, legal moves at every position and perft(2) at
every sixth.
"""
from __future__ import annotations

import random

import pytest

from chess_rules.game import Game
from presets import registry
from rete import Call, Collect, V

# preset id -> its mover (a production the preset adds or replaces), the piece type
MOVERS = {
    "knights-leap-twice": ("preset.knight-double-leap", "knight"),
    "double-pawn-sprint": ("fide.pawn-double-push", "pawn"),
    "pawns-move-backward": ("preset.pawn-backward-push", "pawn"),
    "rook-warp": ("preset.rook-warp-slide", "rook"),
    "bishops-ignore-color": ("preset.bishop-orthogonal-step", "bishop"),
}


def _per_piece(ruleset, name: str):
    """``ruleset`` with ``name`` rewritten to match one piece at a time."""
    old = ruleset.productions[name]
    conds = []
    for c in old.conditions:
        if isinstance(c, Collect):
            c = c.pattern.as_("p")
        conds.append(c)
    (call,) = old.actions
    out = ruleset.copy()
    out.replace(old.replace(conditions=tuple(conds),
                            actions=(Call(call.fn, V.p),)))
    return out


@pytest.mark.parametrize("preset", sorted(MOVERS))
def test_the_mover_fires_once_per_request(preset):
    name, ptype = MOVERS[preset]
    g = Game(presets=[preset])
    assert sum(1 for p in g.pieces() if p.values["type"] == ptype
               and p.values["color"] == "white") >= 2
    assert any(isinstance(c, Collect) for c in g.ruleset.productions[name].conditions)
    s = g.session
    s.trace_enabled = True
    g.legal_moves()
    assert [f.rule for f in s.trace].count(name) == 1


@pytest.mark.parametrize("preset", sorted(MOVERS))
def test_collected_and_per_piece_movers_agree(preset):
    name, _ = MOVERS[preset]
    collected = registry.load(preset)
    per_piece = _per_piece(collected, name)
    assert not any(isinstance(c, Collect) for c in per_piece.productions[name].conditions)
    rng = random.Random(preset)
    for _ in range(3):
        a, b = Game(ruleset=collected), Game(ruleset=per_piece)
        for ply in range(24):
            assert a.legal_uci() == b.legal_uci(), a.fen()
            if ply % 6 == 5:
                assert a.perft(2) == b.perft(2), a.fen()
            if a.outcome() is not None:
                break
            u = rng.choice(a.legal_uci())
            a.push(u)
            b.push(u)


def test_every_mover_a_preset_writes_collects_but_one():
    # docs/rulesets.md says so: the presets' movers collect, all but
    # pawn-diagonal-no-capture's quiet step (still written one pawn at a time)
    from rete.model import Pattern
    per_piece = set()
    for meta in registry.all_presets():
        rs = registry.load(*registry.with_requirements([meta.id]))
        for name, prod in rs.productions.items():
            if rs.origin[name] == meta.id and prod.stage == "generate" and any(
                    isinstance(c, Pattern) and c.template == "piece" for c in prod.conditions):
                per_piece.add(name)
    assert per_piece == {"preset.pawn-diagonal-quiet"}
