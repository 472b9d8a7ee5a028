"""Validation (located, typed errors; caps), the gallery, the schema, the API and CLI."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from houserules.cli import main as cli_main
from chess_rules.errors import ChessError
from chess_rules.fide import fide_rules
from chess_rules.game import Game
from presets import load
from presets.modifiers import (MAX_PRIMITIVE_COUNT, MAX_RECURSION_DEPTH, BadParamsError,
                               DescriptorError, DescriptorVersionError, ModifierCompositionError,
                               PrimitiveCountError, RecursionDepthError, UnknownKindError,
                               UnknownModifierError, attach, attach_descriptor_file,
                               descriptor_schema, gallery_names, load_descriptor,
                               validate_descriptor)

from .helpers import add, attr, cond, desc, seed, trig


def nest(depth):
    """``depth`` levels of on-move around an add-to-attribute."""
    node = add("X", 1)
    for _ in range(depth - 1):
        node = trig("on-move", node)
    return node


@pytest.mark.parametrize("raw,cls,path", [
    ({"id": "x", "primitives": []}, DescriptorVersionError, "$.version"),
    (desc(version=2), DescriptorVersionError, "$.version"),
    (desc(version="1"), DescriptorVersionError, "$.version"),
    (desc({"kind": "on-jump", "params": {}}), UnknownKindError, "$.primitives[0].kind"),
    (desc(trig("on-move", {"kind": "heal", "params": {}})), UnknownKindError,
     "$.primitives[0].params.primitives[0].kind"),
    (desc(nest(MAX_RECURSION_DEPTH + 1)), RecursionDepthError,
     "$.primitives[0]" + ".params.primitives[0]" * MAX_RECURSION_DEPTH),
    (desc(cond({"color": "white"}, [cond({"color": "white"}, [cond({"color": "white"},
                                                                    [add("X", 1)])])])),
     RecursionDepthError, "$.primitives[0].params.then[0].params.then[0].params.then[0]"),
    (desc(*[add("X", 1)] * (MAX_PRIMITIVE_COUNT + 1)), PrimitiveCountError,
     f"$.primitives[{MAX_PRIMITIVE_COUNT}]"),
    (desc(*[trig("on-move", *[add("X", 1)] * 4)] * 11), PrimitiveCountError,
     "$.primitives[10]"),
    (desc(add("X", "one")), BadParamsError, "$.primitives[0].params.delta"),
    (desc(add("lowercase", 1)), BadParamsError, "$.primitives[0].params.attr"),
    (desc(add("Position", 1)), BadParamsError, "$.primitives[0].params.attr"),
    (desc(add("PieceType", 1)), BadParamsError, "$.primitives[0].params.attr"),
    (desc(seed("PieceType", "king")), BadParamsError, "$.primitives[0].params"),
    (desc(seed("Hp", 0)), BadParamsError, "$.primitives[0].params"),
    (desc({"kind": "add-to-attribute", "params": {"attr": "X", "delta": 1, "extra": 2}}),
     BadParamsError, "$.primitives[0].params.extra"),
    (desc({"kind": "add-to-attribute"}), BadParamsError, "$.primitives[0].params"),
    (desc(trig("on-turn-end", color="red")), BadParamsError, "$.primitives[0].params.color"),
    (desc(trig("on-moved-onto-square", filter={"kind": "predicate"})), BadParamsError,
     "$.primitives[0].params.filter"),
    (desc(trig("on-moved-onto-square", filter={"kind": "squares", "squares": [64]})),
     BadParamsError, "$.primitives[0].params.filter.squares[0]"),
    (desc(trig("on-moved-onto-square", filter={"kind": "predicate", "rank": 8})),
     BadParamsError, "$.primitives[0].params.filter.rank"),
    (desc(trig("on-moved-onto-square")), BadParamsError, "$.primitives[0].params.filter"),
    (desc(trig("on-captured", target={"relation": "friend"})), BadParamsError,
     "$.primitives[0].params.target.relation"),
    (desc(trig("on-captured", target="victim")), BadParamsError, "$.primitives[0].params.target"),
    (desc(cond({})), BadParamsError, "$.primitives[0].params.if"),
    (desc(trig("on-move", {"kind": "set-board-topology", "params": {"topology": "cylinder"}})),
     BadParamsError, "$.primitives[0].params.primitives[0]"),
    (desc({"kind": "add-aura", "params": {"radius": 9, "targetAttr": "G", "delta": 1}}),
     BadParamsError, "$.primitives[0].params.radius"),
    (desc(id="Bad Id"), BadParamsError, "$.id"),
    ([], BadParamsError, "$"),
    ("{not json", BadParamsError, "$"),
])
def test_invalid_descriptors_are_refused_with_a_located_error(raw, cls, path):
    with pytest.raises(cls) as ei:
        validate_descriptor(raw)
    e = ei.value
    assert isinstance(e, DescriptorError) and isinstance(e, ChessError)
    assert e.path == path, (e.path, str(e))
    assert e.reason and path in str(e)


@pytest.mark.parametrize("attr", ["Hp", "PieceType", "CaptureFlag"])
def test_an_aura_on_a_special_attribute_says_why_it_is_refused(attr):
    # "cannot be used here" named neither the rule nor a way out
    with pytest.raises(BadParamsError) as ei:
        validate_descriptor(desc({"kind": "add-aura",
                                  "params": {"radius": 1, "targetAttr": attr, "delta": 1}}))
    assert ei.value.path == "$.primitives[0].params.targetAttr"
    assert "aura" in ei.value.reason and "own" in ei.value.reason
    assert "cannot be used here" not in ei.value.reason


def test_caps_are_inclusive():
    validate_descriptor(desc(nest(MAX_RECURSION_DEPTH)))
    validate_descriptor(desc(*[add("X", 1)] * MAX_PRIMITIVE_COUNT))


def test_a_refused_attach_changes_nothing():
    rs = fide_rules()
    before = (dict(rs.productions), dict(rs.config), list(rs.setup_hooks),
              rs.templates["piece"])
    with pytest.raises(RecursionDepthError):
        attach(rs, desc(nest(MAX_RECURSION_DEPTH + 1)), squares=["e2"])
    with pytest.raises(ModifierCompositionError):
        attach(rs, "nomad", squares=["e2"])   # needs piece-hp
    assert (dict(rs.productions), dict(rs.config), list(rs.setup_hooks),
            rs.templates["piece"]) == before


def test_attach_returns_a_copy_and_plain_chess_has_no_dispatch():
    rs = fide_rules()
    rs2 = attach(rs, "berserker", squares=["a1"])
    assert "extra-push-stages" not in rs.config
    assert not any(n.startswith("modifiers.") for n in rs.productions)
    assert "modifiers.move" in rs2.productions and "modifiers.snapshot" in rs2.productions
    g = Game(ruleset=rs)
    g.push("e2e4")
    assert "mod.move" not in {f.stage for f in g.session.trace}


def test_gallery_loads_by_name_and_every_recipe_has_a_scenario():
    from pathlib import Path
    names = gallery_names()
    for spec in ("Berserker", "Nomad", "Decay", "Promotion Feast", "Stay-As-Pawn", "Panic Mode",
                 "Vampire", "Center Bonus", "King Row", "Kamikaze", "Martyr"):
        assert spec.lower().replace(" ", "-") in names
    root = Path(__file__).parents[1] / "scenarios" / "modifiers"
    for n in names:
        d = load_descriptor(n)
        assert d.id == n
        assert (root / f"{n}.hrt").is_file(), n


def test_unknown_name_and_missing_file():
    with pytest.raises(UnknownModifierError, match="did you mean 'berserker'"):
        load_descriptor("berserkr")
    for typed in ("Nomad", "PROMOTION_FEAST"):
        with pytest.raises(UnknownModifierError, match="did you mean '(nomad|promotion-feast)'"):
            load_descriptor(typed)
    with pytest.raises(UnknownModifierError, match="cannot read"):
        load_descriptor("no/such/file.json")


def test_attach_from_file_with_base_dir_and_squares_by_index(tmp_path):
    (tmp_path / "m.json").write_text(json.dumps(desc(trig("on-move", add("Steps", 1)))))
    rs = attach(fide_rules(), "m.json", squares=[12], base_dir=tmp_path)
    g = Game(ruleset=rs)
    g.push("e2e4")
    assert attr(g, "e4", "steps") == 1


def test_a_square_given_twice_attaches_once():
    # the descriptor was applied once per mention: its top-level effects counted
    # twice (Foo 2) while its hooks were seeded once
    d = desc(add("Foo", 1), trig("on-move", add("Steps", 1)))
    for squares in (["a1", "a1"], ["a1", 0, "a1"]):
        g = Game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
                 ruleset=attach(fide_rules(), d, squares=squares))
        assert g.piece_at("a1").values["foo"] == 1
        g.push("a1a2")
        assert g.piece_at("a2").values["steps"] == 1


def test_applies_to_selects_pieces_without_squares(tmp_path):
    d = desc(trig("on-move", add("Steps", 1)),
             appliesTo={"color": "white", "pieceTypes": ["knight"]})
    p = tmp_path / "knights.json"
    p.write_text(json.dumps(d))
    g = Game(ruleset=attach_descriptor_file(fide_rules(), str(p)))
    g.push("g1f3")
    g.push("g8f6")
    g.push("e2e4")
    assert attr(g, "f3", "steps") == 1
    assert attr(g, "f6", "steps") == 0
    assert attr(g, "e4", "steps") == 0


def test_composes_with_presets_and_other_modifiers():
    rs = attach(load("piece-hp", "king-heals"), "decay", squares=["a1"])
    rs = attach(rs, "berserker", squares=["a1"])
    g = Game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", ruleset=rs)
    g.push("a1a2")
    assert attr(g, "a2", "hp") == 1 and attr(g, "a2", "attack-bonus") == 1
    assert "+mod:decay+mod:berserker" in rs.name


def test_pop_restores_attributes_hooks_and_dead_pieces():
    rs = attach(load("piece-hp"), "decay", squares=["a1"])
    rs = attach(rs, "berserker", squares=["a1"])
    g = Game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", ruleset=rs)
    start = g.fen()
    hooks = sorted(tuple(sorted(f.values.items())) for f in g.session.facts_of("mod-hook"))
    g.push("a1a2")
    g.push("e8d8")                       # the rook decays to 0 and is gone
    assert g.piece_at("a2") is None
    g.pop()
    assert attr(g, "a2", "hp") == 1
    g.pop()
    assert g.fen() == start
    assert sorted(tuple(sorted(f.values.items()))
                  for f in g.session.facts_of("mod-hook")) == hooks
    g.push("a1a3")
    assert attr(g, "a3", "attack-bonus") == 1 and attr(g, "a3", "hp") == 1


def test_hooks_follow_the_piece_not_the_square():
    g = Game(ruleset=attach(fide_rules(), "berserker", squares=["g1"]))
    for u in ("g1f3", "b8c6", "f3g1", "c6b8", "b1c3"):
        g.push(u)
    assert attr(g, "g1", "attack-bonus") == 2
    assert attr(g, "c3", "attack-bonus") == 0


def test_trigger_as_effect_seeds_its_hook_once():
    # after promotion the piece gains an on-move hook; promoting twice cannot double it
    d = desc(trig("on-promotion", trig("on-move", add("Steps", 1))))
    g = Game("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", ruleset=attach(fide_rules(), d, squares=["b7"]))
    g.push("b7b8q")
    assert attr(g, "b8", "steps") == 1   # seeded at stage 5, fires at stage 6 (a later stage)
    g.push("e8e7")
    g.push("b8b1")
    assert attr(g, "b1", "steps") == 2
    assert len(g.session.facts_of("mod-hook")) == 2


def test_piece_type_never_changes_a_royal_piece():
    d = desc(seed("PieceType", "queen"))
    g = Game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
             ruleset=attach(fide_rules(), d, squares=["e1", "a1"]))
    assert g.piece_at("e1").values["type"] == "king"
    assert g.piece_at("a1").values["type"] == "queen"


def test_cli_schema_list_check_and_modifier_option(tmp_path, capsys):
    assert cli_main(["modifiers", "schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema == json.loads(json.dumps(descriptor_schema()))
    assert "Descriptor" in schema["title"] or "descriptor" in schema["title"]
    assert cli_main(["modifiers", "list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["id"] for r in rows} == set(gallery_names())
    p = tmp_path / "sated.json"
    p.write_text(json.dumps(desc(trig("on-capture", {"kind": "set-capture-flag",
                                                    "params": {"flag": 1}}),
                                 appliesTo={"squares": [0]})))
    assert cli_main(["modifiers", "check", str(p)]) == 0
    assert "ok" in capsys.readouterr().out
    # a rook with CaptureFlag 1 (extended position) may not capture
    fen = "4k3/8/8/8/8/8/8/Rn2K3 w - - 0 1 capture-flag:a1=1"
    assert cli_main(["moves", fen, "--modifier", str(p)]) == 0
    moves = capsys.readouterr().out.split()
    assert "a1b1" not in moves and "a1a2" in moves
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(desc(nest(4))))
    assert cli_main(["moves", fen, "--modifier", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "$.primitives[0].params.primitives[0].params.primitives[0].params.primitives[0]" in err
    assert "MAX_RECURSION_DEPTH" in err


def test_schema_describes_every_kind():
    text = json.dumps(descriptor_schema())
    from presets.modifiers import KINDS
    for k in KINDS:
        assert f'"{k}"' in text


def test_attribute_names_that_would_clobber_piece_slots_are_refused():
    with pytest.raises(BadParamsError) as ei:
        validate_descriptor(desc(add("Type", 1)))
    assert ei.value.path == "$.primitives[0].params.attr"
    rs = fide_rules().copy()
    rs.templates["piece"] = rs.templates["piece"].extended("charge", defaults={"charge": 0})
    with pytest.raises(ModifierCompositionError, match="charge"):
        attach(rs, desc(add("Charge", 1)), squares=["a1"])


@pytest.mark.parametrize("name", gallery_names())
def test_gallery_descriptors_round_trip_through_the_models(name):
    d = load_descriptor(name)
    again = validate_descriptor(d.model_dump(by_alias=True, exclude_none=True))
    assert again == d
    assert validate_descriptor(d) == d


@pytest.mark.parametrize("white_king,becomes", [("d1", "pawn"), ("a1", "rook")])
def test_piece_type_change_never_leaves_the_waiting_side_in_check(white_king, becomes):
    # at the end of White's turn the black pawn on d3 would become a rook; on the open
    # d-file that rook would attack a white king on d1 with Black to move: skipped
    d = desc(trig("on-turn-end", seed("PieceType", "rook"), color="white"))
    board = "3K3R" if white_king == "d1" else "K6R"
    g = Game(f"4k3/8/8/8/8/3p4/8/{board} w - - 0 1",
             ruleset=attach(fide_rules(), d, squares=["d3"]))
    g.push("h1h2")
    assert g.piece_at("d3").values["type"] == becomes
    assert not g.state.attacked(g.state.colors, g.state.types, g.state.royal_squares(
        g.state.colors, g.state.types, "white")[0], "black")


def test_attaching_to_an_empty_square_is_an_error():
    from presets.modifiers import ModifierError
    rs = attach(fide_rules(), "berserker", squares=["e4"])
    with pytest.raises(ModifierError, match="e4"):
        Game(ruleset=rs)


def test_piece_hooks_show_the_seeded_on_hooks_attributes():
    from presets.modifiers import piece_hooks
    rs = attach(attach(fide_rules(), "berserker", squares=["g1"]), "panic-mode", squares=["e1"])
    g = Game(ruleset=rs)
    assert piece_hooks(g, "g1") == {"OnMoveHooks": ["berserker $.primitives[0]"]}
    assert piece_hooks(g, "e1") == {"OnCheckReceivedHooks": ["panic-mode $.primitives[0]"]}
    assert piece_hooks(g, "b1") == {}
    g.push("g1f3")
    assert piece_hooks(g, "f3") == {"OnMoveHooks": ["berserker $.primitives[0]"]}


def test_cli_check_reports_every_file(tmp_path, capsys):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(desc(trig("on-move", add("X", 1)))))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(desc({"kind": "on-jump", "params": {}})))
    assert cli_main(["modifiers", "check", str(bad), str(good)]) == 2
    out = capsys.readouterr()
    assert "good.json: ok (t: 2 nodes, depth 2)" in out.out
    assert "$.primitives[0].kind" in out.err and "on-jump" in out.err


def test_a_file_no_reader_can_take_is_a_clear_cli_error(tmp_path, capsys):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100000 + "]" * 100000)
    for argv in (["modifiers", "check", str(deep)],
                 ["moves", "--layout", "standard", "--modifier", str(deep)]):
        assert cli_main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("houserules: error: ") and "deep.json" in err
        assert "Traceback" not in err
    latin = tmp_path / "latin.json"
    latin.write_bytes(b"\xff{}")
    assert cli_main(["moves", "--layout", "standard", "--modifier", str(latin)]) == 2
    assert f"cannot read modifier file '{latin}': not UTF-8 text" in capsys.readouterr().err


def test_the_command_line_takes_a_gallery_name_as_a_scenario_does(tmp_path, capsys, monkeypatch):
    fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"
    assert cli_main(["moves", fen, "--preset", "piece-hp", "--modifier", "nomad"]) == 0
    by_name = capsys.readouterr().out
    gallery = Path(__file__).resolve().parents[2] / "presets" / "modifiers" / "gallery"
    assert cli_main(["moves", fen, "--preset", "piece-hp",
                     "--modifier", str(gallery / "nomad.json")]) == 0
    assert capsys.readouterr().out == by_name and by_name
    assert cli_main(["moves", fen, "--modifier", "nomadd"]) == 2
    assert "unknown modifier 'nomadd' (did you mean 'nomad'?)" in capsys.readouterr().err
    # a file of that name in the working directory wins over the gallery
    (tmp_path / "nomad").write_text("{}")
    monkeypatch.chdir(tmp_path)
    assert cli_main(["moves", fen, "--modifier", "nomad"]) == 2
    assert "nomad" in capsys.readouterr().err
