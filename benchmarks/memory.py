"""Memory, measured the same way for both sides of a benchmark (tracemalloc).

``held(make)``: the bytes a new object keeps allocated (what ``make()`` returns,
with everything it refers to that it made). ``peak(fn)``: the most bytes
allocated at once while ``fn()`` runs, above what was allocated before.

tracemalloc counts Python allocations only, which is all either side makes
(python-chess is pure Python too), and it slows the code it watches: these
figures come from runs of their own, never from the timed ones.
"""
from __future__ import annotations

import gc
import tracemalloc


def held(make) -> tuple[object, int]:
    """``(obj, bytes)``: ``obj = make()`` and the bytes still allocated for it."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        obj = make()
        gc.collect()
        return obj, tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()


def peak(fn) -> tuple[object, int]:
    """``(fn(), bytes)``: the peak allocation above the start while ``fn`` ran."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        r = fn()
        return r, tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()


def kib(n: int) -> str:
    return f"{n / 1024:,.1f} KiB"
