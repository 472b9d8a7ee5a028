"""A Game after an operation that failed or was interrupted half-way (a rule that
raises, Ctrl-C): left where it was, and consistent (legal moves as a fresh game's
from the same FEN)."""
from __future__ import annotations

import pytest

from chess_rules.fide import fide_rules
from chess_rules.game import Game
from rete import Call, P, Rule, V
from rete.errors import ActionError

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


class Hooks:
    """A rule set with a rule in the generate stage and one in post-move, each
    calling a function the test sets (None: do nothing)."""

    def __init__(self):
        self.gen = None
        self.post = None
        rs = fide_rules()
        rs.function("t.gen", lambda ctx, p: self.gen and self.gen(ctx))
        rs.function("t.post", lambda ctx: self.post and self.post(ctx))
        rs.add(Rule("t.gen", stage="generate")
               .when(P("movegen", color=V.c), P("piece", type="king", color=V.c).as_("p"))
               .then(Call("t.gen", V.p)))
        rs.add(Rule("t.post", stage="post-move").when(P("move")).then(Call("t.post")))
        self.ruleset = rs


def fails_at(n):
    """A hook that raises on its n-th call."""
    count = [0]

    def hook(ctx):
        count[0] += 1
        if count[0] == n:
            raise RuntimeError("boom")
    return hook


def assert_consistent(g: Game, fen: str, stack: list[str]):
    assert g.fen() == fen
    assert [m.uci() for m in g.move_stack] == stack
    assert g.legal_uci() == Game(fen, ruleset=g.ruleset).legal_uci()


@pytest.mark.parametrize("n", [1, 7, 30])
def test_perft_that_fails_takes_its_moves_back(n):
    h = Hooks()
    g = Game(ruleset=h.ruleset)
    g.push("e2e4")
    fen = g.fen()
    h.post = fails_at(n)
    with pytest.raises(ActionError):
        g.perft(3)
    h.post = None
    assert_consistent(g, fen, ["e2e4"])
    assert g.perft(2) == Game(fen).perft(2)


def test_perft_divide_that_fails_takes_its_moves_back():
    h = Hooks()
    g = Game(ruleset=h.ruleset)
    fen = g.fen()
    h.post = fails_at(3)            # two moves deep below the first root move
    with pytest.raises(ActionError):
        g.perft_divide(4)
    h.post = None
    assert_consistent(g, fen, [])


def test_perft_interrupted_by_the_caller_takes_its_moves_back():
    # a progress callback that stops the count (as Ctrl-C in the CLI's divide would)
    g = Game(KIWIPETE)

    def stop(uci, n):
        if uci == "a1b1":
            raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        g.perft_divide(2, stop)
    assert_consistent(g, KIWIPETE, [])


def test_san_that_fails_takes_its_move_back():
    # the move gives check, so san asks for the reply's legal moves: generation fails
    h = Hooks()
    g = Game(ruleset=h.ruleset)
    for u in ("e2e4", "f7f6"):
        g.push(u)
    g.legal_moves()
    fen = g.fen()
    h.gen = fails_at(1)
    with pytest.raises(ActionError):
        g.san("d1h5")
    h.gen = None
    assert_consistent(g, fen, ["e2e4", "f7f6"])
    assert g.san("d1h5") == "Qh5+"
