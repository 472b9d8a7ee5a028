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
