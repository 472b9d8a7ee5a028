"""The move helpers: generic movers and filters a rule calls by name, from a rule
file or from Python, and the attacks a production that calls them implies.

Every :class:`~chess_rules.ruleset.RuleSet` has them registered:

``gen-leap(?p, "1,1 -1,1")``
    leaps by (file, rank) offsets, or compass steps (``N NE E SE S SW W NW``),
    to an empty square or onto an enemy piece;
``gen-leap-quiet(?p, ...)``
    the same, to empty squares only (it never captures, so it never attacks);
``gen-slide(?p, "NE SW")`` / ``gen-slide-quiet(?p, ...)``
    slides along compass directions over the board's topology;
``drop-promotions(?c, queen, "reason")``
    (a ``filter``-stage helper: it runs once every mover has added its
    candidates) refuses every candidate of colour ``?c`` promoting to that
    piece type.

A pawn that a mover takes to its last rank promotes, as with FIDE's own pawn
rules: the move comes once per promotion type of the rule set.

The first argument of the movers may also be the pieces a ``collect``
binds (``?ps <- collect piece(type: knight, color: ?c)``): one firing moves
them all, as FIDE's own movers do.

A generate-stage production that calls ``gen-leap`` or ``gen-slide`` attacks the
squares it could capture on: :func:`with_implied_attacks` gives it the
``attacks`` metadata check detection reads, so check, checkmate and castling
see the new move like a built-in one (the attackers: the pieces the helper's
first argument binds, see :func:`implied_attacks`). The attacks are worked out when the rule
set is compiled (``RuleSet.build``), over the board it has then: a rule added
before a preset that changes the board (``wrap-board``) attacks across the
wrapped edge, as it moves. A helper's arguments are checked when the rule is
added (``RuleSet.add``, ``replace``, or loading a rule file).
"""
from __future__ import annotations

import dataclasses

from rete.model import Call, Collect, Expr, Fact, Pattern, Var, arg_variables

from . import geometry as geo
from .moves import Move
from .squares import PIECE_TYPES

__all__ = ["MOVE_HELPERS", "CALLABLE_META", "as_pieces", "compulsory_capture", "for_each_piece", "helper_call_problem",
           "implied_attacks", "meta_problem", "mover_pattern", "piece_patterns",
           "with_implied_attacks"]


def as_pieces(arg) -> tuple:
    """The pieces a generator was given: one piece fact (``?p <- piece(...)``) or
    the tuple a ``Collect`` binds."""
    return (arg,) if isinstance(arg, Fact) else arg


def for_each_piece(gen):
    """A generator over collected pieces made from one over a single piece."""
    def over(ctx, pieces, *args):
        for p in as_pieces(pieces):
            gen(ctx, p, *args)
    over.__name__ = getattr(gen, "__name__", "gen")
    return over


def piece_patterns(prod) -> list[Pattern]:
    """The ``piece`` patterns of the pieces a production moves: its own, and
    those it collects and hands to an action (``?ps <- collect piece(...)``, as
    FIDE's movers do). Not those under ``not`` or ``exists``, nor a collect
    whose facts no action takes (that is a gate, as ``exists`` is)."""
    used = _action_variables(prod.actions)
    out = []
    for c in prod.conditions:
        if isinstance(c, Collect):
            if c.bind not in used:
                continue
            c = c.pattern
        if isinstance(c, Pattern) and c.template == "piece":
            out.append(c)
    return out


def _action_variables(actions) -> set[str]:
    out: set[str] = set()
    for a in actions:
        out |= arg_variables(a.args if isinstance(a, Call)
                             else [v for _, v in getattr(a, "slots", ())])
    return out


_COMPASS = {"N": (0, 1), "NE": (1, 1), "E": (1, 0), "SE": (1, -1),
            "S": (0, -1), "SW": (-1, -1), "W": (-1, 0), "NW": (-1, 1)}


def _offsets(spec: str) -> tuple[tuple[int, int], ...]:
    out = []
    for tok in str(spec).replace(";", " ").split():
        if tok.upper() in _COMPASS:
            out.append(_COMPASS[tok.upper()])
            continue
        try:
            df, dr = (int(x) for x in tok.split(","))
        except ValueError:
            raise ValueError(f"bad offset {tok!r}: write 'file,rank' (e.g. 1,2) or a "
                             f"compass step ({' '.join(_COMPASS)})") from None
        out.append((df, dr))
    if not out:
        raise ValueError("no offsets given")
    return tuple(out)


def _directions(spec: str) -> tuple[str, ...]:
    dirs = tuple(t.upper() for t in str(spec).replace(",", " ").split())
    bad = [d for d in dirs if d not in _COMPASS]
    if bad or not dirs:
        raise ValueError(f"bad slide direction(s) {bad or spec!r}: use {' '.join(_COMPASS)}")
    return dirs


def _emit(st, p, to, capture: bool, rule: str) -> None:
    v = p.values
    sq, c, t = v["square"], v["color"], v["type"]
    oc = st.colors[to]
    if oc is None or (oc != c and capture):
        victim = None if oc is None else to
        if t == "pawn" and st.is_promotion(to, c):
            # a pawn that reaches the last rank promotes, whichever rule moved it
            for pt in st.promotion_types:
                st.add(Move(sq, to, pt, t, "normal", victim, rule))
        else:
            st.add(Move(sq, to, None, t, "normal", victim, rule))
    elif oc != c:
        names = st.names
        st.refuse(names[sq] + names[to], rule,
                  f"{names[to]} is occupied and this move never captures")


def _leap_fn(capture: bool):
    tables: dict = {}

    def gen(ctx, p, spec):
        st = ctx.session.chess
        key = (id(st.topology), spec)
        table = tables.get(key)
        if table is None:
            table = tables[key] = st.topology.leap_table(_offsets(spec))
        rule = ctx.pnode.production.name
        for piece in as_pieces(p):
            for to in table[piece.values["square"]]:
                _emit(st, piece, to, capture, rule)
    return gen


def _slide_fn(capture: bool):
    def gen(ctx, p, spec):
        st = ctx.session.chess
        rule = ctx.pnode.production.name
        dirs = _directions(spec)
        for piece in as_pieces(p):
            v = piece.values
            for to in geo.slide_targets(st.colors, st.topology, v["square"], v["color"], dirs):
                _emit(st, piece, to, capture, rule)
    return gen


def drop_promotions(ctx, color, piece_type, reason="that promotion is not allowed"):
    st = ctx.session.chess
    rule = ctx.pnode.production.name
    for u, m in list(st.candidates.items()):
        if m.promo == piece_type and st.colors[m.frm] == color:
            st.drop(u, rule, str(reason))


MOVE_HELPERS = {
    "gen-leap": _leap_fn(True), "gen-leap-quiet": _leap_fn(False),
    "gen-slide": _slide_fn(True), "gen-slide-quiet": _slide_fn(False),
    "drop-promotions": drop_promotions,
}


def implied_attacks(prod, topo, functions=None):
    """The attack function a custom generate rule implies, or None. With
    ``functions`` (the rule set's), a helper's name bound to another function
    implies nothing.

    Each capturing helper call attacks with the pieces its first argument
    binds: the ``piece`` pattern (or collect) of that variable, its ``type``
    (any type when the pattern names none) and its ``color`` when the pattern
    names one. The rule's other conditions (a gate such as "while its side has
    a bishop") are not judged: the piece is taken to attack whenever it stands
    there. A rule that needs more declares ``attacks`` itself."""
    fns = []
    for a in prod.actions:
        if not isinstance(a, Call) or a.fn not in ("gen-leap", "gen-slide") or len(a.args) < 2:
            continue
        if functions is not None and functions.get(a.fn) is not MOVE_HELPERS[a.fn]:
            continue
        spec = a.args[1]
        mover = mover_pattern(prod, a.args[0])
        if not isinstance(spec, str) or mover is None:
            continue
        slots = dict(mover.slots)
        t = slots.get("type")
        types = (t,) if isinstance(t, str) else PIECE_TYPES
        if a.fn == "gen-leap":
            offs = _offsets(spec)
            fn = (lambda c, ty, sq, by, ts=types, o=offs:
                  any(geo.attacked_by_leaper(c, ty, topo, sq, by, t, o) for t in ts))
        else:
            dirs = _directions(spec)
            fn = (lambda c, ty, sq, by, ts=types, d=dirs:
                  geo.attacked_by_slider(c, ty, topo, sq, by, ts, d))
        color = slots.get("color")
        if isinstance(color, str):          # only that side's pieces move so
            fn = (lambda c, ty, sq, by, f=fn, side=color: by == side and f(c, ty, sq, by))
        fns.append(fn)
    if not fns:
        return None
    if len(fns) == 1:
        return fns[0]
    return lambda c, ty, sq, by: any(f(c, ty, sq, by) for f in fns)


def mover_pattern(prod, arg) -> Pattern | None:
    """The ``piece`` pattern whose facts a generator's first argument ``arg``
    binds in ``prod`` (its own, or a collect's), or None."""
    if not isinstance(arg, Var):
        return None
    for c in prod.conditions:
        if isinstance(c, (Pattern, Collect)) and c.bind == arg.name:
            pat = c.pattern if isinstance(c, Collect) else c
            return pat if pat.template == "piece" else None
    return None


#: what the second argument of each move helper must parse as
_HELPER_SPECS = {"gen-leap": (_offsets, "offsets"), "gen-leap-quiet": (_offsets, "offsets"),
                 "gen-slide": (_directions, "directions"),
                 "gen-slide-quiet": (_directions, "directions")}


#: metadata the chess layer calls: a function of the position, never a constant
CALLABLE_META = {
    "attacks": "attacks(colors, types, square, by) -> bool: whether the rule's pieces "
               "of colour 'by' attack the square",
    "simulate": "simulate(state, move): the rule's effect on a board simulated for the "
                "check filter",
}


def meta_problem(prod) -> str | None:
    """What is wrong with a production's metadata, or None: ``attacks`` and
    ``simulate`` are functions the chess layer calls (rule text can give only
    constants: a rule file declares neither, the helpers' attacks are implied)."""
    for key, what in CALLABLE_META.items():
        v = prod.meta.get(key)
        if v is not None and not callable(v):
            return (f"meta {key!r} is a function ({what}), not {v!r}; set it from Python "
                    f"(a rule that calls gen-leap or gen-slide gets its attacks implied)")
    return None


def helper_call_problem(call: Call, functions, conditions=(), stage: str | None = None,
                        templates=None) -> str | None:
    """What is wrong with a call of a move helper, or None: its stage (the movers
    run in ``generate``, ``drop-promotions`` in ``filter``, once the candidate
    moves are all there), its argument count (and the constant colour and piece
    type of ``drop-promotions``), its first argument (a variable
    bound to a piece, or with the rule's ``conditions`` to the pieces a collect
    binds, not a constant or another fact) and its offsets or directions (text
    that parses). Calls of other functions, or of a name the rule set has bound
    to a function of its own, are not judged; nor is a first argument bound by
    a pattern whose template is not in ``templates`` (when given): compiling
    reports the unknown template, the real mistake."""
    if call.fn == "drop-promotions" and functions.get(call.fn) is MOVE_HELPERS[call.fn]:
        if stage is not None and stage != "filter":
            # in generate it would run before some movers (by salience), and drop nothing
            return (f"drop-promotions runs in the filter stage, once every mover has added "
                    f"its candidates, not in {stage!r}")
        if not 2 <= len(call.args) <= 3:
            return (f"drop-promotions takes 2 or 3 arguments (a colour, a piece type and "
                    f"optionally the reason), {len(call.args)} given")
        color, ptype = call.args[:2]
        if isinstance(color, str) and color not in ("white", "black"):
            return f"drop-promotions: the colour is white or black (or a variable), not {color!r}"
        if isinstance(ptype, str) and ptype not in PIECE_TYPES:
            return (f"drop-promotions: no piece type {ptype!r} (piece types: "
                    f"{', '.join(PIECE_TYPES)})")
        return None
    if call.fn not in _HELPER_SPECS or functions.get(call.fn) is not MOVE_HELPERS[call.fn]:
        return None
    if stage is not None and stage != "generate":
        return (f"{call.fn} generates candidate moves: it belongs in the generate stage, "
                f"not {stage!r}")
    parse, what = _HELPER_SPECS[call.fn]
    if len(call.args) != 2:
        return f"{call.fn} takes 2 arguments (a piece and its {what}), {len(call.args)} given"
    first, spec = call.args
    if not isinstance(first, Var):
        return (f"{call.fn}: its first argument is {first!r}; it takes the piece that moves "
                f"(?p <- piece(...)) or the pieces (?ps <- collect piece(...))")
    pats = [c for c in conditions if isinstance(c, Pattern)]
    bound = next((c.template for c in pats if c.bind == first.name), None)
    collected = next((c.pattern.template for c in conditions
                      if isinstance(c, Collect) and c.bind == first.name), None)
    if templates is not None and any(t is not None and t not in templates
                                     for t in (bound, collected)):
        return None
    if bound is not None and bound != "piece":
        bad = f"a {bound} fact"
    elif collected is not None and collected != "piece":
        bad = f"the {collected} facts a collect binds"
    elif bound is None and any(v == first for c in pats for _, v in c.slots):
        bad = "a slot value, not a fact"
    else:
        bad = None
    if bad is not None:
        return (f"{call.fn}: its first argument ?{first.name} is {bad}; "
                f"it takes the piece that moves (?p <- piece(...)) or the pieces "
                f"(?ps <- collect piece(...))")
    if isinstance(spec, str):
        try:
            parse(spec)
        except ValueError as e:
            return f"{call.fn}: {e}"
    elif not isinstance(spec, (Var, Expr)):
        return (f"{call.fn}: its {what} are text (e.g. {_SPEC_EXAMPLE[what]!r}), "
                f"not {spec!r}")
    return None


_SPEC_EXAMPLE = {"offsets": "1,2 2,1", "directions": "N E S W"}


def with_implied_attacks(prod, topo, functions):
    """``prod`` with the ``attacks`` metadata its capturing helpers imply, for a
    generate-stage production that declares none; else ``prod`` itself."""
    if prod.stage != "generate" or "attacks" in prod.meta:
        return prod
    attacks = implied_attacks(prod, topo, functions)
    if attacks is None:
        return prod
    meta = dict(prod.meta)
    meta["attacks"] = attacks
    meta["attack-group"] = "custom"
    return dataclasses.replace(prod, meta=meta)


def compulsory_capture(ctx, color):
    """A filter-stage action: when a capture is among the candidates, drop
    every move that captures nothing (suicide chess, variants.ini's
    ``mustCapture``), each refused with the calling rule's name."""
    st = ctx.session.chess
    if not any(m.victim is not None for m in st.candidates.values()):
        return
    rule = ctx.pnode.production.name
    for u, m in list(st.candidates.items()):
        if m.victim is None:
            st.drop(u, rule, "a capture is available, and captures are compulsory")
