"""The Dice Chess benchmark runs, checks its trees against the baseline, and its
breakdown accounts for the tree's parts (a smoke test: no timing is asserted)."""
from __future__ import annotations

import re

from benchmarks import dice_bench


def test_dice_bench_small_run_with_breakdown(capsys):
    assert dice_bench.main(["--positions", "3", "--seed", "7", "--breakdown",
                           "--memory-positions", "0"]) == 0
    out = capsys.readouterr().out
    assert "trees identical on 3/3 positions" in out
    parts = dict(re.findall(r"^  (movegen|make|unmake)\s+([\d.]+) per tree", out, re.M))
    assert set(parts) == {"movegen", "make", "unmake"}
    # every make is taken back, and every node played is then asked for its moves
    assert parts["make"] == parts["unmake"]
    assert float(parts["movegen"]) >= float(parts["make"]) > 0
