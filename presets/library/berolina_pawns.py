"""Berolina Pawns: pawns push diagonally forward and capture straight forward.

The four FIDE pawn productions are replaced by name (``fide.pawn-single-push``,
``fide.pawn-double-push``, ``fide.pawn-capture``, ``fide.en-passant``) with
scope-aware ones: a pawn of a colour in scope moves the Berolina way; a pawn of
a colour out of scope is handed to the production that was there before
(FIDE's, a geometry preset's, or one the base rule set's own rules wrote), so
``scope: white`` plays Berolina White against FIDE Black. The replaced
``fide.pawn-capture`` declares the Berolina attack (the square straight ahead)
for the colours in scope, so check, the self-check filter and castling see it.
Steps follow the board's topology (they wrap on ``wrap-board``).

With a scope of one side the replacements keep what they build on for the
other: each is the production that was there (its conditions, the arguments of
its call) calling a generator that hands the pawns out of scope, with all those
arguments, to the generator it called, and moves the others the Berolina way;
the attacks it declared, or its move helpers imply (``gen-leap``), stay for the
side out of scope. So over a base whose own rules replaced a pawn production
(pawns that also step sideways, written per pawn or collecting them, with the
helpers' arguments) the preset loads, and that side keeps those rules.

Config: ``scope`` = ``white`` | ``black`` | ``both`` (default ``both``).

Rulings (ours where marked):

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
* (ours) With scope ``both`` nothing of the pawn productions it replaces is
  kept: over a base whose own rules replaced one of them the preset is refused
  (``ConflictingPresetsError``), as it would undo them; load it first and
  apply the rules over it, or give it a scope of one side. With a scope of one
  side, the pawns in scope move where the kept production matches them (its
  conditions stay; FIDE's match every pawn of the side to move). A kept
  production whose call does not take the pawn or pawns it moves as its first
  argument (so its moves cannot be told apart by side) is refused.
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
from rete.model import Fact, Pattern

from chess_rules.errors import FenError
from chess_rules.move_helpers import for_each_piece, mover_pattern
from chess_rules.movement import compile_attacks, compile_generator, leap, step
from chess_rules.moves import Move
from chess_rules.position import several_moves_a_turn
from chess_rules.squares import SQUARE_NAMES

from presets.base import ConflictingPresetsError, PresetMeta, ScopeConfig

META = PresetMeta(
    id="berolina-pawns", name="Berolina Pawns", category="Movement Modifier",
    description="Pawns push diagonally forward (two squares from the home rank) and capture "
                "straight forward; en passant after Parton (1952).",
    mode="override",
    affects=["fide.pawn-single-push", "fide.pawn-double-push", "fide.pawn-capture",
             "fide.en-passant"],
    incompatible_with=["berolina-pawns-2", "double-pawn-sprint", "pawn-diagonal-no-capture",
                       "knight-immunity"],
    incompatible_because={
        "berolina-pawns-2": (
            "both rewrite the pawn: berolina-pawns-2 is berolina-pawns with "
            "sideways captures"),
        "double-pawn-sprint": (
            "both rewrite the pawn's push: a Berolina pawn pushes diagonally"),
        "pawn-diagonal-no-capture": (
            "both rewrite the pawn's moves: a Berolina pawn already pushes "
            "diagonally and captures straight forward"),
        "knight-immunity": (
            "both rewrite the pawn's capture (knight-immunity's veto on a bishop "
            "promotion that takes a knight): a Berolina pawn captures straight "
            "forward"),
    },
    scope_aware=True, config_model=ScopeConfig,
    gallery="v2",
)

BACKWARD = {"white": "S", "black": "N"}
DIAGONALS = {"white": ("NW", "NE"), "black": ("SW", "SE")}


#: the Berolina pawn as data: a diagonal push, a diagonal double step from the
#: home rank (no jumping), a capture straight forward (and, berolina-pawns-2,
#: sideways)
BEROLINA_PUSH = (step("NW", "NE", mode="move", blocked="{to} is occupied (a Berolina pawn "
                      "moves diagonally only to empty squares)"),)
BEROLINA_DOUBLE = (leap((-2, 2), (2, 2), mode="move", lame=True, initial=True, from_ranks=(1,),
                        ep=True, blocked="{blocked} is occupied"),)
BEROLINA_CAPTURE = (step("N", mode="capture", empty="a Berolina pawn moves straight forward "
                         "only to capture, and {to} is empty"),)
BEROLINA_SIDEWAYS = (step("W", "E", mode="capture", empty="a Berolina pawn moves sideways "
                          "only to capture, and {to} is empty"),)


def scope_colors(config) -> frozenset:
    scope = config.scope if config is not None else "both"
    return frozenset(("white", "black") if scope == "both" else (scope,))


PAWN_MOVERS = ("fide.pawn-single-push", "fide.pawn-double-push", "fide.pawn-capture",
               "fide.en-passant")


def _one_call(prod):
    """The one function call a production's action is, or None."""
    if len(prod.actions) == 1 and isinstance(prod.actions[0], Call):
        return prod.actions[0]
    return None


def _kept_mover(rules, prod, own, sides: str, tag: str):
    """A generator for the production ``prod`` a side out of scope keeps: it takes
    what ``prod``'s call takes (the pawn it matches, or the pawns it collects,
    then the call's other arguments); the pawns out of scope go to ``prod``'s
    generator with all those arguments, the others to ``own`` (one pawn)."""
    call = _one_call(prod)
    if call is None or not call.args or mover_pattern(prod, call.args[0]) is None:
        raise ConflictingPresetsError(
            f"preset {tag!r} keeps {prod.name!r} for {sides} (out of its scope), but that "
            "production does not call one generator with the pawn it moves (?p <- piece(...)) "
            "or the pawns (?ps <- collect piece(...)) as its first argument, so the pawns "
            "of the two sides cannot be told apart")
    fn = call.fn if callable(call.fn) else rules.functions[call.fn]
    scope = frozenset(("white", "black")) - frozenset(sides.split("/"))

    def gen(ctx, pieces, *rest):
        if isinstance(pieces, Fact):
            if pieces.values["color"] in scope:
                own(ctx, pieces)
            else:
                fn(ctx, pieces, *rest)
            return
        outs = tuple(p for p in pieces if p.values["color"] not in scope)
        if outs:
            fn(ctx, pieces if len(outs) == len(pieces) else outs, *rest)
        for p in pieces:
            if p.values["color"] in scope:
                own(ctx, p)
    return gen, call.args


def _kept_ep(rules, prod, own, sides: str, tag: str):
    """The same for the en-passant production: ``gen(ctx, color, ep, *args)`` over
    the side to move and the ``ep`` fact ``prod`` matches, then its call's own
    arguments."""
    call = _one_call(prod)
    color = next((dict(c.slots).get("color") for c in prod.conditions
                  if isinstance(c, Pattern) and c.template == "movegen"), None)
    ep = next((c.bind for c in prod.conditions
               if isinstance(c, Pattern) and c.template == "ep" and c.bind), None)
    if call is None or color is None or ep is None:
        raise ConflictingPresetsError(
            f"preset {tag!r} keeps {prod.name!r} for {sides} (out of its scope), but that "
            "production does not match the side to move (movegen(color: ...)) and the "
            "target (?e <- ep(...)) and call one generator, so the sides cannot be told apart")
    fn = call.fn if callable(call.fn) else rules.functions[call.fn]
    scope = frozenset(("white", "black")) - frozenset(sides.split("/"))

    def gen(ctx, side, e, *args):
        if side in scope:
            own(ctx, e, side)
        else:
            fn(ctx, *args)
    return gen, (color, Var(ep), *call.args)


def install_berolina(rules, config, sideways: bool, tag: str) -> None:
    """Replace the four pawn productions with the Berolina pawn's legs (for
    the colours in scope; the others keep the movers this builds on)."""
    scope = scope_colors(config)
    topo = rules.topology
    captures = BEROLINA_CAPTURE + (BEROLINA_SIDEWAYS if sideways else ())
    own = {"fide.pawn-single-push": ("single", compile_generator("pawn", BEROLINA_PUSH, topo)),
           "fide.pawn-double-push": ("double", compile_generator("pawn", BEROLINA_DOUBLE, topo)),
           "fide.pawn-capture": ("capture", compile_generator("pawn", captures, topo)),
           "fide.en-passant": ("ep", make_ep_capture(topo.steps))}
    kept = "/".join(c for c in ("white", "black") if c not in scope)
    scope_doc = "" if not kept else f" ({'/'.join(sorted(scope))} only; {kept} as before)"
    what = "straight forward or sideways" if sideways else "straight forward"
    docs = {
        "fide.pawn-single-push": f"{tag}: a pawn steps one square diagonally forward to an "
                                 f"empty square{scope_doc}.",
        "fide.pawn-double-push": f"{tag}: an unmoved pawn on its home rank steps two squares "
                                 f"diagonally forward through an empty one{scope_doc}.",
        "fide.pawn-capture": f"{tag}: a pawn captures one square {what}{scope_doc}.",
        "fide.en-passant": f"{tag}: a pawn captures onto the square a double step passed, "
                           f"straight forward (Parton), taking the pawn that made it{scope_doc}.",
    }
    replace_pawn_movers(rules, scope, own, docs, compile_attacks("pawn", captures, topo), tag)
    rules.config["strict-ep"] = False
    rules.config["ep-pawn-infer"] = make_ep_pawn_infer(scope, topo.steps)


def make_ep_capture(steps):
    """The en-passant generator of a Berolina pawn: it takes straight forward
    onto the target, removing the pawn that made the double step."""
    def gen_ep(ctx, ep, color):
        st = ctx.session.chess
        v = ep.values
        target, victim = v["square"], v["pawn"]
        if st.types[victim] != "pawn" or st.colors[victim] == color or st.colors[target] is not None:
            return
        s = steps[BACKWARD[color]][target]    # a Berolina pawn takes straight forward
        if s is not None and st.types[s] == "pawn" and st.colors[s] == color:
            st.add(Move(s, target, None, "pawn", "en-passant", victim,
                        ctx.pnode.production.name))
    return gen_ep


def replace_pawn_movers(rules, scope, own, docs, own_attacks, tag: str) -> None:
    """Put ``own`` (production name -> (function suffix, generator)) in the
    place of the four pawn productions, with ``docs``. The sides out of
    ``scope`` keep the pawn movers of the rule set this builds on (FIDE's, a
    geometry preset's, or the base's own rules'), and their attacks; with scope
    both nothing is kept: over a base whose own rules replaced one, the preset
    would undo it (refused)."""
    kept = "/".join(c for c in ("white", "black") if c not in scope)
    if kept:
        old = {n: rules.build_on(n) for n in PAWN_MOVERS}
    else:
        old = {n: rules.get(n, hint=f"{tag} keeps it only for the side out of its scope, "
                                    "and its scope is both")
               for n in PAWN_MOVERS}
    old_attacks = rules.attacks_of(old["fide.pawn-capture"])

    def attacks(colors, types, target, by):
        if by not in scope:
            return old_attacks(colors, types, target, by) if old_attacks else False
        return own_attacks(colors, types, target, by)

    for name in PAWN_MOVERS:
        prod = old[name]
        suffix, gen = own[name]
        meta = dict(prod.meta) if name == "fide.pawn-capture" or kept else {}
        meta.pop("attacks", None)
        meta.pop("attack-group", None)
        fn_name = f"gen.{tag}.{suffix}"
        if name == "fide.pawn-capture":
            meta["attacks"] = attacks
            meta["attack-group"] = "preset"
        elif kept:
            # the kept side's captures there (a base rule's pawn that takes as it
            # steps) still attack
            keep_attacks = rules.attacks_of(prod)
            if keep_attacks is not None:
                meta["attacks"] = (lambda colors, types, target, by, f=keep_attacks:
                                   by not in scope and f(colors, types, target, by))
                meta["attack-group"] = "preset"
        if kept:
            # the production as it was (its conditions: the pawns it matches, the
            # arguments of its call), calling a generator that hands the kept
            # side's pawns to its own with all those arguments
            if name != "fide.en-passant":
                fn, args = _kept_mover(rules, prod, gen, kept, tag)
            else:
                fn, args = _kept_ep(rules, prod, gen, kept, tag)
            rules.function(fn_name, fn)
            rules.replace(prod.replace(actions=(Call(fn_name, *args),), meta=meta,
                                       doc=docs[name]))
            continue
        if name != "fide.en-passant":
            rules.function(fn_name, for_each_piece(gen))
            rule = (Rule(name, stage="generate", doc=docs[name], **meta)
                    .when(P("movegen", color=V.c),
                          Collect(P("piece", type="pawn", color=V.c)).as_("ps"))
                    .then(Call(fn_name, V.ps)))
        else:
            rules.function(fn_name, gen)
            rule = (Rule(name, stage="generate", doc=docs[name], **meta)
                    .when(P("movegen", color=V.c), P("ep", by=V.o).as_("e"),
                          Test("ne", V.o, V.c))
                    .then(Call(fn_name, V.e, V.c)))
        rules.replace(rule)


def make_ep_pawn_infer(scope, steps):
    """How a loaded position's en-passant target names its pawn (the pawn that
    made the double step), with Berolina pawns for the colours in ``scope``."""
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
    return infer_ep_pawn


BACK = {"NW": "SE", "NE": "SW", "SW": "NE", "SE": "NW"}


def _empty(st, square: int | None) -> bool:
    return square is not None and st.colors[square] is None


def apply(rules, config) -> None:
    install_berolina(rules, config, sideways=False, tag="berolina-pawns")
