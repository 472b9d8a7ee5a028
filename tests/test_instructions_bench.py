"""The instruction-count benchmark (benchmarks/instructions.py): its workers do the
same work on both sides, its callgrind output is read right, and it says what it
needs when valgrind is missing. Valgrind itself is not run here (no count is
asserted: the benchmark reports, it does not judge)."""
from __future__ import annotations

import pytest

from benchmarks import instructions

CALLGRIND_TAIL = """==1234== Events    : Ir
==1234== Collected : 1861023456
==1234==
==1234== I   refs:      1,861,023,456
"""


CACHE_SIM_TAIL = """==7== Events    : Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
==7== Collected : 3395177459 1009726168 576522850 43214697 31627687 9685165 19362 93453 456020
==7==
==7== I1  misses:       43,214,697
"""


def test_parse_collected_reads_the_total():
    assert instructions.parse_collected(CALLGRIND_TAIL) == {"Ir": 1861023456}


def test_parse_collected_reads_every_event_of_a_cache_simulation():
    got = instructions.parse_collected(CACHE_SIM_TAIL)
    assert got["Ir"] == 3395177459
    assert got["I1mr"] == 43214697 and got["D1mr"] == 31627687 and got["D1mw"] == 9685165
    assert len(got) == 9


def test_parse_collected_refuses_output_without_a_total():
    with pytest.raises(RuntimeError, match="no instruction total"):
        instructions.parse_collected("==1== valgrind: something went wrong\n")


def test_dice_workers_build_the_same_trees():
    # each worker returns the number of first micro-moves over its positions:
    # the engine's tree, the API and the baseline must agree
    n = 3
    counts = {k: instructions.run_worker(k, n, 1) for k in ("dice-tree", "dice-api", "dice-base")}
    assert len(set(counts.values())) == 1
    assert counts["dice-tree"] > 0
    assert instructions.run_worker("dice-setup", n, 1) == 0


def test_perft_workers_count_the_published_nodes():
    # start position 20 and Kiwipete 48 at depth 1
    assert instructions.run_worker("perft-ours", 0, 1) == 68
    assert instructions.run_worker("perft-base", 0, 1) == 68
    assert instructions.perft_nodes(1) == 68
    assert instructions.run_worker("perft-setup", 0, 1) == 0


def test_without_valgrind_it_says_what_it_needs(monkeypatch, capsys):
    monkeypatch.setattr(instructions.shutil, "which", lambda name: None)
    assert instructions.main(["--only", "dice"]) == 2
    assert "needs valgrind" in capsys.readouterr().err
