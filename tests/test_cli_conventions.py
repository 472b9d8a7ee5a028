"""The houserules CLI as scripts use it: run in a subprocess, into a pipe whose
reader has gone, onto an output that has only ASCII."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest


def _houserules(*argv, stdout=subprocess.PIPE, env=None):
    return subprocess.run([sys.executable, "-m", "chess_rules.cli", *argv], stdout=stdout,
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
