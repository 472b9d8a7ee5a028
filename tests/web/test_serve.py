"""``houserules serve``: prints its address, serves, stops on Ctrl-C as every
command does (130), and refuses a port it cannot have with exit status 2."""
from __future__ import annotations

import json
import re
import signal
import socket
import subprocess
import sys
import urllib.request

import pytest

pytest.importorskip("fastapi")

from houserules.cli import main  # noqa: E402

SERVE = [sys.executable, "-m", "houserules", "serve"]


def _interruptible():
    """Ctrl-C as at a terminal: a background job (CI runs one suite so) starts
    its children with SIGINT ignored, and a program keeps what it inherits."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_serve_prints_its_address_serves_the_api_and_stops_on_ctrl_c():
    proc = subprocess.Popen(SERVE + ["--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=_interruptible)
    try:
        line = proc.stdout.readline()
        match = re.fullmatch(r"houserules playground: (http://127\.0\.0\.1:\d+)/  "
                             r"\(Ctrl-C stops it\)\n", line)
        assert match, line
        with urllib.request.urlopen(match.group(1) + "/openapi.json", timeout=30) as r:
            assert "/api/games" in json.load(r)["paths"]
        proc.send_signal(signal.SIGINT)
        assert proc.wait(30) == 130
        assert proc.stderr.read() == "houserules: interrupted\n"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_port_in_use_is_an_error_with_its_reason(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"houserules: error: cannot listen on 127.0.0.1:{port}: ")


@pytest.mark.parametrize("args, message", [
    (["--port", "70000"], "a port is 0..65535"), (["--time-limit", "0"], "positive"),
    (["--max-games", "x"], "positive")])
def test_bad_options_are_usage_errors(capsys, args, message):
    with pytest.raises(SystemExit) as stop:
        main(["serve", *args])
    assert stop.value.code == 2 and message in capsys.readouterr().err
