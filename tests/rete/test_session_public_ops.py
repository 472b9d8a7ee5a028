"""What a layer above the engine may use of a session's state: public
operations and properties, not its private fields (tests/test_layers.py)."""
from __future__ import annotations

import pytest

from rete import ActionError, Call, P, Rule, Session


def _session():
    s = Session()
    s.deftemplate("item", "n")
    return s


def test_unjournaled_changes_are_not_taken_back_by_a_rollback():
    s = _session()
    mark = s.checkpoint()
    kept = s.assert_fact("item", n=1)
    with s.unjournaled():
        s.retract(s.assert_fact("item", n=2))       # net-zero work, kept out
    s.rollback(mark)
    assert not kept.alive and s.facts_of("item") == []


def test_pause_and_resume_the_journal():
    s = _session()
    mark = s.checkpoint()
    paused = s.pause_journal()
    outside = s.assert_fact("item", n=1)
    s.resume_journal(paused)
    inside = s.assert_fact("item", n=2)
    s.rollback(mark)
    # the change made while paused stays: no journal entry undoes it
    assert outside.alive and not inside.alive


def test_the_journal_comes_back_when_the_work_inside_raises():
    s = _session()
    mark = s.checkpoint()
    with pytest.raises(KeyError):
        with s.unjournaled():
            raise KeyError("x")
    f = s.assert_fact("item", n=1)
    s.rollback(mark)
    assert not f.alive


def test_open_checkpoints_counts_the_marks():
    s = _session()
    assert s.open_checkpoints == 0
    m = s.checkpoint()
    s.checkpoint()
    assert s.open_checkpoints == 2
    s.rollback(m)
    assert s.open_checkpoints == 0


def test_firing_is_true_only_inside_an_action():
    s = _session()
    seen = []
    s.register_function("look", lambda ctx: seen.append(ctx.session.firing))
    s.add(Rule("r").when(P("item")).then(Call("look")))
    assert s.firing is False
    s.assert_fact("item", n=1)
    s.run()
    assert seen == [True] and s.firing is False


def test_halted_says_an_action_halted_the_run():
    s = _session()
    s.register_function("stop", lambda ctx: ctx.session.halt())
    s.add(Rule("r").when(P("item")).then(Call("stop")))
    s.assert_fact("item", n=1)
    s.assert_fact("item", n=2)
    assert s.run() == 1 and s.halted        # (the other match is left)
    assert s.run() == 1 and s.halted
    assert s.run() == 0 and not s.halted    # a run no action halted


def test_firing_is_false_again_after_an_action_raises():
    s = _session()

    def boom(ctx):
        raise ValueError("no")
    s.register_function("boom", boom)
    s.add(Rule("r").when(P("item")).then(Call("boom")))
    s.assert_fact("item", n=1)
    with pytest.raises(ActionError):
        s.run()
    assert s.firing is False
