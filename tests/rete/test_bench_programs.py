"""The benchmark programs (benchmarks/) run through our engine, output validated.

Miss Manners 16 from ``manners.hr`` must seat every guest validly with
exactly N(N-1)/2 + 4N - 1 firings; a small Waltz from ``waltz.hr`` must
label consistently with the classic program's firing count. The rule-text and
Python-builder versions of each program must give the same run.
"""
from __future__ import annotations

import pytest

from benchmarks.manners import houserules_manners
from benchmarks.manners.generate import expected_firings, generate
from benchmarks.manners.validate import InvalidSeating, validate
from benchmarks.waltz import houserules_waltz
from benchmarks.waltz.generate import generate as waltz_data
from benchmarks.waltz.validate import InvalidLabelling, expected_firings as waltz_firings
from benchmarks.waltz.validate import validate as waltz_validate


@pytest.mark.parametrize("n", [8, 16])
def test_manners_from_rule_text(n):
    data = generate(n)
    r = houserules_manners.run(data, use_text=True)
    assert r["firings"] == expected_firings(n) == n * (n - 1) // 2 + 4 * n - 1
    names = validate(data, r["seating"], r["firings"], exact_firings=True)
    assert sorted(names) == list(range(1, n + 1))


def test_manners_text_and_builder_agree():
    data = generate(16)
    assert houserules_manners.run(data, use_text=True) == \
        houserules_manners.run(data, use_text=False)


def test_manners_validator_rejects_bad_seatings():
    data = generate(8)
    r = houserules_manners.run(data)
    pairs = list(r["seating"])
    by_seat = dict((s, n) for n, s in pairs)
    with pytest.raises(InvalidSeating):                     # one guest twice
        validate(data, [(by_seat[1], 1), (by_seat[1], 2)] + [(n, s) for n, s in pairs if s > 2])
    # exchange the guest of seat 2 with one of the same sex as seat 1's guest
    g = next(g for g in data.sexes if data.sexes[g] == data.sexes[by_seat[1]] and g != by_seat[1])
    swap = {by_seat[2]: g, g: by_seat[2]}
    with pytest.raises(InvalidSeating, match="both"):       # neighbours of one sex
        validate(data, [(swap.get(n, n), s) for n, s in pairs])
    with pytest.raises(InvalidSeating):
        validate(data, pairs[:-1])
    with pytest.raises(InvalidSeating):
        validate(data, pairs, r["firings"] + 1, exact_firings=True)


def test_manners_generator_is_the_standard_shape():
    data = generate(16)
    assert sum(1 for s in data.sexes.values() if s == "m") == 8
    assert all(2 <= len(h) <= 3 for h in data.hobbies.values())
    assert len(data.guests) == sum(len(h) for h in data.hobbies.values())
    assert generate(16) == data                      # deterministic for a seed


@pytest.mark.parametrize("regions", [1, 3])
def test_waltz_from_rule_text(regions):
    data = waltz_data(regions)
    r = houserules_waltz.run(data, use_text=True)
    waltz_validate(data, r)
    assert r["firings"] == waltz_firings(regions)
    assert r == houserules_waltz.run(data, use_text=False)
    labels = {l for _, _, l in r["edges"]}
    assert {"B", "+", "-"} <= labels


def test_waltz_validator_rejects_bad_labellings():
    data = waltz_data(1)
    r = houserules_waltz.run(data)
    edges = list(r["edges"])
    a, b, l = edges[0]
    edges[0] = (a, b, "+" if l != "+" else "-")
    with pytest.raises(InvalidLabelling):
        waltz_validate(data, {**r, "edges": edges})
    with pytest.raises(InvalidLabelling):
        waltz_validate(data, {**r, "junctions": r["junctions"][1:]})
