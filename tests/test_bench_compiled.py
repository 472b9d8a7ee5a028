"""benchmarks/compiled.py: it reads the ratios the two benchmarks really print,
refuses output without them or with a tree that differs, compiles modules that
exist, and says what it needs without Cython. The compiling itself (a minute or
two, and a C compiler) is not run here: the benchmark reports, it does not judge."""
from __future__ import annotations

import os

import pytest

from benchmarks import compiled, dice_bench, perft


def test_it_reads_the_ratios_dice_bench_prints(capsys):
    assert dice_bench.main(["--positions", "2", "--seed", "3", "--memory-positions", "0"]) == 0
    api, alone = compiled.parse_dice(capsys.readouterr().out)
    assert api > 0 and alone > 0


def test_it_reads_the_ratio_perft_prints(capsys):
    assert perft.main(["--depth", "1", "--positions", "start"]) == 0
    assert compiled.parse_perft(capsys.readouterr().out) > 0


def test_a_tree_that_differs_from_the_baseline_is_refused():
    text = ("ratio of medians (houserules / baseline): 1.10 (API), 1.01 (tree alone); "
            "ratio of p99: 1.0\ntrees identical on 299/300 positions\n")
    with pytest.raises(ValueError, match="differ"):
        compiled.parse_dice(text)
    assert compiled.parse_dice(text.replace("299/300", "300/300")) == (1.10, 1.01)


def test_output_without_a_ratio_is_refused():
    with pytest.raises(ValueError, match="no ratio"):
        compiled.parse_dice("Traceback (most recent call last):\n")
    with pytest.raises(ValueError, match="no ratio"):
        compiled.parse_perft("")


def test_the_modules_it_compiles_exist_and_are_in_the_copied_packages():
    assert len(compiled.HOT) > 20
    for rel in compiled.HOT:
        assert os.path.isfile(os.path.join(compiled.ROOT, rel)), rel
        assert rel.split("/")[0] in compiled.PACKAGES
    assert "rete/session.py" in compiled.HOT and "dice/turns.py" in compiled.HOT


def test_without_cython_it_says_what_it_needs(monkeypatch, tmp_path):
    real = compiled.find_spec
    monkeypatch.setattr(compiled, "find_spec",
                        lambda name: None if name == "Cython" else real(name))
    with pytest.raises(SystemExit, match=r"needs Cython.*\[bench\]"):
        compiled.build(str(tmp_path))
    assert os.listdir(tmp_path) == []      # nothing copied before the check


def test_bad_options_are_refused(tmp_path, capsys):
    for argv in (["--positions", "0"], ["--rounds", "0"]):
        with pytest.raises(SystemExit) as e:
            compiled.main(argv)
        assert e.value.code == 2
    (tmp_path / "x").write_text("")
    with pytest.raises(SystemExit) as e:
        compiled.main(["--dir", str(tmp_path)])
    assert e.value.code == 2 and "not empty" in capsys.readouterr().err
