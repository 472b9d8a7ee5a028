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
