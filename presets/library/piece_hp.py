"""Hit Points: every piece has hit points; a capture deals 1 damage.

Schema: the ``piece`` template gains an ``hp`` slot (``rules.templates``), with
per-type defaults in ``config['slot-defaults']['hp']``: 2 for every piece, 1 for
a king. A position carries hit points that differ from the defaults in its
extended form (``... w - - 0 1 hp:e4=1,d8=3``) and round-trips them exactly;
a plain FEN has every piece at its default.

Productions (override):

``fide.capture`` is replaced by the damage rule (salience 7, after
``fide.move-piece`` has put the attacker on the target square): the target
loses 1 hp; at 0 it is removed; otherwise it is pushed to the first empty
square adjacent to the target square, clockwise from N (N, NE, E, SE, S, SW, W,
NW, board-absolute), or removed if none is empty. ``fide.en-passant-capture``
is replaced by the same rule for the pawn taken en passant, damaged on its own
square and pushed from there. The replaced rules carry ``simulate`` metadata,
so the self-check filter judges a capture on the board after the push.

Rulings (ours where marked):

* (ours) "Empty" is judged after the attacker has arrived: the target square is
  the attacker's, and the square the attacker left is empty (a piece taken by an
  adjacent attacker may be pushed onto the attacker's former square).
* En passant damages the pawn on its own square; a survivor is pushed from there.
* (ours) A piece with an AttackBonus (a modifier attribute, raised by the
  ``berserker`` recipe) deals 1 damage more per point of it.
* A promoting capture deals 1 damage and the pawn promotes regardless; a promoted
  piece keeps the pawn's hp.
* (ours) A pushed piece counts as moved (a pushed pawn loses its double step), and
  castling rights tied to the square it left are gone.
* (ours) A pawn that is pushed, or dies of its damage (under ``poisoned-squares``
  at the end of its own turn), takes the en-passant target it made with it (a
  turn of several moves, as under ``double-move`` or in Dice Chess, would
  otherwise keep a target whose pawn is gone).
* Without ``king-heals`` a king keeps hp 1 and is royal in the FIDE sense: it is
  never captured, and checkmate ends the game.
* (ours) Should a royal piece ever be removed (a king with more hp pushed with no
  empty square around it under ``king-heals``, poison under ``poisoned-squares``),
  a side left with no royal piece loses at once.
* Incompatible with ``explosive-rook``.

* Scenario 3 as written (a queen's capture with every neighbour occupied)
  cannot happen: the queen's last square before the target is next to it and
  empty after the move, so the knight is pushed there. A target with every
  neighbour occupied is removed when the attacker leaps (a knight): both are
  scenarios.
* ``fide.move-piece`` moves only the piece named by the move, so a target
  pushed onto the square the attacker left stays there.

Fairy-Stockfish: not compared (no hit points).
"""
from __future__ import annotations

from rete import Call, P, Rule, Test, V

from chess_rules.errors import FenError
from chess_rules.squares import SQUARE_NAMES

from presets.base import PresetMeta
from presets.pieces import (HP, default_hp, drop_castling_rights, drop_ep_targets,
                            first_empty_neighbour, hp_of,
                            royal_gone)

META = PresetMeta(
    id="piece-hp", name="Hit Points", category="Persistent State",
    description="Every piece has hit points (2, a king 1); a capture deals 1 damage, and a "
                "surviving target is pushed to the first empty adjacent square clockwise "
                "from N (or removed if there is none).",
    mode="override", affects=["fide.capture", "fide.en-passant-capture"],
    incompatible_with=["explosive-rook"],
)

#: a modifier attribute (AttackBonus) piece-hp reads: a capture deals 1 damage
#: more per point of the capturing piece's bonus (the berserker recipe raises it)
ATTACK_BONUS = "attack-bonus"


def damage(ctx, fact, amount: int = 1, push_from: int | None = None,
           why: str = "its last royal piece was destroyed"):
    """Deal ``amount`` damage to a piece; push it from ``push_from`` if it survives
    and a square is given (no square: it stays), remove it at 0 hp.
    Returns the surviving fact or None."""
    s = ctx.session
    st = s.chess
    v = fact.values
    hp = hp_of(fact) - amount
    color, sq = v["color"], v["square"]
    if hp > 0:
        if push_from is None:
            return s.modify(fact, {HP: hp})
        dest = first_empty_neighbour(st.colors, st.topology, push_from)
        if dest is not None:
            drop_castling_rights(s, color, sq)
            drop_ep_targets(s, sq)
            return s.modify(fact, {HP: hp, "square": dest, "moved": True})
    s.retract(fact)
    drop_castling_rights(s, color, sq)
    drop_ep_targets(s, sq)
    royal_gone(ctx, color, why)
    return None


def capture_damage(attacker) -> int:
    """The damage a capture by ``attacker`` deals: 1, plus its AttackBonus when a
    modifier gave it one (never less than 1)."""
    bonus = attacker.values.get(ATTACK_BONUS) if attacker is not None else None
    return max(1, 1 + bonus) if type(bonus) is int else 1


def hp_capture(ctx, move, victim, attacker=None):
    m = move.values
    amount = capture_damage(attacker)
    if m["kind"] == "en-passant":
        damage(ctx, victim, amount, push_from=victim.values["square"])
    else:
        damage(ctx, victim, amount, push_from=m["to"])


def sim_hp_capture(st, colors, types, m):
    """The capture's effect on a board copy, after the attacker has arrived."""
    if m.victim is None:
        return
    f = st.facts[m.victim]
    if f is None:
        return
    vc, vt = f.values["color"], f.values["type"]
    if m.victim != m.to:
        colors[m.victim] = types[m.victim] = None
    if hp_of(f) - capture_damage(st.facts[m.frm]) > 0:
        dest = first_empty_neighbour(colors, st.topology, m.victim)
        if dest is not None:
            colors[dest], types[dest] = vc, vt


def check_hp_values(game, pos) -> None:
    for f in game.pieces():
        hp = f.values.get(HP)
        if hp is not None and (type(hp) is not int or hp < 1):
            raise FenError("extended", f"hp:{SQUARE_NAMES[f.values['square']]}={hp} is not a "
                                       "whole number of hit points of at least 1")


def apply(rules, config) -> None:
    rules.templates["piece"] = rules.templates["piece"].extended(HP, defaults={HP: None})
    rules.config.setdefault("slot-defaults", {})[HP] = default_hp
    rules.function("hp.capture", hp_capture)
    rules.replace(Rule("fide.capture", stage="apply", salience=7, simulate=sim_hp_capture,
                       doc="piece-hp: a piece moving onto an enemy piece deals it 1 damage "
                           "(plus its AttackBonus); at 0 hp it is removed, else pushed to the "
                           "first empty adjacent square clockwise from N (removed if none).")
                  .when(P("move", to=V.t, color=V.c, kind="normal").as_("m"),
                        P("piece", square=V.t, color=V.vc).as_("v"), Test("ne", V.vc, V.c),
                        P("piece", square=V.t, color=V.c).as_("a"))
                  .then(Call("hp.capture", V.m, V.v, V.a)))
    rules.replace(Rule("fide.en-passant-capture", stage="apply", salience=7,
                       doc="piece-hp: en passant deals 1 damage (plus the capturing pawn's "
                           "AttackBonus) to the pawn on its own square; a survivor is pushed "
                           "from there.")
                  .when(P("move", kind="en-passant", victim=V.s, to=V.t, color=V.c).as_("m"),
                        P("piece", square=V.s).as_("v"),
                        P("piece", square=V.t, color=V.c).as_("a"))
                  .then(Call("hp.capture", V.m, V.v, V.a)))
    rules.setup_hooks.append(check_hp_values)
