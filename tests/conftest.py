"""Which build the suite runs against, and the tests that only pure Python can pass.

``make test`` runs the suite on the editable, pure-Python install;
``make test-compiled`` on the compiled core installed from a wheel, with
``HOUSERULES_EXPECT_BUILD=compiled``: the run stops at once if what it
imported is not that build (the checkout's source shadowing the installed
package would otherwise test pure Python twice).

A test marked ``pure_python`` reads what only interpreted code has: the calls
a profile hook sees in the package's own functions (the Ctrl-C tests strike
at each of them), or the locals and line numbers of its frames in a traceback
(where a test that raised in a join is located, to name its rule). It is
skipped, with that reason, on the compiled build only.
"""
from __future__ import annotations

import os
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# the packages first, from wherever the interpreter finds them (the installed
# build), and only then the checkout, at the end, for ``benchmarks``
import chess_rules  # noqa: E402,F401
import dice  # noqa: E402,F401
import presets  # noqa: E402,F401
import rete  # noqa: E402

if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))


def compiled_modules() -> list[str]:
    """The modules the compiled build compiles (``[tool.houserules] compiled``)."""
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["tool"]["houserules"]["compiled"]


def pytest_configure(config):
    expected = os.environ.get("HOUSERULES_EXPECT_BUILD")
    if expected:
        import importlib
        kinds = {name: rete.build_kind(importlib.import_module(name))
                 for name in compiled_modules()}
        wrong = {n: k for n, k in kinds.items() if k != expected}
        if wrong or rete.build_kind() != expected:
            pytest.exit(f"HOUSERULES_EXPECT_BUILD={expected}, but these modules run "
                        f"otherwise: {wrong} (rete from {rete.__file__})", returncode=3)


def pytest_collection_modifyitems(config, items):
    if rete.build_kind() == "pure":
        return
    skip = pytest.mark.skip(reason="reads the call events or frame locals and line "
                                   "numbers of the package's own code, which compiled "
                                   "modules do not have")
    for item in items:
        if "pure_python" in item.keywords:
            item.add_marker(skip)
