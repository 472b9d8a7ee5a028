"""Small builders for descriptors in tests."""
from __future__ import annotations

from chess_rules.fide import fide_rules
from chess_rules.game import Game
from presets import load
from presets.modifiers import attach


def add(attr, delta):
    return {"kind": "add-to-attribute", "params": {"attr": attr, "delta": delta}}


def seed(attr, value):
    return {"kind": "seed-attribute", "params": {"attr": attr, "value": value}}


def trig(kind, *prims, **params):
    return {"kind": kind, "params": {**params, "primitives": list(prims)}}


def cond(if_, then=(), else_=()):
    return {"kind": "conditional", "params": {"if": if_, "then": list(then), "else": list(else_)}}


def desc(*prims, id="t", **extra):
    return {"version": 1, "id": id, "primitives": list(prims), **extra}


def game(fen, *attachments, presets=()):
    """A game with each (descriptor, squares) attached, in order."""
    rs = load(*presets) if presets else fide_rules()
    for d, squares in attachments:
        rs = attach(rs, d, squares=squares)
    return Game(fen, ruleset=rs)


def attr(g, square, slot):
    f = g.piece_at(square)
    assert f is not None, f"no piece on {square}"
    return f.values.get(slot)
