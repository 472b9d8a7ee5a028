"""Geometry and topologies: differential against python-chess on the plain board,
hand-worked scenarios for the cylinder, bouncing and rook-warp boards, and property
tests that the reverse attack lookups agree with forward ray walks."""

from __future__ import annotations

import random

import chess
import pytest
from hypothesis import given, settings, strategies as st

from chess_rules.geometry import (
    BISHOP_DIRS, KING_OFFSETS, KNIGHT_OFFSETS, QUEEN_DIRS, ROOK_DIRS,
    attacked_by_leaper, attacked_by_pawn, attacked_by_slider, attackers_fide,
    en_passant_victim, is_attacked_fide, is_pawn_home_square, is_promotion_square,
    leap_targets, pawn_capture_squares, pawn_double_square, pawn_home_rank,
    pawn_promotion_rank, pawn_push_square, slide_attacks, slide_targets,
)
from chess_rules.squares import (
    A1, A3, A4, A5, A6, A8, B1, C1, D4, F6, F8, H1, H2, H4, H5, H6, CLOCKWISE, DIAGONAL, DIRECTION_DELTAS, ORTHOGONAL, SQUARE_NAMES, parse_square,
)
from chess_rules.topology import (
    BOUNCE, BOUNCE2, CYLINDER, PLAIN, ROOK_WARP, Bounce, Cylinder, Plain, RookWarp,
    topology_by_name,
)

TYPE_NAMES = {chess.PAWN: "pawn", chess.KNIGHT: "knight", chess.BISHOP: "bishop",
              chess.ROOK: "rook", chess.QUEEN: "queen", chess.KING: "king"}
SLIDER_DIRS = {"bishop": BISHOP_DIRS, "rook": ROOK_DIRS, "queen": QUEEN_DIRS}


def names(squares):
    return [SQUARE_NAMES[s] for s in squares]


def sqs(*text):
    return {parse_square(t) for t in text}


def playout_boards(seed: int, games: int, max_plies: int):
    """Positions from seeded random playouts."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        board = chess.Board()
        for _ in range(rng.randrange(max_plies)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            if rng.random() < 0.25:
                out.append(board.copy(stack=False))
        out.append(board.copy(stack=False))
    return out


BOARDS = playout_boards(20240601, 60, 160)


def mailbox(board: chess.Board):
    colors = [None] * 64
    types = [None] * 64
    for sq, piece in board.piece_map().items():
        colors[sq] = "white" if piece.color else "black"
        types[sq] = TYPE_NAMES[piece.piece_type]
    return colors, types


def empty():
    return [None] * 64, [None] * 64


def place(colors, types, text):
    """place(colors, types, 'Ra4 pb5 ...'): upper-case letter White, lower Black."""
    letters = {"p": "pawn", "n": "knight", "b": "bishop", "r": "rook", "q": "queen", "k": "king"}
    for item in text.split():
        sq = parse_square(item[1:])
        colors[sq] = "white" if item[0].isupper() else "black"
        types[sq] = letters[item[0].lower()]


# ---------------------------------------------------------------------------------
# Plain board against python-chess
# ---------------------------------------------------------------------------------


def forward_attacks(colors, types, topo, sq, rook_topo=None):
    t = types[sq]
    if t == "knight":
        return set(topo.leaps(sq, KNIGHT_OFFSETS))
    if t == "king":
        return set(topo.leaps(sq, KING_OFFSETS))
    if t == "pawn":
        return set(pawn_capture_squares(topo, sq, colors[sq]))
    if t == "rook" and rook_topo is not None:
        return set(slide_attacks(colors, rook_topo, sq, ROOK_DIRS))
    return set(slide_attacks(colors, topo, sq, SLIDER_DIRS[t]))


def test_piece_attacks_match_python_chess():
    assert len(BOARDS) > 200
    for board in BOARDS:
        colors, types = mailbox(board)
        for sq in board.piece_map():
            assert forward_attacks(colors, types, PLAIN, sq) == set(board.attacks(sq)), (board.fen(), sq)


def test_move_targets_match_python_chess():
    for board in BOARDS:
        colors, types = mailbox(board)
        for sq, piece in board.piece_map().items():
            colour = colors[sq]
            own = board.occupied_co[piece.color]
            expected = set(chess.SquareSet(board.attacks_mask(sq) & ~own))
            t = types[sq]
            if t in SLIDER_DIRS:
                got = slide_targets(colors, PLAIN, sq, colour, SLIDER_DIRS[t])
            elif t == "knight":
                got = leap_targets(colors, PLAIN, sq, colour, KNIGHT_OFFSETS)
            elif t == "king":
                got = leap_targets(colors, PLAIN, sq, colour, KING_OFFSETS)
            else:
                continue
            assert len(got) == len(set(got))
            assert set(got) == expected, (board.fen(), sq)


def test_is_attacked_and_attackers_match_python_chess():
    for board in BOARDS:
        colors, types = mailbox(board)
        for colour_bool, colour in ((chess.WHITE, "white"), (chess.BLACK, "black")):
            for sq in range(64):
                expected = board.is_attacked_by(colour_bool, sq)
                assert is_attacked_fide(colors, types, PLAIN, sq, colour) == expected, (board.fen(), sq)
                assert set(attackers_fide(colors, types, PLAIN, sq, colour)) == set(board.attackers(colour_bool, sq))
                split = (attacked_by_pawn(colors, types, PLAIN, sq, colour)
                         or attacked_by_leaper(colors, types, PLAIN, sq, colour, "knight", KNIGHT_OFFSETS)
                         or attacked_by_leaper(colors, types, PLAIN, sq, colour, "king", KING_OFFSETS)
                         or attacked_by_slider(colors, types, PLAIN, sq, colour, ("bishop", "queen"), BISHOP_DIRS)
                         or attacked_by_slider(colors, types, PLAIN, sq, colour, ("rook", "queen"), ROOK_DIRS))
                assert split == expected


def test_pawn_pushes_match_python_chess():
    for board in BOARDS[:80]:
        colors, types = mailbox(board)
        colour = "white" if board.turn else "black"
        expected = {(m.from_square, m.to_square) for m in board.pseudo_legal_moves
                    if board.piece_type_at(m.from_square) == chess.PAWN
                    and chess.square_file(m.from_square) == chess.square_file(m.to_square)}
        got = set()
        for sq in range(64):
            if types[sq] != "pawn" or colors[sq] != colour:
                continue
            one = pawn_push_square(PLAIN, sq, colour)
            if one is not None and colors[one] is None:
                got.add((sq, one))
                two = pawn_double_square(PLAIN, sq, colour)
                if is_pawn_home_square(sq, colour) and colors[two] is None:
                    got.add((sq, two))
        assert got == expected, board.fen()


def test_pawn_helpers():
    assert pawn_push_square(PLAIN, parse_square("e2"), "white") == parse_square("e3")
    assert pawn_push_square(PLAIN, parse_square("e7"), "black") == parse_square("e6")
    assert pawn_push_square(PLAIN, parse_square("e8"), "white") is None
    assert pawn_double_square(PLAIN, parse_square("e2"), "white") == parse_square("e4")
    assert pawn_double_square(PLAIN, parse_square("e4"), "white") == parse_square("e6")  # sprint
    assert pawn_double_square(PLAIN, parse_square("e7"), "white") is None
    assert pawn_double_square(PLAIN, parse_square("e7"), "black") == parse_square("e5")
    assert set(pawn_capture_squares(PLAIN, parse_square("a2"), "white")) == sqs("b3")
    assert set(pawn_capture_squares(PLAIN, parse_square("e7"), "black")) == sqs("d6", "f6")
    assert pawn_home_rank("white") == 1 and pawn_home_rank("black") == 6
    assert pawn_promotion_rank("white") == 7 and pawn_promotion_rank("black") == 0
    assert is_promotion_square(parse_square("a8"), "white")
    assert is_promotion_square(parse_square("h1"), "black")
    assert not is_promotion_square(parse_square("h1"), "white")
    assert en_passant_victim(PLAIN, parse_square("e6"), "white") == parse_square("e5")
    assert en_passant_victim(PLAIN, parse_square("d3"), "black") == parse_square("d4")


# ---------------------------------------------------------------------------------
# Topology objects
# ---------------------------------------------------------------------------------


def test_topologies_are_cached_singletons():
    assert Plain() is PLAIN and Cylinder() is CYLINDER and RookWarp() is ROOK_WARP
    assert Bounce() is BOUNCE and Bounce(1, "files") is BOUNCE
    assert Bounce(max_reflections=2, edges="all") is BOUNCE2
    assert Bounce(3, "all") is Bounce(3, "all") and Bounce(3, "all") is not BOUNCE2
    assert topology_by_name("wrap-board") is CYLINDER
    assert topology_by_name("bouncing-pieces-2") is BOUNCE2
    with pytest.raises(KeyError):
        topology_by_name("torus")
    with pytest.raises(ValueError):
        Bounce(1, "ranks")
    with pytest.raises(ValueError):
        Bounce(-1)


@pytest.mark.parametrize("topo", [PLAIN, CYLINDER, BOUNCE, BOUNCE2, ROOK_WARP])
def test_rays_never_repeat_or_include_origin(topo):
    for sq in range(64):
        for d in CLOCKWISE:
            ray = topo.ray(sq, d)
            assert sq not in ray
            assert len(ray) == len(set(ray))


def test_plain_rays_steps_leaps():
    assert names(PLAIN.ray(A1, "NE")) == ["b2", "c3", "d4", "e5", "f6", "g7", "h8"]
    assert PLAIN.ray(A1, "W") == () and PLAIN.ray(H1, "SE") == ()
    assert PLAIN.step(A1, "W") is None and PLAIN.step(A1, "N") == parse_square("a2")
    assert set(PLAIN.leaps(A1, KNIGHT_OFFSETS)) == sqs("b3", "c2")
    assert set(PLAIN.leaps(D4, ((0, 1), (0, 2)))) == sqs("d5", "d6")


# ---------------------------------------------------------------------------------
# Cylinder (wrap-board)
# ---------------------------------------------------------------------------------


def test_cylinder_rook_wraps_west_from_a_file():
    colors, types = empty()
    place(colors, types, "Ra4")
    targets = slide_targets(colors, CYLINDER, A4, "white", ROOK_DIRS)
    assert names(CYLINDER.ray(A4, "W")) == ["h4", "g4", "f4", "e4", "d4", "c4", "b4"]
    assert H4 in targets and parse_square("b4") in targets
    assert len(targets) == len(set(targets)) == 14  # whole rank and file, once each
    assert CYLINDER.ray(A4, "N") == PLAIN.ray(A4, "N")  # ranks never wrap


def test_cylinder_bishop_a1_reaches_h2():
    colors, types = empty()
    place(colors, types, "Ba1")
    targets = slide_targets(colors, CYLINDER, A1, "white", BISHOP_DIRS)
    assert H2 in targets
    assert names(CYLINDER.ray(A1, "NW"))[:2] == ["h2", "g3"]
    assert CYLINDER.ray(A1, "SW") == ()


def test_cylinder_pawn_captures_and_en_passant_wrap():
    # White pawn on h5 takes a6 across the seam.
    assert set(pawn_capture_squares(CYLINDER, H5, "white")) == sqs("g6", "a6")
    colors, types = empty()
    place(colors, types, "Ph5 pa6")
    assert attacked_by_pawn(colors, types, CYLINDER, A6, "white")
    assert not attacked_by_pawn(colors, types, PLAIN, A6, "white")
    # Black pawn double-sprints h7-h5; the white pawn on a5 takes it en passant on h6.
    assert H6 in pawn_capture_squares(CYLINDER, A5, "white")
    assert en_passant_victim(CYLINDER, H6, "white") == H5
    assert set(pawn_capture_squares(CYLINDER, A5, "black")) == sqs("b4", "h4")


def test_cylinder_knight_and_king_wrap():
    assert set(CYLINDER.leaps(A1, KNIGHT_OFFSETS)) == sqs("b3", "c2", "h3", "g2")
    assert set(CYLINDER.leaps(B1, KNIGHT_OFFSETS)) == sqs("a3", "c3", "d2", "h2")
    assert set(CYLINDER.leaps(H1, KING_OFFSETS)) == sqs("g1", "g2", "h2", "a1", "a2")
    assert CYLINDER.step(H4, "E") == A4 and CYLINDER.step(A4, "W") == H4
    assert CYLINDER.step(A8, "N") is None


def test_cylinder_check_through_the_seam():
    colors, types = empty()
    place(colors, types, "Ra4 Pb4 kh4 Ke1")  # b4 blocks the ordinary eastward slide
    assert is_attacked_fide(colors, types, CYLINDER, H4, "white")
    assert not is_attacked_fide(colors, types, PLAIN, H4, "white")
    assert attackers_fide(colors, types, CYLINDER, H4, "white") == [A4]
    place(colors, types, "Nb1")
    assert attacked_by_leaper(colors, types, CYLINDER, H2, "white", "knight", KNIGHT_OFFSETS)


# ---------------------------------------------------------------------------------
# Bounce
# ---------------------------------------------------------------------------------


def reference_bounce(sq, direction, max_reflections, reflect_ranks):
    """Independent walk: the path with repeats, and the reflection count."""
    df, dr = DIRECTION_DELTAS[direction]
    f, r = sq % 8, sq // 8
    path, reflections = [], 0
    while True:
        nf, nr = f + df, r + dr
        if not (0 <= nf < 8 and 0 <= nr < 8):
            if not path or reflections == max_reflections:
                break
            if not 0 <= nr < 8 and not reflect_ranks:
                break
            df = -df if not 0 <= nf < 8 else df
            dr = -dr if not 0 <= nr < 8 else dr
            reflections += 1
            nf, nr = f + df, r + dr
        f, r = nf, nr
        if f + 8 * r == sq:
            break
        path.append(f + 8 * r)
    return path, reflections


def test_bounce_c1_northwest_reflects_at_a3():
    assert names(BOUNCE.ray(C1, "NW")) == ["b2", "a3", "b4", "c5", "d6", "e7", "f8"]
    # bouncing-pieces-2 reflects again off rank 8 and stops at the cap.
    assert names(BOUNCE2.ray(C1, "NW")) == ["b2", "a3", "b4", "c5", "d6", "e7", "f8", "g7", "h6"]
    assert reference_bounce(C1, "NW", 2, True)[1] == 2


def test_bounce_files_only_ends_at_back_rank_and_corner():
    assert names(BOUNCE.ray(parse_square("f6"), "NE")) == ["g7", "h8"]
    assert names(BOUNCE.ray(parse_square("b7"), "NW")) == ["a8"]


def test_bounce_corner_is_one_reflection_and_stops_at_own_square():
    # f6 NE: g7, h8, corner (one reflection) back down the diagonal: g7 again
    # (listed once), then f6 itself: stop.
    assert names(BOUNCE2.ray(F6, "NE")) == ["g7", "h8"]
    path, reflections = reference_bounce(F6, "NE", 2, True)
    assert names(path) == ["g7", "h8", "g7"] and reflections == 1


def test_bounce_no_reflection_at_origin():
    assert BOUNCE.ray(A3, "NW") == ()
    assert BOUNCE2.ray(A1, "SW") == ()
    assert names(BOUNCE.ray(A3, "NE"))[:2] == ["b4", "c5"]


@pytest.mark.parametrize("topo,cap,ranks", [(BOUNCE, 1, False), (BOUNCE2, 2, True)])
def test_bounce_rays_match_reference_walk(topo, cap, ranks):
    for sq in range(64):
        for d in CLOCKWISE:
            if d in ORTHOGONAL:
                assert topo.ray(sq, d) == PLAIN.ray(sq, d)
                continue
            path, reflections = reference_bounce(sq, d, cap, ranks)
            assert reflections <= cap
            assert list(topo.ray(sq, d)) == list(dict.fromkeys(path))
    assert all(topo.step(s, d) == PLAIN.step(s, d) for s in range(64) for d in CLOCKWISE)
    assert all(set(topo.leaps(s, KNIGHT_OFFSETS)) == set(PLAIN.leaps(s, KNIGHT_OFFSETS)) for s in range(64))


def test_bounce_slide_blocked_before_and_after_reflection():
    colors, types = empty()
    place(colors, types, "Bc1 pa3")
    assert set(slide_targets(colors, BOUNCE, C1, "white", ("NW",))) == sqs("b2", "a3")
    colors, types = empty()
    place(colors, types, "Bc1 pd6 Pc5")
    assert set(slide_targets(colors, BOUNCE, C1, "white", ("NW",))) == sqs("b2", "a3", "b4")
    colors, types = empty()
    place(colors, types, "Bc1 kd6")
    d6 = parse_square("d6")
    assert is_attacked_fide(colors, types, BOUNCE, d6, "white")
    assert not is_attacked_fide(colors, types, PLAIN, d6, "white")


def test_bounce_targets_deduplicated_across_rays():
    # From c1 both NE (d2 e3 f4 g5 h6 g7 f8) and NW (... e7 f8) reach f8.
    colors, types = empty()
    place(colors, types, "Bc1")
    targets = slide_targets(colors, BOUNCE, C1, "white", BISHOP_DIRS)
    assert F8 in targets and len(targets) == len(set(targets))


# ---------------------------------------------------------------------------------
# Rook warp
# ---------------------------------------------------------------------------------


def test_warp_rays():
    assert names(ROOK_WARP.warp_ray(A4, "W")) == ["h4", "g4", "f4", "e4", "d4", "c4", "b4"]
    assert names(ROOK_WARP.warp_ray(D4, "N")) == ["d5", "d6", "d7", "d8", "d1", "d2", "d3"]
    assert names(ROOK_WARP.warp_ray(A8, "N")) == ["a1", "a2", "a3", "a4", "a5", "a6", "a7"]
    with pytest.raises(ValueError):
        ROOK_WARP.warp_ray(D4, "NE")
    assert ROOK_WARP.ray(D4, "NE") == PLAIN.ray(D4, "NE")


def test_warp_scenario_1_h1_listed_once():
    colors, types = empty()
    place(colors, types, "Ra1 Ke2")
    targets = slide_targets(colors, ROOK_WARP, A1, "white", ROOK_DIRS)
    assert targets.count(H1) == 1
    assert set(targets) == set(PLAIN.ray(A1, "E")) | set(PLAIN.ray(A1, "N"))


def test_warp_scenario_2_capture_on_h4():
    colors, types = empty()
    place(colors, types, "Ra4 nh4 pc4")
    targets = slide_targets(colors, ROOK_WARP, A4, "white", ROOK_DIRS)
    assert A8 in targets and H4 in targets and targets.count(H4) == 1
    assert parse_square("g4") not in targets  # the capture on h4 ends the warp


def test_warp_scenario_3_friendly_piece_on_d1():
    colors, types = empty()
    place(colors, types, "Rd4 Nd1")
    targets = set(slide_targets(colors, ROOK_WARP, D4, "white", ("N",)))
    assert targets == sqs("d5", "d6", "d7", "d8")
    assert set(slide_targets(colors, ROOK_WARP, D4, "white", ("S",))) == sqs("d3", "d2")


def test_warp_scenario_4_enemy_d8_friendly_d1():
    colors, types = empty()
    place(colors, types, "Rd4 rd8 Nd1")
    assert set(slide_targets(colors, ROOK_WARP, D4, "white", ("N",))) == sqs("d5", "d6", "d7", "d8")
    assert set(slide_targets(colors, ROOK_WARP, D4, "white", ("S",))) == sqs("d3", "d2")


def test_warp_check_only_for_rooks():
    colors, types = empty()
    place(colors, types, "Ra4 Pb4 kh4 Ke1")
    assert is_attacked_fide(colors, types, PLAIN, H4, "white", rook_topo=ROOK_WARP)
    assert not is_attacked_fide(colors, types, PLAIN, H4, "white")
    assert attackers_fide(colors, types, PLAIN, H4, "white", rook_topo=ROOK_WARP) == [A4]
    types[A4] = "queen"
    assert not is_attacked_fide(colors, types, PLAIN, H4, "white", rook_topo=ROOK_WARP)


# ---------------------------------------------------------------------------------
# Reverse lookups agree with forward walks, on every topology (property tests)
# ---------------------------------------------------------------------------------

PIECES = ["pawn", "knight", "bishop", "rook", "queen", "king"]


def random_board(seed, density):
    rng = random.Random(seed)
    colors, types = empty()
    for sq in range(64):
        if rng.random() < density:
            colors[sq] = rng.choice(("white", "black"))
            types[sq] = rng.choice(PIECES)
    return colors, types


TOPOLOGY_CASES = [
    (PLAIN, None), (CYLINDER, None), (BOUNCE, None), (BOUNCE2, None), (PLAIN, ROOK_WARP),
    (Bounce(3, "all"), None), (Bounce(2, "files"), None),
]


@settings(max_examples=120, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), density=st.floats(0.0, 0.6))
def test_reverse_lookup_matches_forward_attacks(seed, density):
    colors, types = random_board(seed, density)
    for topo, rook_topo in TOPOLOGY_CASES:
        attackers = {("white", t): set() for t in range(64)}
        attackers.update({("black", t): set() for t in range(64)})
        for s in range(64):
            if colors[s] is None:
                continue
            for t in forward_attacks(colors, types, topo, s, rook_topo):
                attackers[(colors[s], t)].add(s)
        for (colour, t), expected in attackers.items():
            assert is_attacked_fide(colors, types, topo, t, colour, rook_topo) == bool(expected), (topo, t)
            got = attackers_fide(colors, types, topo, t, colour, rook_topo)
            assert len(got) == len(set(got))
            assert set(got) == expected, (topo, colour, SQUARE_NAMES[t])


DIRECTION_SUBSETS = [("NE",), ("NE", "SW"), ("NW", "SE", "N"), ("NE", "NW", "SE"), DIAGONAL, ("E",)]
ODD_OFFSETS = ((1, 2), (2, 1), (0, 3))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), density=st.floats(0.0, 0.5),
       subset=st.sampled_from(DIRECTION_SUBSETS))
def test_reverse_lookup_for_direction_subsets_and_odd_leapers(seed, density, subset):
    colors, types = random_board(seed, density)
    for topo in (PLAIN, CYLINDER, BOUNCE, BOUNCE2, ROOK_WARP):
        for colour in ("white", "black"):
            slid = set()
            leapt = set()
            for s in range(64):
                if colors[s] != colour:
                    continue
                if types[s] == "bishop":
                    slid.update(slide_attacks(colors, topo, s, subset))
                if types[s] == "knight":
                    leapt.update(topo.leaps(s, ODD_OFFSETS))
            for t in range(64):
                assert attacked_by_slider(colors, types, topo, t, colour, ("bishop",), subset) == (t in slid)
                assert attacked_by_leaper(colors, types, topo, t, colour, "knight", ODD_OFFSETS) == (t in leapt)
