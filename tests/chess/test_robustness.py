"""A Game after an operation that failed or was interrupted half-way (a rule that
raises, Ctrl-C): left where it was, and consistent (legal moves as a fresh game's
from the same FEN); and a rule's action that calls back into its own game."""
from __future__ import annotations

import gc
import random
import sys
from pathlib import Path

import pytest

from chess_rules.fide import fide_rules
from chess_rules.game import Game
from rete import Call, P, Rule, V
from chess_rules.errors import ReentrantCallError
from rete.errors import ActionError

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from _interrupts import run_interrupted  # noqa: E402  (tests/_interrupts.py)

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


# ---------------------------------------------------------------- reentrancy

CALLBACKS = {
    "legal_moves": lambda g: g.legal_moves(),
    "legal_uci": lambda g: g.legal_uci(),
    "push": lambda g: g.push("b8c6"),
    "pop": lambda g: g.pop(),
    "outcome": lambda g: g.outcome(),
    "explain": lambda g: g.explain("b8c6"),
    "perft": lambda g: g.perft(1),
}


@pytest.mark.parametrize("stage", ["gen", "post"])
@pytest.mark.parametrize("call", sorted(CALLBACKS))
def test_an_action_calling_back_into_its_game_is_refused(stage, call):
    # generating moves, moving or taking back from inside the game's own run
    # would answer from (or change) a half-made position: a typed error, and
    # the game is as it was
    h = Hooks()
    g = Game(ruleset=h.ruleset)
    g.push("e2e4")
    fen, legal = g.fen(), g.legal_uci()
    seen = []

    def callback(ctx):
        seen.append(1)
        CALLBACKS[call](g)
    setattr(h, stage, callback)
    with pytest.raises(ActionError) as e:
        if stage == "gen":
            g._legal_cache = None
            g.legal_moves()
        else:
            g.push("e7e5")
    setattr(h, stage, None)
    assert seen
    assert isinstance(e.value.__cause__, ReentrantCallError)
    assert_consistent(g, fen, ["e2e4"])
    assert g.legal_uci() == legal


def test_an_action_may_read_its_game_and_use_another():
    h = Hooks()
    g = Game(ruleset=h.ruleset)
    other = Game()
    seen = []
    h.post = lambda ctx: seen.append((g.is_check(), g.board_fen(), len(other.legal_moves()),
                                      other.push("e2e4"), other.pop()))
    g.push("e2e4")
    assert seen and seen[0][2] == 20
    assert g.fen() == Game("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").fen()


# ---------------------------------------------------------------- Ctrl-C

OPS = {
    "push": lambda g: g.push("e5f7"),
    "pop": lambda g: g.pop(),
    "legal_moves": lambda g: (setattr(g, "_legal_cache", None), g.legal_moves()),
    "outcome": lambda g: (setattr(g, "_legal_cache", None), g.outcome()),
    "perft": lambda g: g.perft(2),
}
START = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R4RK1 b kq - 1 1"


def check_ctrl_c(op: str, ks) -> None:
    base = Game(START)
    base.push("a6e2")
    before = base.fen()
    done = base.copy()
    OPS[op](done)
    after = done.fen()
    g = base.copy()         # (made outside the count: the points fall in the operation)
    total = run_interrupted(lambda: OPS[op](g), 0)
    assert total > 100
    for k in ks(total):
        g = base.copy()
        stack = [m.uci() for m in g.move_stack]
        with pytest.raises(KeyboardInterrupt):
            run_interrupted(lambda: OPS[op](g), k)
            raise KeyboardInterrupt     # (k past the end: the operation completed)
        assert gc.isenabled(), k
        s = g.session
        fen = g.fen()
        assert fen in (before, after), k
        # (fide.check-detection may wait, pending, until check is asked for)
        assert len(s._marks) == len(g.move_stack), k
        assert [a for a in s.agenda.pending() if not a.pnode.on_demand] == [], k
        assert [m.uci() for m in g.move_stack] == (stack if fen == before else
                                                    [m.uci() for m in done.move_stack]), k
        legal = g.legal_uci()
        assert legal == Game(fen).legal_uci(), k
        g.push(legal[0])
        g.pop()
        assert g.legal_uci() == legal and g.fen() == fen, k


@pytest.mark.pure_python
@pytest.mark.parametrize("op", sorted(OPS))
def test_ctrl_c_anywhere_in_an_operation_leaves_the_game_consistent(op):
    # before or after the operation, never in between: the engine's undo is made
    # for errors raised where it looks for them; an interrupt that struck
    # between two steps of a change has the game rebuild its session
    check_ctrl_c(op, lambda total: [1 + (total - 1) * i // 39 for i in range(40)])


@pytest.mark.pure_python
def test_ctrl_c_in_the_last_steps_of_a_push():
    # an interrupt in the move's last rules can break the undo of the change it
    # struck (a KeyError), which the rule's action reports as an ActionError: the
    # game rebuilds and the KeyboardInterrupt is what is raised, not the
    # ActionError with the session left half undone
    check_ctrl_c("push", lambda total: range(max(1, total - 150), total + 1))


@pytest.mark.pure_python
@pytest.mark.slow
@pytest.mark.parametrize("op", sorted(OPS))
def test_ctrl_c_anywhere_many_points(op):
    rng = random.Random(op)
    # (every point, when an operation has fewer than 150: pop has some 150)
    check_ctrl_c(op, lambda total: sorted(rng.sample(range(1, total + 1), min(150, total))))
