"""First to Promote Wins: the first player to promote a pawn wins at once.

Productions (additive): ``first-promotion-wins.promotion-win`` (stage result,
salience 70) - a move that promotes, with no result yet, records a win for its
side. The result is recorded with the move (not derived from the position), so
it is locked: nothing later changes it, and the game is over, with no legal
moves (``fide.game-over-no-moves``).
Taking the move back takes the result back with it.

Preferred layout: ``pawns-only`` (both kings on e1/e8 with all sixteen pawns).

Rulings (ours where marked):

* Any promotion wins - a push or a capture, to any piece.
* The self-check filter stays: a pinned pawn that would expose its king cannot
  promote, and a side in check must answer it (the conservative reading).
* The first promotion locks the result: later promotions (under a multi-move
  turn, say) do not overwrite it.
* (ours) A promotion that also checkmates, or also ends the game under another
  preset's rule judged after the move (stalemate, extinction...), wins by the
  promotion: its result is recorded first (salience 70) and the game is over.
* All other FIDE results stand: checkmate and stalemate before anyone promotes,
  and the draws.
"""
from rete import Assert, Not, P, Rule, Test, V

from presets.base import PresetMeta

META = PresetMeta(
    id="first-promotion-wins", name="First to Promote Wins", category="Objectives",
    description="The first player to promote a pawn wins the game at once; the first "
                "promotion locks the result.",
    mode="additive", affects=["fide.promotion"],
    preferred_layout="pawns-only", gallery="v2",
)


def apply(rules, config) -> None:
    rules.add(Rule("first-promotion-wins.promotion-win", stage="result", salience=70,
                   doc="first-promotion-wins: the first move that promotes a pawn wins the "
                       "game for its side; the result is locked.")
              .when(P("move", color=V.c, promo=V.pt), Test("ne", V.pt, None), Not(P("result")))
              .then(Assert("result", winner=V.c, reason="first promotion")))
