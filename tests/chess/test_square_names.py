"""Square names in chess rule text (chess_rules.square_symbols): ``square: e4``
means the square e4 wherever a square goes, and a text there that names no
square is an error at its place, not a rule that never fires."""
import pytest
from hypothesis import given, settings, strategies as st

from chess_rules.rule_files import load_rule_text
from chess_rules.fide import fide_rules
from chess_rules.game import Game
from chess_rules.square_symbols import SQUARE_SLOTS
from chess_rules.squares import SQUARE_NAMES
from rete.errors import CompileError

HILL = """
rule "x.hill" stage result salience 70
when
  game()
  piece(type: king, color: ?c, square: ?t & member({squares}))
  not result()
then
  assert result(winner: ?c, reason: "hill")
end
remove fide.insufficient-material
"""


def outcome(rules, fen):
    return Game(fen, ruleset=load_rule_text(fide_rules(), rules)).outcome()


def test_a_square_name_in_a_predicate_is_the_square():
    named = HILL.format(squares="d4, e4, d5, e5")
    numbered = HILL.format(squares="27, 28, 35, 36")
    on_hill = "4k3/8/8/8/4K3/8/8/8 w - - 0 1"
    off_hill = "4k3/8/8/8/8/4K3/8/8 w - - 0 1"
    assert outcome(named, on_hill).winner == "white"
    assert outcome(named, on_hill) == outcome(numbered, on_hill)
    assert outcome(named, off_hill) is None
    # before square names, the first rule never fired: the bare kings were
    # judged by nothing at all
    assert outcome(numbered, off_hill) is None


def test_a_square_name_written_by_a_modify_moves_the_piece_there():
    rules = """
rule "x.slide-on" stage post-move
when
  move(to: e4, piece: pawn)
  ?p <- piece(square: e4)
then
  modify ?p (square: e5)
end
"""
    g = Game("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", ruleset=load_rule_text(fide_rules(), rules))
    g.push("e2e4")
    assert g.piece_at("e5") is not None and g.piece_at("e4") is None
    assert g.fen().startswith("4k3/8/8/4P3/8/8/8/4K3 b")


@pytest.mark.parametrize("text,line,column", [
    ('rule "x.a" stage result\nwhen\n  piece(square: i9)\nthen\nend\n', 3, 9),
    ('rule "x.b" stage result\nwhen\n  game()\n  piece(type: king)\n  piece(square: != "e0")\n'
     'then\nend\n', 5, 9),
    ('rule "x.c" stage post-move\nwhen\n  ?p <- piece(square: e4)\n  move(to: e4)\nthen\n'
     '  modify ?p (square: x4)\nend\n', 6, 14),
    ('rule "x.d" stage post-move\nwhen\n  move(to: e4)\nthen\n'
     '  assert ep(square: e3, pawn: e9, by: white)\nend\n', 5, 25),
])
def test_a_text_that_names_no_square_is_refused_at_its_place(text, line, column):
    rs = fide_rules()
    before = rs.describe()
    with pytest.raises(CompileError) as ei:
        load_rule_text(rs, text, "t.hr")
    assert (ei.value.line, ei.value.column) == (line, column), str(ei.value)
    assert "holds a square" in str(ei.value)
    assert rs.describe() == before


def test_square_names_elsewhere_are_left_as_written():
    # a test's operands and a function of the rule set's own are not squares
    # that the text says are squares: nothing is turned into a number there
    rules = """
rule "x.e" stage result
when
  game()
  piece(square: ?s)
  test ?s = e4
then
end
"""
    rs = load_rule_text(fide_rules(), rules)
    prod = rs.productions["x.e"]
    assert any(getattr(c, "args", None) and "e4" in c.args for c in prod.conditions)


_SLOT_CASES = [(t, s) for t, slots in sorted(SQUARE_SLOTS.items()) for s in sorted(slots)]


@settings(max_examples=60, deadline=None)
@given(case=st.sampled_from(_SLOT_CASES), sq=st.integers(0, 63),
       form=st.sampled_from(["{v}", "!= {v}", "?x & member({a}, {v})", ">= {v}"]))
def test_a_named_square_compiles_to_the_numbered_one(case, sq, form):
    template, slot = case
    text = ('rule "x.p" stage result\nwhen\n  game()\n  {t}({s}: {c})\nthen\nend\n')
    named = load_rule_text(fide_rules(), text.format(
        t=template, s=slot, c=form.format(v=SQUARE_NAMES[sq], a="a1")))
    numbered = load_rule_text(fide_rules(), text.format(
        t=template, s=slot, c=form.format(v=sq, a=0)))
    assert named.productions["x.p"].conditions == numbered.productions["x.p"].conditions
