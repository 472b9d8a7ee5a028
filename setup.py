"""Build the compiled core where it can be built, pure Python everywhere else.

The project is configured in pyproject.toml; this file only adds the optional
extension modules. The modules listed under ``[tool.houserules] compiled`` are
compiled with Cython from the same ``.py`` source (pure-Python mode, the
annotations not read as C types, so compiled code accepts and refuses what the
source does, with the same errors). The ``.py`` files ship beside them.

Pure Python, with a one-line notice and no failure, when:
  * ``HOUSERULES_PURE=1`` is set at install time;
  * the install is editable (``pip install -e``): the checkout's ``.py`` files
    are then what runs, so an edit is never shadowed by a stale compiled module;
  * Cython, a C compiler or Python's headers are missing, or compiling fails.
"""
from __future__ import annotations

import os
import sys
import tomllib

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))


def notice(why: str) -> None:
    print(f"houserules: installing pure Python ({why})", file=sys.stderr)


def compiled_modules() -> list[str]:
    with open(os.path.join(HERE, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)["tool"]["houserules"]["compiled"]


class OptionalBuildExt(build_ext):
    """build_ext that compiles when it can and otherwise leaves pure Python."""

    def run(self) -> None:
        if getattr(self, "editable_mode", False) or self.inplace:
            # the modules would land beside the sources and shadow later edits
            notice("an editable install runs the checkout's source")
            return
        super().run()

    def build_extensions(self) -> None:
        why = self._cannot_compile()
        if why is None:
            try:
                self._cythonize()
                super().build_extensions()
                return
            except Exception as e:      # a failed compile is a pure install, not a failure
                why = f"compiling failed: {type(e).__name__}: {str(e)[:200]}"
                self._remove_outputs()
        notice(why)
        self.extensions = []

    def _cannot_compile(self) -> str | None:
        try:
            import Cython  # noqa: F401
        except ImportError:
            return "Cython is not installed"
        import sysconfig
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            probe = os.path.join(tmp, "probe.c")
            with open(probe, "w") as f:
                f.write("#include <Python.h>\nint probe(void) { return 0; }\n")
            try:
                self.compiler.compile([probe], output_dir=tmp,
                                      include_dirs=[sysconfig.get_paths()["include"]])
            except Exception:
                return "no working C compiler with Python's headers"
        return None

    def _cythonize(self) -> None:
        from Cython.Build import cythonize
        translated = cythonize(
            [Extension(e.name, list(e.sources)) for e in self.extensions],
            build_dir=os.path.join(self.build_temp, "cython"),
            nthreads=os.cpu_count() or 1, quiet=True,
            compiler_directives={"language_level": 3, "annotation_typing": False,
                                 "binding": True})
        # the C files replace the sources of the extensions setuptools prepared
        c_sources = {e.name: e.sources for e in translated}
        for ext in self.extensions:
            ext.sources = c_sources[ext.name]
        self.parallel = os.cpu_count() or 1

    def _remove_outputs(self) -> None:
        for ext in self.extensions:
            path = self.get_ext_fullpath(ext.name)
            if os.path.exists(path):
                os.remove(path)


def extensions() -> list[Extension]:
    if os.environ.get("HOUSERULES_PURE", "") not in ("", "0"):
        notice("HOUSERULES_PURE is set")
        return []
    return [Extension(name, [name.replace(".", "/") + ".py"]) for name in compiled_modules()]


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
