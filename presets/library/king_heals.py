"""Regenerating King: a king regains 1 hp at the end of its side's turn, up to 3,
when it is not in check. Requires ``piece-hp`` (a king starts with hp 1).

Productions (hybrid):

``preset.king-heal`` (stage turn-end, salience 10) adds 1 hp, up to 3, to each
royal piece of the side that just moved that is not attacked at the end of its
turn. It runs after ``preset.poison-damage`` (salience 20) when
``poisoned-squares`` is active.

``fide.check-resolution`` is replaced: no move may leave a royal piece with hp
1 attacked (after the whole effect of the move); a royal piece with more hp is
not protected by the self-check filter. ``fide.king-capture-illegal`` is
replaced: only a royal piece with hp 1 is never captured; one with more hp may
be "captured" by ``piece-hp``'s damage rule (1 damage, then pushed).

Rulings (ours where marked):

* "In check" is judged at the end of the turn: the mover's king attacked then
  does not heal; once per turn, however many pieces attack it.
* A king with hp 1 is royal in the FIDE sense: it may not be left attacked, and
  checkmate ends the game. ``fide.check-detection`` still marks any attacked
  royal piece as in check (hp 2 or 3 included).
* (ours) The self-check filter reads hit points before the turn-end effects: a
  king with hp 2 may step onto a poisoned square it is attacked on, drop to hp 1
  there, and must then get out of check on its next move.
* (ours) A king "captured" with no empty square around it is removed, and its
  side loses.
* (ours) "The end of its side's turn" is when the turn passes: under
  ``double-move`` / ``monster-rules`` a king heals once per turn, after the last
  half-move (the production waits for the ``game`` fact to show the other side
  to move).
* (ours) The cap (3) and the heal (1) are fixed; a position may still give a king
  more hp in its extended form (it does not heal above 3, and keeps the excess).

* (ours) A royal piece attacked counts as in check whatever its hp (``expect
  check``); a side in check with no legal move at all is checkmated.
* (ours) No position is dead by material (``config['dead-positions']``): a king
  with hp to spare may stand next to the other, so bare kings can mate.

Fairy-Stockfish: not compared (no hit points).
"""
from rete import Call, Exists, P, Rule, Test, V

from chess_rules.squares import SQUARE_NAMES, opposite

from presets.base import PresetMeta
from presets.pieces import HP, hp_of

META = PresetMeta(
    id="king-heals", name="Regenerating King", category="Piece Ability",
    description="At the end of its side's turn a king not in check regains 1 hp, up to 3; "
                "a king with more than 1 hp may be attacked and 'captured' for 1 damage.",
    mode="hybrid", affects=["fide.check-resolution", "fide.king-capture-illegal"],
    requires=["piece-hp"],
)

MAX_HP = 3
HEAL = 1


def filter_self_check_hp(ctx, color):
    """Drop every candidate that leaves a royal piece of ``color`` with hp 1 attacked."""
    st = ctx.session.chess
    rule = ctx.pnode.production.name
    royal = st.royal[color]
    fragile = [(f.values["square"]) for f in st.facts
               if f is not None and f.values["color"] == color and f.values["type"] in royal
               and hp_of(f) <= 1]
    if not fragile:
        return
    opp = opposite(color)
    for u, m in list(st.candidates.items()):
        colors, types = st.simulate(m)
        for s in fragile:
            at = m.to if s == m.frm else s
            if colors[at] == color and types[at] in royal and st.attacked(colors, types, at, opp):
                reason = ""
                if st.refusals is not None:
                    reason = (f"it leaves the {types[at]} on {SQUARE_NAMES[at]} (1 hp) attacked")
                st.drop(u, rule, reason)
                break


def filter_royal_capture_hp(ctx, color):
    st = ctx.session.chess
    royal = st.royal[opposite(color)]
    rule = ctx.pnode.production.name
    for u, m in list(st.candidates.items()):
        if m.victim is not None and st.types[m.victim] in royal and hp_of(st.facts[m.victim]) <= 1:
            st.drop(u, rule, f"a royal piece with 1 hp ({st.describe(m.victim)}) is never captured")


def heal(ctx, color):
    s = ctx.session
    st = s.chess
    royal = st.royal[color]
    opp = opposite(color)
    for f in [f for f in st.facts if f is not None]:
        v = f.values
        if v["color"] == color and v["type"] in royal:
            hp = hp_of(f)
            if hp < MAX_HP and not st.attacked(st.colors, st.types, v["square"], opp):
                s.modify(f, {HP: min(MAX_HP, hp + HEAL)})


def apply(rules, config) -> None:
    # a king with hp to spare may stand attacked: bare kings can mate
    rules.config["dead-positions"] = False
    rules.function("king-heals.filter-self-check", filter_self_check_hp)
    rules.function("king-heals.filter-royal-capture", filter_royal_capture_hp)
    rules.function("king-heals.heal", heal)
    rules.replace(Rule("fide.check-resolution", stage="filter", salience=10,
                       doc="king-heals: no move may leave a royal piece with 1 hp attacked.")
                  .when(P("movegen", color=V.c), Exists(P("royal", color=V.c)))
                  .then(Call("king-heals.filter-self-check", V.c)))
    rules.replace(Rule("fide.king-capture-illegal", stage="filter", salience=20,
                       doc="king-heals: a royal piece with 1 hp is never captured.")
                  .when(P("movegen", color=V.c),
                        Exists(P("royal", color=V.o), Test("ne", V.o, V.c)))
                  .then(Call("king-heals.filter-royal-capture", V.c)))
    rules.add(Rule("preset.king-heal", stage="turn-end", salience=10,
                   doc="At the end of its side's turn a royal piece not in check regains 1 hp, "
                       "up to 3.")
              .when(P("move", color=V.c), P("game", turn=V.t), Test("ne", V.t, V.c))
              .then(Call("king-heals.heal", V.c)))
