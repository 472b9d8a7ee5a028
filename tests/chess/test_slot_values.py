"""A symbolic value a slot never holds (``piece(type: kniht)``, ``color: purple``)
is refused when the rule compiles, with a "did you mean", in rule text and in
Python alike; the engine learns the values from the chess layer's hook and
knows no chess itself. docs/facts.md is the schema written out."""
from __future__ import annotations

from pathlib import Path

import pytest

from chess_rules import schema
from chess_rules.rule_files import load_rule_text
from chess_rules.fide import fide_rules
from chess_rules.game import Game
from rete import Call, ModifyFact, P, Rule, Session, V
from rete.errors import UnknownSlotValueError

ROOT = Path(__file__).resolve().parents[2]

RULE = '''rule "house.knight-step" stage generate
when
  movegen(color: ?c)
  ?p <- piece(type: knight, color: ?c)
then
  call gen-leap(?p, "N E S W")
end
'''


@pytest.mark.parametrize("typo, slot, value, col, hint", [
    ("type: kniht, color: ?c", "type", "kniht", 15, "did you mean 'knight'?"),
    ("type: knight, color: purple", "color", "purple", 29, "holds one of: white, black"),
    ("type: != kniht, color: ?c", "type", "kniht", 15, "did you mean 'knight'?"),
    ("type: ?t & member(knight, bishoq), color: ?c", "type", "bishoq",
     15, "did you mean 'bishop'?"),
])
def test_a_typo_in_rule_text_is_refused_at_its_place(typo, slot, value, col, hint):
    rs = fide_rules()
    before = sorted(rs.productions)
    with pytest.raises(UnknownSlotValueError) as e:
        load_rule_text(rs, RULE.replace("type: knight, color: ?c", typo), "house.hr")
    assert e.value.name == ("piece", slot) and e.value.value == value
    assert str(e.value).startswith(f"house.hr:4:{col}: ")
    assert hint in str(e.value)
    assert sorted(rs.productions) == before          # the rule set is as it was


def test_the_correct_values_load_and_the_rule_fires():
    rs = load_rule_text(fide_rules(), RULE, "house.hr")
    game = Game(ruleset=rs)
    assert "b1b2" not in [m.uci() for m in game.legal_moves()]    # b2 holds a pawn
    assert "g1g2" not in [m.uci() for m in game.legal_moves()]
    game.push("e2e4")
    game.push("e7e5")
    assert "g1f1" not in [m.uci() for m in game.legal_moves()]    # the bishop stands there
    game.push("f1c4")
    game.push("b8c6")
    assert "g1f1" in [m.uci() for m in game.legal_moves()]


def test_a_typo_in_a_python_rule_is_refused_when_the_rule_set_compiles():
    rs = fide_rules()
    rs.add(Rule("house.typo", stage="generate")
           .when(P("movegen", color=V.c), P("piece", type="kniht", color=V.c).as_("p"))
           .then(Call("gen-leap", V.p, "N")))
    with pytest.raises(UnknownSlotValueError, match="did you mean 'knight'"):
        Game(ruleset=rs)


def test_an_action_writing_a_value_the_slot_never_holds_is_refused():
    rs = fide_rules()
    rs.add(Rule("house.paint", stage="post-move")
           .when(P("move", to=V.t), P("piece", square=V.t).as_("p"))
           .then(ModifyFact("p", color="whiet")))
    with pytest.raises(UnknownSlotValueError, match="did you mean 'white'"):
        Game(ruleset=rs)


def test_a_session_without_the_hook_takes_any_value():
    # the engine itself knows no domain: the check is the chess layer's hook
    s = Session()
    s.deftemplate("piece", "type")
    s.add(Rule("r").when(P("piece", type="kniht")))
    s.slot_values = lambda template, slot: ("knight",) if slot == "type" else None
    with pytest.raises(UnknownSlotValueError):
        s.add(Rule("r2").when(P("piece", type="kniht")))
    assert "r2" not in s.productions


def test_every_symbolic_slot_names_a_slot_of_its_template():
    templates = {t.name: t for t in schema.TEMPLATES}
    for (template, slot), values in schema.SLOT_VALUES.items():
        assert slot in templates[template].slots
        assert values
    for t in schema.TEMPLATES:
        assert set(schema.SLOT_DOCS[t.name]) == set(t.slots), t.name


def test_the_facts_page_is_the_schema_written_out():
    page = (ROOT / "docs" / "facts.md").read_text(encoding="utf-8")
    assert page == schema.facts_page(), \
        "docs/facts.md is stale: python -m chess_rules.schema > docs/facts.md"
    for t in schema.TEMPLATES:
        assert f"## `{t.name}`" in page
        for slot in t.slots:
            assert f"| `{slot}` |" in page
