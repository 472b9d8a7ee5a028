"""Extinction: a side left with no piece of the target type loses.

Configuration (validated): ``target_type``, one of ``pawn knight bishop rook
queen king``; default ``pawn``. E.g.
``houserules moves --preset extinction-chess --config extinction-chess.target_type=knight``.

Royalty is unchanged: the king stays royal, and FIDE check, checkmate and
stalemate apply until extinction decides the game.

Productions (additive):

``extinction-chess.extinct`` (stage result, salience 65) judges every position
(the ``game`` fact changes with every move and is there when a position is
loaded): a side with no piece of the target type on the board loses. The result
is recorded, not derived, so the game is over at once and has no legal moves; taking the move back takes it back.

With ``target_type=bishop`` the rule set's ``dead-same-shade-bishops`` flag is
off, so ``fide.insufficient-material`` does not call bishops of one shade on both
sides a dead position: they can still capture each other. (With any other
target, a position FIDE calls dead either has no target piece on one side -
decided already - or is dead here as well.)

Rulings (ours where marked):

* The target is judged however it disappears: captured, en passant, or promoted
  away - promoting one's own last pawn loses.
* A promotion *to* the target type adds a target piece.
* (ours, as Fairy-Stockfish) Should both sides be without the target type at once
  (a set-up position, or a rook's blast under ``explosive-rook`` that takes the
  last target piece of both sides), the side that has just moved - not the side
  to move - loses; mid-turn under ``double-move`` / ``monster-rules`` (``half:1``),
  and in Dice Chess, that is the side to move.
* Extinction is checked before checkmate and stalemate: a move that removes the
  opponent's last target piece wins even if it also stalemates him.
* Target ``king``: with royal kings it is never reachable (a king is never
  captured); with a preset that makes kings capturable (``capture-all``,
  ``weak-dual-king``, ``suicide-chess``) capturing the last king wins.

Differences from Fairy-Stockfish (tests/presets/test_v2_differential.py, a custom
variant ``extinctionValue = loss``, ``extinctionPieceTypes = <target>`` on
chess): none found in legal moves, perft or results on positions from seeded
random playouts (targets pawn, knight, bishop, rook, queen). FSF's own
``extinction`` variant is a different game (kings are not royal and every piece
type is a target).
"""
from typing import Literal

from pydantic import BaseModel, ConfigDict
from rete import Call, Not, P, Rule, V

from chess_rules.squares import opposite

from presets.base import PresetMeta

PieceType = Literal["pawn", "knight", "bishop", "rook", "queen", "king"]


class ExtinctionConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")
    target_type: PieceType = "pawn"


META = PresetMeta(
    id="extinction-chess", name="Extinction", category="Objectives",
    description="A side left with no piece of the target type (default: pawn) loses; the "
                "king stays royal and checkmate still wins.",
    objective="extinction",
    mode="additive", affects=["fide.checkmate-win", "fide.insufficient-material"],
    config_model=ExtinctionConfig, gallery="v2",
)


def make_extinct(target: str):
    def extinct(ctx, game):
        s = ctx.session
        if s.facts_of("result"):
            return
        st = s.chess
        present = {c for c, t in zip(st.colors, st.types) if t == target}
        # the side that has just moved: the move's (mid-turn under a multi-move
        # preset, or in Dice Chess, the side to move itself); in a loaded
        # position the side not to move, or mid-turn (half:N past 0) the side to move
        played = s.facts_of("move")
        turn = game.values["turn"]
        if played:
            mover = played[0].values["color"]
        else:
            mover = turn if game.values.get("half", 0) else opposite(turn)
        for c in (mover, opposite(mover)):
            if c not in present:
                ctx.assert_fact("result", winner=opposite(c), reason=f"no {target} left")
                return
    return extinct


def apply(rules, config) -> None:
    target = (config or ExtinctionConfig()).target_type
    rules.function("extinction-chess.extinct", make_extinct(target))
    rules.add(Rule("extinction-chess.extinct", stage="result", salience=65,
                   doc=f"extinction-chess: a side with no {target} left loses.")
              .when(P("game").as_("g"), Not(P("result")))
              .then(Call("extinction-chess.extinct", V.g)))
    if target == "bishop":
        rules.config["dead-same-shade-bishops"] = False
