"""``houserules lab`` as a user runs it: the database and the HTML report in
the working folder; bad input exits 2 with the reason on stderr. The run on
the embedded LocalCluster (the default) is the slow test here; the fast
suite runs the lab on Dask in test_dask.py."""
from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from houserules.lab.games import play, tasks
from houserules.lab.spec import parse_spec, spec_schema
from houserules.lab.store import LabStore

from houserules.cli import build_parser, main


def _script(*argv, cwd):
    script = Path(sys.executable).with_name("houserules")
    return subprocess.run([str(script), *argv], cwd=cwd, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=600)


def _stored(db, spec):
    with LabStore(db) as store:
        run = store.new_run(spec, "test")
        for task in tasks(spec, run):
            store.add_game(task, play(task))


def test_report_prints_the_table_and_writes_the_html_page_in_the_working_folder(
        tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    _stored("houserules-lab.sqlite", parse_spec(
        {"games": 3, "bots": [1, 1], "max_plies": 6, "opening": {"random_plies": 6},
         "variant": [{"name": "fide"}, {"name": "dice", "dice": True}]}))
    assert main(["lab", "report", "--html"]) == 0
    out = capsys.readouterr().out
    assert "White wins" in out and "turns cut by the Maximum Micro-moves Rule" in out
    assert "chi-square" in out
    page = (tmp_path / "houserules-lab-report.html").read_text(encoding="utf-8")
    assert page.count("data:image/png;base64,") == 4 and "<script" not in page
    assert main(["lab", "report", "1", "--json", "--png", "plots.png"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [v["name"] for v in data["variants"]] == ["fide", "dice"]
    assert [v["games"] for v in data["variants"]] == [3, 3]
    assert (tmp_path / "plots.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["lab", "runs"]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    assert line.split("\t")[:4] == ["1", "lab", "6/6 games (complete)", "fide, dice"]


def test_schema_prints_the_json_schema(capsys):
    assert main(["lab", "schema"]) == 0
    assert json.loads(capsys.readouterr().out) == spec_schema()


def test_bad_input_exits_2_saying_why_and_leaves_no_database(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.toml").write_text('[[variant]]\nname = "x"\npresets = ["no-such"]\n',
                                       encoding="utf-8")
    (tmp_path / "open.txt").write_text("e2e4 e7e5\ne2e5\n", encoding="utf-8")
    for argv, words in ((["lab", "run", "bad.toml"], "no-such"),
                        (["lab", "run", "--openings", "open.txt"], "opening 'e2e5'"),
                        (["lab", "run", "bad.toml", "--preset", "double-move"], "not both"),
                        (["lab", "report"], "no lab database"),
                        (["lab", "resume"], "no lab database"),
                        (["lab", "report", "--db", "bad.toml"], "not a lab database"),
                        (["lab", "runs"], "no lab database"),
                        (["lab", "run", "--scheduler", "tcp://127.0.0.1:1", "--workers", "2"],
                         "not both")):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert words in err and "Traceback" not in err, (argv, err)
    with pytest.raises(SystemExit) as e:
        main(["lab", "run", "--level", "11"])
    assert e.value.code == 2 and "1..10" in capsys.readouterr().err
    assert not (tmp_path / "houserules-lab.sqlite").exists()


@pytest.mark.slow
def test_run_then_report_html_on_the_embedded_cluster_from_a_fresh_folder(tmp_path):
    (tmp_path / "lab.toml").write_text(
        'name = "two"\ngames = 3\nbots = [1, 1]\nmax_plies = 8\n[opening]\nrandom_plies = 8\n'
        '[[variant]]\nname = "fide"\n'
        '[[variant]]\nname = "dice"\ndice = true\n', encoding="utf-8")
    r = _script("lab", "run", "lab.toml", "--workers", "1", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "6 of 6 stored" in r.stdout
    conn = sqlite3.connect(tmp_path / "houserules-lab.sqlite")
    assert conn.execute("SELECT COUNT(DISTINCT idx), COUNT(*) FROM games").fetchone() == (6, 6)
    r = _script("lab", "report", "--html", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "houserules-lab-report.html").is_file()


def _parsed(*argv):
    return build_parser().parse_args(["lab", "run", *argv])


def test_the_command_line_makes_one_variant_and_overrides_a_specs_run_options(tmp_path,
                                                                             monkeypatch):
    from houserules.lab.cli import spec_from_args
    monkeypatch.chdir(tmp_path)
    spec = spec_from_args(_parsed("--preset", "double-move", "--games", "500", "--level", "3"))
    assert (spec.games, spec.bots, [v.name for v in spec.variant]) == \
        (500, (3, 3), ["double-move"])
    assert spec.variant[0].presets == ["double-move"]
    spec = spec_from_args(_parsed("--dice", "--preset", "piece-hp",
                                  "--config", "piece-hp.king_hp=2"))
    assert (spec.variant[0].name, spec.variant[0].dice) == ("dice+piece-hp", True)
    assert spec.variant[0].config == {"piece-hp": {"king_hp": 2}}
    (tmp_path / "s.toml").write_text('games = 9\nbots = [4, 4]\n[[variant]]\nname = "fide"\n',
                                     encoding="utf-8")
    (tmp_path / "open.txt").write_text("e2e4\n", encoding="utf-8")
    spec = spec_from_args(_parsed("s.toml", "--bots", "2", "1", "--seed", "5",
                                  "--random-plies", "0", "--openings", "open.txt"))
    assert (spec.games, spec.bots, spec.seed) == (9, (2, 1), 5)
    assert (spec.opening.random_plies, spec.opening.lines) == (0, ["e2e4"])


def test_the_text_report_needs_neither_matplotlib_nor_dask(tmp_path):
    # the plots and the cluster are the lab extra's: a table is read without them
    _stored(tmp_path / "lab.sqlite", parse_spec(
        {"games": 2, "max_plies": 4, "opening": {"random_plies": 4},
         "variant": [{"name": "fide"}]}))
    code = ("import sys\nfrom houserules.cli import main\n"
            f"assert main(['lab', 'report', '--db', {str(tmp_path / 'lab.sqlite')!r}]) == 0\n"
            "print(sorted(m for m in ('matplotlib', 'distributed', 'dask') if m in sys.modules))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "[]"
