"""Benchmark progress goes to a terminal stderr only, and never changes what is iterated."""
from __future__ import annotations

import io
import sys

from benchmarks import progress


class _Tty(io.StringIO):
    def isatty(self):
        return True


def test_off_a_terminal_nothing_is_shown(monkeypatch):
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    assert list(progress.track(iter([3, 1, 2]), 3, "timing trees")) == [3, 1, 2]
    progress.note("making positions...")
    assert err.getvalue() == ""


def test_on_a_terminal_the_bar_and_notes_go_to_stderr(monkeypatch, capsys):
    err = _Tty()
    monkeypatch.setattr(sys, "stderr", err)
    assert list(progress.track(range(4), 4, "timing trees")) == [0, 1, 2, 3]
    progress.note("making positions...")
    text = err.getvalue()
    assert "timing trees" in text and "4/4" in text
    assert text.rstrip().endswith("making positions...")
    assert capsys.readouterr().out == ""
