"""The witness that the compiled and pure builds play alike (``make
test-compiled`` runs it in both venvs and compares): it must be deterministic,
say which build played, and catch a difference."""
from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import rete

SCRIPT = Path(__file__).with_name("build_differential.py")


def _load():
    import importlib.util
    spec = importlib.util.spec_from_file_location("build_differential", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_playouts_are_the_same_twice_and_name_the_build():
    bd = _load()
    one, two = bd.emit(seed=3, plies=4, games=1), bd.emit(seed=3, plies=4, games=1)
    assert one == two and bd.differences(one, two) == []
    assert one["build"] == rete.build_kind()
    assert "fide/0" in one["chess"] and len(one["chess"]) > 20     # FIDE and every preset
    assert one["dice"][0]["steps"][0]["tree"]                       # a turn tree was built


def test_a_difference_in_a_move_list_or_a_tree_is_named():
    bd = _load()
    doc = bd.emit(seed=5, plies=3, games=1)
    other = copy.deepcopy(doc)
    other["chess"]["fide/0"]["steps"][1]["moves"].pop()
    first_tree = other["dice"][0]["steps"][0]["tree"]
    first_tree.pop(sorted(first_tree)[0])
    found = bd.differences(doc, other)
    assert any(d.startswith("/chess/fide/0/steps[1]/moves") for d in found)
    assert any(d.startswith("/dice[0]/steps[0]/tree") for d in found)


def test_compare_wants_one_build_of_each_kind(tmp_path):
    doc = {"build": "pure", "chess": {}, "dice": []}
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(doc))
    b.write_text(json.dumps(doc))
    r = subprocess.run([sys.executable, str(SCRIPT), "compare", str(a), str(b)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and "one compiled and one pure" in r.stderr
    b.write_text(json.dumps({**doc, "build": "compiled", "dice": [{"steps": []}]}))
    r = subprocess.run([sys.executable, str(SCRIPT), "compare", str(a), str(b)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and "/dice" in r.stderr
