"""Bouncing Pieces (Extended): diagonal rays reflect off all four edges, at most twice.

The same machinery as ``bouncing-pieces`` (see that module) over
:data:`~chess_rules.topology.BOUNCE2` (``Bounce(max_reflections=2,
edges='all')``): ``fide.bishop-move`` and ``fide.queen-move`` are rebuilt over
the bouncing board, their attack declarations and the rule set's fast attack
test walk the bouncing rays, and the rule set's topology becomes BOUNCE2.

Rulings (ours where marked):

* Bishop and queen diagonal rays reflect off the a- and h-files and off ranks
  1 and 8, reflecting at the edge square (mirror model): bishop c1 going NE:
  d2, e3, f4, g5, h6 (1st reflection), g7, f8 (2nd reflection), e7, d6, c5, b4,
  a3 - and there the third edge ends it.
* At most two reflections per ray ("to prevent infinite zigzag"). (ours) A
  corner reverses both components and counts as ONE reflection: the ray runs
  back along the diagonal it came in on (and stops before its own square).
* Orthogonal rays (rooks, the queen's) do not bounce: reflecting a rank or file
  ray sends it back over the squares it came along.
* (ours) No reflection at the ray's origin; a ray stops before its own square;
  a square reached twice is one move.
* Reflected squares count as attacked, for check as well as for moves.
* (ours) As under ``bouncing-pieces``, K+B v K is no dead position; K+N v K is.
* Incompatible with ``bouncing-pieces`` and ``wrap-board``.

Fairy-Stockfish has no reflecting pieces to compare with; see
``bouncing-pieces`` for the verification.
"""
from chess_rules.topology import BOUNCE2

from presets.base import PresetMeta
from .bouncing_pieces import install_bounce

META = PresetMeta(
    id="bouncing-pieces-2", name="Bouncing Pieces (Extended)", category="Board Geometry",
    description="Bishop and queen diagonal rays reflect off all four edges, at most twice "
                "per ray, for moves and attacks alike.",
    mode="override", affects=["fide.bishop-move", "fide.queen-move"],
    incompatible_with=["bouncing-pieces", "wrap-board"],
    incompatible_because={
        "bouncing-pieces": (
            "both rewrite the diagonal rays: one reflection, off the side edges, "
            "against up to two, off all four"),
        "wrap-board": (
            "a ray cannot both wrap around the a/h edge and reflect off it "
            "(wrapping is undefined under reflection)"),
    },
    gallery="v2",
)


def apply(rules, config) -> None:
    install_bounce(rules, BOUNCE2, "its diagonal rays reflect off all four edges, twice at "
                                   "most")
