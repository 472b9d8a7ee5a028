"""What a user who installs houserules with pip gets: the data files the code
opens lie in the packages pyproject.toml ships, the shipped code imports only
the dependencies it declares, the sdist holds the whole source, and the pytest
plugin (loaded by every pytest run wherever houserules is installed) loads no
engine until a .hrt file is collected. No wheel is built here (too slow for the
fast suite)."""
from __future__ import annotations

import ast
import fnmatch
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]
FIND = SETUPTOOLS["packages"]["find"]
INCLUDE = FIND["include"]
PACKAGE_DATA = SETUPTOOLS["package-data"]["*"]
TOP_LEVEL = sorted({pattern.rstrip("*") for pattern in INCLUDE})

#: Top-level source folders that are not shipped: they need the repository.
NOT_SHIPPED = {"tests", "benchmarks", "examples", "docs"}

#: Runtime import name -> the distribution that provides it.
DISTRIBUTION = {"pydantic": "pydantic", "networkx": "networkx", "lark": "lark", "rich": "rich"}

#: Shipped modules allowed to import a dev dependency, and why.
DEV_ONLY = {
    "houserules/scenarios/pytest_plugin.py": {"pytest"},   # loaded by pytest only
    "dice/baseline.py": {"chess"},      # a test and benchmark oracle, says its docstring
}


def _shipped_files():
    for top in TOP_LEVEL:
        for path in sorted((ROOT / top).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                yield path


def _dist_name(requirement: str) -> str:
    return requirement.split(">")[0].split("=")[0].split("<")[0].split("[")[0].strip().lower()


def test_the_shipped_packages_are_every_top_level_package_of_the_project():
    packages = {p.parent.name for p in ROOT.glob("*/__init__.py")}
    assert packages - NOT_SHIPPED == set(TOP_LEVEL)


def test_every_data_file_in_a_package_folder_is_shipped():
    # gallery/ has no __init__.py: it ships only because find's namespaces default is on
    assert FIND.get("namespaces", True)
    data = [p for p in _shipped_files() if p.suffix not in (".py", ".pyc")]
    assert data, "the grammars and the modifier gallery are data files"
    for path in data:
        rel = path.relative_to(ROOT)
        package = ".".join(rel.parent.parts)
        assert any(fnmatch.fnmatch(package, pattern) for pattern in INCLUDE), rel
        assert any(fnmatch.fnmatch(path.name, pattern) for pattern in PACKAGE_DATA), \
            f"{rel} is not matched by [tool.setuptools.package-data] in pyproject.toml"


@pytest.mark.parametrize("path", ["rete/rules.lark", "houserules/scenarios/scenario.lark",
                                  "presets/modifiers/gallery/berserker.json"])
def test_the_files_the_code_opens_are_data_files_of_a_package(path):
    assert (ROOT / path).is_file()
    assert any(fnmatch.fnmatch(Path(path).name, pattern) for pattern in PACKAGE_DATA)


def test_shipped_code_imports_only_declared_dependencies():
    declared = {_dist_name(r) for r in PYPROJECT["project"]["dependencies"]}
    assert set(DISTRIBUTION.values()) == declared
    own = set(TOP_LEVEL) | {"__future__"}
    for path in _shipped_files():
        if path.suffix != ".py":
            continue
        rel = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top in own or top in sys.stdlib_module_names:
                    continue
                assert top in DISTRIBUTION or top in DEV_ONLY.get(rel, ()), \
                    f"{rel} imports {top!r}, which is no runtime dependency in pyproject.toml"


def test_every_dependency_has_a_floor_that_make_test_floors_can_pin():
    reqs = PYPROJECT["project"]["dependencies"] + PYPROJECT["project"]["optional-dependencies"]["dev"]
    for r in reqs:
        name, sep, version = r.partition(">=")
        assert sep and name.strip() and version.strip()[0].isdigit(), r
        assert not any(c in version for c in "<>=!,;"), r


#: What setuptools puts in every sdist by itself (LICENSE: its default license-files).
SDIST_DEFAULT = {"README.md", "LICENSE", "pyproject.toml", "MANIFEST.in", "setup.cfg", "PKG-INFO"}
#: Left out of the sdist on purpose: local state and build output.
NOT_SOURCE = {"build", "dist", "__pycache__"}


def test_the_sdist_holds_every_top_level_file_and_folder_of_the_source():
    """The tests read examples/, benchmarks/, docs/, RULES.md by path: an sdist
    without them builds a wheel but cannot test it."""
    manifest = (ROOT / "MANIFEST.in").read_text(encoding="utf-8").split("\n")
    named = set()
    for line in manifest:
        words = line.split("#")[0].split()
        if words and words[0] in ("include", "graft"):
            named.update(words[1:])
    for entry in sorted(ROOT.iterdir()):
        name = entry.name
        if (name.startswith(".") or name in NOT_SOURCE or name.endswith(".egg-info")
                or name in SDIST_DEFAULT or name in TOP_LEVEL):
            continue
        assert name in named, f"{name} is not in the sdist: add it to MANIFEST.in"


#: Folders the tools leave in the source folders (pytest run from tests/ puts
#: its cache and hypothesis's database there): local state, not source.
CACHE_DIRS = ("__pycache__", ".hypothesis", ".pytest_cache")


def _manifest_lines() -> list[str]:
    lines = (ROOT / "MANIFEST.in").read_text(encoding="utf-8").split("\n")
    return [line.split("#")[0].strip() for line in lines if line.split("#")[0].strip()]


def test_the_sdist_leaves_out_the_caches_in_the_source_folders(tmp_path, monkeypatch):
    """MANIFEST.in applied as the sdist applies it, with setuptools' own FileList
    (building a real sdist is slow, and needs the setuptools pyproject.toml asks
    for), to a tree with source files and the tools' caches in each folder it grafts."""
    file_list = pytest.importorskip("setuptools.command.egg_info").FileList
    words = [line.split() for line in _manifest_lines()]
    grafted = [w[1] for w in words if w[0] == "graft"]
    assert grafted
    source = [name for w in words if w[0] == "include" for name in w[1:]]
    local = []
    for top in grafted:
        source += [f"{top}/kept.md", f"{top}/sub/kept.py"]
        local += [f"{top}/sub/stale.pyc"]
        for cache in CACHE_DIRS:
            local += [f"{top}/{cache}/v/cache/lastfailed", f"{top}/sub/{cache}/README.md",
                      f"{top}/sub/{cache}/kept.cpython-311.pyc"]
    for rel in source + local:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    files = file_list()
    for line in _manifest_lines():
        files.process_template_line(line)
    assert sorted(files.files) == sorted(source)


def _fresh_python(code: str, cwd: Path) -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout.strip()


HEAVY = ("rete", "networkx", "lark", "pydantic", "rich", "chess_rules.game")


def test_importing_the_pytest_plugin_loads_no_engine(tmp_path):
    out = _fresh_python("import sys, houserules.scenarios.pytest_plugin\n"
                        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))", tmp_path)
    assert out == "[]"


def test_the_scenario_package_still_offers_its_reader_and_runner(tmp_path):
    out = _fresh_python("import houserules.scenarios as s\n"
                        "from houserules.scenarios import parse_text\n"
                        "print(s.run_scenario.__module__, parse_text.__module__, "
                        "'run_scenario' in s.__all__)", tmp_path)
    assert out == "houserules.scenarios.runner houserules.scenarios.parser True"
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        import houserules.scenarios as s
        s.nothing   # noqa: B018


def test_the_scenario_package_still_offers_its_submodules_and_lists_its_names(tmp_path):
    # before the reader and the runner were lazy, importing the package imported
    # them, so `houserules.scenarios.runner` worked as an attribute; dir() (and
    # so completion, help) names what the package offers
    out = _fresh_python("import houserules.scenarios as s\n"
                        "print(s.runner.run_scenario is s.run_scenario, s.parser.__name__, "
                        "s.setup.__name__, all(n in dir(s) for n in s.__all__))", tmp_path)
    assert out == ("True houserules.scenarios.parser houserules.scenarios.setup True")
    with pytest.raises(AttributeError, match="no attribute '__wrapped__'"):
        import houserules.scenarios as s
        s.__wrapped__   # noqa: B018


def test_a_project_without_hrt_files_runs_its_tests_without_the_engine(pytester):
    pytester.makepyfile(test_user=f"""
        import sys

        def test_nothing_of_houserules_was_loaded():
            assert [m for m in {HEAVY!r} if m in sys.modules] == []
    """)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-o", "addopts=")
    result.assert_outcomes(passed=1)
    assert "houserules" in result.stdout.str()          # the plugin was loaded all the same
