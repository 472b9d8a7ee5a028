"""bouncing-pieces and bouncing-pieces-2: the Bounce topologies checked against
properties that follow from the rule, and the presets' moves and attacks."""
from __future__ import annotations

import random

import pytest

from chess_rules import geometry as geo
from chess_rules.game import Game
from chess_rules.squares import DIAGONAL, ORTHOGONAL, SQUARE_NAMES, parse_square
from chess_rules.topology import BOUNCE, BOUNCE2, PLAIN, Bounce
from presets.registry import load

TOPOS = {"bouncing-pieces": (BOUNCE, 1, "files"), "bouncing-pieces-2": (BOUNCE2, 2, "all")}


def names(squares):
    return [SQUARE_NAMES[s] for s in squares]


def test_shared_instances():
    assert Bounce(1, "files") is BOUNCE and Bounce(2, "all") is BOUNCE2
    with pytest.raises(ValueError):
        Bounce(-1, "files")
    with pytest.raises(ValueError):
        Bounce(1, "top")


def test_spec_examples():
    c1 = parse_square("c1")
    assert names(BOUNCE.rays["NW"][c1]) == ["b2", "a3", "b4", "c5", "d6", "e7", "f8"]
    assert names(BOUNCE2.rays["NE"][c1]) == ["d2", "e3", "f4", "g5", "h6", "g7", "f8",
                                             "e7", "d6", "c5", "b4", "a3"]


def _reflections(sq, ray):
    """Direction changes along a ray (a corner counts once), and whether each step
    is one diagonal square."""
    path = [sq] + list(ray)
    dirs = []
    for a, b in zip(path, path[1:]):
        df, dr = (b & 7) - (a & 7), (b >> 3) - (a >> 3)
        assert abs(df) == 1 and abs(dr) == 1, (SQUARE_NAMES[a], SQUARE_NAMES[b])
        dirs.append((df, dr))
    return dirs


@pytest.mark.parametrize("pid", sorted(TOPOS))
def test_ray_properties(pid):
    topo, max_ref, edges = TOPOS[pid]
    for sq in range(64):
        for d in ORTHOGONAL:
            assert topo.rays[d][sq] == PLAIN.rays[d][sq]          # no orthogonal bounce
        assert topo.knight_leaps[sq] == PLAIN.knight_leaps[sq]
        assert topo.king_leaps[sq] == PLAIN.king_leaps[sq]
        for d in DIAGONAL:
            ray = topo.rays[d][sq]
            assert sq not in ray and len(set(ray)) == len(ray)
            assert ray[:len(PLAIN.rays[d][sq])] == PLAIN.rays[d][sq]   # starts as the plain ray
            # reflections: a component flips only at the edge it would cross
            f, r = sq & 7, sq >> 3
            dirs = [(1 if "E" in d else -1, 1 if "N" in d else -1)]
            # rebuild the walk without dedupe to count reflections
            df, dr = dirs[0]
            refl = 0
            visited = []
            while True:
                nf, nr = f + df, r + dr
                if not (0 <= nf < 8 and 0 <= nr < 8):
                    if not visited:
                        break
                    if not 0 <= nr < 8 and edges == "files":
                        break
                    if refl == max_ref:
                        break
                    df = -df if not 0 <= nf < 8 else df
                    dr = -dr if not 0 <= nr < 8 else dr
                    refl += 1
                    nf, nr = f + df, r + dr
                f, r = nf, nr
                t = f + 8 * r
                if t == sq:
                    break
                visited.append(t)
            assert ray == tuple(dict.fromkeys(visited)), (SQUARE_NAMES[sq], d)
            _reflections(sq, tuple(visited))


@pytest.mark.parametrize("pid", sorted(TOPOS))
def test_reverse_attack_lookup_matches_forward_rays(pid):
    """A slider attacks t iff t is on one of its (blocked) rays: the reverse lookup
    the check test uses agrees with walking every slider's rays forward."""
    topo = TOPOS[pid][0]
    rng = random.Random(7)
    for _ in range(300):
        colors, types = [None] * 64, [None] * 64
        for s in rng.sample(range(64), rng.randint(1, 24)):
            colors[s] = rng.choice(("white", "black"))
            types[s] = rng.choice(("bishop", "queen", "rook", "knight", "pawn", "king"))
        fwd = set()
        for s in range(64):
            if colors[s] == "white" and types[s] in ("bishop", "queen"):
                fwd.update(geo.slide_attacks(colors, topo, s, DIAGONAL))
        for t in range(64):
            assert geo.attacked_by_slider(colors, types, topo, t, "white",
                                          ("bishop", "queen"), DIAGONAL) == (t in fwd)


@pytest.mark.parametrize("pid", sorted(TOPOS))
def test_moves_and_attacks_of_the_preset(pid):
    """On random positions: every bishop/queen diagonal destination is a slide along
    the bouncing rays, and check matches the forward attack sets."""
    topo = TOPOS[pid][0]
    rs = load(pid)
    assert rs.topology is topo
    rng = random.Random(11)
    reflected = 0
    for _ in range(60):
        g = Game(presets=[pid])
        for _ in range(rng.randint(4, 30)):
            moves = g.legal_moves()
            if not moves or g.outcome() is not None:
                break
            g.push(rng.choice(moves))
        st = g.state
        colors, types = st.colors, st.types
        turn = g.turn
        for s in range(64):
            if colors[s] == turn and types[s] == "bishop":
                want = set(geo.slide_targets(colors, topo, s, turn, DIAGONAL))
                plain = set(geo.slide_targets(colors, PLAIN, s, turn, DIAGONAL))
                got = {m.to for m in g.legal_moves() if m.frm == s}
                assert got <= want
                reflected += len(got - plain)
        opp = "black" if turn == "white" else "white"
        fwd = set()
        for s in range(64):
            if colors[s] == opp and types[s] in ("bishop", "queen"):
                fwd.update(geo.slide_attacks(colors, topo, s, DIAGONAL))
        k = next(s for s in range(64) if colors[s] == turn and types[s] == "king")
        if k in fwd:
            assert g.is_check()
    assert reflected > 0    # the bishops did use reflected squares


def test_bouncing_changes_perft_as_it_should():
    # 1.e3/e4 pin f7 and 1.c3/c4 pin d7 through the queen's reflected diagonal
    assert Game(presets=["bouncing-pieces"]).perft(2) == 392
    assert Game(presets=["bouncing-pieces-2"]).perft(2) == 392
    assert Game().perft(2) == 400
