"""A rule set composed in Python, named on the command line as ``MODULE:NAME``.

``houserules moves FEN --ruleset my_rules:build`` imports ``my_rules`` (from
the current directory or the installed packages) and takes its ``build``;
``--ruleset path/to/house.py:RULES`` loads the file. ``NAME`` is a
:class:`~chess_rules.ruleset.RuleSet`, or a function that takes no argument
and returns one (the common ``package.module:attribute`` convention of
uvicorn and gunicorn). The presets, rule files and modifiers given with it
apply on top of a copy; the object in the module is never changed.

A file is run with its directory first on the import path, so that it imports
its neighbours; each load imports them afresh (two directories with a
``common.py`` each never see each other's, in any order), and they stay
imported for the rule set's functions until the next rule file is loaded.

Naming a module runs its code, as ``python house.py`` would: name only code
you trust.
"""
from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from contextlib import contextmanager
from pathlib import Path

from .errors import ChessError, user_code_location
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
    target, colon, name = spec.rpartition(":") if isinstance(spec, str) else ("", "", "")
    if not colon or not target or not name.isidentifier():
        raise RuleSetSpecError(
            f"ruleset {spec!r}: expected MODULE:NAME or FILE.py:NAME "
            f"(e.g. my_rules:build, where build is a RuleSet or returns one)")
    if _is_file(target):
        path = _file(target, spec, base_dir)
        # the file's own directory, so that it can import its neighbours (NAME()
        # is called there too: it may import them)
        with _neighbours_of(path.parent):
            return _ruleset(_exec_file(path, target, spec), target, name, spec)
    # the current directory, as `python -m` has it
    with _first_on_path(Path.cwd()):
        return _ruleset(_import_module(target, spec), target, name, spec)


def _ruleset(module, target: str, name: str, spec: str) -> RuleSet:
    if not hasattr(module, name):
        raise RuleSetSpecError(f"ruleset {spec!r}: {target} has no {name!r}")
    obj = getattr(module, name)
    if callable(obj) and not isinstance(obj, RuleSet):
        try:
            obj = obj()
        except Exception as e:
            raise RuleSetSpecError(
                f"ruleset {spec!r}: calling {name}() failed: {type(e).__name__}: {e}"
                f"{_where(e)}") from e
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


def _from_directory(directory: str, name: str, module) -> bool:
    """Whether ``module`` (``sys.modules[name]``) was imported from ``directory``
    (a module ``directory/NAME.py``, or a package ``directory/NAME/`` and its submodules)."""
    top = name.partition(".")[0]
    files = [getattr(module, "__file__", None)] + list(getattr(module, "__path__", None) or ())
    for f in files:
        if isinstance(f, str) and f.startswith(directory + os.sep):
            first = f[len(directory) + 1:].split(os.sep, 1)
            if first[0] == top or (len(first) == 1 and first[0].split(".", 1)[0] == top):
                return True
    return False


def _places(top: str) -> list | None:
    """Where Python finds the top-level module ``top`` as the import path is
    now (its file, or a package's directories), or None."""
    for finder in sys.meta_path:
        try:
            spec = finder.find_spec(top, None)
        except Exception:
            continue
        if spec is not None:
            return [p for p in [spec.origin] + list(spec.submodule_search_locations or ())
                    if isinstance(p, str)]
    return None


def _inside(directory: str, places) -> bool:
    return any(p.startswith(directory + os.sep) for p in places)


def _found_without(directory: str, top: str) -> bool:
    """Whether Python finds the top-level module ``top`` in ``directory`` with no
    help (the directory on the import path anyway, an editable install's finder)."""
    places = _places(top)
    return places is not None and _inside(directory, places)


#: the directories whose neighbours earlier rule-file loads left imported
_NEIGHBOUR_DIRS: list = []


def _found_elsewhere(directory: str, top: str) -> bool:
    """Whether Python finds the top-level module ``top`` outside ``directory``
    (the standard library's ``statistics``, an installed package)."""
    places = _places(top)
    return places is not None and not _inside(directory, places)


def _forget_neighbours() -> None:
    """Drop every module imported from the directories of earlier loads (the
    modules those loads imported, and submodules their functions imported later
    while a game ran), but those Python finds there without help."""
    for d in _NEIGHBOUR_DIRS:
        for n, m in list(sys.modules.items()):
            if m is not None and _from_directory(d, n, m) \
                    and not _found_without(d, n.partition(".")[0]):
                del sys.modules[n]
    _NEIGHBOUR_DIRS.clear()


@contextmanager
def _neighbours_of(directory: Path):
    """``directory`` first on the import path for the load, its neighbours its own.

    A rule file's neighbours (``from common import SPEC`` next to it) are its
    own: before a load, the modules imported from the directories of earlier
    loads are forgotten, so that two directories with a ``common.py`` each never
    see each other's, in any order, and an edited neighbour is read again.
    After the load they stay imported, so that the rule set's functions may
    import them again while the game runs (until the next rule file is loaded:
    Python holds one module of a name at a time). A neighbour named as a module
    Python finds elsewhere (``statistics.py``) is the file's only while it loads:
    it is dropped after, and the rest of the program gets its own. Modules
    imported otherwise stay as they are (a module of that name imported before
    is that module, as in Python), and so does one Python finds in the
    directory without the rule file's help (the directory is on the import path
    anyway, or an editable install's: the program's own modules)."""
    entry = str(directory)
    _forget_neighbours()
    before = dict(sys.modules)
    importlib.invalidate_caches()        # a neighbour written since the last look
    sys.path.insert(0, entry)
    try:
        yield
    finally:
        sys.path.remove(entry)
        new = [n for n, m in list(sys.modules.items())
               if before.get(n) is not m and _from_directory(entry, n, m)]
        own = {t for t in {n.partition(".")[0] for n in new} if not _found_without(entry, t)}
        shadows = {t for t in own if _found_elsewhere(entry, t)}
        for n in new:
            if n.partition(".")[0] in shadows:
                del sys.modules[n]
        if own - shadows:
            _NEIGHBOUR_DIRS.append(entry)


def _is_file(target: str) -> bool:
    return target.endswith(".py") or "/" in target or "\\" in target


def _file(target: str, spec: str, base_dir) -> Path:
    path = Path(target)
    if base_dir is not None and not path.is_absolute():
        path = Path(base_dir) / path
    if not os.path.isfile(path):    # (Path.is_file raises for a name too long)
        raise RuleSetSpecError(f"ruleset {spec!r}: no such file {str(path)!r}")
    return path.resolve()


def _exec_file(path: Path, target: str, spec: str):
    mod_spec = importlib.util.spec_from_file_location(
        f"houserules_ruleset_{abs(hash(str(path)))}", path)
    # (None: a suffix Python does not import, .hr or .json)
    if mod_spec is None or mod_spec.loader is None:
        hint = " (rule text is given with --rules FILE)" if path.suffix == ".hr" else ""
        raise RuleSetSpecError(f"ruleset {spec!r}: {target} is not a Python file{hint}")
    module = importlib.util.module_from_spec(mod_spec)
    try:
        mod_spec.loader.exec_module(module)
    except Exception as e:
        raise RuleSetSpecError(f"ruleset {spec!r}: loading {target} failed: "
                               f"{type(e).__name__}: {e}{_where(e)}") from e
    return module


def _import_module(target: str, spec: str):
    try:
        return importlib.import_module(target)
    except Exception as e:
        if isinstance(e, ModuleNotFoundError) and e.name and \
                (target == e.name or target.startswith(e.name + ".")):
            raise RuleSetSpecError(f"ruleset {spec!r}: no module named {e.name!r}") from e
        raise RuleSetSpecError(f"ruleset {spec!r}: importing {target} failed: "
                               f"{type(e).__name__}: {e}{_where(e)}") from e


def _where(e: BaseException) -> str:
    """`` (at FILE:LINE)``: where in the user's code ``e`` was raised."""
    at = user_code_location(e)
    return f" (at {at})" if at else ""
