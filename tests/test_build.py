"""setup.py builds the compiled core only where it can and should: pure Python,
with one line saying why and no failure, when HOUSERULES_PURE is set, when
there is no working C compiler, and for an in-place (editable) build, which
must never leave a compiled module beside the sources. (The compiled build
itself is ``make test-compiled``'s: too slow for the fast suite.)"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _build_ext(tmp_path, *args, **env):
    cmd = [sys.executable, str(ROOT / "setup.py"), "-q", "build_ext",
           "--build-temp", str(tmp_path / "temp"), *args]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, **env})


def _compiled_files(where: Path) -> list[Path]:
    return [p for p in where.rglob("*") if p.suffix in (".so", ".pyd")]


@pytest.mark.parametrize("env,why", [
    ({"HOUSERULES_PURE": "1"}, "HOUSERULES_PURE is set"),
    ({"CC": "false", "LDSHARED": "false"}, "no working C compiler"),
])
def test_without_a_compiler_or_when_asked_the_build_is_pure_and_says_so(tmp_path, env, why):
    r = _build_ext(tmp_path, "--build-lib", str(tmp_path / "lib"), **env)
    assert r.returncode == 0, r.stderr
    notices = [ln for ln in r.stderr.splitlines() if ln.startswith("houserules:")]
    assert len(notices) == 1 and "installing pure Python" in notices[0] and why in notices[0]
    assert not _compiled_files(tmp_path)


def test_an_in_place_build_leaves_the_sources_alone(tmp_path):
    before = _compiled_files(ROOT / "rete")
    r = _build_ext(tmp_path, "--inplace")
    assert r.returncode == 0, r.stderr
    assert "an editable install runs the checkout's source" in r.stderr
    assert _compiled_files(ROOT / "rete") == before == []
