"""The examples in docstrings run."""
import doctest
import importlib
import re

import pytest

#: Every module whose docstrings hold examples (``test_every_module_with_examples_is_listed``
#: keeps the list whole).
MODULES = ["rete", "rete.buildinfo", "rete.declare", "rete.model", "rete.session", "chess_rules.game",
           "chess_rules.fide", "chess_rules.moves", "chess_rules.ruleset_spec", "chess_rules.ruleset",
           "chess_rules.pgn", "chess_rules.replay", "houserules.scenarios.checks",
           "dice.game", "dice.turns", "presets", "presets.composition",
           "presets.registry", "houserules.engine", "houserules.web.board",
           "chess_rules.movement", "chess_rules.betza", "chess_rules.pieces",
           "chess_rules.variants", "chess_rules.variants.ini", "chess_rules.shape"]
PACKAGES = ("rete", "chess_rules", "presets", "dice", "houserules")


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    mod = importlib.import_module(name)
    res = doctest.testmod(mod, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert res.attempted > 0 and res.failed == 0


def test_every_module_with_examples_is_listed():
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    found = set()
    for pkg in PACKAGES:
        for path in (root / pkg).rglob("*.py"):
            if ">>> " in path.read_text(encoding="utf-8"):
                parts = path.relative_to(root).with_suffix("").parts
                found.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    assert found == set(MODULES)


def test_readme_examples():
    from pathlib import Path
    readme = Path(__file__).resolve().parents[1] / "README.md"
    res = doctest.testfile(str(readme), module_relative=False,
                           optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert res.attempted > 5 and res.failed == 0


def _docs_with_examples():
    from pathlib import Path
    docs = Path(__file__).resolve().parents[1] / "docs"
    return sorted(p for p in docs.glob("*.md") if ">>> " in p.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", _docs_with_examples(), ids=lambda p: p.name)
def test_docs_examples(path):
    res = doctest.testfile(str(path), module_relative=False,
                           optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert res.attempted > 0 and res.failed == 0


def test_the_python_rule_set_guide_is_among_the_docs_tested():
    assert "rulesets.md" in {p.name for p in _docs_with_examples()}


def _importing_examples():
    """The docstring examples that import something: a reader copies those whole."""
    finder = doctest.DocTestFinder()
    for name in MODULES:
        for t in finder.find(importlib.import_module(name), globs={"__name__": "__main__"}):
            if any(e.source.startswith(("import ", "from ")) for e in t.examples):
                yield pytest.param(t, id=t.name)


@pytest.mark.parametrize("test", list(_importing_examples()))
def test_an_example_that_imports_imports_all_it_uses(test):
    # testmod runs an example among its module's names, which hides an import it
    # forgot; here it runs on its own, as it does pasted into a fresh interpreter
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    res = runner.run(test, out=lambda _: None)
    assert res.failed == 0


def test_the_api_classes_name_every_public_method_in_their_docstring():
    # Game's and RuleSet's docstrings are their tables of contents, DiceGame's
    # names what it adds or changes
    from chess_rules.game import Game
    from chess_rules.ruleset import RuleSet
    from dice import DiceGame
    for klass, members in [(Game, dir(Game)), (DiceGame, vars(DiceGame)),
                           (RuleSet, vars(RuleSet))]:
        public = {n for n in members if not n.startswith("_")}
        named = set(re.findall(r"(?:``|:meth:`)(\w+)", klass.__doc__))
        assert public <= named, (klass.__name__, sorted(public - named))


@pytest.mark.parametrize("package", ["rete", "presets", "dice", "houserules.scenarios"])
def test_everything_a_package_exports_says_what_it_is(package):
    # the public API is what __all__ names: each function and class has a docstring
    # (and the public methods of each class)
    import inspect
    mod = importlib.import_module(package)
    bare = []
    for name in mod.__all__:
        obj = getattr(mod, name)
        if (inspect.isfunction(obj) or inspect.isclass(obj)) and not inspect.getdoc(obj):
            bare.append(name)
        if inspect.isclass(obj):
            bare += [f"{name}.{m}" for m, fn in vars(obj).items() if not m.startswith("_")
                     and inspect.isfunction(fn) and not fn.__doc__]
    assert not bare
