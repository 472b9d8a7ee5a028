"""FIDE chess as named productions.

Every rule of the game is one production, found by its name:

generate   fide.pawn-single-push, fide.pawn-double-push, fide.pawn-capture,
           fide.en-passant, fide.knight-move, fide.bishop-move, fide.rook-move,
           fide.queen-move, fide.king-move, fide.castling
filter     fide.check-resolution (no move may leave a royal piece attacked),
           fide.king-capture-illegal, fide.game-over-no-moves
apply      fide.capture, fide.en-passant-capture, fide.move-piece,
           fide.castling-rook, fide.promotion
post-move  fide.ep-target-expire, fide.ep-target-set, fide.castling-rights-king,
           fide.castling-rights-rook, fide.castling-rights-capture,
           fide.castling-rights-king-gone,
           fide.turn-advance, fide.check-detection
result     fide.checkmate-win, fide.stalemate-draw, fide.insufficient-material,
           fide.fifty-move, fide.threefold-repetition

A generate-stage production matches the ``movegen`` request and the pieces it
moves, and calls a geometry function that walks the squares; the board's
topology is bound when the production is made, so a preset can swap in a
production over another topology. Movement productions also declare, in their
metadata, how the pieces they move attack a square: check detection asks the
active productions, so a preset that changes how a piece moves changes what it
attacks too.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable

from rete import Assert, Call, Collect, Exists, ModifyFact, Not, P, RetractFact, Rule, Test, V
from rete.model import AssertLogical, Expr

from . import geometry as geo
from .move_helpers import as_pieces, piece_patterns
from .movement import Leg, leap, mover_rule, slide, step
from .errors import ArgumentError
from .moves import Move
from .ruleset import RuleSet
from .shape import STANDARD, BoardShape
from .squares import opposite
from .topology import Plain

ROOK_LINES = ("N", "E", "S", "W")
BISHOP_LINES = ("NE", "SE", "SW", "NW")

PAWN_RULE_NAMES = ("fide.pawn-single-push", "fide.pawn-double-push", "fide.pawn-capture")


# ---------------------------------------------------------------- generators


# Each generator takes the pieces a mover collects (``Collect(P("piece", ...))``):
# one firing per movegen request moves them all, rather than one firing each.
# A rule file may also call one with a single piece (``?p <- piece(...)``).


def make_slider_gen(piece_type: str, topo, directions, can_capture=None):
    """A slider's generator; ``can_capture(types, sq)`` may veto a capture."""

    def gen(ctx, pieces):
        st = ctx.session.chess
        colors = st.colors
        rule = ctx.pnode.production.name
        add = st.add
        for p in as_pieces(pieces):
            v = p.values
            sq = v["square"]
            c = v["color"]
            for to in geo.slide_targets(colors, topo, sq, c, directions):
                if colors[to] is None:
                    add(Move(sq, to, None, piece_type, "normal", None, rule))
                elif can_capture is None or can_capture(st, to):
                    add(Move(sq, to, None, piece_type, "normal", to, rule))
                else:
                    st.refuse(st.names[sq] + st.names[to], rule,
                              f"a {piece_type} may not capture {st.describe(to)}")
    return gen


def add_pawn_move(st, frm, to, color, kind, victim, rule, ep_square=None):
    """Add a pawn move, expanded into promotions on the last rank."""
    if st.is_promotion(to, color):
        for pt in st.promotion_types:
            st.add(Move(frm, to, pt, "pawn", kind, victim, rule))
    else:
        st.add(Move(frm, to, None, "pawn", kind, victim, rule, ep_square=ep_square))


def _empty_diagonal(session, to: int, color: str) -> str:
    """Why a pawn may not move diagonally onto the empty square ``to``; an
    en-passant target of its own side there (Dice Chess, a multi-move turn) is
    named, as the capture a player would look for."""
    names = session.chess.names
    why = f"a pawn moves diagonally only to capture, and {names[to]} is empty"
    for f in session.facts_of("ep"):
        v = f.values
        if v["square"] == to and v["by"] == color:
            return (f"{why}: the en-passant target there is {color}'s own (made by its pawn "
                    f"on {names[v['pawn']]}), and a pawn captures en passant only "
                    f"onto the opponent's targets")
    return why


def make_ep_gen(topo):
    def gen(ctx, ep, color):
        st = ctx.session.chess
        v = ep.values
        target, victim = v["square"], v["pawn"]
        if st.types[victim] != "pawn" or st.colors[victim] == color or st.colors[target] is not None:
            return
        rule = ctx.pnode.production.name
        for s in topo.pawn_attackers[color][target]:
            if st.types[s] == "pawn" and st.colors[s] == color:
                st.add(Move(s, target, None, "pawn", "en-passant", victim, rule))
    return gen


def castle_gen(ctx, right, color):
    """Castling: the right, the king and rook at home, an empty path and, for a
    royal king, no attacked square from its start to its destination."""
    st = ctx.session.chess
    v = right.values
    kf, kt, rf, rt = v["king-from"], v["king-to"], v["rook-from"], v["rook-to"]
    rule = ctx.pnode.production.name
    names = st.names
    uci = names[kf] + names[kt]
    colors, types = st.colors, st.types
    if types[kf] != "king" or colors[kf] != color or types[rf] != "rook" or colors[rf] != color:
        st.refuse(uci, rule, "the king and rook are not on their castling squares")
        return
    lo = min(kf, kt, rf, rt)
    hi = max(kf, kt, rf, rt)
    for s in range(lo, hi + 1):
        if s not in (kf, rf) and colors[s] is not None:
            st.refuse(uci, rule, f"{names[s]} is not empty")
            return
    if "king" in st.royal[color]:
        opp = opposite(color)
        step = 1 if kt > kf else -1
        for s in range(kf, kt + step, step):
            if s == kf:
                colors2, types2 = colors, types
            else:
                colors2 = colors[:]
                types2 = types[:]
                colors2[kf] = types2[kf] = None
                colors2[s], types2[s] = color, "king"
            if st.attacked(colors2, types2, s, opp):
                # "check" only where the rules have it (a check fact on the king):
                # under a rule set without check (Dice Chess) the king's square is
                # an attacked square like the others
                in_check = s == kf and any(f.values["color"] == color and f.values["square"] == kf
                                           for f in ctx.session.facts_of("check"))
                st.refuse(uci, rule, "the king is in check" if in_check
                          else f"{names[s]} is attacked")
                return
    st.add(Move(kf, kt, None, "king", "castle", None, rule, rook_from=rf, rook_to=rt))


# ---------------------------------------------------------------- filters


def _pins(colors, types, topo, k, color):
    """Pieces of ``color`` pinned to the royal piece on ``k``: square -> the squares
    of its pin line (between ``k`` and the pinner, the pinner included)."""
    pins = {}
    rays = topo.rays
    for dirs, kinds in ((ROOK_LINES, ("rook", "queen")), (BISHOP_LINES, ("bishop", "queen"))):
        for d in dirs:
            own = None
            for i, s in enumerate(ray := rays[d][k]):
                c = colors[s]
                if c is None:
                    continue
                if c == color:
                    if own is not None:
                        break
                    own = s
                    continue
                if own is not None and types[s] in kinds:
                    pins[own] = ray[:i + 1]
                break
    return pins


def _fast_filter_ok(st) -> bool:
    """Whether the self-check filter may use pin lines instead of simulating every
    candidate: FIDE attacks on the plain board and exactly the FIDE apply effects
    (a preset that changes either makes every candidate be simulated)."""
    return (st.simulators == FIDE_SIMULATORS and len(st.attack_fns) == 1
            and st.attack_fns[0] is st.ruleset.fide_attacks and type(st.topology) is Plain
            and st.refusals is None)


def filter_self_check(ctx, color):
    """Drop every candidate that leaves one of the mover's royal pieces attacked.

    With FIDE attacks and apply effects, and one royal piece not in check, only
    the royal piece's own moves, en passant, promotions to a royal type (a new
    royal piece, under coregal or knightmate-rules) and the moves of pinned pieces
    can expose a royal piece: a pinned piece may move along its pin line only; the
    others are judged on a simulated board. Otherwise every candidate is simulated.
    """
    st = ctx.session.chess
    rule = ctx.pnode.production.name
    cands = st.candidates
    if _fast_filter_ok(st):
        colors, types = st.colors, st.types
        ks = st.royal_squares(colors, types, color)
        if len(ks) == 1:
            k = ks[0]
            if not st.attacked(colors, types, k, opposite(color)):
                pins = _pins(colors, types, st.topology, k, color)
                royal = st.royal[color]
                for u, m in list(cands.items()):
                    frm = m.frm
                    if frm == k or m.kind == "en-passant" or (
                            m.victim is not None and m.victim != m.to) or (
                            m.promo is not None and m.promo in royal):
                        if st.exposes_royal(m, color) is not None:
                            st.drop(u, rule, "")
                    elif frm in pins and m.to not in pins[frm]:
                        st.drop(u, rule, "")
                return
    for u, m in list(cands.items()):
        s = st.exposes_royal(m, color)
        if s is not None:
            if st.refusals is not None:
                colors, types = st.simulate(m)
                att = st.attackers(colors, types, s, opposite(color))
                names = st.names
                by = ", ".join(f"the {types[a]} on {names[a]}" for a in att)
                reason = f"it leaves the {types[s]} on {names[s]} attacked" + \
                    (f" by {by}" if by else "")
            else:
                reason = ""
            st.drop(u, rule, reason)


def filter_royal_capture(ctx, color):
    st = ctx.session.chess
    royal = st.royal[opposite(color)]
    rule = ctx.pnode.production.name
    for u, m in list(st.candidates.items()):
        if m.victim is not None and st.types[m.victim] in royal:
            st.drop(u, rule, f"a royal piece ({st.describe(m.victim)}) is never captured")


def filter_game_over(ctx, result):
    st = ctx.session.chess
    rule = ctx.pnode.production.name
    why = f"the game is over ({result.values['reason']})"
    for u in list(st.candidates):
        st.drop(u, rule, why)


# ---------------------------------------------------------------- apply and post-move


def sim_capture(st, colors, types, m):
    if m.victim is not None:
        colors[m.victim] = None
        types[m.victim] = None


def sim_move_piece(st, colors, types, m):
    colors[m.to] = colors[m.frm]
    types[m.to] = types[m.frm]
    if m.to != m.frm:
        colors[m.frm] = None
        types[m.frm] = None


def sim_castling_rook(st, colors, types, m):
    if m.kind == "castle":
        c = st.colors[m.rook_from]
        if colors[m.rook_from] == c and types[m.rook_from] == "rook":
            colors[m.rook_from] = types[m.rook_from] = None
        colors[m.rook_to], types[m.rook_to] = c, "rook"


def sim_promotion(st, colors, types, m):
    if m.promo:
        types[m.to] = m.promo


FIDE_SIMULATORS = [sim_capture, sim_move_piece, sim_castling_rook, sim_promotion]
"""The simulate hooks of the FIDE apply productions, in the order they run."""


def mover_is(move_piece, piece_type) -> bool:
    """Whether a piece of ``piece_type`` on a move's origin is the piece the move
    moves (a move that does not name its piece moves whatever stands there)."""
    return not move_piece or move_piece == piece_type


def turn_advance(ctx, game, move):
    """Hand the turn over; keep the fifty-move clock and the move number."""
    v = game.values
    mv = move.values
    c = mv["color"]
    half = 0 if mv["piece"] == "pawn" or mv["capture"] else v["halfmove"] + 1
    ctx.session.modify(game, {"turn": opposite(c), "halfmove": half,
                              "fullmove": v["fullmove"] + (1 if c == "black" else 0)})


def detect_check(ctx, game):
    """Assert a ``check`` fact for each royal piece of the side to move under attack."""
    s = ctx.session
    st = s.chess
    color = game.values["turn"]
    for f in s.facts_of("check"):
        s.retract(f)
    opp = opposite(color)
    colors, types = st.colors, st.types
    for sq in st.royal_squares(colors, types, color):
        if st.attacked(colors, types, sq, opp):
            s.assert_fact("check", color=color, square=sq, attackers=None)


# ---------------------------------------------------------------- result


def insufficient_material(ctx, status):
    """Dead positions by material: K v K, K+minor v K, K+B v K+B with same-coloured bishops
    (unless ``config['dead-same-shade-bishops']`` is False: a rule set in which taking
    a bishop decides the game, such as extinction-chess with target bishop).

    A minor piece counts only while it moves as in FIDE chess
    (:func:`fide_minor_types`): a bishop that may also step orthogonally can mate.
    None of it holds where a king may be lost otherwise than by checkmate
    (``config['dead-positions']`` False: a king that heals may stand attacked,
    poison kills)."""
    st = ctx.session.chess
    if st.ruleset.config.get("dead-positions", True) is False:
        return
    pieces = [(t, st.colors[s], s) for s, t in enumerate(st.types) if t]
    kinds = [t for t, _, _ in pieces if t != "king"]
    if any(t not in _FIDE_MINOR_MOVERS for t in kinds):
        return
    if kinds and not set(kinds) <= fide_minor_types(st.ruleset):
        return
    dead = False
    if len(kinds) <= 1:
        dead = True
    elif all(t == "bishop" for t in kinds) and \
            st.ruleset.config.get("dead-same-shade-bishops", True):
        width = st.shape.width
        shades = {(s % width + s // width) % 2 for t, _, s in pieces if t == "bishop"}
        dead = len(shades) == 1
    if dead:
        ctx.assert_logical("result", winner="draw", reason="insufficient material")


#: FIDE's minor pieces and the production that moves each
_FIDE_MINOR_MOVERS = {"knight": "fide.knight-move", "bishop": "fide.bishop-move"}


def fide_minor_types(ruleset) -> set[str]:
    """The minor piece types that move exactly as in FIDE chess under ``ruleset``:
    no generate production but FIDE's own mover (not replaced) reads a piece of
    that type, or one whose ``within-fide-moves`` meta says it moves the piece
    nowhere FIDE's would (it may refuse some moves, as knight-immunity's bishop
    does on the plain board). FIDE's table of dead positions holds for those
    only; a knight or bishop that a preset or a rule file moves otherwise (a
    further step, a second leap, a wrapping or bouncing board: those presets
    rebuild the movers) might mate.

    >>> from presets import load
    >>> from chess_rules.fide import fide_minor_types, fide_rules
    >>> sorted(fide_minor_types(fide_rules())), sorted(fide_minor_types(load("bishops-ignore-color")))
    (['bishop', 'knight'], ['knight'])
    """
    minors = set(_FIDE_MINOR_MOVERS)
    for name, prod in ruleset.productions.items():
        if prod.stage != "generate":
            continue
        for c in piece_patterns(prod):
            t = dict(c.slots).get("type")
            if not isinstance(t, str):
                return set()            # a production over pieces of any type
            fide_own = name == _FIDE_MINOR_MOVERS.get(t) and ruleset.origin.get(name) == "fide"
            if t in minors and not fide_own and not prod.meta.get("within-fide-moves"):
                minors.discard(t)
    return minors


def threefold(ctx, status):
    game = ctx.session.chess.game
    if game is not None and game.tracks_repetitions and game.repetitions() >= 3:
        ctx.assert_logical("result", winner="draw", reason="threefold repetition")


# ---------------------------------------------------------------- the rule set


def mover(name, piece_type, gen, attacks, doc, group="fide", slides=False):
    """A generate-stage production moving every ``piece_type`` of the side to move.

    It collects them (one firing per movegen request, ``gen(ctx, pieces)``), so
    a request costs one partial match per mover, not one per piece. ``slides``:
    its moves run along lines that the first piece in the way stops (the
    ``slides`` meta: explanations may then name that piece)."""
    meta = {"attack-group": group}
    if slides:
        meta["slides"] = True
    return Rule(name, stage="generate", doc=doc, attacks=attacks, **meta) \
        .when(P("movegen", color=V.c), Collect(P("piece", type=piece_type, color=V.c)).as_("ps")) \
        .then(Call(gen, V.ps))


#: FIDE's movers as data: (rule, piece type, legs, doc), in generation order.
FIDE_MOVEMENT: tuple[tuple[str, str, tuple[Leg, ...], str], ...] = (
    ("fide.pawn-single-push", "pawn",
     (step("N", mode="move", blocked="{to} is occupied (pawns push only to empty squares)"),),
     "A pawn steps one square forward to an empty square."),
    ("fide.pawn-double-push", "pawn",
     (leap((0, 2), mode="move", lame=True, initial=True, from_ranks=(1,), ep=True,
           blocked="{blocked} is occupied"),),
     "An unmoved pawn on its home rank advances two squares through an empty one."),
    ("fide.pawn-capture", "pawn",
     (step("NW", "NE", mode="capture", empty=_empty_diagonal),),
     "A pawn captures one square diagonally forward."),
    ("fide.knight-move", "knight", (leap(*geo.KNIGHT_OFFSETS),),
     "A knight leaps (1,2) to a square not held by its own side."),
    ("fide.bishop-move", "bishop", (slide(*geo.BISHOP_DIRS),), "A bishop slides diagonally."),
    ("fide.rook-move", "rook", (slide(*geo.ROOK_DIRS),), "A rook slides along ranks and files."),
    ("fide.queen-move", "queen", (slide(*geo.QUEEN_DIRS),),
     "A queen slides in all eight directions."),
    ("fide.king-move", "king", (step(*geo.KING_OFFSETS),),
     "A king steps one square in any direction."),
)


def movement_rules(topo, group="fide"):
    """The ten movement productions over a topology (FIDE uses the plain board),
    built from :data:`FIDE_MOVEMENT`, and the functions they call."""
    fn = {}
    out = []
    for name, ptype, legs, doc in FIDE_MOVEMENT:
        short = name.removeprefix("fide.").removesuffix("-move").removesuffix("-push")
        fn_name = f"gen.{short}.{topo.name}"
        rule, fn[fn_name] = mover_rule(name, ptype, legs, topo, doc, fn_name, group)
        out.append(rule)
    ep_name = f"gen.en-passant.{topo.name}"
    fn[ep_name] = make_ep_gen(topo)
    out.append(Rule("fide.en-passant", stage="generate",
                    doc="A pawn takes a pawn that just made a double step, on the skipped square.")
               .when(P("movegen", color=V.c), P("ep", by=V.o).as_("e"), Test("ne", V.o, V.c))
               .then(Call(ep_name, V.e, V.c)))
    return out, fn


def fide_rules(shape: BoardShape = STANDARD) -> RuleSet:
    """Standard chess as a rule set: a fresh copy each call, to edit freely.

    ``shape`` is the board (:func:`~chess_rules.shape.board_shape`, 8x8 unless
    given): FIDE's pieces and rules on it, pawns starting on the second rank
    from each side and promoting on the last, castling from the king's square
    toward the corners (:func:`chess_rules.game.castling_squares`). A game under it starts from
    no position of its own: give it a FEN, or a start (``config['start-fen']``).

    The copies share the productions, functions and board topology they start
    with (all immutable), so a game does not pay for building them again.

    >>> from chess_rules.fide import fide_rules
    >>> from chess_rules.shape import board_shape
    >>> fide_rules(board_shape(10, 8)).shape
    board_shape(10, 8)
    """
    if not isinstance(shape, BoardShape):
        raise ArgumentError(f"a board shape is a chess_rules.shape.board_shape(...), not {shape!r}")
    return _fide_base(shape).copy()


@lru_cache(maxsize=None)
def _fide_base(shape: BoardShape) -> RuleSet:
    rs = RuleSet("fide")
    topo = Plain(shape.width, shape.height)
    rs.topology = topo
    rs.fide_attacks = lambda c, t, sq, by, topo=topo: geo.is_attacked_fide(c, t, topo, sq, by)
    prods, fns = movement_rules(topo)
    rs.functions.update(fns)
    functions: dict[str, Callable[..., Any]] = {
        "castle": castle_gen, "filter-self-check": filter_self_check,
        "filter-royal-capture": filter_royal_capture, "filter-game-over": filter_game_over,
        "turn-advance": turn_advance, "detect-check": detect_check,
        "insufficient-material": insufficient_material, "threefold": threefold,
        "opposite": opposite, "mover-is": mover_is,
    }
    for fname, f in functions.items():
        rs.functions[fname] = f
    for p in prods:
        rs.add(p, "fide")

    rules = [
        Rule("fide.castling", stage="generate",
             doc="King and rook castle: both unmoved (the right stands), the squares between "
                 "them empty, and a royal king neither in check nor passing through or "
                 "landing on an attacked square.")
        .when(P("movegen", color=V.c), P("castling", color=V.c).as_("r"))
        .then(Call("castle", V.r, V.c)),

        Rule("fide.check-resolution", stage="filter", salience=10,
             doc="No move may leave one of the mover's royal pieces attacked.")
        .when(P("movegen", color=V.c), Exists(P("royal", color=V.c)))
        .then(Call("filter-self-check", V.c)),
        Rule("fide.king-capture-illegal", stage="filter", salience=20,
             doc="A royal piece is never captured.")
        .when(P("movegen", color=V.c), Exists(P("royal", color=V.o), Test("ne", V.o, V.c)))
        .then(Call("filter-royal-capture", V.c)),
        Rule("fide.game-over-no-moves", stage="filter", salience=100,
             doc="Once the game is decided there are no legal moves.")
        .when(P("movegen", color=V.c), P("result").as_("r"))
        .then(Call("filter-game-over", V.r)),

        Rule("fide.capture", stage="apply", salience=20, simulate=sim_capture,
             doc="A piece moving onto an enemy piece removes it.")
        .when(P("move", to=V.t, color=V.c, kind="normal"),
              P("piece", square=V.t, color=V.vc).as_("v"), Test("ne", V.vc, V.c))
        .then(RetractFact("v")),
        Rule("fide.en-passant-capture", stage="apply", salience=20,
             doc="En passant removes the pawn that made the double step.")
        .when(P("move", kind="en-passant", victim=V.s), P("piece", square=V.s).as_("v"))
        .then(RetractFact("v")),
        Rule("fide.move-piece", stage="apply", salience=10, simulate=sim_move_piece,
             doc="The moving piece goes to its destination.")
        # the mover only: a piece that comes to stand on the square it left during
        # the same move (a target pushed there under piece-hp, a bishop born there
        # under queen-splits) is not moved again
        .when(P("move", **{"from": V.f}, to=V.t, color=V.c, piece=V.mp),
              P("piece", square=V.f, color=V.c, type=V.pt).as_("p"), Test("mover-is", V.mp, V.pt))
        .then(ModifyFact("p", square=V.t, moved=True)),
        Rule("fide.castling-rook", stage="apply", salience=10, simulate=sim_castling_rook,
             doc="Castling moves the rook to the square the king crossed.")
        .when(P("move", kind="castle", rook_from=V.rf, rook_to=V.rt),
              P("piece", square=V.rf, type="rook").as_("r"))
        .then(ModifyFact("r", square=V.rt, moved=True)),
        Rule("fide.promotion", stage="apply", salience=5, simulate=sim_promotion,
             doc="A pawn reaching the last rank becomes the piece chosen.")
        .when(P("move", to=V.t, promo=V.pt, color=V.c), Test("ne", V.pt, None),
              P("piece", square=V.t, color=V.c, type="pawn").as_("p"))
        .then(ModifyFact("p", type=V.pt)),

        Rule("fide.ep-target-expire", stage="post-move", salience=30,
             doc="An en-passant target lives for one opponent move.")
        .when(P("move", color=V.c), P("ep", by=V.o).as_("e"), Test("ne", V.o, V.c))
        .then(RetractFact("e")),
        Rule("fide.ep-target-set", stage="post-move", salience=20,
             doc="A double step leaves an en-passant target on the skipped square.")
        .when(P("move", kind="double-push", to=V.t, color=V.c, ep_square=V.s))
        .then(Assert("ep", square=V.s, pawn=V.t, by=V.c)),
        Rule("fide.castling-rights-king", stage="post-move", salience=20,
             doc="A king that moves loses both castling rights.")
        .when(P("move", **{"from": V.f}), P("castling", king_from=V.f).as_("r"))
        .then(RetractFact("r")),
        Rule("fide.castling-rights-rook", stage="post-move", salience=20,
             doc="A rook that moves loses its castling right.")
        .when(P("move", **{"from": V.f}), P("castling", rook_from=V.f).as_("r"))
        .then(RetractFact("r")),
        Rule("fide.castling-rights-capture", stage="post-move", salience=20,
             doc="A rook captured on its home square takes its castling right with it.")
        .when(P("move", to=V.t), P("castling", rook_from=V.t).as_("r"))
        .then(RetractFact("r")),
        Rule("fide.castling-rights-king-gone", stage="post-move", salience=20,
             doc="A castling right goes when its king is no longer on its home square "
                 "(a non-royal king captured, under knightmate-rules or weak-dual-king).")
        # the move event last: the right-without-its-king part stays matched in the
        # network (and is empty in play), so a move joins nothing here; with the
        # event first, every move would build a token per castling right
        .when(P("castling", king_from=V.k, color=V.c).as_("r"),
              Not(P("piece", square=V.k, type="king", color=V.c)), P("move"))
        .then(RetractFact("r")),
        Rule("fide.turn-advance", stage="post-move", salience=0,
             doc="The turn passes to the other side; the fifty-move clock and move number advance.")
        .when(P("move", color=V.c).as_("m"), P("game", turn=V.c).as_("g"))
        .then(Call("turn-advance", V.g, V.m)),
        # on demand (rete.demand): worked out when a rule or a caller reads
        # ``check``, so a move made and taken back unasked never runs it
        Rule("fide.check-detection", stage="post-move", salience=-10, on_demand="check",
             doc="A royal piece of the side to move that stands attacked is in check.")
        .when(P("game").as_("g"))
        .then(Call("detect-check", V.g)),
    ]
    rules.append(Rule("fide.checkmate-win", stage="result", salience=50,
                      doc="A side to move in check with no legal move is checkmated and loses.")
                 .when(P("status", color=V.c, moves=0), Exists(P("check", color=V.c)))
                 .then(AssertLogical("result", winner=Expr("opposite", V.c), reason="checkmate")))
    rules += [
        Rule("fide.stalemate-draw", stage="result", salience=40,
             doc="A side to move with no legal move and not in check is stalemated: a draw.")
        .when(P("status", color=V.c, moves=0), Not(P("check", color=V.c)))
        .then(AssertLogical("result", winner="draw", reason="stalemate")),
        Rule("fide.insufficient-material", stage="result", salience=30,
             doc="A position where no sequence of moves can mate is drawn (FIDE's "
                 "minor pieces count as such while they move as in FIDE).")
        .when(P("status").as_("s"))
        .then(Call("insufficient-material", V.s)),
        Rule("fide.fifty-move", stage="result", salience=20,
             doc="Fifty moves by each side with no pawn move or capture: a draw.")
        .when(P("status"), P("game", halfmove=V.h), Test("ge", V.h, 100))
        .then(AssertLogical("result", winner="draw", reason="fifty-move rule")),
        Rule("fide.threefold-repetition", stage="result", salience=10,
             doc="The same position for the third time: a draw.")
        .when(P("status").as_("s"))
        .then(Call("threefold", V.s)),
    ]
    for r in rules:
        rs.add(r, "fide")
    return rs
