"""Berolina Pawns: pawns push diagonally forward and capture straight forward.

The four FIDE pawn productions are replaced by name (``fide.pawn-single-push``,
``fide.pawn-double-push``, ``fide.pawn-capture``, ``fide.en-passant``) with
scope-aware ones: a pawn of a colour in scope moves the Berolina way; a pawn of
a colour out of scope is handed to the production that was there before
(FIDE's, or a geometry preset's), so ``scope: white`` plays Berolina White
against FIDE Black. The replaced ``fide.pawn-capture`` declares the Berolina
attack (the square straight ahead) for the colours in scope, so check, the
self-check filter and castling see it. Steps follow the board's topology (they
wrap on ``wrap-board``).

Config: ``scope`` = ``white`` | ``black`` | ``both`` (default ``both``,
DECISIONS.md).

Rulings (RULES-spec.md, DECISIONS.md, ours where marked):

* A pawn steps one square diagonally forward to an empty square; an unmoved
  pawn on its home rank may step two squares diagonally forward in one
  direction (a2-c4, e2-c4, e2-g4) when the square passed and the square
  reached are both empty (no jumping).
* It captures one square straight forward. It promotes on reaching the last
  rank by a push or by a capture.
* En passant (Parton 1952): a double step leaves an en-passant target on the
  square it passed (e2-c4 leaves d3). On the very next move the opponent may
  capture onto that square with a capturing move of its own pawns - a Berolina
  pawn straight forward (d4xd3... i.e. a black pawn on d4 takes on d3) - and the
  pawn that made the double step (on c4) is removed. (ours, scope white/black)
  A FIDE pawn of the other side captures onto the target diagonally, as its
  captures go; a Berolina pawn can never take a FIDE double step en passant
  (the square behind the target is the victim's own).
* No sideways captures (that is ``berolina-pawns-2``).
* Positions: the FEN's en-passant square is the square passed. The pawn it
  takes is inferred as the one pawn of the side that made it standing one
  diagonal step beyond it; where two could have made it, the extended position
  says which (``ep-pawn:d3=c4``) and a position that does not is refused.
  (ours) The target is on rank 3 or 6 and empty, and the pawn came from the
  square before it on its diagonal, which is empty; a side out of scope plays
  FIDE pawns, and its targets are checked as FIDE's are. Where a side moves
  several times before the target can be taken (Dice Chess, ``double-move``),
  the target and that square may have been filled since: only the rank is
  checked.
* (ours) ``fide.turn-advance`` resets the fifty-move clock on any pawn move,
  as in FIDE.
* For repetition, an en-passant target counts only when the en-passant
  capture is legal (FIDE 9.2.3): the repetition key asks the legal moves, not
  FIDE's pawn geometry, so a position where a Berolina en-passant capture is
  possible never repeats one where it is not.

Differences from Fairy-Stockfish's ``berolina`` (checked by
tests/presets/test_v2_berolina_fsf.py, legal moves and perft on positions from
seeded random playouts): none found in legal moves or move counts. FSF writes
the en-passant field of a Berolina double step as two squares (``c5d6``: the
pawn's square and the square passed); we write the square passed (``d6``) and,
only where it is ambiguous, the ``ep-pawn`` token.
"""
from __future__ import annotations

from rete import Call, Collect, P, Rule, Test, V, Var

from chess_rules.errors import FenError
from chess_rules.fide import add_pawn_move
from chess_rules.helpers import for_each_piece
from chess_rules.moves import Move
from chess_rules.position import several_moves_a_turn
from chess_rules.squares import SQUARE_NAMES

from .base import PresetMeta, ScopeConfig

META = PresetMeta(
    id="berolina-pawns", name="Berolina Pawns", category="Movement Modifier",
    description="Pawns push diagonally forward (two squares from the home rank) and capture "
                "straight forward; en passant after Parton (1952).",
    mode="override",
    affects=["fide.pawn-single-push", "fide.pawn-double-push", "fide.pawn-capture",
             "fide.en-passant"],
    incompatible_with=["berolina-pawns-2", "double-pawn-sprint", "pawn-diagonal-no-capture",
                       "knight-immunity"],
    scope_aware=True, config_model=ScopeConfig,
    gallery="v2",
)

FORWARD = {"white": "N", "black": "S"}
BACKWARD = {"white": "S", "black": "N"}
DIAGONALS = {"white": ("NW", "NE"), "black": ("SW", "SE")}
SIDEWAYS = ("W", "E")
HOME_RANK = {"white": 1, "black": 6}


def scope_colors(config) -> frozenset:
    scope = config.scope if config is not None else "both"
    return frozenset(("white", "black") if scope == "both" else (scope,))


def _old_fn(rules, name):
    """The generator function the current production ``name`` calls, taking
    one piece (FIDE's movers take the pieces they collect; a production that
    replaced one may match a piece at a time)."""
    prod = rules.get(name)
    call = prod.actions[0]
    fn = call.fn if callable(call.fn) else rules.functions[call.fn]
    first = call.args[0] if call.args else None
    if any(isinstance(c, Collect) and isinstance(first, Var) and c.bind == first.name
           for c in prod.conditions):
        return lambda ctx, p, *args: fn(ctx, (p,), *args)
    return fn


def install_berolina(rules, config, sideways: bool, tag: str) -> None:
    scope = scope_colors(config)
    steps = rules.topology.steps
    old_single = _old_fn(rules, "fide.pawn-single-push")
    old_double = _old_fn(rules, "fide.pawn-double-push")
    old_capture = _old_fn(rules, "fide.pawn-capture")
    old_ep = _old_fn(rules, "fide.en-passant")
    old_attacks = rules.get("fide.pawn-capture").meta.get("attacks")

    def gen_single(ctx, p):
        v = p.values
        c = v["color"]
        if c not in scope:
            return old_single(ctx, p)
        st = ctx.session.chess
        sq = v["square"]
        rule = ctx.pnode.production.name
        for d in DIAGONALS[c]:
            to = steps[d][sq]
            if to is None:
                continue
            if st.colors[to] is None:
                add_pawn_move(st, sq, to, c, "normal", None, rule)
            else:
                st.refuse(SQUARE_NAMES[sq] + SQUARE_NAMES[to], rule,
                          f"{SQUARE_NAMES[to]} is occupied (a Berolina pawn moves diagonally "
                          "only to empty squares)")

    def gen_double(ctx, p):
        v = p.values
        c = v["color"]
        if c not in scope:
            return old_double(ctx, p)
        sq = v["square"]
        if v["moved"] or sq >> 3 != HOME_RANK[c]:
            return
        st = ctx.session.chess
        colors = st.colors
        rule = ctx.pnode.production.name
        for d in DIAGONALS[c]:
            mid = steps[d][sq]
            to = None if mid is None else steps[d][mid]
            if to is None:
                continue
            if colors[mid] is None and colors[to] is None:
                add_pawn_move(st, sq, to, c, "double-push", None, rule, ep_square=mid)
            else:
                blocked = mid if colors[mid] is not None else to
                st.refuse(SQUARE_NAMES[sq] + SQUARE_NAMES[to], rule,
                          f"{SQUARE_NAMES[blocked]} is occupied")

    def gen_capture(ctx, p):
        v = p.values
        c = v["color"]
        if c not in scope:
            return old_capture(ctx, p)
        st = ctx.session.chess
        colors = st.colors
        sq = v["square"]
        rule = ctx.pnode.production.name
        targets = [steps[FORWARD[c]][sq]]
        if sideways:
            targets += [steps[d][sq] for d in SIDEWAYS]
        for to in targets:
            if to is None:
                continue
            oc = colors[to]
            if oc is not None and oc != c:
                add_pawn_move(st, sq, to, c, "normal", to, rule)
            elif oc is None:
                st.refuse(SQUARE_NAMES[sq] + SQUARE_NAMES[to], rule,
                          f"a Berolina pawn moves {'straight forward' if to == targets[0] else 'sideways'}"
                          f" only to capture, and {SQUARE_NAMES[to]} is empty")

    def gen_ep(ctx, ep, color):
        if color not in scope:
            return old_ep(ctx, ep, color)
        st = ctx.session.chess
        v = ep.values
        target, victim = v["square"], v["pawn"]
        if st.types[victim] != "pawn" or st.colors[victim] == color or st.colors[target] is not None:
            return
        s = steps[BACKWARD[color]][target]    # a Berolina pawn takes straight forward
        if s is not None and st.types[s] == "pawn" and st.colors[s] == color:
            st.add(Move(s, target, None, "pawn", "en-passant", victim,
                        ctx.pnode.production.name))

    def attacks(colors, types, target, by):
        if by not in scope:
            return old_attacks(colors, types, target, by) if old_attacks else False
        s = steps[BACKWARD[by]][target]
        if s is not None and types[s] == "pawn" and colors[s] == by:
            return True
        if sideways:
            for d in SIDEWAYS:
                s = steps[d][target]
                if s is not None and types[s] == "pawn" and colors[s] == by:
                    return True
        return False

    def infer_ep_pawn(st, target):
        rank = target >> 3
        maker = "white" if rank == 2 else "black" if rank == 5 else None
        name = SQUARE_NAMES[target]
        if maker is None:
            raise FenError("en_passant", f"{name!r} is not on rank 3 or 6")
        # one move a turn: nothing has filled the target or the square its pawn
        # left since (several: either may be, and only the rank is checked)
        strict = not several_moves_a_turn(st.ruleset.config)
        if strict and st.colors[target] is not None:
            raise FenError("en_passant", f"{name!r} is occupied: the pawn that made it "
                                         "passed over it")
        if maker not in scope:          # FIDE pawns: the pawn beyond, from the square before
            pawn, origin = (target + 8, target - 8) if maker == "white" else \
                (target - 8, target + 8)
            if strict and (st.types[pawn] != "pawn" or st.colors[pawn] != maker):
                raise FenError("en_passant", f"{name!r} has no {maker} pawn on "
                                             f"{SQUARE_NAMES[pawn]} that could have made it")
            if strict and st.colors[origin] is not None:
                raise FenError("en_passant", f"{SQUARE_NAMES[origin]} is occupied, so no pawn "
                                             f"has just left it")
            return pawn
        # a pawn diagonally beyond the target, come from the square before it
        # on that diagonal, which it left empty
        cands = [s for d in DIAGONALS[maker] for s in (steps[d][target],)
                 if s is not None and st.types[s] == "pawn" and st.colors[s] == maker
                 and (not strict or _empty(st, steps[BACK[d]][target]))]
        if len(cands) == 1:
            return cands[0]
        if not cands:
            raise FenError("en_passant", f"no {maker} Berolina pawn stands diagonally beyond "
                                         f"{name} that could have made it")
        raise FenError("en_passant", f"either {SQUARE_NAMES[cands[0]]} or {SQUARE_NAMES[cands[1]]} "
                                     f"could have made the target {name}: say which with "
                                     f"ep-pawn:{name}=SQ")

    names = {}
    for key, fn in (("single", for_each_piece(gen_single)), ("double", for_each_piece(gen_double)),
                    ("capture", for_each_piece(gen_capture)), ("ep", gen_ep)):
        names[key] = f"gen.{tag}.{key}"
        rules.function(names[key], fn)
    scope_doc = "" if scope == {"white", "black"} else f" ({'/'.join(sorted(scope))} only)"
    rules.replace(Rule("fide.pawn-single-push", stage="generate",
                       doc=f"{tag}: a pawn steps one square diagonally forward to an empty "
                           f"square{scope_doc}.")
                  .when(P("movegen", color=V.c),
                        Collect(P("piece", type="pawn", color=V.c)).as_("ps"))
                  .then(Call(names["single"], V.ps)))
    rules.replace(Rule("fide.pawn-double-push", stage="generate",
                       doc=f"{tag}: an unmoved pawn on its home rank steps two squares "
                           f"diagonally forward through an empty one{scope_doc}.")
                  .when(P("movegen", color=V.c),
                        Collect(P("piece", type="pawn", color=V.c)).as_("ps"))
                  .then(Call(names["double"], V.ps)))
    old = rules.get("fide.pawn-capture")
    meta = dict(old.meta)
    meta["attacks"] = attacks
    meta["attack-group"] = "preset"
    what = "straight forward or sideways" if sideways else "straight forward"
    rules.replace(old.replace(
        actions=(type(old.actions[0])(names["capture"], *old.actions[0].args),),
        meta=meta, doc=f"{tag}: a pawn captures one square {what}{scope_doc}."))
    rules.replace(Rule("fide.en-passant", stage="generate",
                       doc=f"{tag}: a pawn captures onto the square a double step passed, "
                           "straight forward (Parton), taking the pawn that made it.")
                  .when(P("movegen", color=V.c), P("ep", by=V.o).as_("e"), Test("ne", V.o, V.c))
                  .then(Call(names["ep"], V.e, V.c)))
    rules.config["strict-ep"] = False
    rules.config["ep-pawn-infer"] = infer_ep_pawn


BACK = {"NW": "SE", "NE": "SW", "SW": "NE", "SE": "NW"}


def _empty(st, square: int | None) -> bool:
    return square is not None and st.colors[square] is None


def apply(rules, config) -> None:
    install_berolina(rules, config, sideways=False, tag="berolina-pawns")
