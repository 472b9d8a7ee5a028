"""Cylindrical Board: the a- and h-files are adjacent.

Every piece moves and attacks on a vertical cylinder (files wrap, ranks never
do): the ten movement productions of FIDE are replaced, by name, with the same
productions built over :class:`~chess_rules.topology.Cylinder`
(``movement_rules(CYLINDER)``), and the rule set's topology becomes the
cylinder, so presets applied after this one (geometry presets are applied
first) build their own moves on it too.

Rulings (this module's own where marked):

* Files a and h are adjacent for every piece's move and attack: rook a4 -> h4,
  bishop a1 -> h2, knight a1 -> g2/h3, king a1 -> h1/h2, pawn captures across
  the seam (White h5xa6) and en passant (a black h7-h5 is taken by a5xh6).
* Ranks never wrap; a slider stops before it would come back to its own square,
  and a square reached along two rays is one move.
* Castling never wraps: it is the FIDE production on the fixed squares; only the
  attack test on the king's path sees wrapped attacks (the squares are attacked
  on the cylinder).
* (ours) No dead position by material but king against king: on the cylinder a
  knight or bishop is not the minor piece of FIDE's table, so
  ``fide.insufficient-material`` does not call K+N v K or K+B v K a draw.
* Check detection is wrap-aware: the attack declarations of the replaced
  productions are the cylinder's, and the fast FIDE attack test is rebuilt over
  the cylinder.
* (ours) The rule's scenario 3 is garbled (a black pawn moves toward rank 1): we read it
  as "a pawn captures diagonally across the seam exactly when an enemy piece
  stands there" - White h5xa6 with a black piece on a6, Black h5xa4 with a white
  piece on a4.

Fairy-Stockfish: not compared - FSF has no cylinder topology.
"""
from chess_rules import geometry as geo
from chess_rules.fide import movement_rules
from chess_rules.topology import CYLINDER
from rete.model import as_production

from presets.base import PresetMeta

META = PresetMeta(
    id="wrap-board", name="Cylindrical Board", category="Board Geometry",
    description="The a- and h-files are adjacent: every piece's moves and attacks wrap "
                "across the side edges (ranks do not wrap; castling never wraps).",
    mode="override",
    affects=["fide.rook-move", "fide.bishop-move", "fide.queen-move", "fide.king-move",
             "fide.knight-move", "fide.pawn-capture", "fide.pawn-single-push",
             "fide.pawn-double-push", "fide.en-passant"],
    incompatible_with=["rook-warp"],
)


def _cylinder_attacks(colors, types, sq, by, topo=CYLINDER):
    return geo.is_attacked_fide(colors, types, topo, sq, by)


def apply(rules, config) -> None:
    prods, fns = movement_rules(CYLINDER)
    for name, fn in fns.items():
        rules.function(name, fn)
    for p in prods:
        # the doc is FIDE's, the board is not: say what the geometry changed
        rules.replace(as_production(p).replace(
            doc=p.doc + " (wrap-board: on the cylinder, the a- and h-files adjacent)"))
    rs = rules.ruleset
    rs.topology = CYLINDER
    rs.fide_attacks = _cylinder_attacks
