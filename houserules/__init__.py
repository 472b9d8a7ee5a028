"""houserules, the application: the ``houserules`` command line, the terminal
games, the demo and the scenario language with its pytest plugin.

The library it runs on is in four packages, each importing only those below
it: :mod:`rete` (the engine), :mod:`chess_rules` (FIDE as productions, the
``Game``), :mod:`presets` (rules as composable packs) and :mod:`dice` (Dice
Chess). This package sits on top of them all.
"""
from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version as _dist_version

__all__ = ["__version__"]

try:
    __version__: str = _dist_version("houserules")
except PackageNotFoundError:        # run from a source tree, not installed
    __version__ = "(not installed)"
