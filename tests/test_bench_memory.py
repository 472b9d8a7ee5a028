"""The benchmarks' memory measure (benchmarks.memory) counts what it claims to, and
both chess benchmarks print it for both sides (no figure is asserted beyond sense)."""
from __future__ import annotations

import re

from benchmarks import dice_bench, perft
from benchmarks.memory import held, peak


def test_held_counts_what_the_new_object_keeps():
    obj, n = held(lambda: bytearray(200_000))
    assert len(obj) == 200_000
    assert 200_000 <= n < 210_000
    _, nothing = held(lambda: None)
    assert nothing < 2_000


def test_peak_counts_a_temporary_that_is_gone_by_the_end():
    def churn():
        tmp = bytearray(500_000)
        return len(tmp)
    r, n = peak(churn)
    assert r == 500_000 and n >= 500_000
    _, kept = held(churn)
    assert kept < 2_000


def _kib(text):
    return float(text.replace(",", ""))


def test_perft_bench_reports_memory_for_both_sides(capsys):
    perft.memory_report(perft.POSITIONS["start"][0], 1)
    out = capsys.readouterr().out
    m = re.search(r"a game holds ([\d,.]+) KiB against python-chess's Board ([\d,.]+) KiB "
                  r".*peak during perft\(1\) ([\d,.]+) KiB against ([\d,.]+) KiB", out)
    assert m, out
    ours, theirs, ours_peak, their_peak = map(_kib, m.groups())
    assert ours > theirs > 0          # a compiled network outweighs a bitboard Board
    assert ours_peak > 0 and their_peak > 0


def test_dice_bench_reports_memory_for_both_sides(capsys):
    assert dice_bench.main(["--positions", "2", "--seed", "3", "--memory-positions", "2"]) == 0
    out = capsys.readouterr().out
    m = re.search(r"memory over 2 positions .*a loaded position ([\d,.]+) KiB against the "
                  r"baseline's ([\d,.]+) KiB .*building the tree ([\d,.]+) KiB against "
                  r"([\d,.]+) KiB", out)
    assert m, out
    assert all(_kib(x) > 0 for x in m.groups())
