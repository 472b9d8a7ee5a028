"""Board shapes from 5x5 to 12x10: square names and the topologies' tables.

The tables are checked against a direct walk over (file, rank) coordinates,
written here independently of the topology code, on every board size.
"""
from __future__ import annotations

import pickle

import pytest
from hypothesis import given, strategies as st

from chess_rules.shape import STANDARD, board_shape
from chess_rules.squares import DIRECTION_DELTAS, SQUARE_NAMES, parse_square
from chess_rules.topology import (
    BOUNCE2, CYLINDER, KNIGHT_OFFSETS, PLAIN, ROOK_WARP, Bounce, Cylinder, Plain, RookWarp,
)

SIZES = [(w, h) for w in range(5, 13) for h in range(5, 11)]
shapes = st.sampled_from(SIZES)


def test_the_standard_shape_names_squares_as_before():
    assert STANDARD.square_names == SQUARE_NAMES
    assert all(STANDARD.parse_square(n) == parse_square(n) for n in SQUARE_NAMES)
    assert PLAIN.shape is STANDARD and Plain(8, 8) is PLAIN and Plain() is PLAIN


def test_square_names_on_large_boards():
    s = board_shape(12, 10)
    assert s.square_name(0) == "a1" and s.square_name(11) == "l1"
    assert s.square_name(119) == "l10" and s.parse_square("a10") == 108
    assert len(set(s.square_names)) == 120
    capa = board_shape(10, 8)
    assert capa.parse_square("a2") == 10 and capa.square_name(79) == "j8"


@pytest.mark.parametrize("bad", ["a01", "k1", "a9", "A1", "a0", "", None, "a10 "])
def test_bad_square_names_are_refused(bad):
    with pytest.raises(ValueError):
        board_shape(10, 8).parse_square(bad)


@pytest.mark.parametrize("size", [(4, 8), (8, 4), (13, 8), (8, 11), ("8", 8), (True, 8)])
def test_sizes_outside_the_range_are_refused(size):
    with pytest.raises(ValueError):
        board_shape(*size)
    with pytest.raises(ValueError):
        Plain(*size)


def _walk(w, h, sq, df, dr, wrap_files=False, wrap_both=False):
    f, r = sq % w, sq // w
    out = []
    while True:
        f, r = f + df, r + dr
        if wrap_files or wrap_both:
            f %= w
        if wrap_both:
            r %= h
        if not (0 <= f < w and 0 <= r < h) or f + w * r == sq:
            return tuple(out)
        out.append(f + w * r)


@given(shapes)
def test_plain_rays_steps_and_leaps_match_a_direct_walk(size):
    w, h = size
    topo = Plain(w, h)
    assert topo.squares == range(w * h) and topo.shape is board_shape(w, h)
    for sq in topo.squares:
        for d, (df, dr) in DIRECTION_DELTAS.items():
            ray = _walk(w, h, sq, df, dr)
            assert topo.rays[d][sq] == ray
            assert topo.steps[d][sq] == (ray[0] if ray else None)
        f, r = sq % w, sq // w
        knights = {f + df + w * (r + dr) for df, dr in KNIGHT_OFFSETS
                   if 0 <= f + df < w and 0 <= r + dr < h}
        assert set(topo.knight_leaps[sq]) == knights


@given(shapes)
def test_cylinder_and_rook_warp_wrap_at_their_own_edges(size):
    w, h = size
    cyl, warp = Cylinder(w, h), RookWarp(w, h)
    for sq in cyl.squares:
        assert cyl.rays["W"][sq] == _walk(w, h, sq, -1, 0, wrap_files=True)
        assert cyl.rays["N"][sq] == _walk(w, h, sq, 0, 1)
        assert warp.rays["N"][sq] == _walk(w, h, sq, 0, 1, wrap_both=True)
        assert len(warp.rays["E"][sq]) == w - 1 and len(warp.rays["S"][sq]) == h - 1


@given(shapes)
def test_bounce_rays_stay_on_the_board_and_reverse_exactly(size):
    w, h = size
    topo = Bounce(2, "all", w, h)
    for d in ("NE", "SE", "SW", "NW"):
        for sq in topo.squares:
            ray = topo.rays[d][sq]
            assert all(0 <= t < w * h for t in ray) and sq not in ray
            assert len(topo.origin_dirs[d][sq]) == len(ray)
    # the 8x8 instance is the shared one, and a reshaped one keeps its kind
    assert Bounce(2, "all", 8, 8) is BOUNCE2
    assert BOUNCE2.on_shape(w, h) is topo


def test_topologies_are_shared_per_shape_and_pickle_to_themselves():
    for topo in (PLAIN, CYLINDER, BOUNCE2, ROOK_WARP, Plain(10, 8), Bounce(1, "files", 6, 6)):
        assert pickle.loads(pickle.dumps(topo)) is topo
        assert topo.on_shape(topo.width, topo.height) is topo
    assert Plain(10, 8) is not PLAIN and repr(Plain(10, 8)) == "<Topology plain 10x8>"
    assert repr(PLAIN) == "<Topology plain>"
