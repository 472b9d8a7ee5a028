"""Move and attack geometry over a mailbox board.

The board is seen through plain 64-entry lists indexed by square:

* ``colors[sq]`` is ``'white'``, ``'black'`` or None (empty);
* ``types[sq]`` is a piece-type string (``'pawn'`` .. ``'king'``) or None.

Move functions return lists of destination squares and do not say which are
captures: the caller looks at ``colors[to]``. Attack functions are written as reverse
lookups (walk outward from the target and look at what stands at the end), which is
what check detection wants: a handful of table walks instead of a full move
generation for the other side.

Every function takes the :class:`~chess_rules.topology.Topology` to move on, so the
same code serves the plain board, the cylinder, the bouncing boards and rook warp.
"""

from __future__ import annotations

from typing import Sequence

from .squares import (
    BISHOP, BLACK, CLOCKWISE, DIAGONAL, KING, KNIGHT, ORTHOGONAL, PAWN, QUEEN, ROOK, WHITE,
)
from .topology import KING_OFFSETS, KNIGHT_OFFSETS, Topology

__all__ = [
    "KNIGHT_OFFSETS", "KING_OFFSETS", "ROOK_DIRS", "BISHOP_DIRS", "QUEEN_DIRS",
    "slide_targets", "slide_attacks", "leap_targets",
    "pawn_forward", "pawn_push_square", "pawn_double_square", "pawn_capture_squares",
    "pawn_home_rank", "pawn_promotion_rank", "is_pawn_home_square", "is_promotion_square",
    "promotion_test", "home_rank_test", "en_passant_victim",
    "attacked_by_leaper", "attacked_by_slider", "attacked_by_pawn",
    "is_attacked_fide", "attackers_fide",
]

ROOK_DIRS: tuple[str, ...] = ORTHOGONAL
BISHOP_DIRS: tuple[str, ...] = DIAGONAL
QUEEN_DIRS: tuple[str, ...] = CLOCKWISE

_ROOK_QUEEN = (ROOK, QUEEN)
_BISHOP_QUEEN = (BISHOP, QUEEN)

# ---------------------------------------------------------------------------------
# Moves
# ---------------------------------------------------------------------------------


def slide_targets(colors: Sequence, topo: Topology, sq: int, colour: str,
                  directions: Sequence[str]) -> list[int]:
    """Destinations of a slider of ``colour`` on ``sq`` moving in ``directions``.

    Each ray is walked until blocked: an enemy-occupied square is included and ends
    the ray, a friendly one ends it before. On topologies whose rays overlap
    (everything but Plain) a square reached along two rays is listed once.
    """
    rays = topo.rays
    out: list[int] = []
    if topo.dedupe:
        for d in directions:
            for t in rays[d][sq]:
                c = colors[t]
                if c is None:
                    if t not in out:
                        out.append(t)
                    continue
                if c != colour and t not in out:
                    out.append(t)
                break
    else:
        append = out.append
        for d in directions:
            for t in rays[d][sq]:
                c = colors[t]
                if c is None:
                    append(t)
                else:
                    if c != colour:
                        append(t)
                    break
    return out


def slide_attacks(colors: Sequence, topo: Topology, sq: int,
                  directions: Sequence[str]) -> list[int]:
    """Squares a slider on ``sq`` attacks along ``directions``: each ray up to and
    including its first occupied square, whatever that piece's colour (so defended
    pieces are included). Distinct squares."""
    rays = topo.rays
    out: list[int] = []
    dedupe = topo.dedupe
    for d in directions:
        for t in rays[d][sq]:
            if not dedupe or t not in out:
                out.append(t)
            if colors[t] is not None:
                break
    return out


def leap_targets(colors: Sequence, topo: Topology, sq: int, colour: str,
                 offsets: Sequence[tuple[int, int]]) -> list[int]:
    """Destinations of a leaper of ``colour`` on ``sq``: every leap square that is
    empty or holds an enemy. Pass a module-level offsets tuple (``KNIGHT_OFFSETS``,
    ``KING_OFFSETS`` or your own constant) so the table lookup stays cheap."""
    return [t for t in topo.leap_table(offsets)[sq] if colors[t] != colour]


# ---------------------------------------------------------------------------------
# Pawns
# ---------------------------------------------------------------------------------

_FORWARD = {WHITE: "N", BLACK: "S"}
_BACKWARD = {WHITE: "S", BLACK: "N"}
_HOME_RANK = {WHITE: 1, BLACK: 6}
_PROMOTION_RANK = {WHITE: 7, BLACK: 0}


def pawn_forward(colour: str) -> str:
    """The direction a pawn of ``colour`` advances in: ``'N'`` or ``'S'``."""
    return _FORWARD[colour]


def pawn_push_square(topo: Topology, sq: int, colour: str) -> int | None:
    """The square one step straight ahead of a pawn of ``colour`` on ``sq`` (None
    off the board). Whether it is empty is the caller's test."""
    return topo.steps[_FORWARD[colour]][sq]


def pawn_double_square(topo: Topology, sq: int, colour: str) -> int | None:
    """The square two steps straight ahead, or None. No home-rank test here (the
    FIDE production checks the rank; ``double-pawn-sprint`` does not); the skipped
    square is :func:`pawn_push_square`."""
    step = topo.steps[_FORWARD[colour]]
    one = step[sq]
    return None if one is None else step[one]


def pawn_capture_squares(topo: Topology, sq: int, colour: str) -> tuple[int, ...]:
    """The forward-diagonal squares a pawn of ``colour`` on ``sq`` attacks (wrapping
    on the cylinder)."""
    return topo.pawn_attacks[colour][sq]


def pawn_home_rank(colour: str) -> int:
    """Rank index (0..7) of the pawns' starting rank: 1 for White, 6 for Black."""
    return _HOME_RANK[colour]


def pawn_promotion_rank(colour: str) -> int:
    """Rank index (0..7) on which a pawn of ``colour`` promotes: 7 or 0."""
    return _PROMOTION_RANK[colour]


def is_pawn_home_square(sq: int, colour: str) -> bool:
    """True if ``sq`` is on the starting rank of ``colour``'s pawns."""
    return sq >> 3 == _HOME_RANK[colour]


def is_promotion_square(sq: int, colour: str) -> bool:
    """True if a pawn of ``colour`` arriving on ``sq`` promotes."""
    return sq >> 3 == _PROMOTION_RANK[colour]


def promotion_test(shape):
    """``is_promotion(sq, colour)`` on ``shape``: whether a pawn of ``colour``
    arriving on ``sq`` promotes (its last rank). On 8x8 it is
    :func:`is_promotion_square` itself; on another board a function of that
    board's own last ranks (built once per board, never looked up per move)."""
    if shape.width == 8 and shape.height == 8:
        return is_promotion_square
    width, top = shape.width, shape.height - 1

    def is_promotion(sq: int, colour: str) -> bool:
        return sq // width == (top if colour == WHITE else 0)
    return is_promotion


def home_rank_test(shape):
    """``is_home(sq, colour)`` on ``shape``: whether ``sq`` is on the second rank
    from ``colour``'s side (FIDE's pawns' home), as :func:`promotion_test`."""
    if shape.width == 8 and shape.height == 8:
        return is_pawn_home_square
    width, second = shape.width, shape.height - 2

    def is_home(sq: int, colour: str) -> bool:
        return sq // width == (1 if colour == WHITE else second)
    return is_home


def en_passant_victim(topo: Topology, target: int, capturer: str) -> int | None:
    """The square of the pawn taken when a pawn of ``capturer`` captures en passant
    onto ``target``: one step behind the target as seen by the capturer."""
    return topo.steps[_BACKWARD[capturer]][target]


# ---------------------------------------------------------------------------------
# Attacks (reverse lookups)
# ---------------------------------------------------------------------------------


def attacked_by_leaper(colors: Sequence, types: Sequence, topo: Topology, target: int,
                       by_colour: str, piece_type: str,
                       offsets: Sequence[tuple[int, int]]) -> bool:
    """True if a ``piece_type`` of ``by_colour`` that leaps by ``offsets`` attacks
    ``target``. Looks only at the squares from which such a leap lands on the
    target (correct for asymmetric offset sets too)."""
    for s in topo.reverse_leap_table(offsets)[target]:
        if types[s] == piece_type and colors[s] == by_colour:
            return True
    return False


def attacked_by_slider(colors: Sequence, types: Sequence, topo: Topology, target: int,
                       by_colour: str, piece_types: Sequence[str],
                       directions: Sequence[str]) -> bool:
    """True if a piece of ``by_colour`` whose type is in ``piece_types`` and which
    slides along ``directions`` attacks ``target``.

    Walks the rays out of the target and looks at the first piece on each. Rays are
    reversible on every topology (a reflected path read backwards is a reflected
    path, a cylinder ray backwards is the opposite cylinder ray), and
    :meth:`Topology.reverse_plan` says which rays to walk and, on Bounce with a
    subset of the diagonals, which starting directions count.
    """
    rays = topo.rays
    for rdir, origins in topo.reverse_plan(directions):
        ray = rays[rdir][target]
        if origins is None:
            for s in ray:
                c = colors[s]
                if c is not None:
                    if c == by_colour and types[s] in piece_types:
                        return True
                    break
        else:
            assert topo.origin_dirs is not None     # (origins come with them: Bounce)
            odirs = topo.origin_dirs[rdir][target]
            for k, s in enumerate(ray):
                c = colors[s]
                if c is not None:
                    if c == by_colour and types[s] in piece_types and odirs[k] in origins:
                        return True
                    break
    return False


def attacked_by_pawn(colors: Sequence, types: Sequence, topo: Topology, target: int,
                     by_colour: str) -> bool:
    """True if a pawn of ``by_colour`` attacks ``target`` (diagonally forward)."""
    for s in topo.pawn_attackers[by_colour][target]:
        if types[s] == PAWN and colors[s] == by_colour:
            return True
    return False


def is_attacked_fide(colors: Sequence, types: Sequence, topo: Topology, target: int,
                     by_colour: str, rook_topo: Topology | None = None) -> bool:
    """True if any FIDE piece of ``by_colour`` attacks ``target``.

    Every piece moves on ``topo``; with ``rook_topo`` (``ROOK_WARP``) the rooks' own
    attacks are read on that topology instead, while queens stay on ``topo``.
    """
    for s in topo.knight_leaps[target]:
        if types[s] == KNIGHT and colors[s] == by_colour:
            return True
    for s in topo.pawn_attackers[by_colour][target]:
        if types[s] == PAWN and colors[s] == by_colour:
            return True
    for s in topo.king_leaps[target]:
        if types[s] == KING and colors[s] == by_colour:
            return True
    rays = topo.rays
    # Bishop and queen diagonals: on Bounce a reflected ray is still walked from the
    # target outward, and all four diagonals together make the reverse plan plain.
    for d in DIAGONAL:
        for s in rays[d][target]:
            c = colors[s]
            if c is not None:
                if c == by_colour and types[s] in _BISHOP_QUEEN:
                    return True
                break
    if rook_topo is None:
        for d in ORTHOGONAL:
            for s in rays[d][target]:
                c = colors[s]
                if c is not None:
                    if c == by_colour and types[s] in _ROOK_QUEEN:
                        return True
                    break
        return False
    return (attacked_by_slider(colors, types, topo, target, by_colour, (QUEEN,), ORTHOGONAL)
            or attacked_by_slider(colors, types, rook_topo, target, by_colour, (ROOK,), ORTHOGONAL))


def attackers_fide(colors: Sequence, types: Sequence, topo: Topology, target: int,
                   by_colour: str, rook_topo: Topology | None = None) -> list[int]:
    """The squares of every FIDE piece of ``by_colour`` attacking ``target``
    (distinct, in no promised order): the checkers, when ``target`` is a king."""
    out: list[int] = []
    for s in topo.knight_leaps[target]:
        if types[s] == KNIGHT and colors[s] == by_colour:
            out.append(s)
    for s in topo.pawn_attackers[by_colour][target]:
        if types[s] == PAWN and colors[s] == by_colour:
            out.append(s)
    for s in topo.king_leaps[target]:
        if types[s] == KING and colors[s] == by_colour:
            out.append(s)
    slider_groups: list[tuple[Topology, tuple[str, ...], tuple[str, ...]]] = [
        (topo, DIAGONAL, _BISHOP_QUEEN)]
    if rook_topo is None:
        slider_groups.append((topo, ORTHOGONAL, _ROOK_QUEEN))
    else:
        slider_groups.append((topo, ORTHOGONAL, (QUEEN,)))
        slider_groups.append((rook_topo, ORTHOGONAL, (ROOK,)))
    for t, dirs, kinds in slider_groups:
        rays = t.rays
        for rdir, origins in t.reverse_plan(dirs):
            ray = rays[rdir][target]
            for k, s in enumerate(ray):
                c = colors[s]
                if c is not None:
                    # (origins come only with origin_dirs, on Bounce: no assert
                    # on the way of every FIDE check lookup)
                    if (c == by_colour and types[s] in kinds and s not in out
                            and (origins is None
                                 or t.origin_dirs[rdir][target][k] in origins)):  # type: ignore[index]
                        out.append(s)
                    break
    return out
