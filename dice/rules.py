"""Dice Chess as an edit of the FIDE rule set: the same productions, check
switched off, the dice as facts.

Starting from :func:`chess_rules.fide.fide_rules` (or any rule set built on it),
:func:`dice_rules`

removes   the check machinery (``fide.check-resolution``,
          ``fide.king-capture-illegal``, ``fide.check-detection``) and the result
          rules that presuppose it or a one-move turn (``fide.checkmate-win``,
          ``fide.stalemate-draw``, ``fide.insufficient-material``,
          ``fide.fifty-move``, ``fide.threefold-repetition``), and
          ``fide.ep-target-expire`` (a target now lives for a whole opponent turn);
          a result rule a preset put in the place of one of these is the
          preset's own ending (``capture-to-win``: the first capture wins) and
          stays;
replaces  ``fide.turn-advance``: a micro-move keeps the colour and the move
          number (only the fifty-move clock advances); ``dice.end-turn-*`` hand
          the turn over;
adds      the ``die``, ``roll`` and ``end-turn`` templates, the ``roll`` stage
          (before ``generate``) and the ``end-turn`` stage (after ``result``),
          and the productions

roll       dice.roll                 three dice from the session's random source
filter     dice.die-filter           a micro-move needs a die of its piece's type
                                     (castling: a king die and a rook die)
apply      dice.king-capture         taking a royal piece ends the game (``result``)
           dice.spend-die            the move spends its die (castling both)
post-move  dice.ep-target-drop       a target goes once its pawn moves again
           dice.ep-target-taken      ... or once its pawn is captured
           dice.ep-target-passed     ... or once another double step passes its
                                     square (Berolina pawns: g7-e5, then e7-g5)
end-turn   dice.end-turn-ep-clear    the opponent's targets go, this side's stay
           dice.end-turn-dice-clear  unused dice go
           dice.end-turn-toggle      the colour changes; the move number after Black

The king stays a royal type, which now means only: capturing it ends the game,
and a king castles neither out of, through nor into an attacked square (the
FIDE castling generator checks attacks for a royal king). ``fide.game-over-no-moves``
stays, so once a king is taken no micro-move is generated.
"""
from __future__ import annotations

import re
from collections import Counter

from rete import Assert, Call, Not, P, RetractFact, Rule, Template, Test, V

from chess_rules.errors import ChessError, FenError
from chess_rules.fide import fide_rules
from chess_rules.move_helpers import piece_patterns
from chess_rules.ruleset import RuleSet, checked_ruleset
from chess_rules.shape import STANDARD
from chess_rules.squares import SQUARE_NAMES, opposite
from chess_rules.state import game_fact

from .dfen import FACE_TYPE, LETTER_TYPE, TYPE_FACE
from .errors import DiceBoardError

__all__ = ["dice_rules", "REMOVED", "DICE_TEMPLATES", "ORIGIN"]

ORIGIN = "dice"
KING_CAPTURED = "king captured"     # the reason of a result a royal capture decided
_REASON = re.compile(r"[a-z0-9-]+(?:_[a-z0-9-]+)*")   # a written reason (winner:C=REASON)

REMOVED = ("fide.check-resolution", "fide.king-capture-illegal", "fide.check-detection",
           "fide.checkmate-win", "fide.stalemate-draw", "fide.insufficient-material",
           "fide.fifty-move", "fide.threefold-repetition", "fide.ep-target-expire")

DICE_TEMPLATES = (
    Template("die", ("type", "face", "index"),
             doc="One die left to play: the piece type it moves, its face (1..6) and "
                 "its place in the roll (the DFEN keeps that order)."),
    Template("roll", ("color",), doc="Request: roll three dice for ``color``."),
    Template("end-turn", ("color",), doc="Request: end ``color``'s turn."),
)

def move_dice(piece_type: str, kind: str) -> tuple[str, ...]:
    """The dice a micro-move of a ``piece_type`` spends (castling: king and rook)."""
    return ("king", "rook") if kind == "castle" else (piece_type,)


# ---------------------------------------------------------------- functions


def roll_dice(ctx, color):
    """Assert three ``die`` facts, faces from ``session.rng.randint(1, 6)``."""
    s = ctx.session
    rng = getattr(s, "rng", None)
    if rng is None:
        raise ChessError("no random source to roll the dice with (session.rng)")
    for i in range(3):
        face = rng.randint(1, 6)
        ctx.assert_fact("die", type=FACE_TYPE[face], face=face, index=i)


def missing_die(counts: Counter, ptype: str, kind: str, frm: int) -> str | None:
    """Why a micro-move of a ``ptype`` from ``frm`` has no die (``counts``: the dice
    left by type), or None when its dice are there."""
    need = move_dice(ptype, kind)
    if all(counts[t] for t in need):
        return None
    left = ", ".join(sorted(counts.elements(), key=TYPE_FACE.__getitem__)) or "none"
    if kind == "castle":
        return f"castling needs a king die and a rook die (dice left: {left})"
    return f"no {ptype} die for the {ptype} on {SQUARE_NAMES[frm]} (dice left: {left})"


def dice_left(session) -> Counter:
    """The dice left, counted by piece type."""
    return Counter(f.values["type"] for f in session.by_template.get("die", {}).values())


def dice_filter(ctx, color):
    """Keep the candidates whose piece type has a die (castling: king and rook)."""
    s = ctx.session
    st = s.chess
    # this runs at every movegen request: a set of the die types, and the
    # counts (for the reason) only once a candidate is dropped
    have = {f.values["type"] for f in s.by_template.get("die", _NO_DICE).values()}
    types = st.types
    counts = None
    for u, m in list(st.candidates.items()):
        ptype = types[m.frm] or m.piece
        if ptype in have and m.kind != "castle":
            continue
        if counts is None:
            counts = dice_left(s)
        reason = missing_die(counts, ptype, m.kind, m.frm)
        if reason is not None:
            st.drop(u, ctx.pnode.production.name, reason)


_NO_DICE: dict = {}


def spend_die(ctx, move):
    """Retract the die (two for castling) that the move spends: the first in roll
    order among the dice of its type."""
    s = ctx.session
    v = move.values
    frm = v["from"]
    ptype = s.chess.types[frm] or v["piece"]
    dice = s.by_template.get("die", _NO_DICE)
    for t in move_dice(ptype, v["kind"]):
        first = None
        for f in dice.values():
            fv = f.values
            if fv["type"] == t and (first is None or fv["index"] < first.values["index"]):
                first = f
        if first is None:
            raise ChessError(f"{v['uci']}: no {t} die left to spend")
        s.retract(first)


def dice_clock(ctx, move):
    """A micro-move keeps the colour and the move number; the fifty-move clock
    counts micro-moves since the last pawn move or capture. (The ``game`` fact is
    not in the production's conditions, so modifying it does not re-fire it.)

    The ``game`` fact is modified after every micro-move, the clock unchanged
    included (a capture with the clock at 0): the rules that judge every position
    on it (a preset's ending: ``extinction-chess.extinct``, a bare side under
    ``suicide-chess``...) see every micro-move, as they see every chess move."""
    game = game_fact(ctx.session)
    if game is None:
        return      # a rule took it away: the move is refused (Game._make) as such
    v = game.values
    mv = move.values
    half = 0 if mv["piece"] == "pawn" or mv["capture"] else v["halfmove"] + 1
    ctx.session.modify(game, {"halfmove": half})


def setup_dice(game, pos) -> None:
    """Setup hook: the dice of the DFEN as ``die`` facts, and the result when a
    side has no king left (a king was captured)."""
    s = game.session
    for i, letter in enumerate(getattr(pos, "dice", ()) or ()):
        t = LETTER_TYPE[letter]
        s.assert_fact("die", type=t, face=TYPE_FACE[t], index=i)
    if s.facts_of("result"):
        return                      # a preset's own hook decided the position
    decided = (getattr(pos, "tokens", None) or {}).get("winner")
    if decided is not None:
        winner, reason = decided
        s.assert_fact("result", winner=winner, reason=reason)
        return
    royal = game.ruleset.royal_types
    for color in ("white", "black"):
        types = royal.get(color, ())
        if types and not _has_piece_of(pos.placement, types, color):
            s.assert_fact("result", winner=opposite(color), reason=KING_CAPTURED)


def _has_piece_of(placement: dict, types, color: str) -> bool:
    # a loop, not any() over a generator: a Ctrl-C that lands while a
    # short-circuited generator is finalised is printed as "Exception ignored"
    # and lost, where here it reaches the caller, which rebuilds the game
    for t, c in placement.values():
        if c == color and t in types:
            return True
    return False


def read_winner(value: str, pos) -> tuple[str, str]:
    """``winner:C`` or ``winner:C=REASON``: the game is over, won by ``C``.

    Written when the board does not show it: under coregal the king is still
    there without its queen, and a preset's ending (``first-promotion-wins``,
    ``explosive-rook``) leaves both kings standing. The reason is the result's,
    its spaces written as ``_`` (``winner:white=first_promotion``); without one,
    a royal piece was taken ("king captured"). Returns ``(colour, reason)``."""
    color, sep, reason = value.partition("=")
    if color not in ("white", "black"):
        raise FenError("extended", f"winner:{value} names no side (white or black)")
    if not sep:
        return color, KING_CAPTURED
    if not _REASON.fullmatch(reason):
        raise FenError("extended", f"winner:{value}: the reason is words of a-z, 0-9 and '-' "
                                   f"joined by '_' (as in winner:white=first_promotion)")
    return color, reason.replace("_", " ")


def write_winner(game) -> str | None:
    res = game.session.facts_of("result")
    if not res:
        return None
    v = res[0].values
    winner, reason = v["winner"], v["reason"]
    royal = game.ruleset.royal_types.get(opposite(winner), ())
    st = game.state
    shown = not any(st.types[s] in royal and st.colors[s] == opposite(winner) for s in range(64))
    if reason != KING_CAPTURED:
        # a preset's ending: the board shows that the game is over only as a
        # lost royal piece, so anything else is written with its reason
        return f"{winner}={reason.replace(' ', '_')}"
    return None if shown else winner


def end_turn_toggle(ctx, game):
    v = game.values
    c = v["turn"]
    ctx.session.modify(game, {"turn": opposite(c),
                              "fullmove": v["fullmove"] + (1 if c == "black" else 0)})


FUNCTIONS = {
    "roll-dice": roll_dice, "dice-filter": dice_filter, "spend-die": spend_die,
    "dice-clock": dice_clock, "end-turn-toggle": end_turn_toggle,
}


# ---------------------------------------------------------------- productions


def dice_productions() -> list[Rule]:
    return [
        Rule("dice.roll", stage="roll",
             doc="Rolling fills the empty dice pool with three dice (faces 1 pawn .. 6 king).")
        .when(P("roll", color=V.c), Not(P("die")))
        .then(Call("roll-dice", V.c)),

        Rule("dice.die-filter", stage="filter", salience=50,
             doc="A micro-move moves a piece whose type has a die; castling needs a king "
                 "die and a rook die.")
        .when(P("movegen", color=V.c))
        .then(Call("dice-filter", V.c)),

        Rule("dice.king-capture", stage="apply", salience=50,
             doc="Capturing the opponent's king ends the turn and the game.")
        .when(P("move", to=V.t, color=V.c, kind="normal"),
              P("piece", square=V.t, color=V.vc, type=V.pt), Test("ne", V.vc, V.c),
              P("royal", type=V.pt, color=V.vc), Not(P("result")))
        .then(Assert("result", winner=V.c, reason=KING_CAPTURED)),

        Rule("dice.spend-die", stage="apply", salience=40,
             doc="A micro-move spends the die of its piece; castling spends the king and "
                 "the rook die; a promotion spends a pawn die.")
        .when(P("move").as_("m"))
        .then(Call("spend-die", V.m)),

        Rule("dice.ep-target-drop", stage="post-move", salience=30,
             doc="An en-passant target is dropped at once if the pawn that made it moves "
                 "again in the same turn.")
        .when(P("move", **{"from": V.f}, color=V.c), P("ep", pawn=V.f, by=V.c).as_("e"))
        .then(RetractFact("e")),

        Rule("dice.ep-target-taken", stage="post-move", salience=30,
             doc="An en-passant target whose pawn has been captured is dropped.")
        .when(P("move", capture=True, victim=V.v), P("ep", pawn=V.v).as_("e"))
        .then(RetractFact("e")),

        Rule("dice.ep-target-passed", stage="post-move", salience=30,
             doc="A double step that passes the square of a target made earlier in the "
                 "turn (two Berolina pawns crossing one square) takes the target over: one "
                 "square is one target, with the pawn that passed it last.")
        .when(P("move", kind="double-push", ep_square=V.s, to=V.t),
              P("ep", square=V.s, pawn=V.p).as_("e"), Test("ne", V.p, V.t))
        .then(RetractFact("e")),

        Rule("dice.end-turn-ep-clear", stage="end-turn", salience=20,
             doc="Ending a turn clears the targets the opponent made (this side could "
                 "have taken them) and keeps the ones this side made.")
        .when(P("end-turn", color=V.c), P("ep", by=V.o).as_("e"), Test("ne", V.o, V.c))
        .then(RetractFact("e")),

        Rule("dice.end-turn-dice-clear", stage="end-turn", salience=20,
             doc="Dice left unplayed at the end of a turn are discarded.")
        .when(P("end-turn"), P("die").as_("d"))
        .then(RetractFact("d")),

        Rule("dice.end-turn-toggle", stage="end-turn", salience=10,
             doc="Ending a turn passes it to the other side; the move number grows after "
                 "Black's turn.")
        .when(P("end-turn", color=V.c), P("game", turn=V.c).as_("g"))
        .then(Call("end-turn-toggle", V.g)),
    ]


#: Generators that name no piece type, by the name Dice Chess gives them (a preset
#: that replaces one keeps its meaning): the dice their moves need.
NAMED_MOVERS = {"fide.castling": ("king", "rook"), "fide.en-passant": ("pawn",)}


def _gate_movers(rs: RuleSet) -> None:
    """Each generate-stage production that moves one piece type (a ``piece``
    pattern with a constant ``type``), castling (``fide.castling``: a king and a
    rook die) and en passant (``fide.en-passant``: a pawn die) gets, as its first
    conditions, that the dice it needs are left: the same production, matched only
    while its dice are there. First, because those conditions share no variable:
    while a type has no die, a ``movegen`` request builds no partial match for its
    pieces at all. This is an optimisation; ``dice.die-filter`` is what makes it a
    rule (promoted pieces, productions moving several types), and
    :meth:`dice.game.DiceGame.explain` names the missing die."""
    from rete.model import Exists, as_production
    for name, prod in list(rs.productions.items()):
        prod = as_production(prod)
        if prod.stage != "generate":
            continue
        types = [dict(c.slots).get("type") for c in piece_patterns(prod)]
        need: tuple[str, ...]
        if len(types) == 1 and isinstance(types[0], str):
            need = (types[0],)
        elif not types and name in NAMED_MOVERS:
            need = NAMED_MOVERS[name]
        else:
            continue
        gates = tuple(Exists(P("die", type=t)) for t in need)
        rs.productions[name] = prod.replace(conditions=gates + tuple(prod.conditions))
        rs.history.append(("gate", name, ORIGIN))


def dice_rules(base: RuleSet | None = None, gate: bool = True) -> RuleSet:
    """Dice Chess as a rule set: ``base`` (FIDE by default) edited as described above.

    ``base`` is not changed. Productions of ``REMOVED`` that ``base`` lacks are
    skipped, so a preset that already dropped one composes. A ``base`` that is
    Dice Chess already is given back as it is (a copy). ``gate=False`` leaves
    the movers ungated (the die filter alone decides: slower, the same moves).
    """
    checked_ruleset(base)
    if base is not None and base.shape is not STANDARD:
        # the dice, the DFEN and the turn rules count on the 64 squares
        raise DiceBoardError(f"Dice Chess is played on the 8x8 board, and the rule set "
                             f"({base.name}) plays on a {base.shape}")
    if base is not None and setup_dice in base.setup_hooks:
        return base.copy()          # Dice Chess already (as_dice_rules takes it so too)
    rs = (base if base is not None else fide_rules()).copy()
    rs.name = f"dice({rs.name})"
    for name in REMOVED:
        if name in rs.productions:
            if rs.productions[name].stage == "result" and rs.origin.get(name) != "fide":
                continue        # a preset's own ending under FIDE's name: it stays
            rs.remove(name, ORIGIN)
    for t in DICE_TEMPLATES:
        rs.templates[t.name] = t
    rs.functions.update(FUNCTIONS)
    rs.add_stage("roll", before=("generate",))
    rs.add_stage("end-turn", after=(rs.stages[-1],))
    rs.replace(
        Rule("fide.turn-advance", stage="post-move", salience=0,
             doc="Dice Chess: a micro-move keeps the colour and the move number; the "
                 "fifty-move clock counts micro-moves.")
        .when(P("move").as_("m"))
        .then(Call("dice-clock", V.m)), ORIGIN)
    for r in dice_productions():
        rs.add(r, ORIGIN)
    if gate:
        _gate_movers(rs)
    rs.setup_hooks.append(setup_dice)
    rs.config["dice"] = True
    # its positions carry dice (DFEN) and its turns are rolls and micro-moves:
    # a plain Game would read no dice and move nothing (Game.refuses_ruleset)
    rs.config["played-with"] = ("dice.DiceGame, on DFEN positions (a Dice Chess rule set, "
                                "dice.dice_rules)")
    rs.config["strict-ep"] = False
    # a target lives for the opponent's whole turn: a piece may stop on it meanwhile
    rs.config["ep-target-may-be-occupied"] = True
    rs.config["position-tokens"] = {**rs.config.get("position-tokens", {}),
                                    "winner": (read_winner, write_winner)}
    # the dice are the DFEN's 7th field; roll and end-turn are requests, gone
    # between moves: none is state the position key must add
    rs.config["keyed-templates"] = sorted(set(rs.config.get("keyed-templates", ()))
                                          | {"die", "roll", "end-turn"})
    return rs
