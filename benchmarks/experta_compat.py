"""Import experta on Python 3.10+.

experta 1.9.4 pins frozendict==1.2, whose module subclasses
``collections.Mapping`` (moved to ``collections.abc`` and removed from
``collections`` in Python 3.10). The benchmark keeps experta's own pins and
restores the old aliases before the import; nothing else is patched.
"""
from __future__ import annotations

import collections
import collections.abc


def import_experta():
    for name in ("Mapping", "MutableMapping", "Sequence", "Iterable", "Hashable", "Callable"):
        if not hasattr(collections, name):
            setattr(collections, name, getattr(collections.abc, name))
    import experta
    return experta


def fixed_depth_strategy():
    """experta's ``DepthStrategy`` with its activation removal fixed.

    experta keeps the agenda sorted by (salience, fact ids newest first) and,
    to remove an activation, looks only at the bisect position and its two
    neighbours. Activations over the same facts with different bindings (the
    permutations of ``make-3_junction``) have equal keys, so some of them
    are never removed and fire later on retracted facts ("Fact not found").
    This subclass keeps the ordering and searches the whole run of equal keys.
    """
    import bisect

    from experta.strategies import DepthStrategy

    class FixedDepthStrategy(DepthStrategy):
        def _update_agenda(self, agenda, added, removed):
            acts = agenda.activations
            for act in removed:
                act.key = self.get_key(act)
                lo = bisect.bisect_left(acts, act)
                hi = bisect.bisect_right(acts, act)
                for i in range(lo, hi):
                    if acts[i] == act:
                        del acts[i]
                        break
            for act in added:
                act.key = self.get_key(act)
                bisect.insort(acts, act)

    return FixedDepthStrategy
