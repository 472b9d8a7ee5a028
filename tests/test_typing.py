"""The packages are typed (PEP 561): each ships a ``py.typed`` marker, so a
user's type checker reads their annotations, and mypy, run over them with the
configuration in pyproject.toml, finds no error in them."""
from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PACKAGES = ("rete", "chess_rules", "dice", "presets", "houserules")


def test_each_package_ships_a_py_typed_marker():
    data = PYPROJECT["tool"]["setuptools"]["package-data"]["*"]
    assert "py.typed" in data
    for package in PACKAGES:
        assert (ROOT / package / "py.typed").is_file(), package


def test_the_mypy_configuration_checks_every_package_and_every_body():
    """What the next test passes under: all four packages, the bodies of
    unannotated functions checked too, and missing imports forgiven only for
    the named modules that need it (never globally, never errors ignored)."""
    mypy = PYPROJECT["tool"]["mypy"]
    assert sorted(mypy["packages"]) == sorted(PACKAGES)
    assert mypy["check_untyped_defs"] is True
    for key in ("ignore_missing_imports", "ignore_errors", "follow_imports"):
        assert key not in mypy, key
    for override in mypy.get("overrides", []):
        assert set(override) <= {"module", "ignore_missing_imports"}, override
        assert "*" not in override["module"], override      # (every module: global)


def test_mypy_finds_no_error_in_the_packages(tmp_path):
    pytest.importorskip("mypy", reason="mypy is not installed: it comes with the dev extra "
                                       "(pip install -e '.[dev]')")
    # a fresh cache in tmp_path: the run checks the code as it is now (about 5 s)
    r = subprocess.run([sys.executable, "-m", "mypy", "--config-file",
                        str(ROOT / "pyproject.toml"), "--cache-dir", str(tmp_path / "cache")],
                       cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, f"mypy found errors:\n{r.stdout}{r.stderr}"
    checked = re.search(r"Success: no issues found in (\d+) source files", r.stdout)
    assert checked, r.stdout
    modules = sum(1 for p in PACKAGES for _ in (ROOT / p).rglob("*.py"))
    assert int(checked.group(1)) >= modules, r.stdout
