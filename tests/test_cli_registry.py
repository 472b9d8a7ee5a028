"""The registry as the CLI shows it: `houserules presets [--json]` and `houserules layouts`."""
import json

import pytest

from houserules.cli import main
from presets import registry
from presets.layouts import LAYOUTS

CONTRACT = {"id": str, "name": str, "category": str, "mode": str, "requires": list,
            "incompatible_with": list, "scope_aware": bool, "configurable": bool}


def run(capsys, *argv):
    rc = main(list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_presets_json_contract(capsys):
    rc, out, _ = run(capsys, "presets", "--json")
    assert rc == 0
    data = json.loads(out)
    assert [d["id"] for d in data] == [m.id for m in registry.all_presets()]
    ids = {d["id"] for d in data}
    for d in data:
        for key, typ in CONTRACT.items():
            assert isinstance(d[key], typ), (d["id"], key)
        assert d["mode"] in ("additive", "override", "hybrid")
        assert "preferred_layout" in d
        assert d["preferred_layout"] is None or d["preferred_layout"] in LAYOUTS
        assert set(d["requires"]) <= ids
        # incompatibilities are merged in both directions
        for other in d["incompatible_with"]:
            peer = next(x for x in data if x["id"] == other)
            assert d["id"] in peer["incompatible_with"], (d["id"], other)
        # each incompatibility with its reason, the same from either side
        assert sorted(d["incompatible_because"]) == d["incompatible_with"], d["id"]
        for other, why in d["incompatible_because"].items():
            assert isinstance(why, str) and why, (d["id"], other)
            peer = next(x for x in data if x["id"] == other)
            assert peer["incompatible_because"][d["id"]] == why, (d["id"], other)


def test_presets_table_lists_every_preset(capsys):
    rc, out, _ = run(capsys, "presets")
    assert rc == 0
    for m in registry.all_presets():
        assert m.id[:12] in out


def test_layouts_listing_and_use(capsys):
    rc, out, _ = run(capsys, "layouts")
    assert rc == 0
    for lid, lay in LAYOUTS.items():
        assert lid in out and lay.fen in out
    rc, out, _ = run(capsys, "moves", "--layout", "pawns-only")
    assert rc == 0 and "e2e4" in out.split() and "b1c3" not in out.split()


def test_layout_and_fen_together_is_an_error(capsys):
    rc, _, err = run(capsys, "moves", "8/8/8/8/8/8/8/K6k w - - 0 1", "--layout", "standard")
    assert rc == 2 and "not both" in err


def test_unknown_layout_and_preset_are_errors(capsys):
    rc, _, err = run(capsys, "moves", "--layout", "nope")
    assert rc == 2 and "unknown layout 'nope'" in err
    rc, _, err = run(capsys, "moves", "--layout", "standard", "--preset", "no-such-preset")
    assert rc == 2 and "no-such-preset" in err


@pytest.mark.parametrize("argv", [["presets", "--help"], ["layouts", "--help"],
                                  ["moves", "--help"], ["replay", "--help"], ["--help"]])
def test_help(capsys, argv):
    with pytest.raises(SystemExit) as ei:
        main(argv)
    assert ei.value.code == 0
    assert "usage" in capsys.readouterr().out
