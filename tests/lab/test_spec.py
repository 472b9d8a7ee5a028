"""The lab spec: TOML in, files resolved to their text, refusals that say
where, and the JSON Schema generated from the same model."""
from __future__ import annotations

import json

import jsonschema
import pytest

from houserules.lab.spec import LabSpec, LabSpecError, load_spec, parse_spec, resolve, spec_schema

SPEC = """
name = "three variants"
games = 10
seed = 7
bots = [2, 1]
max_plies = 50

[opening]
random_plies = 2

[[variant]]
name = "fide"

[[variant]]
name = "double-move"
presets = ["double-move"]

[[variant]]
name = "house"
rules = ["house.hr"]
modifiers = ["mod.json", "berserker"]
layout = "knightmate"
"""


def _write(tmp_path, spec=SPEC):
    (tmp_path / "lab.toml").write_text(spec, encoding="utf-8")
    (tmp_path / "house.hr").write_text("# my rule\n", encoding="utf-8")
    (tmp_path / "mod.json").write_text(json.dumps({"id": "m", "x": 1}), encoding="utf-8")
    return tmp_path / "lab.toml"


def test_a_toml_spec_reads_with_its_files_resolved_to_their_content(tmp_path):
    spec = load_spec(_write(tmp_path))
    assert (spec.name, spec.games, spec.seed, spec.bots, spec.max_plies) == \
        ("three variants", 10, 7, (2, 1), 50)
    assert [v.name for v in spec.variant] == ["fide", "double-move", "house"]
    house = spec.variant[2]
    # the resolved spec names no file: it plays the same on any machine
    assert house.rules == [] and house.rule_texts == ["# my rule\n"]
    assert house.modifiers == [{"id": "m", "x": 1}, "berserker"]
    assert house.layout == "knightmate"
    # and it survives the trip through the database's JSON unchanged
    assert LabSpec.model_validate_json(spec.model_dump_json()) == spec


def test_an_opening_file_becomes_its_lines_without_comments_or_blanks(tmp_path):
    (tmp_path / "open.txt").write_text("e2e4 e7e5  # king's pawn\n\n# a comment\nd2d4\n",
                                       encoding="utf-8")
    spec = resolve(parse_spec({"opening": {"file": "open.txt"},
                               "variant": [{"name": "fide"}]}), tmp_path)
    assert spec.opening.lines == ["e2e4 e7e5", "d2d4"] and spec.opening.file is None


@pytest.mark.parametrize("data, words", [
    ({"variant": []}, "variant"),
    ({"variant": [{"name": "a"}, {"name": "a"}]}, "a more than once"),
    ({"bots": [0, 3], "variant": [{"name": "a"}]}, "1..10"),
    ({"games": 0, "variant": [{"name": "a"}]}, "games"),
    ({"variant": [{"name": "a", "layout": "monster", "fen": "8/8/8/8/8/8/8/8 w - - 0 1"}]},
     "not both"),
    ({"variant": [{"name": "a", "prests": ["double-move"]}]}, "variant.0.prests"),
    ({"opening": {"lines": ["e2e4"]}, "variant": [{"name": "a", "dice": True}]},
     "Dice Chess"),
])
def test_a_bad_spec_is_refused_saying_where(data, words):
    with pytest.raises(LabSpecError, match="not a valid lab spec") as e:
        parse_spec(data, "x.toml")
    assert words in str(e.value)


def test_a_spec_that_is_no_toml_or_no_file_is_a_typed_error(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("games = = 3", encoding="utf-8")
    with pytest.raises(LabSpecError, match="not TOML"):
        load_spec(bad)
    with pytest.raises(LabSpecError, match="cannot read lab spec"):
        load_spec(tmp_path / "missing.toml")
    with pytest.raises(LabSpecError, match="cannot read rule file"):
        load_spec(_write(tmp_path, SPEC.replace("house.hr", "nowhere.hr")))


def test_the_json_schema_accepts_the_specs_the_model_accepts_and_refuses_the_others(tmp_path):
    schema = spec_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    import tomllib
    data = tomllib.loads(SPEC)
    assert list(validator.iter_errors(data)) == []
    for bad in ({"variant": [{"name": "a", "prests": []}]}, {"games": 0, "variant": [{"name": "a"}]},
                {"variant": []}, {"games": "many", "variant": [{"name": "a"}]}):
        assert list(validator.iter_errors(bad)), bad
        with pytest.raises(LabSpecError):
            parse_spec(bad)


def test_the_spec_in_docs_lab_md_is_the_example_file_and_loads(tmp_path):
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    page = (root / "docs" / "lab.md").read_text(encoding="utf-8")
    shown = page.split("```toml\n", 1)[1].split("```", 1)[0]
    example = root / "examples" / "lab" / "fide-vs-presets.toml"
    body = "\n".join(line for line in example.read_text(encoding="utf-8").splitlines()
                     if not line.startswith("#"))
    assert shown.strip() == body.strip()
    spec = load_spec(example)
    assert [v.name for v in spec.variant] == ["fide", "double-move", "capture-to-win"]
    import tomllib
    validator = jsonschema.Draft202012Validator(spec_schema())
    assert list(validator.iter_errors(tomllib.loads(shown))) == []
