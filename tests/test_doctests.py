"""The examples in docstrings run."""
import doctest
import importlib

import pytest

MODULES = ["rete", "rete.declare", "chess_rules.ruleset"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    mod = importlib.import_module(name)
    res = doctest.testmod(mod, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert res.attempted > 0 and res.failed == 0
