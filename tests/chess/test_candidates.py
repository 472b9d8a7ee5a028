"""Two different moves on one UCI: the first generated is the move, the other
an alternate that stands only if the filters drop the first (ChessState.add,
add_yielding, settle)."""
from __future__ import annotations

import pytest

from chess_rules.game import Game
from chess_rules.moves import Move
from chess_rules.squares import parse_square as sq


def fresh_state():
    st = Game().state
    st.candidates = {}
    st.alternates = False
    return st


def quiet():
    return Move(sq("e2"), sq("e3"), None, "pawn", "normal", None, "test.quiet")


def capture():
    # a capture whose victim is not on the target square (as en passant)
    return Move(sq("e2"), sq("e3"), None, "pawn", "en-passant", sq("e4"), "test.capture")


def test_first_generated_is_the_move():
    st = fresh_state()
    st.add(quiet())
    st.add(capture())
    assert st.settle()["e2e3"].rule == "test.quiet"


def test_alternate_stands_when_the_first_is_dropped():
    st = fresh_state()
    st.add(quiet())
    st.add(capture())
    st.drop("e2e3", "test.filter", "no")
    out = st.settle()
    assert list(out) == ["e2e3"] and out["e2e3"].rule == "test.capture"
    assert st.settled_from == {"e2e3": "e2e3#1"}


def test_dropping_every_move_on_the_squares_leaves_none():
    st = fresh_state()
    st.add(quiet())
    st.add(capture())
    for u in list(st.candidates):
        st.drop(u, "test.filter", "no")
    assert st.settle() == {}


@pytest.mark.parametrize("yielding_first", [True, False])
def test_a_yielding_move_gives_way_whichever_comes_first(yielding_first):
    st = fresh_state()
    adds = [lambda: st.add_yielding(quiet()), lambda: st.add(capture())]
    for add in (adds if yielding_first else adds[::-1]):
        add()
    assert st.settle()["e2e3"].rule == "test.capture"


def test_a_yielding_move_alone_is_the_move():
    st = fresh_state()
    st.add_yielding(quiet())
    assert st.settle()["e2e3"].rule == "test.quiet"


def test_the_same_move_twice_makes_no_alternate():
    st = fresh_state()
    st.generated_by = {}
    st.add(quiet())
    st.add(Move(sq("e2"), sq("e3"), None, "pawn", "normal", None, "test.other"))
    assert list(st.candidates) == ["e2e3"] and not st.alternates
    assert st.generated_by == {"e2e3": ["test.quiet", "test.other"]}
