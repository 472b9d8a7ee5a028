"""Rook Warp: a rook's slide that reaches the board's edge may continue from the
opposite edge of the same rank or file.

``preset.rook-warp-slide`` generates the warp destinations: it walks the
warping rays of :class:`~chess_rules.topology.RookWarp` (the plain ray, then
the same rank or file again from the opposite edge) and keeps the squares a
normal slide does not reach. ``fide.rook-move`` keeps generating the normal
slides and is replaced by the same production whose attack declaration walks
the warping rays, so warped squares count as attacked for check.
That replacement plus the addition make the preset ``hybrid``.

Rulings:

* A warp continues a slide that reached the edge through empty squares,
  re-entering at the opposite edge (west from a4 re-enters at h4; north past a8
  re-enters at a1) and sliding on until it meets a piece - a friendly one stops
  it before, an enemy one is captured - or comes back to its own square.
* Scenario 2's wording is read as the westward warp a4 -> h4.
* A square a normal slide reaches is listed once (as the normal move).
* Castling is unchanged; a rook that warped has moved and has lost its right.
* Only rooks warp; queens slide as in FIDE.
* (ours) Over a base rule set whose own rules replaced ``fide.rook-move`` (a
  rook that slides but never captures, say), the preset is refused
  (``ConflictingPresetsError``): its attacks and its warp are a FIDE rook's, so
  it would undo that rook. Load the preset first and apply the rules over it.

* A rook already on an edge warps at once: from a1, west re-enters at h1 and
  south re-enters at a8 (the zero-length slide of scenario 1). So in the
  standard start position ``a1a8`` and ``h1h8`` capture the enemy rooks
  through the back edge (22 moves, not 20).
* Scenario 3 as written is self-contradictory (d1 both empty and friendly): we
  read it as "d1 friendly, d2-d3 empty": the northward warp adds nothing (it
  stops before d1), the southward slide stops at d2. With the friendly piece on
  d2 instead, the warp reaches d1.

Fairy-Stockfish: not compared - FSF has no warping rider.
"""
from rete import Call, Collect, P, Rule, V

from chess_rules.move_helpers import as_pieces
from chess_rules.movement import compile_attacks, destinations, slide
from chess_rules.moves import Move
from chess_rules.squares import ORTHOGONAL
from chess_rules.topology import ROOK_WARP

from presets.base import PresetMeta

META = PresetMeta(
    id="rook-warp", name="Rook Warp", category="Board Geometry",
    description="A rook's slide that reaches the edge through empty squares may continue "
                "from the opposite edge of the same rank or file (a warp).",
    mode="hybrid", affects=["fide.rook-move"],
    incompatible_with=["wrap-board"],
    incompatible_because={
        "wrap-board": (
            "on the cylinder every piece's slide wraps, so a rook's warp could not "
            "be told from an ordinary wrapped slide"),
    },
)

#: a rook's slide; on ROOK_WARP it goes on from the opposite edge
ROOK_SLIDE = slide(*ORTHOGONAL)


def apply(rules, config) -> None:
    normal = destinations((ROOK_SLIDE,), rules.topology)
    warped = destinations((ROOK_SLIDE,), ROOK_WARP)

    def gen_warp(ctx, pieces):
        st = ctx.session.chess
        colors = st.colors
        rule = ctx.pnode.production.name
        for p in as_pieces(pieces):
            sq, c = p.values["square"], p.values["color"]
            plain = set(normal(colors, sq, c))
            for to in warped(colors, sq, c):
                if to not in plain:
                    st.add(Move(sq, to, None, "rook", "normal",
                                None if colors[to] is None else to, rule))

    # read, not built on: the attacks become a FIDE rook's warped slides and the
    # warp continues a FIDE rook's slide, capturing: over a base whose own rule
    # made another rook of it, that rule's rook would be undone (refused)
    old = rules.get("fide.rook-move", hint="its attacks become a FIDE rook's warped "
                                           "slides, and its warp continues a FIDE rook's "
                                           "slide and captures")
    meta = dict(old.meta)
    meta["attacks"] = compile_attacks("rook", (ROOK_SLIDE,), ROOK_WARP)
    meta["attack-group"] = "preset"
    rules.replace(old.replace(meta=meta, doc=old.doc + " (rook-warp: its attacks warp)"))
    rules.function("gen.rook-warp-slide", gen_warp)
    rules.add(Rule("preset.rook-warp-slide", stage="generate",
                   doc="A rook's slide that reached the edge through empty squares continues "
                       "from the opposite edge of its rank or file.")
              .when(P("movegen", color=V.c), Collect(P("piece", type="rook", color=V.c)).as_("ps"))
              .then(Call("gen.rook-warp-slide", V.ps)))
