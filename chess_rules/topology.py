"""Board topologies as precomputed successor tables.

A topology answers three questions about an *empty* board, each by a table lookup:

* ``ray(sq, direction)``: the squares a slider walks from ``sq`` in ``direction``, in
  order, excluding ``sq`` itself;
* ``step(sq, direction)``: the square one king/pawn step away, or None;
* ``leaps(sq, offsets)``: the squares reached by a set of (df, dr) leaps.

Pieces are then placed on top by :mod:`chess_rules.geometry`, which walks these
tables and stops at the first occupied square. Everything is computed once per
topology object, and topology objects are cached: ``Bounce(2, 'all')`` always returns
the same instance, so its tables are built once per process.

Hot-path code may read the tables directly instead of calling the methods:
``topo.rays[direction][sq]``, ``topo.steps[direction][sq]``, ``topo.knight_leaps[sq]``,
``topo.king_leaps[sq]``, ``topo.pawn_attacks[colour][sq]`` (the squares a pawn of that
colour on ``sq`` attacks) and ``topo.pawn_attackers[colour][sq]`` (the squares from
which a pawn of that colour attacks ``sq``).

Every topology has a board shape (:mod:`chess_rules.shape`): ``Plain()`` is the
standard 8x8 board and ``Plain(10, 8)`` Capablanca's; the other topologies take
the width and height as their last two arguments, and ``topo.on_shape(w, h)``
gives the same kind of topology on another board. Squares are numbered
``file + width * rank`` and the tables have one entry per square.

Topologies provided:

``Plain``
    The standard board.
``Cylinder``
    ``wrap-board``: the a- and h-files are adjacent for every step, ray and leap;
    ranks never wrap. A ray stops before it comes back to its own square, so the
    westward ray from a4 is h4, g4, ..., b4.
``Bounce(max_reflections, edges)``
    ``bouncing-pieces`` (``Bounce(1, 'files')``) and ``bouncing-pieces-2``
    (``Bounce(2, 'all')``): diagonal rays reflect off the board's edges; orthogonal
    rays, steps and leaps are plain. See :class:`Bounce` for the exact model.
``RookWarp``
    ``rook-warp``: a helper whose orthogonal rays continue from the opposite edge of
    the same rank or file (:meth:`RookWarp.warp_ray`). Use it for the rook's slides
    and the rook's attacks only; every other piece moves on ``Plain``.
"""

from __future__ import annotations

from typing import Iterable

from .shape import BoardShape, board_shape
from .squares import (
    BLACK, CLOCKWISE, DIAGONAL, DIRECTION_DELTAS, OPPOSITE_DIRECTION, ORTHOGONAL, WHITE,
)

__all__ = [
    "Topology", "Plain", "Cylinder", "Bounce", "RookWarp",
    "PLAIN", "CYLINDER", "BOUNCE", "BOUNCE2", "ROOK_WARP",
    "topology_by_name", "KNIGHT_OFFSETS", "KING_OFFSETS",
]

#: The eight knight leaps, clockwise from the one toward N-NE.
KNIGHT_OFFSETS: tuple[tuple[int, int], ...] = (
    (1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2),
)
#: The eight king steps as leaps, clockwise from N.
KING_OFFSETS: tuple[tuple[int, int], ...] = tuple(DIRECTION_DELTAS[d] for d in CLOCKWISE)

_PAWN_CAPTURE_DIRS = {WHITE: ("NW", "NE"), BLACK: ("SW", "SE")}
_DELTA_TO_DIRECTION = {delta: d for d, delta in DIRECTION_DELTAS.items()}
# The identity caches keep the keyed tuples alive (so an id is never reused while
# cached); the cap stops callers that build a fresh tuple per call from growing them
# without bound. Such callers still hit the by-value cache.
_ID_CACHE_LIMIT = 256


class Topology:
    """Base class: the tables and lookups shared by every topology.

    Subclasses describe their geometry with two hooks, :meth:`_move` (one displacement
    from a square, used for steps and leaps) and :meth:`_build_ray`; the base class
    turns them into tables at construction time.

    Attributes:
        name: the topology's name (``'plain'``, ``'cylinder'``, ``'bounce'``, ...).
        dedupe: True when the rays of one square in different directions (or a ray
            with itself) can reach the same square, so that a move generator must
            de-duplicate its targets. False only for ``Plain``, where it can skip that.
        rays: direction -> per-square tuple of ray tuples.
        steps: direction -> per-square tuple of ``int | None``.
        knight_leaps, king_leaps: per-square tuples of leap-target tuples.
        pawn_attacks, pawn_attackers: colour -> per-square tuple (see the module docstring).
        origin_dirs: None, or (Bounce only) direction -> per-square tuple of tuples aligned
            with ``rays``: the direction in which a slider on that ray square must set
            off to reach the ray's origin along the ray (see :meth:`reverse_plan`).
    """

    name = "topology"
    dedupe = True
    #: the board's shape, size and squares (``file + width * rank``); set per
    #: instance by :meth:`_configure`
    shape: BoardShape
    width: int
    height: int
    squares: range
    origin_dirs: dict[str, tuple[tuple[str, ...], ...]] | None

    # One instance per (class, normalised arguments): tables are built once.
    _instances: dict = {}

    def __new__(cls, *args, **kwargs):
        key = (cls,) + cls._key(*args, **kwargs)
        inst = Topology._instances.get(key)
        if inst is None:
            inst = object.__new__(cls)
            inst._configure(*key[1:])
            inst._build_tables()
            Topology._instances[key] = inst
        return inst

    def __init__(self, *args, **kwargs):
        # All the work happens once, in __new__; a cached instance must not be reset.
        pass

    # -- subclass hooks --------------------------------------------------------------

    @classmethod
    def _key(cls, width: int = 8, height: int = 8) -> tuple:
        """Normalise the constructor arguments into the cache key (the board's
        width and height come last in every subclass's key)."""
        board_shape(width, height)      # (refuses a size outside 5..12 x 5..10)
        return (width, height)

    def _configure(self, width: int, height: int) -> None:
        """Store the normalised constructor arguments."""
        self.shape = board_shape(width, height)
        self.width = width
        self.height = height
        self.squares = self.shape.squares

    def _move(self, sq: int, df: int, dr: int) -> int | None:
        """The square reached from ``sq`` by the displacement (df, dr), or None."""
        w = self.width
        f = sq % w + df
        r = sq // w + dr
        if 0 <= f < w and 0 <= r < self.height:
            return f + w * r
        return None

    def _build_ray(self, sq: int, direction: str) -> tuple[int, ...]:
        """The ray from ``sq`` in ``direction`` on an empty board."""
        df, dr = DIRECTION_DELTAS[direction]
        out = []
        t = self._move(sq, df, dr)
        while t is not None and t != sq:
            out.append(t)
            t = self._move(t, df, dr)
        return tuple(out)

    # -- tables ----------------------------------------------------------------------

    def _build_tables(self) -> None:
        squares = self.squares
        self.rays = {d: tuple(self._build_ray(sq, d) for sq in squares) for d in CLOCKWISE}
        self.steps = {
            d: tuple(self._move(sq, *DIRECTION_DELTAS[d]) for sq in squares)
            for d in CLOCKWISE
        }
        self._leap_cache: dict[tuple, tuple[tuple[int, ...], ...]] = {}
        # id(offsets) -> (offsets, table): callers pass module-level constant tuples,
        # and hashing a tuple of pairs on every call would cost more than the lookup.
        self._leap_by_id: dict[int, tuple] = {}
        self._rev_by_id: dict[int, tuple] = {}
        self.knight_leaps = self.leap_table(KNIGHT_OFFSETS)
        self.king_leaps = self.leap_table(KING_OFFSETS)
        self.pawn_attacks = {
            colour: tuple(
                tuple(t for t in (self.steps[d][sq] for d in dirs) if t is not None)
                for sq in squares
            )
            for colour, dirs in _PAWN_CAPTURE_DIRS.items()
        }
        # Inverse of pawn_attacks, computed from it so the two can never disagree.
        attackers: dict[str, list[list[int]]] = {c: [[] for _ in squares] for c in _PAWN_CAPTURE_DIRS}
        for colour, table in self.pawn_attacks.items():
            for sq, targets in enumerate(table):
                for t in targets:
                    attackers[colour][t].append(sq)
        self.pawn_attackers = {c: tuple(tuple(v) for v in lists) for c, lists in attackers.items()}
        self._plan_by_id: dict[int, tuple] = {}
        self._build_origin_dirs()

    def _build_origin_dirs(self) -> None:
        """Fill ``origin_dirs`` where a ray's reversal is not simply the opposite ray."""
        self.origin_dirs = None

    # -- public lookups ---------------------------------------------------------------

    def ray(self, sq: int, direction: str) -> tuple[int, ...]:
        """Squares a slider on ``sq`` walks in ``direction`` on an empty board, in
        order, excluding ``sq``; no square is listed twice."""
        return self.rays[direction][sq]

    def displace(self, sq: int, df: int, dr: int) -> int | None:
        """The square reached from ``sq`` by the displacement (df, dr) on this
        topology (wrapping on the cylinder), or None off the board."""
        return self._move(sq, df, dr)

    def rank_of(self, sq: int) -> int:
        """The rank index of ``sq`` (0 for rank 1)."""
        return sq // self.width

    def step(self, sq: int, direction: str) -> int | None:
        """The square one step from ``sq`` in ``direction``, or None off the board."""
        return self.steps[direction][sq]

    def leap_table(self, offsets: Iterable[tuple[int, int]]) -> tuple[tuple[int, ...], ...]:
        """Per-square tuple: for each square, the distinct squares its leaps by ``offsets``
        reach (in the order of ``offsets``, never the square itself). Cached."""
        entry = self._leap_by_id.get(id(offsets))
        if entry is not None and entry[0] is offsets:
            return entry[1]
        key = tuple(tuple(o) for o in offsets)
        table = self._leap_cache.get(key)
        if table is None:
            rows = []
            for sq in self.squares:
                row: list[int] = []
                for df, dr in key:
                    t = self._move(sq, df, dr)
                    if t is not None and t != sq and t not in row:
                        row.append(t)
                rows.append(tuple(row))
            table = tuple(rows)
            self._leap_cache[key] = table
        if isinstance(offsets, tuple) and len(self._leap_by_id) < _ID_CACHE_LIMIT:
            self._leap_by_id[id(offsets)] = (offsets, table)
        return table

    def reverse_leap_table(self, offsets: Iterable[tuple[int, int]]) -> tuple[tuple[int, ...], ...]:
        """Per-square tuple: for each square ``t``, the squares from which a leap by one of
        ``offsets`` lands on ``t`` (the table a reverse attack lookup walks)."""
        entry = self._rev_by_id.get(id(offsets))
        if entry is not None and entry[0] is offsets:
            return entry[1]
        forward = self.leap_table(offsets)
        rows: list[list[int]] = [[] for _ in self.squares]
        for sq, targets in enumerate(forward):
            for t in targets:
                rows[t].append(sq)
        table = tuple(tuple(r) for r in rows)
        if isinstance(offsets, tuple) and len(self._rev_by_id) < _ID_CACHE_LIMIT:
            self._rev_by_id[id(offsets)] = (offsets, table)
        return table

    def reverse_plan(self, directions: Iterable[str]) -> tuple[tuple[str, frozenset | None], ...]:
        """How a reverse attack lookup finds the sliders that move in ``directions``.

        Returns pairs ``(reverse_direction, origins)``: walk ``rays[reverse_direction]``
        from the target to its first occupied square ``rays[...][target][k]``; that
        square holds an attacker if the piece is right and, when ``origins`` is not
        None, ``origin_dirs[reverse_direction][target][k] in origins``. On every
        topology but Bounce the reverse of direction d is simply the ray in the
        opposite direction; on Bounce a reflected path can end in any diagonal
        direction, so a subset of the diagonals needs the origin check. Cached.
        """
        entry = self._plan_by_id.get(id(directions))
        if entry is not None and entry[0] is directions:
            return entry[1]
        dirs = tuple(dict.fromkeys(directions))
        plan: list[tuple[str, frozenset | None]] = []
        diagonal = frozenset(d for d in dirs if d in DIAGONAL)
        bounce_subset = (self.origin_dirs is not None and diagonal
                         and diagonal != frozenset(DIAGONAL))
        for d in dirs:
            if d not in DIRECTION_DELTAS:
                raise ValueError(f"unknown direction {d!r}")
            if bounce_subset and d in DIAGONAL:
                continue
            plan.append((OPPOSITE_DIRECTION[d], None))
        if bounce_subset:
            plan.extend((a, diagonal) for a in DIAGONAL)
        result = tuple(plan)
        if isinstance(directions, tuple) and len(self._plan_by_id) < _ID_CACHE_LIMIT:
            self._plan_by_id[id(directions)] = (directions, result)
        return result

    def leaps(self, sq: int, offsets: Iterable[tuple[int, int]]) -> tuple[int, ...]:
        """The distinct squares reached from ``sq`` by the (df, dr) leaps ``offsets``."""
        return self.leap_table(offsets)[sq]

    def on_shape(self, width: int, height: int) -> "Topology":
        """The same kind of topology on a board of ``width`` files and ``height``
        ranks (the shared instance; ValueError outside 5..12 x 5..10)."""
        return type(self)(*self._key_args()[:-2], width, height)

    def _shape_repr(self) -> str:
        return "" if (self.width, self.height) == (8, 8) else f" {self.width}x{self.height}"

    def __repr__(self) -> str:
        return f"<Topology {self.name}{self._shape_repr()}>"

    def __reduce__(self):
        # Pickling/copying hands back the cached instance.
        return (type(self), self._key_args())

    def _key_args(self) -> tuple:
        return (self.width, self.height)


class Plain(Topology):
    """The plain board: ``Plain()`` is the standard 8x8 board, ``Plain(10, 8)``
    Capablanca's."""

    name = "plain"
    dedupe = False


class Cylinder(Topology):
    """``wrap-board``: the a- and h-files are adjacent; ranks never wrap.

    Every step, ray and leap wraps across the a/h seam (so do pawn captures, and with
    them en passant). A ray stops before coming back to its own square: a rank ray
    has seven squares in either direction, which between them list the rank twice,
    hence ``dedupe``.
    """

    name = "cylinder"

    def _move(self, sq: int, df: int, dr: int) -> int | None:
        w = self.width
        r = sq // w + dr
        if 0 <= r < self.height:
            return (sq % w + df) % w + w * r
        return None


class Bounce(Topology):
    """Diagonal rays that reflect off the board's edges (``bouncing-pieces``).

    ``Bounce(max_reflections=1, edges='files')`` is ``bouncing-pieces``;
    ``Bounce(max_reflections=2, edges='all')`` is ``bouncing-pieces-2``.

    The reflection model, chosen so that every ray read backwards is again a ray
    (which is what makes reverse attack lookups exact):

    * Only diagonal rays bounce. Orthogonal rays, steps and leaps are plain.
    * A ray reflects *at an edge square*: when its next step would leave the board
      across a reflecting edge, the offending component of its direction is reversed
      and it steps on from the same square. Bishop c1 going NW: b2, a3, then b4, c5,
      d6, e7, f8. No square is listed twice in a row.
    * ``edges='files'`` reflects off the a- and h-files only; a ray that would leave
      across rank 1 or 8 (a corner included) ends there. ``edges='all'`` also
      reflects off ranks 1 and 8; a corner reverses both components and counts as
      ONE reflection (the ray runs back along the diagonal it came in on).
    * At most ``max_reflections`` reflections; the next edge after that ends the ray.
    * A ray never reflects at its origin: from a square on the edge, a direction that
      leaves the board at once gives an empty ray (otherwise it would merely repeat
      another direction's ray).
    * A ray stops before its own square, and a square it crosses a second time is
      listed once (at its first visit). Dropping the repeat changes nothing for a
      slider: the square was empty when the slider first passed it.
    """

    name = "bounce"

    @classmethod
    def _key(cls, max_reflections: int = 1, edges: str = "files",  # type: ignore[override]
             width: int = 8, height: int = 8) -> tuple:
        if type(max_reflections) is not int or max_reflections < 0:
            raise ValueError(f"max_reflections must be an int >= 0, not {max_reflections!r}")
        if edges not in ("files", "all"):
            raise ValueError(f"edges must be 'files' or 'all', not {edges!r}")
        return (max_reflections, edges) + super()._key(width, height)

    def _configure(self, max_reflections: int, edges: str,  # type: ignore[override]
                   width: int = 8, height: int = 8) -> None:
        super()._configure(width, height)
        self.max_reflections = max_reflections
        self.edges = edges
        self.name = "bounce" if (max_reflections, edges) == (1, "files") else (
            "bounce2" if (max_reflections, edges) == (2, "all")
            else f"bounce-{max_reflections}-{edges}")

    def _key_args(self) -> tuple:
        return (self.max_reflections, self.edges, self.width, self.height)

    def __repr__(self) -> str:
        return (f"<Topology bounce max_reflections={self.max_reflections} "
                f"edges={self.edges!r}{self._shape_repr()}>")

    def _build_ray(self, sq: int, direction: str) -> tuple[int, ...]:
        if direction not in DIAGONAL:
            return super()._build_ray(sq, direction)
        return self._walk_diagonal(sq, direction)[0]

    def _walk_diagonal(self, sq: int, direction: str) -> tuple[tuple[int, ...], tuple[str, ...]]:
        """The bouncing ray from ``sq``, and for each of its squares the direction of
        travel on arrival there."""
        df, dr = DIRECTION_DELTAS[direction]
        reflect_ranks = self.edges == "all"
        w, h = self.width, self.height
        f, r = sq % w, sq // w
        out: list[int] = []
        arrivals: list[str] = []
        reflections = 0
        first = True
        while True:
            nf, nr = f + df, r + dr
            off_f = not 0 <= nf < w
            off_r = not 0 <= nr < h
            if off_f or off_r:
                if first:
                    break  # no reflection at the origin
                if off_r and not reflect_ranks:
                    break
                if reflections >= self.max_reflections:
                    break
                if off_f:
                    df = -df
                if off_r:
                    dr = -dr
                reflections += 1
                nf, nr = f + df, r + dr
            first = False
            f, r = nf, nr
            t = f + w * r
            if t == sq:
                break
            if t not in out:
                out.append(t)
                arrivals.append(_DELTA_TO_DIRECTION[(df, dr)])
        return tuple(out), tuple(arrivals)

    def _build_origin_dirs(self) -> None:
        # A reflected path read backwards is a reflected path, but not necessarily one
        # that starts in the opposite of the direction it ends in. Record, along every
        # diagonal ray from a target, the direction in which a slider standing on each
        # square must set off to reach the target: reverse lookups restricted to a
        # subset of the diagonals need it.
        self.origin_dirs = {}
        for d in DIAGONAL:
            rows = []
            for sq in self.squares:
                _, arrivals = self._walk_diagonal(sq, d)
                rows.append(tuple(OPPOSITE_DIRECTION[a] for a in arrivals))
            self.origin_dirs[d] = tuple(rows)


class RookWarp(Topology):
    """``rook-warp``: orthogonal rays that continue from the opposite edge.

    An orthogonal ray is the plain ray, then (once it has reached the edge) the same
    rank or file again from the opposite edge, up to but excluding the ray's own
    square: west from a4 is h4, g4, ..., b4; north from d4 is d5..d8, d1, d2, d3. A
    slide along it stops at the first piece as usual, so the warp only continues a
    slide that reached the edge through empty squares. Squares a normal slide reaches
    are listed once (the rank/file rays of opposite directions overlap, hence
    ``dedupe``).

    Diagonal rays, steps and leaps are plain. Use this topology for the rook's moves
    and the rook's attacks (check detection included), and ``Plain`` for every other
    piece.
    """

    name = "rook-warp"

    def _build_ray(self, sq: int, direction: str) -> tuple[int, ...]:
        if direction not in ORTHOGONAL:
            return super()._build_ray(sq, direction)
        df, dr = DIRECTION_DELTAS[direction]
        out: list[int] = []
        w, h = self.width, self.height
        f, r = sq % w, sq // w
        while True:
            f, r = (f + df) % w, (r + dr) % h
            t = f + w * r
            if t == sq:
                return tuple(out)
            out.append(t)

    def warp_ray(self, sq: int, direction: str) -> tuple[int, ...]:
        """The warping ray of an orthogonal ``direction`` (ValueError for a diagonal)."""
        if direction not in ORTHOGONAL:
            raise ValueError(f"rook warp is orthogonal only, not {direction!r}")
        return self.rays[direction][sq]


PLAIN = Plain()
CYLINDER = Cylinder()
BOUNCE = Bounce(1, "files")
BOUNCE2 = Bounce(2, "all")
ROOK_WARP = RookWarp()

_BY_NAME = {
    "plain": PLAIN,
    "cylinder": CYLINDER,
    "wrap-board": CYLINDER,
    "bounce": BOUNCE,
    "bouncing-pieces": BOUNCE,
    "bounce2": BOUNCE2,
    "bouncing-pieces-2": BOUNCE2,
    "rook-warp": ROOK_WARP,
}


def topology_by_name(name: str) -> Topology:
    """The shared topology for a name: ``'plain'``, ``'cylinder'`` (or
    ``'wrap-board'``), ``'bounce'`` (``'bouncing-pieces'``), ``'bounce2'``
    (``'bouncing-pieces-2'``) or ``'rook-warp'``. KeyError for anything else."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise KeyError(f"unknown topology {name!r}; known: {', '.join(sorted(_BY_NAME))}") from None
