"""Which build is running: the compiled core or pure Python.

``pip install .`` compiles the hot modules (the engine, the chess geometry,
game and FIDE rules, the Dice Chess turns) from this same Python source with
Cython where a C compiler is present; everywhere else, and in an editable
install, they run as the ``.py`` files. :func:`build_kind` tells which, by
asking whether the modules were loaded as extension modules.
"""
from __future__ import annotations

import importlib.machinery
import sys
from types import ModuleType

#: The engine modules that a compiled build always compiles; the default
#: modules :func:`build_kind` looks at.
CORE = ("rete.session", "rete.network", "rete.tokens", "rete.alpha", "rete.agenda",
        "rete.journal")


def is_compiled(module: ModuleType) -> bool:
    """Whether ``module`` was loaded from an extension module (a compiled
    ``.so``/``.pyd``) rather than from Python source or bytecode."""
    path = getattr(module, "__file__", None) or ""
    return path.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def build_kind(*modules: ModuleType) -> str:
    """``'compiled'`` if the modules given (by default the engine's core,
    :data:`CORE`) all run compiled, ``'pure'`` if none does, and
    ``'partly compiled'`` if some do (an install mixed by hand).

    >>> build_kind() in ("compiled", "pure", "partly compiled")
    True
    """
    if not modules:
        import importlib
        modules = tuple(sys.modules.get(name) or importlib.import_module(name) for name in CORE)
    compiled = [is_compiled(m) for m in modules]
    if all(compiled):
        return "compiled"
    return "partly compiled" if any(compiled) else "pure"
