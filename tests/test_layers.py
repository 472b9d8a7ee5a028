"""The packages are layers that import one way only: ``rete`` <- ``chess_rules``
<- ``presets`` <- ``dice`` <- ``houserules`` (docs/architecture.md).

import-linter checks the contracts in pyproject.toml (imports inside functions
count, as everywhere); a scan of the source checks that no package uses a
private (``_x``) name of another; and what the lower layers need from the
higher ones goes through the hooks they declare (the rule source)."""
from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
#: lowest first
LAYERS = ["rete", "chess_rules", "presets", "dice", "houserules"]


def _lint_imports(root: Path) -> subprocess.CompletedProcess:
    """import-linter's command on the packages under ``root``, with the
    project's own contracts."""
    lint = Path(sys.executable).with_name("lint-imports")
    config = root / "pyproject.toml"
    if root != ROOT:
        shutil.copy(ROOT / "pyproject.toml", config)
    return subprocess.run([str(lint), "--no-cache", "--config", str(config)], cwd=root,
                          env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
                          capture_output=True, text=True, timeout=300)


def test_the_contracts_name_the_five_layers_in_order():
    cfg = PYPROJECT["tool"]["importlinter"]
    assert cfg["root_packages"] == LAYERS
    contracts = {c["id"]: c for c in cfg["contracts"]}
    assert contracts["layers"]["type"] == "layers"
    assert contracts["layers"]["layers"] == LAYERS[::-1]
    assert contracts["rete-alone"]["source_modules"] == ["rete"]
    assert sorted(contracts["rete-alone"]["forbidden_modules"]) == sorted(LAYERS[1:])


def test_import_linter_keeps_every_contract():
    r = _lint_imports(ROOT)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "2 kept, 0 broken" in r.stdout


@pytest.mark.parametrize("low, high, where", [
    ("chess_rules", "presets", "def f():\n    from presets import thing\n"),
    ("presets", "dice", "import dice.thing\n"),
    ("rete", "chess_rules", "def f():\n    import chess_rules.thing\n"),
    ("dice", "houserules", "from houserules import thing\n"),
])
def test_the_contracts_refuse_an_upward_import(tmp_path, low, high, where):
    # the same contracts over five tiny packages, one of which imports upward
    # (inside a function, too): what would make `make test` fail
    for name in LAYERS:
        pkg = tmp_path / name
        pkg.mkdir()
        (pkg / "__init__.py").write_text("")
        (pkg / "thing.py").write_text("")
    (tmp_path / low / "up.py").write_text(where)
    r = _lint_imports(tmp_path)
    assert r.returncode != 0
    assert "BROKEN" in r.stdout and f"{low}.up -> {high}" in r.stdout


# ---------------------------------------------------------------- private names

def _sources(root: Path, package: str):
    for path in sorted((root / package).rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"), str(path))


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _defined_private_names(root: Path, package: str) -> set[str]:
    """The private names a package defines: functions, classes, methods,
    module and class variables, attributes it assigns (``self._x = ...``)."""
    out = set()
    for _, tree in _sources(root, package):
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                out.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                out.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                out.add(node.attr)
    return {n for n in out if _private(n)}


def cross_package_private_uses(root: Path = ROOT, packages=LAYERS) -> list[str]:
    """Where a package uses another's private name: ``from pkg.x import _y``,
    ``pkg.x._y`` through an imported module, or any ``obj._y`` (a method
    overridden or called, an attribute read) whose name only another of our
    packages defines."""
    defined = {p: _defined_private_names(root, p) for p in packages}
    found = []
    for pkg in packages:
        others = set().union(*(defined[p] for p in packages if p != pkg)) - defined[pkg]
        for path, tree in _sources(root, pkg):
            where = path.relative_to(root)
            aliases = {}    # name bound to a module or class of another package -> it
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    top = node.module.split(".")[0]
                    if top in packages and top != pkg:
                        for a in node.names:
                            if _private(a.name):
                                found.append(f"{where}:{node.lineno}: from {node.module} "
                                             f"import {a.name}")
                            aliases[a.asname or a.name] = top
                elif isinstance(node, ast.Import):
                    for a in node.names:
                        top = a.name.split(".")[0]
                        if top in packages and top != pkg:
                            aliases[a.asname or top] = top
            for node in ast.walk(tree):
                if isinstance(node, ast.Attribute) and _private(node.attr):
                    base = node.value
                    through_module = isinstance(base, ast.Name) and base.id in aliases
                    if through_module or node.attr in others:
                        found.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
                elif isinstance(node, ast.ClassDef):
                    # a subclass of another package's class overriding its private method
                    bases = {aliases[b.id] for b in node.bases
                             if isinstance(b, ast.Name) and b.id in aliases}
                    for item in node.body:
                        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                                and _private(item.name) \
                                and any(item.name in defined[b] for b in bases):
                            found.append(f"{where}:{item.lineno}: def {item.name} "
                                         f"(overrides a private method of {node.name}'s base)")
    return found


def test_no_package_uses_a_private_name_of_another():
    assert cross_package_private_uses() == []


def test_the_private_name_scan_finds_each_kind_of_use(tmp_path):
    # what the layering removed, written again: each is found
    (tmp_path / "low").mkdir()
    (tmp_path / "low" / "__init__.py").write_text("")
    (tmp_path / "low" / "game.py").write_text(
        "class Game:\n    def _find(self, m):\n        self._stack = []\n\n"
        "def _outcome(f):\n    pass\n")
    (tmp_path / "high").mkdir()
    (tmp_path / "high" / "__init__.py").write_text("")
    (tmp_path / "high" / "variant.py").write_text(
        "from low.game import Game, _outcome\nimport low.game\n\n"
        "class Dice(Game):\n    def _find(self, m):\n        return self._stack\n\n"
        "def f(g):\n    return low.game._outcome(g)\n")
    found = cross_package_private_uses(tmp_path, ["low", "high"])
    text = "\n".join(found)
    assert "import _outcome" in text
    assert "def _find" in text
    assert "self._stack" in text
    assert "low.game._outcome" in text
    assert all(line.startswith("high/") for line in found)


# ---------------------------------------------------------------- the rule source hook

def test_the_chess_layer_reads_preset_ids_through_the_rule_source():
    from chess_rules import rule_source
    from chess_rules.errors import ChessError
    from chess_rules.game import Game

    class Recording:
        """A rule source of one preset of its own, 'mirror', recording its calls."""

        def __init__(self):
            self.calls = []

        def load(self, presets, config):
            from chess_rules.fide import fide_rules
            self.calls.append(list(presets))
            if list(presets) != ["mirror"]:
                raise ChessError(f"unknown preset {presets!r}")
            rs = fide_rules()
            rs.presets.append("mirror")
            return rs

        def known_ids(self):
            return frozenset({"mirror"})

        def config_text(self, ruleset):
            return None

        def parse_config_text(self, text):
            return {}

        def is_config_error(self, error):
            return False

        def position_key_owners(self, key):
            return ["mirror"] if key == "glass" else []

    source = Recording()
    old = rule_source.set_rule_source(source)
    try:
        assert Game(presets=["mirror"]).ruleset.presets == ["mirror"]
        g = Game.from_pgn('[Variant "mirror"]\n\n1. e4 *')
        assert g.ruleset.presets == ["mirror"] and source.calls == [["mirror"], ["mirror"]]
        with pytest.raises(ChessError, match="unknown preset"):
            Game(presets=["piece-hp"])          # the installed presets are not asked
        with pytest.raises(ChessError, match="under preset 'mirror'"):
            Game("4k3/8/8/8/8/8/8/4K3 w - - 0 1 glass:e1=1")
    finally:
        rule_source.set_rule_source(old)
    # the installed one (the entry point) again
    assert Game(presets=["piece-hp"]).ruleset.presets == ["piece-hp"]


def test_the_presets_fill_the_hook_through_their_entry_point():
    from importlib.metadata import entry_points

    from chess_rules.rule_source import ENTRY_POINT_GROUP
    from presets.source import SOURCE
    eps = list(entry_points(group=ENTRY_POINT_GROUP))
    assert [e.value for e in eps] == ["presets.source:SOURCE"]
    assert eps[0].load() is SOURCE
    declared = PYPROJECT["project"]["entry-points"][ENTRY_POINT_GROUP]
    assert declared == {"presets": "presets.source:SOURCE"}
