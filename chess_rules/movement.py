"""Movement as data: the one description every mover is written in.

A piece's movement is a tuple of :class:`Leg` s. A leg is a set of (file, rank)
offsets seen from White (``(0, 1)`` is one step toward rank 8; Black's are
mirrored, so "forward" is forward for both sides), and how the piece goes along
them:

* ``ride``: 1 for a leap or step, 0 for a rider that goes on until blocked
  (a rook is the rider of ``W``), ``n`` for at most ``n`` leaps;
* ``mode``: ``'both'`` (move or capture), ``'move'`` (to an empty square only)
  or ``'capture'`` (onto an enemy piece only);
* ``lame``: a leap whose squares in between must be empty (the xiangqi horse,
  a pawn's double step);
* ``hop``: ``'cannon'`` (a rider that must jump one piece, the screen, and then
  goes on: xiangqi's cannon captures so) or ``'grasshopper'`` (a rider that
  lands just beyond the first piece on its line);
* ``initial``: only a piece that has not moved; ``from_ranks``: only from
  those ranks, counted from the piece's own side (0 is its first rank);
* ``ep``: the leg leaves an en-passant target on the square it passed.

:func:`compile_generator` turns a piece type's legs into the generator a
generate-stage production calls, and :func:`compile_attacks` into the attack
function check detection reads; :func:`mover_rule` makes the production. FIDE's
movers (:mod:`chess_rules.fide`), the movement presets and the pieces written in
Betza notation (:mod:`chess_rules.betza`) are all built here, so they walk
squares the same way on every topology.

>>> from chess_rules.movement import leap, slide
>>> slide("N", "E", "S", "W")
Leg(offsets=((0, 1), (1, 0), (0, -1), (-1, 0)), ride=0)
>>> leap((1, 2), mode="capture")
Leg(offsets=((1, 2),), mode='capture')
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Callable, Sequence

from rete import Call, Collect, P, Rule, V

from . import geometry as geo
from .move_helpers import as_pieces
from .moves import Move
from .squares import DIRECTION_DELTAS

__all__ = ["Leg", "leap", "step", "slide", "double_leap", "lame_path", "destinations", "compile_generator",
           "compile_attacks", "mover_rule", "MODES", "HOPS"]

MODES = ("both", "move", "capture")
HOPS = (None, "cannon", "grasshopper")
_DELTA_DIRECTION = {d: name for name, d in DIRECTION_DELTAS.items()}


@dataclass(frozen=True)
class Leg:
    """One way a piece moves (see the module docstring). ``via``: a lame leap
    made of two leaps by these offsets (see :func:`double_leap`).

    ``blocked`` and ``empty`` are the reasons an explanation gives for a move
    the leg does not make: ``blocked`` where a move-only leg or a lame leap
    meets a piece (text with ``{to}`` and ``{blocked}``, or a function of the
    session, the target, the colour and the squares in the way, none when the
    target itself stops it), ``empty`` where a capture-only leg finds no piece
    (text with ``{to}``, or a function of the session, the target and the
    colour)."""

    offsets: tuple[tuple[int, int], ...]
    ride: int = 1
    mode: str = "both"
    lame: bool = False
    hop: str | None = None
    initial: bool = False
    from_ranks: tuple[int, ...] = ()
    ep: bool = False
    via: tuple[tuple[int, int], ...] = ()
    blocked: Any = None
    empty: Any = None

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"a leg's mode is one of {', '.join(MODES)}, not {self.mode!r}")
        if self.hop not in HOPS:
            raise ValueError(f"a leg's hop is cannon or grasshopper, not {self.hop!r}")
        if not self.offsets or any(o == (0, 0) for o in self.offsets):
            raise ValueError("a leg needs offsets, none of them (0, 0)")
        if self.ride < 0:
            raise ValueError(f"a leg's ride is 0 (unlimited) or a count, not {self.ride}")

    def __repr__(self) -> str:
        # the fields that differ from their defaults, as the constructors write them
        parts = [f"offsets={self.offsets!r}"]
        for f in fields(self)[1:]:
            v = getattr(self, f.name)
            if v != f.default:
                parts.append(f"{f.name}={v!r}")
        return f"Leg({', '.join(parts)})"

    @property
    def captures(self) -> bool:
        return self.mode != "move"

    @property
    def quiet(self) -> bool:
        return self.mode != "capture"


def _offsets(items) -> tuple[tuple[int, int], ...]:
    out = []
    for it in items:
        if isinstance(it, str):
            if it not in DIRECTION_DELTAS:
                raise ValueError(f"unknown direction {it!r}: use {' '.join(DIRECTION_DELTAS)}")
            it = DIRECTION_DELTAS[it]
        o = (int(it[0]), int(it[1]))
        if o not in out:
            out.append(o)
    return tuple(out)


def leap(*offsets, **kw) -> Leg:
    """A leaper's leg: offsets as (df, dr) pairs or compass names."""
    return Leg(_offsets(offsets), **kw)


step = leap
"""A step is a leap of one square: ``step("N", mode="move")``."""


def slide(*directions, **kw) -> Leg:
    """A rider's leg along compass directions (or offsets): ``ride=0`` unless
    given."""
    kw.setdefault("ride", 0)
    return Leg(_offsets(directions), **kw)


def double_leap(*offsets, **kw) -> Leg:
    """Two leaps by ``offsets`` in one move, through an empty square between
    (``knights-leap-twice``); a destination one leap reaches is not its own."""
    via = _offsets(offsets)
    sums = tuple(dict.fromkeys((a + c, b + d) for a, b in via for c, d in via
                               if (a + c, b + d) != (0, 0)))
    return Leg(sums, lame=True, via=via, **kw)


def lame_path(df: int, dr: int) -> tuple[tuple[int, int], ...]:
    """The offsets (from the start) of the squares a lame leap passes: straight
    along the longer side first, then diagonally (the xiangqi horse's (1, 2)
    passes (0, 1); (2, 2) passes (1, 1); (0, 2) passes (0, 1))."""
    out: list[tuple[int, int]] = []
    x = y = 0
    sx = (df > 0) - (df < 0)
    sy = (dr > 0) - (dr < 0)
    while True:
        rx, ry = abs(df - x), abs(dr - y)
        if rx > ry:
            x += sx
        elif ry > rx:
            y += sy
        else:
            x, y = x + sx, y + sy
        if (x, y) == (df, dr):
            return tuple(out)
        out.append((x, y))


# ---------------------------------------------------------------- tables


def _relative(offsets, colour: str):
    """``offsets`` as Black plays them: turned half round (Black's "right" is
    toward the a-file), as Fairy-Stockfish reads Betza; a set that is the same
    mirrored keeps its order mirrored (FIDE's pawn captures stay SW, SE)."""
    if colour == "white":
        return offsets
    mirrored = tuple((df, -dr) for df, dr in offsets)
    turned = tuple((-df, -dr) for df, dr in offsets)
    return mirrored if set(mirrored) == set(turned) else turned


def _rays(topo, leg: Leg, colour: str) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For each square, the rays of ``leg`` (a rider) in order: a unit step's
    ray is the topology's (so it reflects on Bounce), another's is its leap
    repeated; cut to ``ride`` squares."""
    cut = leg.ride or None
    per_square: list[list[tuple[int, ...]]] = [[] for _ in topo.squares]
    for off in _relative(leg.offsets, colour):
        d = _DELTA_DIRECTION.get(off)
        if d is not None:
            table = topo.rays[d]
            for sq in topo.squares:
                per_square[sq].append(table[sq][:cut])
            continue
        nxt = topo.leap_table((off,))
        for sq in topo.squares:
            ray: list[int] = []
            t = nxt[sq]
            while t and t[0] != sq and t[0] not in ray and (cut is None or len(ray) < cut):
                ray.append(t[0])
                t = nxt[t[0]]
            per_square[sq].append(tuple(ray))
    return tuple(tuple(r) for r in per_square)


def _lame_table(topo, leg: Leg, colour: str):
    """For each square, the (target, paths) of ``leg``'s lame leaps: each path
    the squares it passes; the leap is open when one path is all empty. A leg
    with ``via`` goes by two leaps of ``via`` through any one square between
    (a destination one such leap reaches, or the start, is not its own)."""
    out = []
    via = _relative(leg.via, colour) if leg.via else None
    for sq in topo.squares:
        paths: dict[int, list[tuple[int, ...]]] = {}
        if via is not None:
            single = set(topo.leap_table(via)[sq])
            for a in topo.leap_table(via)[sq]:
                for b in topo.leap_table(via)[a]:
                    if b != sq and b not in single:
                        paths.setdefault(b, []).append((a,))
        else:
            for df, dr in _relative(leg.offsets, colour):
                path = []
                for pf, pr in lame_path(df, dr):
                    s = topo.displace(sq, pf, pr)
                    if s is None:
                        break
                    path.append(s)
                else:
                    to = topo.displace(sq, df, dr)
                    if to is not None and to != sq:
                        paths.setdefault(to, []).append(tuple(path))
        out.append(tuple((to, tuple(ps)) for to, ps in paths.items()))
    return tuple(out)


def _home(colour: str, sq: int, topo) -> int:
    """The rank of ``sq`` counted from ``colour``'s own side (0: its first)."""
    r = topo.rank_of(sq)
    return r if colour == "white" else topo.height - 1 - r


# ---------------------------------------------------------------- generators


def _emitter(piece_type: str, topo, promotion: Callable | None = None):
    """``emit(st, frm, to, colour, victim, rule, kind, ep_square)``: a pawn
    reaching its last rank comes once per promotion type (and leaves no
    en-passant target: it is no pawn any more). ``promotion(st, to, colour)``,
    where given, says instead which types a pawn arriving on ``to`` may
    become and whether it may also stay a pawn (a promotion zone)."""
    if piece_type == "pawn" and promotion is not None:

        def emit_zone(st, frm, to, c, victim, rule, kind="normal", ep_square=None):
            types, may_stay = promotion(st, to, c)
            for pt in types:
                st.add(Move(frm, to, pt, "pawn", "normal", victim, rule))
            if may_stay:
                st.add(Move(frm, to, None, "pawn", kind, victim, rule, ep_square=ep_square))
        return emit_zone
    if piece_type == "pawn":
        is_promotion = geo.promotion_test(topo.shape)

        def emit_pawn(st, frm, to, c, victim, rule, kind="normal", ep_square=None):
            if is_promotion(to, c):
                for pt in st.promotion_types:
                    st.add(Move(frm, to, pt, "pawn", "normal", victim, rule))
            else:
                st.add(Move(frm, to, None, "pawn", kind, victim, rule, ep_square=ep_square))
        return emit_pawn

    def emit(st, frm, to, c, victim, rule, kind="normal", ep_square=None):
        st.add(Move(frm, to, None, piece_type, kind, victim, rule, ep_square=ep_square))
    return emit


def _refuse(st, rule: str, sq: int, to: int, why, colour: str, stops: tuple | None = None):
    """Record why the move ``sq``-``to`` is not made (only while explaining):
    ``stops``, for a ``blocked`` reason, the squares in the way."""
    if callable(why):
        text = why(st.session, to, colour) if stops is None else why(st.session, to, colour, stops)
    else:
        names = st.names
        text = why.format(to=names[to], blocked=names[stops[0] if stops else to])
    st.refuse(st.names[sq] + st.names[to], rule, text)


def _unit_directions(leg: Leg) -> dict[str, tuple[str, ...]] | None:
    """The compass directions of a leg of unit steps, per colour, or None."""
    if not all(o in _DELTA_DIRECTION for o in leg.offsets):
        return None
    return {c: tuple(_DELTA_DIRECTION[o] for o in _relative(leg.offsets, c))
            for c in ("white", "black")}


def _leg_walker(leg: Leg, topo, emit) -> Callable:
    """``walk(st, sq, colour, rule)`` adding the moves of one leg."""
    mode_move, mode_capture = leg.quiet, leg.captures
    blocked, empty = leg.blocked, leg.empty

    if leg.ride == 1 and not leg.lame and leg.hop is None:
        tables = {c: topo.leap_table(_relative(leg.offsets, c)) for c in ("white", "black")}

        def walk_leap(st, sq, c, rule):
            colors = st.colors
            for to in tables[c][sq]:
                oc = colors[to]
                if oc is None:
                    if mode_move:
                        emit(st, sq, to, c, None, rule)
                    elif empty is not None and st.refusals is not None:
                        _refuse(st, rule, sq, to, empty, c)
                elif oc != c and mode_capture:
                    emit(st, sq, to, c, to, rule)
                elif not mode_capture and blocked is not None and st.refusals is not None:
                    _refuse(st, rule, sq, to, blocked, c, ())
        return walk_leap

    if leg.lame:
        lame = {c: _lame_table(topo, leg, c) for c in ("white", "black")}
        ep = leg.ep

        def walk_lame(st, sq, c, rule):
            colors = st.colors
            for to, paths in lame[c][sq]:
                oc = colors[to]
                if mode_move if oc is None else oc != c and mode_capture:
                    for path in paths:
                        for s in path:
                            if colors[s] is not None:
                                break
                        else:
                            if ep and oc is None and path:
                                emit(st, sq, to, c, None, rule, "double-push", path[-1])
                            else:
                                emit(st, sq, to, c, None if oc is None else to, rule)
                            break
                    else:
                        if blocked is not None and st.refusals is not None:
                            stops = tuple(dict.fromkeys(
                                s for path in paths for s in path if colors[s] is not None))
                            _refuse(st, rule, sq, to, blocked, c, stops)
                elif blocked is not None and st.refusals is not None:
                    # the target stops it: a function is told so (no squares in
                    # the way); a text names the first square that stops it
                    stops = () if callable(blocked) else tuple(
                        s for s in paths[0] if colors[s] is not None)[:1]
                    _refuse(st, rule, sq, to, blocked, c, stops)
        return walk_lame

    units = _unit_directions(leg)
    if leg.ride == 0 and leg.hop is None and leg.mode == "both" and units is not None:
        slide_targets = geo.slide_targets

        def walk_slide(st, sq, c, rule):
            colors = st.colors
            for to in slide_targets(colors, topo, sq, c, units[c]):
                emit(st, sq, to, c, None if colors[to] is None else to, rule)
        return walk_slide

    rays = {c: _rays(topo, leg, c) for c in ("white", "black")}
    hop = leg.hop
    dedupe = topo.dedupe

    def walk_rays(st, sq, c, rule):
        colors = st.colors
        seen: set[int] = set()
        for ray in rays[c][sq]:
            screen = hop is None
            for to in ray:
                oc = colors[to]
                if not screen:
                    if oc is not None:
                        screen = True
                    continue
                if dedupe:
                    if to in seen:
                        if oc is not None:
                            break
                        continue
                    seen.add(to)
                if oc is None:
                    if mode_move:
                        emit(st, sq, to, c, None, rule)
                    if hop == "grasshopper":
                        break
                    continue
                if oc != c and mode_capture:
                    emit(st, sq, to, c, to, rule)
                break
    return walk_rays


def _fast_generator(piece_type: str, legs: Sequence[Leg], topo) -> Callable | None:
    """The generator of the commonest movements written out in one loop, as
    FIDE's knight, king and sliders are (they run at every node of a search):
    one leg of plain leaps, or of unit slides, moving and capturing, for a
    piece that does not promote. None for anything else."""
    if len(legs) != 1 or piece_type == "pawn":
        return None
    leg = legs[0]
    if leg.mode != "both" or leg.lame or leg.hop is not None or leg.initial or leg.from_ranks:
        return None
    if leg.ride == 1:
        tables = {c: topo.leap_table(_relative(leg.offsets, c)) for c in ("white", "black")}

        def gen_leaps(ctx, pieces):
            st = ctx.session.chess
            colors = st.colors
            rule = ctx.pnode.production.name
            add = st.add
            for p in as_pieces(pieces):
                v = p.values
                sq = v["square"]
                c = v["color"]
                for to in tables[c][sq]:
                    oc = colors[to]
                    if oc is None:
                        add(Move(sq, to, None, piece_type, "normal", None, rule))
                    elif oc != c:
                        add(Move(sq, to, None, piece_type, "normal", to, rule))
        return gen_leaps
    units = _unit_directions(leg)
    if leg.ride != 0 or units is None:
        return None
    slide_targets = geo.slide_targets

    def gen_slides(ctx, pieces):
        st = ctx.session.chess
        colors = st.colors
        rule = ctx.pnode.production.name
        add = st.add
        for p in as_pieces(pieces):
            v = p.values
            sq = v["square"]
            c = v["color"]
            for to in slide_targets(colors, topo, sq, c, units[c]):
                add(Move(sq, to, None, piece_type, "normal",
                         None if colors[to] is None else to, rule))
    return gen_slides


def compile_generator(piece_type: str, legs: Sequence[Leg], topo,
                      promotion: Callable | None = None) -> Callable:
    """The generator of a production moving ``piece_type`` by ``legs`` on
    ``topo``: ``gen(ctx, pieces)`` (one piece fact, or the pieces a collect
    binds). A pawn's moves to its last rank come once per promotion type
    (``promotion``: as :func:`_emitter` says)."""
    fast = _fast_generator(piece_type, legs, topo)
    if fast is not None:
        return fast
    emit = _emitter(piece_type, topo, promotion)
    walkers = [(leg, _leg_walker(leg, topo, emit)) for leg in legs]
    gated = any(leg.initial or leg.from_ranks for leg in legs)
    if len(walkers) == 1 and not gated:
        walk = walkers[0][1]

        def gen_one(ctx, pieces):
            st = ctx.session.chess
            rule = ctx.pnode.production.name
            for p in as_pieces(pieces):
                v = p.values
                walk(st, v["square"], v["color"], rule)
        return gen_one

    def gen(ctx, pieces):
        st = ctx.session.chess
        rule = ctx.pnode.production.name
        for p in as_pieces(pieces):
            v = p.values
            sq, c = v["square"], v["color"]
            for leg, walk in walkers:
                if leg.initial and v["moved"]:
                    continue
                if leg.from_ranks and _home(c, sq, topo) not in leg.from_ranks:
                    continue
                walk(st, sq, c, rule)
    return gen


# ---------------------------------------------------------------- attacks


def _leg_attacks(piece_type: str, leg: Leg, topo) -> Callable | None:
    """``attacks(colors, types, target, by)`` of one leg, or None (it never
    captures). Reverse lookups where they are exact (leaps, unit riders with
    no hop and no limit), else every such piece's captures are walked."""
    if not leg.captures:
        return None
    if leg.initial or leg.from_ranks:
        pass        # gated legs: walked per piece (below)
    elif leg.ride == 1 and not leg.lame and leg.hop is None:
        rev = {c: topo.reverse_leap_table(_relative(leg.offsets, c)) for c in ("white", "black")}

        def leap_attacks(colors, types, target, by):
            for s in rev[by][target]:
                if types[s] == piece_type and colors[s] == by:
                    return True
            return False
        return leap_attacks
    elif leg.ride == 0 and leg.hop is None and (dirs := _unit_directions(leg)) is not None:
        kinds = (piece_type,)
        return lambda colors, types, target, by: geo.attacked_by_slider(
            colors, types, topo, target, by, kinds, dirs[by])

    captures_of = _capture_targets(leg, topo)

    def walked(colors, types, target, by):
        for s in topo.squares:
            if types[s] == piece_type and colors[s] == by and target in captures_of(colors, s, by):
                return True
        return False
    return walked


def _capture_targets(leg: Leg, topo):
    """``f(colors, sq, colour)``: the squares the leg could capture on (any
    occupant: a defended piece counts as attacked)."""
    if leg.lame:
        lame = {c: _lame_table(topo, leg, c) for c in ("white", "black")}

        def lame_targets(colors, sq, c):
            if leg.from_ranks and _home(c, sq, topo) not in leg.from_ranks:
                return ()
            return [to for to, paths in lame[c][sq]
                    if any(all(colors[s] is None for s in path) for path in paths)]
        return lame_targets
    rays = {c: _rays(topo, leg, c) for c in ("white", "black")}
    hop = leg.hop

    def ray_targets(colors, sq, c):
        if leg.from_ranks and _home(c, sq, topo) not in leg.from_ranks:
            return ()
        out = []
        for ray in rays[c][sq]:
            screen = hop is None
            for to in ray:
                if not screen:
                    screen = colors[to] is not None
                    continue
                if colors[to] is not None:
                    out.append(to)
                    break
                if hop == "grasshopper":
                    break
        return out
    return ray_targets


def destinations(legs: Sequence[Leg], topo) -> Callable:
    """``f(colors, sq, colour)``: the squares a piece of ``colour`` on ``sq``
    moves to by ``legs`` (ignoring ``initial``), in order, each once."""
    emit_to = []
    walkers = [_leg_walker(leg, topo, lambda st, frm, to, *rest: emit_to.append(to))
               for leg in legs]

    class _Board:       # what a walker reads of the chess state
        refusals = None

    def f(colors, sq, colour):
        board = _Board()
        board.colors = colors       # type: ignore[attr-defined]
        emit_to.clear()
        for leg, walk in zip(legs, walkers):
            if not leg.from_ranks or _home(colour, sq, topo) in leg.from_ranks:
                walk(board, sq, colour, "")
        return list(dict.fromkeys(emit_to))
    return f


def compile_attacks(piece_type: str, legs: Sequence[Leg], topo) -> Callable | None:
    """The attack function of a piece type moving by ``legs``: whether a
    ``piece_type`` of colour ``by`` attacks ``target`` (None if no leg
    captures). A leg for an unmoved piece only is read as if the piece had not
    moved (a piece fact's ``moved`` is not on the board)."""
    fns = [f for f in (_leg_attacks(piece_type, leg, topo) for leg in legs) if f is not None]
    if not fns:
        return None
    if len(fns) == 1:
        return fns[0]
    return lambda colors, types, target, by: any(f(colors, types, target, by) for f in fns)


def mover_rule(name: str, piece_type: str, legs: Sequence[Leg], topo, doc: str,
               fn_name: str, group: str = "fide", attacks: Any = "compile",
               meta: dict | None = None,
               promotion: Callable | None = None) -> tuple[Rule, Callable]:
    """A generate-stage production moving every ``piece_type`` of the side to
    move by ``legs`` (one firing per movegen request collects them all), and
    its generator, to be registered as ``fn_name``. Its metadata: ``meta`` when
    given, else the ``attacks`` compiled from the legs (or given; None: it
    declares none), the attack ``group`` and ``slides`` for a rider.
    ``promotion(st, to, colour) -> (types, may stay a pawn)``: a pawn's
    promotions where they are not FIDE's (a zone, limits)."""
    gen = compile_generator(piece_type, legs, topo, promotion)
    if meta is None:
        if attacks == "compile":
            attacks = compile_attacks(piece_type, legs, topo)
        meta = {"attacks": attacks, "attack-group": group}
        if any(leg.ride != 1 and leg.hop is None for leg in legs):
            meta["slides"] = True
    rule = (Rule(name, stage="generate", doc=doc, **meta)
            .when(P("movegen", color=V.c), Collect(P("piece", type=piece_type, color=V.c)).as_("ps"))
            .then(Call(fn_name, V.ps)))
    return rule, gen
