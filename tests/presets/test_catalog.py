"""The catalogue of preset modules (presets.catalog): the framework apart from
the presets (presets/library/), and a preset module that fails to load named
in an error instead of going missing."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from presets import catalog
from presets.catalog import PresetImportError

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def library(tmp_path, monkeypatch):
    """A library package of its own: ``good`` (a copy of a real preset) and
    whatever the test writes beside it."""
    pkg = tmp_path / "tmplib"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "good.py").write_text((ROOT / "presets" / "library" / "capture_to_win.py")
                                 .read_text(encoding="utf-8"))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(catalog, "LIBRARY", "tmplib")
    catalog.preset_modules.cache_clear()
    yield pkg
    catalog.preset_modules.cache_clear()
    for name in [m for m in sys.modules if m == "tmplib" or m.startswith("tmplib.")]:
        del sys.modules[name]


def test_the_library_loads_with_every_module_it_lists(library, monkeypatch):
    monkeypatch.setattr(catalog, "PRESET_MODULES", ["good"])
    assert list(catalog.preset_modules()) == ["capture-to-win"]


@pytest.mark.parametrize("source, said", [
    (None, "ModuleNotFoundError"),                               # listed, not written
    ("import no_such_dependency_here\n", "no_such_dependency_here"),
    ("raise RuntimeError('broken at import')\n", "broken at import"),
    ("x = 1\n", "META"),                                        # no metadata
])
def test_a_preset_module_that_fails_to_load_is_named(library, monkeypatch, source, said):
    if source is not None:
        (library / "bad.py").write_text(source)
    monkeypatch.setattr(catalog, "PRESET_MODULES", ["good", "bad"])
    with pytest.raises(PresetImportError, match=r"preset module tmplib\.bad failed") as info:
        catalog.all_presets()
    assert said in str(info.value)


def test_the_framework_and_the_library_are_apart():
    framework = {p.stem for p in (ROOT / "presets").glob("*.py")}
    library = {p.stem for p in (ROOT / "presets" / "library").glob("*.py")} - {"__init__"}
    assert library == set(catalog.PRESET_MODULES)
    assert not framework & library
    # every module of the library is a preset (META and apply), no helper
    for name in sorted(library):
        mod = catalog.preset_modules()[next(m.META.id for m in catalog.preset_modules().values()
                                            if m.__name__.endswith("." + name))]
        assert mod.__name__ == f"presets.library.{name}"
        assert callable(mod.apply)


def test_the_shared_piece_helpers_are_in_the_framework():
    import presets.pieces as pieces
    from presets.library import piece_hp
    for name in ("drop_castling_rights", "drop_ep_targets", "royal_gone", "hp_of",
                 "first_empty_neighbour", "new_piece_values"):
        assert getattr(pieces, name).__module__ == "presets.pieces"
        assert name not in vars(piece_hp) or getattr(piece_hp, name) is getattr(pieces, name)
