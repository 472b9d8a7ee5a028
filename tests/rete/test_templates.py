"""Templates after the fact: redeclaring one, extending one with slots (what a
preset does to ``piece``), and functions registered by decorator."""
from __future__ import annotations

import pytest

from rete import Call, P, Rule, Session, V
from rete.errors import (DuplicateTemplateError, SlotValueError, UnknownFunctionError,
                         UnknownSlotError, UnknownTemplateError)


def test_a_template_declared_twice_the_same_way_is_one_template():
    s = Session()
    t = s.deftemplate("piece", "square", "color")
    assert s.deftemplate("piece", "square", "color") == t


def test_a_different_template_under_a_taken_name_is_refused():
    s = Session()
    s.deftemplate("piece", "square", "color")
    with pytest.raises(DuplicateTemplateError, match="already declared"):
        s.deftemplate("piece", "square")
    assert s.templates["piece"].slots == ("square", "color")


def test_a_replacement_must_keep_the_slots_and_fills_the_new_ones():
    s = Session()
    s.deftemplate("piece", "square", "color")
    f = s.assert_fact("piece", square=4, color="white")
    with pytest.raises(DuplicateTemplateError, match="must keep its slots \\(color\\)"):
        s.deftemplate("piece", "square", "hp", replace=True)
    assert s.templates["piece"].slots == ("square", "color")
    s.deftemplate("piece", "square", "color", "hp", defaults={"hp": 3}, replace=True)
    assert f.values == {"square": 4, "color": "white", "hp": 3}


def test_extend_template_gives_existing_facts_the_defaults_and_rules_can_match_them():
    s = Session()
    s.deftemplate("piece", "square", "color")
    old = s.assert_fact("piece", square=4, color="white")
    t = s.extend_template("piece", "hp", defaults={"hp": 2})
    assert t.slots == ("square", "color", "hp")
    assert old.values["hp"] == 2
    new = s.assert_fact("piece", square=5, color="black", hp=1)
    hit = []
    s.register_function("seen", lambda ctx, sq: hit.append(sq))
    s.add(Rule("wounded").when(P("piece", hp=1, square=V.sq)).then(Call("seen", V.sq)))
    assert s.run() == 1 and hit == [new.values["square"]]
    with pytest.raises(UnknownTemplateError, match="unknown template 'pawn'"):
        s.extend_template("pawn", "hp")


def test_register_function_as_a_decorator():
    s = Session()
    s.deftemplate("n", "x")

    @s.register_function("double")
    def double(ctx, x):
        ctx.assert_fact("n", x=2 * x)

    assert double.__name__ == "double"          # the decorator gives the function back
    s.add(Rule("grow").when(P("n", x=V.x), P("n", x=1)).then(Call("double", V.x)))
    s.assert_fact("n", x=1)
    s.run(limit=1)
    assert sorted(f.values["x"] for f in s.facts_of("n")) == [1, 2]


def test_a_misspelt_name_is_answered_with_the_closest_known_one():
    s = Session()
    s.deftemplate("piece", "type", "color")
    with pytest.raises(UnknownTemplateError, match=r"'peice' \(did you mean 'piece'\?\)"):
        s.assert_fact("peice", type="rook")
    with pytest.raises(SlotValueError, match=r"'typ' \(did you mean 'type'\?\)"):
        s.assert_fact("piece", typ="rook")
    f = s.assert_fact("piece", type="rook")
    with pytest.raises(SlotValueError, match=r"'colr' \(did you mean 'color'\?\)"):
        s.modify(f, colr="white")
    s.register_function("promote", lambda ctx, p: None)
    for rule, err, hint in [
            (Rule("r1").when(P("peice", type=V.t)), UnknownTemplateError, "'piece'"),
            (Rule("r2").when(P("piece", colour=V.c)), UnknownSlotError, "'color'"),
            (Rule("r3").when(P("piece").as_("p")).then(Call("promot", V.p)),
             UnknownFunctionError, "'promote'")]:
        with pytest.raises(err, match=f"did you mean {hint}"):
            s.add_production(rule)
    # nothing close: no guess
    with pytest.raises(UnknownTemplateError) as ei:
        s.assert_fact("zzzz")
    assert "did you mean" not in str(ei.value)


def test_p_takes_any_slot_name_even_template():
    # P's own parameters are positional, so a slot may be named like one of them:
    # P("rule", template=...) once raised "multiple values for argument 'template'"
    s = Session()
    s.deftemplate("rule", "template", "from")
    seen = []
    s.register_function("note", lambda ctx, f: seen.append(f))
    s.add(Rule("r").when(P("rule", template="piece", **{"from": V.f}))
          .then(Call("note", V.f)))
    s.assert_fact("rule", {"template": "piece", "from": 12})
    s.assert_fact("rule", {"template": "pawn", "from": 13})
    s.run()
    assert seen == [12]
