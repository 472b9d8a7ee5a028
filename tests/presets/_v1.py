"""Helpers for the v1 preset tests written on the Game API."""
from __future__ import annotations

from chess_rules.game import Game


def game(fen=None, *presets, **kw) -> Game:
    return Game(fen, presets=list(presets), **kw)


def moves_from(g: Game, sq: str) -> set[str]:
    return {u for u in g.legal_uci() if u[:2] == sq}


def kind_at(g: Game, sq: str):
    f = g.piece_at(sq)
    if f is None:
        return None
    v = f.values
    letter = {"pawn": "p", "knight": "n", "bishop": "b", "rook": "r", "queen": "q",
              "king": "k"}[v["type"]]
    return letter.upper() if v["color"] == "white" else letter


def refused_by(g: Game, uci: str) -> str | None:
    ex = g.explain(uci)
    assert not ex.legal, f"{uci} is legal"
    return ex.rule


def independent_perft2(g: Game) -> int:
    n = 0
    for u in g.legal_uci():
        g.push(u)
        n += len(g.legal_moves())
        g.pop()
    assert n == g.perft(2) == sum(g.perft_divide(2).values())
    return n
