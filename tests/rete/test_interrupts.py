"""Ctrl-C where CPython delivers it (a Python function's entry, a C call's
return), simulated with a profile hook: whatever step of a run or change it
strikes, the cyclic collector is back on and no temporary journal or checkpoint
is left behind (the session's facts themselves may then be half-changed: a
chess_rules.Game rebuilds its session, tests/chess/test_robustness.py)."""
from __future__ import annotations

import gc
import sys
from pathlib import Path

import pytest

from rete import Assert, P, Rule, Session, V

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from _interrupts import run_interrupted  # noqa: E402  (tests/_interrupts.py)


def interrupted(fn, k: int, only: str | None = None) -> bool:
    """Whether Ctrl-C struck at event ``k`` (swallowing what an undo of a
    half-made change raised after it)."""
    return run_interrupted(fn, k, only, catch=BaseException) >= k


def session() -> Session:
    s = Session()
    s.deftemplate("n", "v")
    s.deftemplate("m", "v")
    s.add(Rule("copy").when(P("n", v=V.x)).then(Assert("m", v=V.x)))
    for i in range(3):
        s.assert_fact("n", v=i)
    return s


@pytest.mark.pure_python
def test_the_collector_is_back_on_whatever_step_of_a_run_is_interrupted():
    assert gc.isenabled()
    k = 1
    while True:
        s = session()
        hit = interrupted(s.run, k)
        assert gc.isenabled(), f"the collector stayed off (interrupt {k})"
        if not hit:
            break
        k += 1
    assert k > 50


def test_no_checkpoint_stays_open_when_a_run_is_interrupted_in_its_own_steps():
    k = 1
    while True:
        s = session()
        hit = interrupted(s.run, k, only="run")
        assert s._marks == [] and s._journal is None, k
        if not hit:
            break
        k += 1


@pytest.mark.pure_python
def test_no_temporary_journal_stays_on_when_a_change_is_interrupted():
    k = 1
    while True:
        s = session()
        hit = interrupted(lambda: s.assert_fact("n", v=9), k)
        assert s._journal is None and s._horizon is None, k
        if not hit:
            break
        k += 1
    assert k > 10


def test_no_checkpoint_stays_open_when_a_transaction_is_interrupted_as_it_opens():
    def tx(s):
        with s.transaction():
            s.assert_fact("n", v=9)
    k = 1
    while True:
        s = session()
        hit = interrupted(lambda: tx(s), k, only="checkpoint")
        assert s._marks == [] and s._journal is None, k
        if not hit:
            break
        k += 1
