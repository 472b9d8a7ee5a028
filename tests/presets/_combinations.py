"""Random preset combinations that load, for the round-trip tests."""
from __future__ import annotations

import random

from presets import all_presets, load
from presets.base import PresetError
from presets.registry import check_composition, with_requirements

METAS = {m.id: m for m in all_presets()}


def combinations(n: int, seed: int) -> list[list[str]]:
    """Up to ``n`` distinct combinations of two or three presets (with what they
    require) that compose and load, drawn with ``seed``; fewer when 4000 draws
    do not find ``n`` (a bound, so that collection always ends)."""
    rng = random.Random(seed)
    names = sorted(METAS)
    out: list[list[str]] = []
    for _ in range(4000):
        if len(out) >= n:
            break
        ids = with_requirements(rng.sample(names, rng.choice((2, 3))))
        try:
            check_composition(ids)
            load(*ids)
        except PresetError:
            continue
        if ids not in out:
            out.append(ids)
    return out
