"""The houserules CLI as scripts use it: run in a subprocess, into a pipe whose
reader has gone, onto an output that has only ASCII."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest


def _houserules(*argv, stdout=subprocess.PIPE, env=None):
    return subprocess.run([sys.executable, "-m", "houserules.cli", *argv], stdout=stdout,
                          stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, timeout=300,
                          env={**os.environ, **(env or {})})


@pytest.mark.parametrize("command", ["rules", "presets"])
def test_a_table_for_a_reader_that_has_stopped_exits_141_quietly(command):
    # as `houserules rules | head -1`, with head gone before the table is written:
    # the status of every other command there, not rich's own exit 1
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        r = _houserules(command, stdout=write_end)
    finally:
        os.close(write_end)
    assert (r.returncode, r.stderr) == (141, b"")


def test_an_ascii_only_output_escapes_what_it_cannot_show(tmp_path):
    # a scenario's name on an ASCII-only terminal: escaped, as stderr escapes it,
    # instead of an encoding error that stops the run halfway
    hrt = tmp_path / "names.hrt"
    hrt.write_text('scenario "\u00e7a marche"\n  fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1\n'
                   "  expect legal e1e2\n", encoding="utf-8")
    r = _houserules("test", str(hrt), env={"PYTHONIOENCODING": "ascii"})
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1] == b"1 passed, 0 failed"
    assert b"\\xe7a marche" in r.stdout


def test_dice_on_an_ascii_only_output_name_the_faces():
    r = _houserules("dice", "play", "--seed", "1", "--max-turns", "2",
                    env={"PYTHONIOENCODING": "ascii"})
    assert r.returncode == 0, r.stderr
    rolls = [ln for ln in r.stdout.splitlines() if b" rolls " in ln]
    assert len(rolls) == 2 and all(ln.isascii() and b"\\u" not in ln for ln in rolls)
    assert b"white rolls pawn  knight  queen" in rolls    # the faces by name only


DFEN = "8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1 NPP"


@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize("argv", [
    ["moves", "--layout", "standard"], ["perft", "--layout", "standard", "1", "--divide"],
    ["explain", "--layout", "standard", "e2e4"], ["outcome", "--layout", "standard"],
    ["layouts"], ["dice", "moves", DFEN], ["--help"], ["--version"], ["moves", "--help"],
    ["dice", "tree", "--help"]], ids=" ".join)
def test_any_output_for_a_reader_that_has_stopped_exits_141_quietly(argv, buffered):
    # `houserules moves FEN | grep -q ...`, the reader gone before the output's
    # last part is written: with Python's usual buffered stdout that part went
    # out at exit, as "Exception ignored ... BrokenPipeError" and status 120; and
    # argparse dropped the error of --help's write and exited 0
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        r = _houserules(*argv, stdout=write_end,
                        env={"PYTHONUNBUFFERED": "" if buffered else "1"})
    finally:
        os.close(write_end)
    assert (r.returncode, r.stderr) == (141, b"")


def test_help_and_usage_errors_are_written_as_before(capsys):
    from houserules.cli import main
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0 and capsys.readouterr().out.startswith("houserules ")
    with pytest.raises(SystemExit) as e:
        main(["moves", "--no-such-option"])
    out, err = capsys.readouterr()
    assert e.value.code == 2 and out == "" and "unrecognized arguments" in err


def test_an_error_after_output_for_a_reader_that_has_stopped_says_only_the_error(tmp_path):
    # replay prints the moves it played, then the refusal: the moves' unwritten
    # part went out at exit as "Exception ignored ... BrokenPipeError", status 120
    pgn = tmp_path / "bad.pgn"
    pgn.write_text("1. e4 e5 2. Ke3 *\n", encoding="utf-8")
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        r = _houserules("replay", str(pgn), stdout=write_end, env={"PYTHONUNBUFFERED": ""})
    finally:
        os.close(write_end)
    assert r.returncode == 2
    assert r.stderr.decode().splitlines() == [
        f"houserules: error: {pgn}:1:13: move 2. Ke3 (e1e3): no rule moves the king on e1 "
        f"to e3 (rules for the king: fide.king-move)"]
