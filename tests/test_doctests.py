"""The examples in docstrings run."""
import doctest
import importlib

import pytest

MODULES = ["rete", "rete.declare", "rete.session", "chess_rules.ruleset"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    mod = importlib.import_module(name)
    res = doctest.testmod(mod, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert res.attempted > 0 and res.failed == 0


def test_readme_examples():
    from pathlib import Path
    readme = Path(__file__).resolve().parents[1] / "README.md"
    res = doctest.testfile(str(readme), module_relative=False,
                           optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert res.attempted > 5 and res.failed == 0
