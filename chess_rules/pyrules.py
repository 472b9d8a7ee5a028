"""A rule set composed in Python, named on the command line as ``MODULE:NAME``.

``houserules moves FEN --ruleset my_rules:build`` imports ``my_rules`` (from
the current directory or the installed packages) and takes its ``build``;
``--ruleset path/to/house.py:RULES`` loads the file. ``NAME`` is a
:class:`~chess_rules.ruleset.RuleSet`, or a function that takes no argument
and returns one (the common ``package.module:attribute`` convention of
uvicorn and gunicorn). The presets, rule files and modifiers given with it
apply on top of a copy; the object in the module is never changed.

Naming a module runs its code, as ``python house.py`` would: name only code
you trust.
"""
from __future__ import annotations

import importlib
import importlib.util
import sys
from contextlib import contextmanager
from pathlib import Path

from .errors import ChessError
from .ruleset import RuleSet

__all__ = ["RuleSetSpecError", "load_ruleset_spec"]


class RuleSetSpecError(ChessError):
    """A ``MODULE:NAME`` that does not name a rule set."""


def load_ruleset_spec(spec: str, base_dir: str | Path | None = None) -> RuleSet:
    """The rule set ``spec`` names (a copy); see the module doc. A file's path is
    taken relative to ``base_dir`` when given (a scenario file's directory).

    >>> load_ruleset_spec("chess_rules.fide:fide_rules").name
    'fide'
    """
    target, colon, name = spec.rpartition(":")
    if not colon or not target or not name.isidentifier():
        raise RuleSetSpecError(
            f"ruleset {spec!r}: expected MODULE:NAME or FILE.py:NAME "
            f"(e.g. my_rules:build, where build is a RuleSet or returns one)")
    module = _import(target, spec, base_dir)
    if not hasattr(module, name):
        raise RuleSetSpecError(f"ruleset {spec!r}: {target} has no {name!r}")
    obj = getattr(module, name)
    if callable(obj) and not isinstance(obj, RuleSet):
        try:
            obj = obj()
        except Exception as e:
            raise RuleSetSpecError(
                f"ruleset {spec!r}: calling {name}() failed: {type(e).__name__}: {e}") from e
    if not isinstance(obj, RuleSet):
        raise RuleSetSpecError(
            f"ruleset {spec!r}: {name} is {type(obj).__name__}, not a RuleSet "
            f"(or a function that returns one)")
    return obj.copy()


@contextmanager
def _first_on_path(directory: Path):
    """``directory`` first on the import path, for the import only."""
    entry = str(directory)
    sys.path.insert(0, entry)
    try:
        yield
    finally:
        sys.path.remove(entry)


def _import(target: str, spec: str, base_dir):
    if target.endswith(".py") or "/" in target or "\\" in target:
        path = Path(target)
        if base_dir is not None and not path.is_absolute():
            path = Path(base_dir) / path
        if not path.is_file():
            raise RuleSetSpecError(f"ruleset {spec!r}: no such file {str(path)!r}")
        path = path.resolve()
        mod_spec = importlib.util.spec_from_file_location(
            f"houserules_ruleset_{abs(hash(str(path)))}", path)
        if mod_spec is None:        # a suffix Python does not import (.hr, .json)
            hint = " (rule text is given with --rules FILE)" if path.suffix == ".hr" else ""
            raise RuleSetSpecError(f"ruleset {spec!r}: {target} is not a Python file{hint}")
        module = importlib.util.module_from_spec(mod_spec)
        # the file's own directory, so that it can import its neighbours
        with _first_on_path(path.parent):
            try:
                mod_spec.loader.exec_module(module)
            except Exception as e:
                raise RuleSetSpecError(f"ruleset {spec!r}: loading {target} failed: "
                                       f"{type(e).__name__}: {e}") from e
        return module
    # the current directory, as `python -m` has it
    with _first_on_path(Path.cwd()):
        try:
            return importlib.import_module(target)
        except Exception as e:
            if isinstance(e, ModuleNotFoundError) and e.name and \
                    (target == e.name or target.startswith(e.name + ".")):
                raise RuleSetSpecError(f"ruleset {spec!r}: no module named {e.name!r}") from e
            raise RuleSetSpecError(f"ruleset {spec!r}: importing {target} failed: "
                                   f"{type(e).__name__}: {e}") from e
