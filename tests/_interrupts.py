"""Ctrl-C where CPython delivers it, for the tests that interrupt the engine,
a Game or Dice Chess at every step (tests/rete/test_interrupts.py,
tests/chess/test_robustness.py, tests/dice/test_interrupted.py): a profile hook
that raises KeyboardInterrupt at its k-th event, a Python function's entry or a
C call's return."""
from __future__ import annotations

import gc
import sys


class Interrupt:
    """The profile hook: KeyboardInterrupt at the ``k``-th event (0: never;
    ``only``: counting the calls into frames of that function only)."""

    def __init__(self, k: int, only: str | None = None):
        self.k, self.only, self.n = k, only, 0

    def __call__(self, frame, event, arg):
        if event in ("call", "c_return") and (self.only is None
                                              or frame.f_code.co_name == self.only):
            self.n += 1
            if self.n == self.k:
                sys.setprofile(None)
                raise KeyboardInterrupt


def run_interrupted(fn, k: int, only: str | None = None, catch=KeyboardInterrupt) -> int:
    """Run ``fn`` with Ctrl-C at event ``k``, swallowing ``catch``; returns the
    events it saw (``k`` when it struck, fewer when ``fn`` ended first)."""
    hook = Interrupt(k, only)
    # the collector's callbacks (hypothesis registers one) run whenever it
    # collects: their calls would be counted and interrupted at random, not
    # the operation's
    callbacks = gc.callbacks[:]
    gc.callbacks.clear()
    sys.setprofile(hook)
    try:
        fn()
    except catch:
        pass
    finally:
        sys.setprofile(None)
        gc.callbacks[:] = callbacks
    return hook.n
