"""The report's statistics against closed forms and independent formulas."""
from __future__ import annotations

import math

from hypothesis import given, strategies as st

from houserules.lab.stats import Z95, chi2_sf, ending, chi_square, compare, elo, holm, summarize, wilson


@given(st.integers(1, 5000))
def test_wilson_of_no_success_has_its_closed_form_upper_bound(n):
    lo, hi = wilson(0, n)
    assert lo == 0 and math.isclose(hi, Z95 ** 2 / (n + Z95 ** 2), rel_tol=1e-12)


@given(st.integers(1, 2000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_holds_the_rate_and_mirrors_for_failures(kn):
    k, n = kn
    lo, hi = wilson(k, n)
    assert 0 <= lo <= k / n <= hi <= 1
    lo2, hi2 = wilson(n - k, n)
    assert math.isclose(lo, 1 - hi2, abs_tol=1e-12) and math.isclose(hi, 1 - lo2, abs_tol=1e-12)


@given(st.floats(0.001, 200))
def test_the_chi_square_tail_matches_the_closed_forms(x):
    assert math.isclose(chi2_sf(x, 1), math.erfc(math.sqrt(x / 2)), rel_tol=1e-9, abs_tol=1e-300)
    assert math.isclose(chi2_sf(x, 2), math.exp(-x / 2), rel_tol=1e-9, abs_tol=1e-300)
    assert math.isclose(chi2_sf(x, 4), math.exp(-x / 2) * (1 + x / 2), rel_tol=1e-9,
                        abs_tol=1e-300)


def test_the_chi_square_critical_values_of_the_tables():
    # 5% critical values printed in every table
    for df, critical in ((1, 3.841), (2, 5.991), (3, 7.815), (4, 9.488), (10, 18.307)):
        assert math.isclose(chi2_sf(critical, df), 0.05, abs_tol=2e-4)


@given(st.lists(st.integers(1, 300), min_size=4, max_size=4))
def test_the_2x2_statistic_is_the_shortcut_formula(cells):
    a, b, c, d = cells
    stat, df, p, _ = chi_square([[a, b], [c, d]])
    n = a + b + c + d
    expected = n * (a * d - b * c) ** 2 / ((a + b) * (c + d) * (a + c) * (b + d))
    assert df == 1 and math.isclose(stat, expected, rel_tol=1e-9, abs_tol=1e-9)


def test_identical_rows_do_not_differ_and_an_empty_column_is_dropped():
    assert chi_square([[10, 0, 5], [20, 0, 10]])[:3] == (0.0, 1, 1.0)


def test_elo_of_known_scores():
    assert elo(5, 10, 5)[0] == 0
    assert math.isclose(elo(75, 0, 25)[0], 400 * math.log10(3))
    diff, err = elo(30, 20, 10)
    assert math.isclose(diff, -elo(10, 20, 30)[0]) and math.isclose(err, elo(10, 20, 30)[1])
    # all wins and no loss: Elo is unbounded
    assert elo(10, 0, 0) == (math.inf, math.inf)
    # more games, smaller error
    assert elo(300, 200, 100)[1] < err


def test_holm_adjusts_in_rank_order_and_keeps_monotone():
    assert [round(p, 6) for p in holm([0.01, 0.04, 0.03])] == [0.03, 0.06, 0.06]
    assert holm([0.5]) == [0.5]


def _row(variant, winner, plies, rule="fide.checkmate-win", dice=False, turns=0, cut=0):
    import json
    return {"variant": variant, "variant_config": json.dumps({"name": variant, "dice": dice}),
            "winner": winner, "plies": plies, "turns": turns, "turns_cut": cut,
            "rule": rule if winner else None, "reason": "checkmate" if winner else "move cap",
            "seconds": 1.0, "run": 1}


def test_an_ending_names_the_rule_and_the_reason_when_the_rule_does_not_say_it():
    assert ending("fide.checkmate-win", "checkmate") == "fide.checkmate-win"
    assert ending("fide.checkmate-win", "first capture") == "fide.checkmate-win (first capture)"
    assert ending(None, "move cap") == "move cap"


def test_summaries_count_per_variant_and_compare_them():
    rows = ([_row("a", "white", 10 + i) for i in range(30)] + [_row("a", None, 200)] * 10
            + [_row("b", "black", 20)] * 30 + [_row("b", "white", 20)] * 10
            + [_row("d", None, 5, dice=True, turns=8, cut=2)] * 4)
    a, b, d = summarize(rows)
    assert (a.games, a.white, a.draws, a.black) == (40, 30, 10, 0)
    assert a.endings == {"fide.checkmate-win": 30, "move cap": 10}
    assert a.length_quartiles()[1] == statistics_median([10 + i for i in range(30)] + [200] * 10)
    assert (b.score, d.cut_share, a.cut_share) == (0.25, 0.25, None)
    tests = compare([a, b])
    assert len(tests) == 1 and tests[0].significant and tests[0].p < 1e-6
    assert not compare([a, a])[0].significant


def statistics_median(xs):
    import statistics
    return statistics.median(xs)
