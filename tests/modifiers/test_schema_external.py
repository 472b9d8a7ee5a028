"""The exported JSON Schema, checked by an independent validator (jsonschema).

``houserules modifiers schema`` is what other tools validate descriptors with,
so it must be a valid Draft 2020-12 schema, accept every gallery recipe, and
refuse the malformed descriptors that our own validator refuses for their
shape (a wrong type, a missing field, an unknown key).
"""
from __future__ import annotations

import copy
import json

import pytest

jsonschema = pytest.importorskip("jsonschema")

from presets.modifiers import (DescriptorError, GALLERY_DIR, descriptor_schema,  # noqa: E402
                               gallery_names, validate_descriptor)


@pytest.fixture(scope="module")
def validator():
    schema = descriptor_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def _raw(name):
    return json.loads((GALLERY_DIR / f"{name}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", gallery_names())
def test_every_gallery_recipe_validates_against_the_exported_schema(validator, name):
    errors = sorted(validator.iter_errors(_raw(name)), key=str)
    assert errors == [], [e.message for e in errors]


def _mutations(raw):
    """Shape errors: (what, descriptor) pairs both validators must refuse."""
    out = []
    d = copy.deepcopy(raw)
    d["version"] = "one"
    out.append(("version of the wrong type", d))
    for key in list(raw):
        if key not in ("version",):
            d = copy.deepcopy(raw)
            del d[key]
            out.append((f"without {key}", d))
    d = copy.deepcopy(raw)
    d["no-such-field"] = 1
    out.append(("an unknown top-level key", d))
    return out


@pytest.mark.parametrize("name", gallery_names()[:6])
def test_shape_errors_are_refused_by_both_validators(validator, name):
    raw = _raw(name)
    for what, bad in _mutations(raw):
        ours_refuses = True
        try:
            validate_descriptor(bad)
            ours_refuses = False
        except DescriptorError:
            pass
        theirs_refuses = not validator.is_valid(bad)
        assert ours_refuses == theirs_refuses, (name, what)
