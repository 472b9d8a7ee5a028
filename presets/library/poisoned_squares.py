"""Poisoned Centre: d4, d5, e4 and e5 are poisoned. Requires ``piece-hp``.

``preset.poison-damage`` (stage turn-end, salience 20) deals 1 damage to every
piece of the side that just moved that stands on a poisoned square at the end
of its turn; a piece at 0 hp is removed. It resolves before
``preset.king-heal`` (salience 10) of ``king-heals``, and then re-runs check
detection, since a piece that poison removed may have been giving check.

Rulings (ours where marked):

* Only the side that ends its turn is poisoned, once per turn per piece: a piece
  that entered and left a poisoned square during the turn is unharmed, and a
  piece standing on one while the opponent moves is not.
* Kings are poisoned too (with ``king-heals``: poison first, then the heal if the
  king is not in check). A side whose last royal piece dies loses at once.
* Promotion grants no immunity: a piece that ends its side's turn on a poisoned
  square is poisoned whatever it became (on the 8x8 board no pawn promotes on
  the centre, so a d5 example with a pawn on it cannot arise).
* A piece pushed onto a poisoned square by ``piece-hp`` is poisoned at the end of
  its own side's next turn if it is still there.
* (ours) Damage is not "in check" for the self-check filter: a move that leaves a
  king with 1 hp on a poisoned square is legal and loses.
* (ours) Legality is judged before the turn-end effects: a 1-hp piece that
  steps off a line onto a poisoned square and dies there may uncover its own
  king; the move is legal, the opponent (who may not capture a 1-hp king) moves
  next, and the king must then get out of check.
* (ours) No position is dead by material (``config['dead-positions']``): a
  king that walks onto a poisoned square dies, so even bare kings can lose.

Fairy-Stockfish: not compared (no hit points).
"""
from rete import Call, P, Rule, Test, V

from chess_rules.fide import detect_check
from chess_rules.squares import parse_square

from presets.base import PresetMeta
from .piece_hp import damage

META = PresetMeta(
    id="poisoned-squares", name="Poisoned Centre", category="Persistent State",
    description="A piece that ends its side's turn on d4, d5, e4 or e5 loses 1 hp (removed "
                "at 0); resolved before king-heals.",
    mode="additive", affects=[],
    requires=["piece-hp"],
)

POISONED = tuple(parse_square(n) for n in ("d4", "d5", "e4", "e5"))


def poison(ctx, color):
    s = ctx.session
    st = s.chess
    hit = False
    for sq in POISONED:
        f = st.facts[sq]
        if f is not None and f.values["color"] == color:
            damage(ctx, f, 1, why="its last royal piece died of poison")
            hit = True
    if hit:
        for g in s.facts_of("game"):
            detect_check(ctx, g)


def apply(rules, config) -> None:
    # poison kills a king whatever the material: no position is dead
    rules.config["dead-positions"] = False
    rules.function("poison.damage", poison)
    rules.add(Rule("preset.poison-damage", stage="turn-end", salience=20,
                   doc="A piece of the side that just moved standing on d4, d5, e4 or e5 loses "
                       "1 hp (removed at 0).")
              .when(P("move", color=V.c), P("game", turn=V.t), Test("ne", V.t, V.c))
              .then(Call("poison.damage", V.c)))
