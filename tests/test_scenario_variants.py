"""Scenarios on a catalogue variant's board (``variant capablanca``): squares
such as j8 and a10 read on that board, squares off it refused at their line
and column, and the setup that cannot go with a variant refused."""
from __future__ import annotations

import pytest

from chess_rules.game import Game
from houserules.scenarios import parse_text, run_scenario
from houserules.scenarios.model import ScenarioError

FILE = "v.hrt"


def one(text: str):
    [sc] = parse_text(text, FILE)
    return sc


def test_squares_beyond_h8_are_read_on_the_variants_board():
    sc = one('scenario "a"\n  variant capablanca\n  remove j2\n  move j1j6\n'
             '  expect piece Rj6 rj8\n  expect empty j1 j2\n')
    assert sc.setup.variant.text == "capablanca"
    assert sc.setup.remove[0][0] == "j2"
    run_scenario(sc)


def test_a_ten_rank_board_reads_rank_ten_and_its_en_passant_square():
    sc = one('scenario "g"\n  variant grand\n  move e3e5 a8a6\n  expect ep a7\n'
             '  expect piece ra10 Pe5\n  expect count %d\n'
             % len(_after("grand", "e3e5", "a8a6")))
    run_scenario(sc)


def _after(variant: str, *moves: str) -> list[str]:
    g = Game.from_variant(variant)
    for m in moves:
        g.push(m)
    return g.legal_uci()


def test_a_failing_expectation_on_the_variants_board_fails():
    sc = one('scenario "a"\n  variant capablanca\n  expect legal h1i3 h1j3\n')
    with pytest.raises(Exception) as ei:
        run_scenario(sc)
    assert "h1j3" in str(ei.value)


ERRORS = [
    # off the board of the variant, at the word
    ('scenario "a"\n  variant capablanca\n  expect empty k1\n', 3, 16,
     "bad square 'k1' (squares of capablanca's 10x8 board are a1..j8)"),
    ('scenario "a"\n  variant capablanca\n  expect legal e2e4 j8j9\n', 3, 21,
     "bad UCI move 'j8j9': j9 is not on the board"),
    ('scenario "a"\n  variant gardner\n  place Qe5 Qf5\n', 3, 14, "bad square 'f5'"),
    ('scenario "a"\n  variant gardner\n  move a2a3 e5e6\n', 3, 13, "bad UCI move 'e5e6'"),
    # the variant line may come after the squares it decides
    ('scenario "a"\n  remove a9\n  variant capablanca\n', 2, 10, "bad square 'a9'"),
    # 8x8 stays 8x8: j8 and a10 are not its squares
    ('scenario "a"\n  expect empty j8\n', 2, 16, "bad square 'j8' (squares are a1..h8)"),
    ('scenario "a"\n  expect empty a10\n', 2, 16, "bad square 'a10'"),
    ('scenario "a"\n  move i2i4\n', 2, 8, "bad move 'i2i4'"),
    # the letters of the variant's pieces, and only of its
    ('scenario "a"\n  variant capablanca\n  place Xe4\n', 3, 9, "bad piece placement 'Xe4'"),
    ('scenario "a"\n  variant gardner\n  place Ae4\n', 3, 9, "bad piece placement 'Ae4'"),
    ('scenario "a"\n  variant capablanka\n', 2, 11, "unknown variant 'capablanka'"),
    ('scenario "a"\n  variant grand\n  variant gardner\n', 3, 3, "'variant' given twice"),
    ('scenario "a"\n  variant grand\n  ruleset m:r\n', 3, 11, "either a 'variant' or a 'ruleset'"),
]


@pytest.mark.parametrize("text,line,column,fragment", ERRORS, ids=[e[3] for e in ERRORS])
def test_errors_on_the_variants_board_point_at_line_and_column(text, line, column, fragment):
    with pytest.raises(ScenarioError) as ei:
        parse_text(text, FILE)
    e = ei.value
    assert (e.line, e.column) == (line, column), str(e)
    assert fragment in e.message, e.message


def test_a_fairy_letter_is_placed_on_a_variant_that_has_it():
    sc = one('scenario "a"\n  variant capablanca\n  place Ae4\n  expect legal e4g5 e4h7\n'
             '  expect illegal e4e5\n')
    run_scenario(sc)


def test_presets_on_a_board_other_than_8x8_are_refused_at_the_presets_line():
    sc = one('scenario "a"\n  variant capablanca\n  presets double-move\n  expect count 1\n')
    with pytest.raises(ScenarioError) as ei:
        run_scenario(sc)
    assert ei.value.line == 3 and "8x8" in ei.value.message
