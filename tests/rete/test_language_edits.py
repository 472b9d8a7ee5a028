"""`remove` and `replaces` in the rule language: editing a session by name."""
import pytest

from rete import Session
from rete.errors import DuplicateProductionError, UnknownProductionError
from rete.language import format_rule_file, load_rules, parse_rules

BASE = """
template item (n)
rule count-one when item(n: 1) then call print("one") end
rule count-two when item(n: 2) then call print("two") end
"""


def session():
    s = Session()
    load_rules(s, BASE)
    return s


def test_remove_and_replace_round_trip():
    text = 'remove count-one, "count-two"\nrule count-two replaces when item(n: 3) then halt end\n'
    rf = parse_rules(text)
    assert rf.removals == ["count-one", "count-two"]
    assert rf.replaces == {"count-two"}
    assert parse_rules(format_rule_file(rf)) == rf


def test_remove_takes_productions_out_of_the_network():
    s = session()
    s.assert_fact("item", n=1)
    load_rules(s, "remove count-one")
    assert "count-one" not in s.productions
    assert s.run() == 0


def test_replaces_swaps_the_production_and_sees_existing_facts():
    s = session()
    s.assert_fact("item", n=3)
    load_rules(s, "rule count-one replaces when item(n: 3) then halt end")
    assert s.get_production("count-one").conditions[0].slots == (("n", 3),)
    assert s.run() == 1


def test_same_name_without_replaces_is_refused():
    s = session()
    with pytest.raises(DuplicateProductionError):
        load_rules(s, "rule count-one when item(n: 5) then halt end")


def test_failures_are_all_or_nothing():
    s = session()
    before = {n: s.get_production(n) for n in s.productions}
    with pytest.raises(UnknownProductionError) as ei:
        load_rules(s, "remove count-one\nremove missing-rule\n", source="edit.hr")
    assert "edit.hr:2:8" in str(ei.value)
    assert {n: s.get_production(n) for n in s.productions} == before
    with pytest.raises(UnknownProductionError):
        load_rules(s, "remove count-two\nrule ghost replaces when item(n: 1) then halt end")
    assert {n: s.get_production(n) for n in s.productions} == before


# ---------------------------------------------------------------- per rule, and exactly as before

LOGICAL = """
template a (x)
template b (x)
template c (x)
rule keep when a(x: ?v) then assert logical b(x: ?v) end
rule other when a(x: ?v) then assert c(x: ?v) end
"""


def _snapshot(s):
    return ({f.id: (f.template, dict(f.values), f.timetag) for f in s.facts.values()},
            list(s.productions),
            [(a.production.name, tuple(f.id for f in a.facts)) for a in s.activations()])


@pytest.mark.parametrize("edit", [
    "remove keep, other\n",
    "rule keep replaces when a(x: ?v) then assert logical b(x: ?v) end\n"
    "rule other replaces when a(x: ?v) then assert c(x: ?v) end\n",
    "rule keep replaces when a(x: ?v) then halt end\n",
])
def test_a_failed_edit_keeps_fired_matches_and_the_facts_they_support(edit):
    # the removed and replaced productions had fired (one supports b logically):
    # a failure later in the text must bring back neither their matches onto
    # the agenda nor lose the supported fact
    s = Session()
    load_rules(s, LOGICAL)
    s.assert_fact("a", x=1)
    assert s.run() == 2
    before = _snapshot(s)
    with pytest.raises(Exception) as ei:
        load_rules(s, edit + "rule broken when nosuch() then end\n", "bad.hr")
    assert "unknown template 'nosuch'" in str(ei.value)
    assert _snapshot(s) == before
    assert s.run() == 0 and _snapshot(s) == before
    # and the same edit without the broken rule takes effect
    load_rules(s, edit)
    assert ("keep" in s.productions) == ("remove" not in edit)


def test_replaces_belongs_to_the_rule_that_says_it():
    def s():
        out = session()
        out.deftemplate("other", "n")
        return out
    # a plain rule of an existing name is refused even when a later rule of
    # that name says replaces; and the other way round
    with pytest.raises(DuplicateProductionError) as ei:
        load_rules(s(), "rule count-one when item(n: 5) then halt end\n"
                        "rule count-one replaces when item(n: 6) then halt end\n", "e.hr")
    assert (ei.value.line, ei.value.column) == (1, 6)
    with pytest.raises(DuplicateProductionError) as ei:
        load_rules(s(), "rule count-one replaces when item(n: 5) then halt end\n"
                        "rule count-one when item(n: 6) then halt end\n", "e.hr")
    assert (ei.value.line, ei.value.column) == (2, 6)
    # a rule may replace one the text defined above it
    t = s()
    load_rules(t, "rule fresh when item(n: 5) then halt end\n"
                  "rule fresh replaces when item(n: 6) then halt end\n")
    assert t.get_production("fresh").conditions[0].slots == (("n", 6),)
    # and the round trip keeps which rule said replaces
    text = "rule x when item(n: 1) then halt end\nrule x replaces when item(n: 2) then halt end\n"
    rf = parse_rules(text)
    assert rf.replacing == [False, True]
    assert parse_rules(format_rule_file(rf)) == rf


def test_add_is_all_or_nothing():
    from rete import P, Rule
    from rete.errors import UnknownTemplateError
    s = session()
    before = list(s.productions)
    with pytest.raises(UnknownTemplateError):
        s.add(Rule("good").when(P("item")), Rule("bad").when(P("nosuch")))
    assert list(s.productions) == before
    with pytest.raises(DuplicateProductionError):
        s.add(Rule("twice").when(P("item")), Rule("twice").when(P("item", n=1)))
    assert list(s.productions) == before
