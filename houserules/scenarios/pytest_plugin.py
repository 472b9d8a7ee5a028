"""pytest plugin: every scenario of a ``.hrt`` file is one test item.

Registered through the ``pytest11`` entry point ``houserules`` (pyproject.toml).
A failing scenario reports its file and line, the statement, what was expected,
what happened and the engine's explanation of the move involved.
"""
from __future__ import annotations

import os

import pytest

from .model import ScenarioError, ScenarioFailure
from .timeout import scenario_timeout

EXTENSION = ".hrt"

# pytest loads this plugin in every project where houserules is installed: the
# reader and the runner (lark, the engine, networkx) are imported only when a
# .hrt file is collected.


def pytest_configure(config):
    try:
        scenario_timeout()
    except ValueError as e:             # a limit mistyped is not silently the default
        raise pytest.UsageError(str(e)) from None


def pytest_collect_file(parent, file_path):
    if file_path.suffix == EXTENSION:
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFile(pytest.File):
    def collect(self):
        from .parser import parse_file
        try:
            scenarios = parse_file(self.path)
        except ScenarioError as e:
            raise self.CollectError(str(e)) from None
        for sc in scenarios:
            item = ScenarioItem.from_parent(self, name=sc.name, scenario=sc)
            for mark in sc.setup.marks:
                item.add_marker(getattr(pytest.mark, mark))
            yield item

    class CollectError(Exception):
        pass

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, (ScenarioError, self.CollectError)):
            return str(excinfo.value)
        return super().repr_failure(excinfo)


class ScenarioItem(pytest.Item):
    def __init__(self, *, scenario, **kw):
        super().__init__(**kw)
        self.scenario = scenario

    def runtest(self):
        from .runner import run_scenario
        run_scenario(self.scenario)

    def repr_failure(self, excinfo, style=None):
        e = excinfo.value
        sc = self.scenario
        head = f"scenario {sc.name!r} ({sc.file}:{sc.line})"
        if isinstance(e, ScenarioFailure):
            return self._relative(f"{head}\n{e.report()}")
        if isinstance(e, ScenarioError):
            return self._relative(f"{head}\n{e}")
        return super().repr_failure(excinfo, style)

    def _relative(self, text: str) -> str:
        """Paths relative to the rootdir, as pytest prints its own."""
        try:
            rel = os.path.relpath(self.scenario.file, self.config.rootpath)
        except ValueError:
            return text
        return text if rel.startswith("..") else text.replace(self.scenario.file, rel)

    def reportinfo(self):
        return self.path, self.scenario.line - 1, f"scenario: {self.scenario.name}"
