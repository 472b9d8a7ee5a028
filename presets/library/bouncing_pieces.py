"""Bouncing Pieces: bishops' and queens' diagonal rays reflect once off the a- and h-files.

This is board geometry, not a special move: the rule set's topology becomes
:data:`~chess_rules.topology.BOUNCE` (``Bounce(max_reflections=1, edges='files')``)
and ``fide.bishop-move`` and ``fide.queen-move`` are replaced, by name, with
the same productions built over it (``movement_rules(BOUNCE)``). Their attack
declarations walk the bouncing rays, and the fast FIDE attack test of the rule
set is rebuilt over the bouncing board, so check, checkmate, the self-check
filter and castling all see reflected attacks. Presets applied after this one
(geometry presets are applied first) build their own moves on the bouncing
board too (e.g. ``knight-immunity``'s bishop).

Productions (override): ``fide.bishop-move``, ``fide.queen-move``. Pawns,
knights, kings and rooks (and the queen's orthogonal rays) move as in FIDE:
the Bounce topology's steps, leaps and orthogonal rays are the plain board's.

Rulings (ours where marked):

* A diagonal ray that would leave the board across the a- or h-file reflects
  *at the edge square*: the file component of its direction is reversed and
  it goes on from that square, so the edge square is visited once. Bishop c1
  going NW: b2, a3, b4, c5, d6, e7, f8. (ours: the mirror model of
  ``chess_rules.topology.Bounce``.)
* One reflection per ray; the next edge ends the ray. A ray that would leave
  across rank 1 or rank 8 ends there (a corner included: only the files
  reflect).
* The reflected ray goes on until it meets a piece: a friendly one blocks it
  before, an enemy one is captured ("until they hit a
  friendly block, capture an enemy, or leave" the board).
* (ours) A ray never reflects at its origin: a bishop on the a-file gets
  nothing from its westward directions (the reflection would only repeat its
  eastward ray). A ray stops before coming back to its own square, and a
  square reached along two rays is one move.
* Reflected squares count as attacked, for check as well as for moves
  (the brief: "attacks included").
* (ours) A bouncing bishop is not the minor piece of FIDE's table: K+B v K and
  bishops of one shade are no dead position (``fide.insufficient-material``);
  K+N v K still is.
* Incompatible with ``wrap-board`` (wrapping is undefined under
  reflection) and ``bouncing-pieces-2`` (declared there). Compatible with
  ``rook-warp``: the rook's warp is orthogonal, the bounce diagonal, and this
  preset leaves ``fide.rook-move`` alone.

Verification: tests/presets/test_v2_bouncing_pieces.py rebuilds every ray from
the rules above and checks the topology's reverse attack lookup against the
forward rays on random boards. Fairy-Stockfish has no reflecting pieces to
compare with.
"""
from chess_rules import geometry as geo
from chess_rules.fide import movement_rules
from chess_rules.topology import BOUNCE
from rete.model import as_production

from presets.base import PresetMeta

META = PresetMeta(
    id="bouncing-pieces", name="Bouncing Pieces", category="Board Geometry",
    description="Bishop and queen diagonal rays reflect once off the a- and h-files, "
                "for moves and attacks alike.",
    mode="override", affects=["fide.bishop-move", "fide.queen-move"],
    incompatible_with=["wrap-board"],
    incompatible_because={
        "wrap-board": (
            "a ray cannot both wrap around the a/h edge and reflect off it "
            "(wrapping is undefined under reflection)"),
    },
    gallery="v2",
)

BOUNCING_RULES = ("fide.bishop-move", "fide.queen-move")


def install_bounce(rules, topo, says: str) -> None:
    """Rebuild the diagonal sliders over ``topo`` and make it the rule set's board;
    ``says`` is added to their docs (what the bounce changes)."""
    prods, fns = movement_rules(topo)
    for name, fn in fns.items():
        rules.function(name, fn)     # names carry the topology's: no clash with FIDE's
    for p in prods:
        if p.name in BOUNCING_RULES:
            rules.replace(as_production(p).replace(doc=f"{p.doc} ({rules.meta.id}: {says})"))
    rs = rules.ruleset
    rs.topology = topo

    def bounce_attacks(colors, types, sq, by, topo=topo):
        return geo.is_attacked_fide(colors, types, topo, sq, by)

    rs.fide_attacks = bounce_attacks


def apply(rules, config) -> None:
    install_bounce(rules, BOUNCE, "its diagonal rays reflect once off the a- and h-files")
