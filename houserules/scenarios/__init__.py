"""The declarative rule-test language (``.hrt`` files).

See ``docs/scenario-language.md`` for the syntax; the grammar is
``scenario.lark``. :func:`parse_file` / :func:`parse_text` read scenarios,
:func:`run_scenario` runs one, :func:`main` is ``houserules test PATH...``, and
:mod:`houserules.scenarios.pytest_plugin` makes every scenario a pytest item.
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Iterable

from .model import Arg, Expectation, Loc, Scenario, ScenarioError, ScenarioFailure, Setup, Step

__all__ = ["Arg", "Expectation", "Loc", "Scenario", "ScenarioError", "ScenarioFailure",
           "Setup", "Step", "parse_file", "parse_text", "run_scenario", "find_files", "main"]

EXTENSION = ".hrt"

# The reader and the runner load lark and the engine: they are imported on first
# use, so that the pytest plugin (a submodule, loaded by every pytest run where
# houserules is installed) costs a project without .hrt files next to nothing.
_LAZY = {"parse_file": "parser", "parse_text": "parser", "run_scenario": "runner"}


def __getattr__(name: str):
    import importlib.util
    if name in _LAZY:
        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    # a submodule (runner, parser, setup ...) was an attribute once the package was
    # imported while the package imported them: it still is, imported now
    if not name.startswith("__") and importlib.util.find_spec(f"{__name__}.{name}"):
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


def find_files(paths: Iterable[str | Path]) -> list[Path]:
    """The ``.hrt`` files named, or found (recursively, sorted) under directories."""
    out: list[Path] = []
    for p in paths:
        p = Path(p)
        if os.path.isdir(p):        # (Path.is_dir raises for a name too long)
            out += sorted(q for q in p.rglob(f"*{EXTENSION}") if q.is_file())
        else:
            out.append(p)
    return out


#: The exit status when no scenario was found (pytest's "no tests collected").
NO_SCENARIOS = 5


def main(paths: Iterable[str | Path], out=None) -> int:
    """Run scenario files / directories; one line per scenario, then
    ``N passed, M failed``. Returns 0 when everything passed, 1 when anything
    failed, :data:`NO_SCENARIOS` (5) when there was no scenario to run.
    A ``HOUSERULES_SCENARIO_TIMEOUT`` that is no number raises ``ValueError``
    before anything runs."""
    from .parser import parse_file
    from .runner import run_scenario, scenario_timeout
    scenario_timeout()                  # a bad setting refuses the run, not each scenario
    out = out or sys.stdout
    passed = failed = 0
    paths = list(paths)
    if not paths:
        paths = ["tests"]
    for f in find_files(paths):
        if not os.path.exists(f):
            print(f"ERROR {f}: no such file or directory", file=out)
            failed += 1
            continue
        try:
            scenarios = parse_file(f)
        except ScenarioError as e:
            print(f"ERROR {e}", file=out)
            failed += 1
            continue
        except Exception as e:  # a reader's bug must not stop the run either
            print(f"ERROR {f}: cannot read it: {type(e).__name__}: {e}", file=out)
            failed += 1
            continue
        for sc in scenarios:
            t0 = time.perf_counter()
            try:
                run_scenario(sc)
            except ScenarioFailure as e:
                failed += 1
                print(f"FAIL {sc.file}:{sc.line} {sc.name}", file=out)
                print(_indent(e.report()), file=out)
            except ScenarioError as e:
                failed += 1
                print(f"ERROR {sc.file}:{sc.line} {sc.name}", file=out)
                print(_indent(str(e)), file=out)
            except Exception as e:  # an engine bug must not stop the run
                failed += 1
                print(f"ERROR {sc.file}:{sc.line} {sc.name}", file=out)
                print(_indent(f"{type(e).__name__}: {e}"), file=out)
            else:
                passed += 1
                print(f"ok   {sc.file}:{sc.line} {sc.name} "
                      f"({time.perf_counter() - t0:.2f}s)", file=out)
    if passed == failed == 0:
        print(f"no scenario found in {' '.join(str(p) for p in paths)}", file=out)
        print(f"{passed} passed, {failed} failed", file=out)
        return NO_SCENARIOS
    print(f"{passed} passed, {failed} failed", file=out)
    return 0 if failed == 0 else 1


def _indent(text: str) -> str:
    return "\n".join("    " + ln for ln in text.splitlines())
