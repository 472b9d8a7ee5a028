"""Double Move: each side plays two half-moves per turn (WW BB WW BB ...).

The turn structure is rule-set data: ``config['turn-structure']`` gives the
half-moves per turn of each colour (``{'white': 2, 'black': 2}`` here;
``monster-rules`` gives 2 and 1). The half-move within the turn is the
``half`` slot of the ``game`` fact (0 = first), written ``half:1`` in the
extended position format, so a position in the middle of a turn round-trips.

Productions:

``fide.turn-advance`` (replaced)
    After a half-move the side keeps the move (``half`` + 1) while it has
    half-moves left in its turn; otherwise, or when the half-move gave check,
    the turn passes (``half`` back to 0). The fifty-move clock counts
    half-moves; the move number grows after Black's whole turn.
``fide.ep-target-expire`` (replaced)
    An en-passant target expires when the turn of the side that could take it
    ends, not after its first half-move.
``preset.multi-move-ep-drop-moved``, ``-taken``, ``-occupied``, ``-passed`` (added)
    A target goes at once when the pawn that made it moves again in the same
    turn, when that pawn is captured, when a piece lands on the target
    square (e.g. c7-c5, then Nb8-c6 in the same turn), or (ours) when another
    double step passes the same square (Berolina pawns g7-e5, then e7-g5: the
    target is the last pawn's; a square holds one target, as a position says).

Rulings (ours where marked):

* Each half-move must leave the mover's royal pieces unattacked (the FIDE
  self-check filter runs on every half-move).
* A half-move that gives check ends the turn: the remaining half-move is
  forfeited, so no king can ever be captured. Checkmate on either half-move
  therefore ends the game at once: the checked side is to move and has no
  legal move (``fide.checkmate-win``); the attacker gets no further half-move.
* An en-passant target lives for exactly one opponent turn (both of its
  half-moves); the opponent may take it on either half-move.
* (ours) A side that has no legal move in the middle of its turn (it cannot
  be in check there) is stalemated: a draw, as ``fide.stalemate-draw`` says.
* (ours) The fifty-move clock counts half-moves (plies): 100 half-moves without
  a pawn move or capture draw. The full-move number counts whole turns of both
  sides. Repetition compares the half-move within the turn too.
* (ours) White's first turn has two half-moves as well (WW BB),
  not one as in "balanced" Marseillais chess.
* (ours) FEN output keeps every en-passant target (a target the opponent
  cannot take on its first half-move may become takeable on its second), and
  a position with ``half:N`` past the side's turn, or mid-turn with the side
  not to move in check, is refused. An en-passant target of the input must be
  on rank 3 or 6 (a second half-move may have moved its pawn on, or filled the
  target, so no more is checked).
* Incompatible with ``monster-rules`` (two turn structures).
* Other presets' end-of-turn effects (``king-heals``, ``poisoned-squares``)
  wait for the turn to pass, so they act once per turn, not per half-move.

Implementation note: keeping the move modifies the ``game`` fact, which would
match the replaced ``fide.turn-advance`` again for the same move; the function
acts once per move fact.

Verification: tests/presets/test_v2_double_move.py plays seeded random games
against a python-chess reference that hands the turn back after a half-move
(legal moves, check, board, castling rights, turn, half-move, mate and
stalemate agree; en passant is left to the scenario files, python-chess keeping
one target for one ply). Fairy-Stockfish has no multi-move variant to compare
with.
"""
from __future__ import annotations

from rete import Call, P, RetractFact, Rule, Test, V

from chess_rules.errors import FenError
from chess_rules.squares import opposite

from presets.base import PresetMeta

META = PresetMeta(
    id="double-move", name="Double Move", category="Multi-move",
    description="Each side plays two half-moves per turn (WW BB); a check ends the turn, "
                "checkmate on either half-move ends the game.",
    mode="hybrid", affects=["fide.turn-advance", "fide.ep-target-expire"],
    incompatible_with=["monster-rules"],
    incompatible_because={
        "monster-rules": (
            "each sets its own turn structure (how many half-moves a side plays a "
            "turn)"),
    },
    gallery="v2",
)


def gives_check(st, mover: str) -> bool:
    """True if a royal piece of the mover's opponent stands attacked now."""
    colors, types = st.colors, st.types
    opp = opposite(mover)
    return any(st.attacked(colors, types, s, mover)
               for s in st.royal_squares(colors, types, opp))


def install_turn_structure(rules, halves: dict[str, int], tag: str) -> None:
    """Make the turn ``halves[colour]`` half-moves long; see the module docstring."""
    halves = {"white": int(halves["white"]), "black": int(halves["black"])}
    rules.config["turn-structure"] = dict(halves)
    rules.config["fen-ep"] = "all"
    rules.config["strict-ep"] = False

    def turn_advance(ctx, game, move):
        # keeping the move modifies the game fact, which matches this production
        # again for the same move: act once per move
        st = ctx.session.chess
        if getattr(st, "multi_move_done", None) is move:
            return
        st.multi_move_done = move
        v = game.values
        mv = move.values
        c = mv["color"]
        clock = 0 if mv["piece"] == "pawn" or mv["capture"] else v["halfmove"] + 1
        half = v.get("half", 0) or 0
        if half + 1 < halves[c] and not gives_check(st, c):
            ctx.session.modify(game, {"half": half + 1, "halfmove": clock})
        else:
            ctx.session.modify(game, {"turn": opposite(c), "half": 0, "halfmove": clock,
                                      "fullmove": v["fullmove"] + (1 if c == "black" else 0)})

    def check_position(game, pos) -> None:
        turn = pos.turn
        half = getattr(pos, "half", 0)
        if half >= halves[turn]:
            raise FenError("extended", f"half:{half} but {turn} plays {halves[turn]} "
                                       f"half-move{'s' if halves[turn] > 1 else ''} a turn "
                                       f"under {tag}")
        if half and gives_check(game.state, turn):
            raise FenError("extended", f"half:{half} with {opposite(turn)} in check: a check "
                                       "ends the turn")

    fname = f"turn-advance.{tag}"
    rules.function(fname, turn_advance)
    per = ", ".join(f"{c} {n}" for c, n in halves.items())
    rules.replace(Rule("fide.turn-advance", stage="post-move", salience=0,
                       doc=f"{tag}: a side keeps the move for the half-moves of its turn "
                           f"({per}); a half-move that gives check ends the turn.")
                  .when(P("move", color=V.c).as_("m"), P("game", turn=V.c).as_("g"))
                  .then(Call(fname, V.g, V.m)))
    rules.replace(Rule("fide.ep-target-expire", stage="post-move", salience=-5,
                       doc=f"{tag}: an en-passant target expires when the turn of the side "
                           "that could take it ends.")
                  .when(P("move", color=V.c), P("game", turn=V.t), Test("ne", V.t, V.c),
                        P("ep", by=V.o).as_("e"), Test("ne", V.o, V.c))
                  .then(RetractFact("e")))
    rules.add(Rule("preset.multi-move-ep-drop-moved", stage="post-move", salience=25,
                   doc=f"{tag}: a pawn that moves again in its turn takes its en-passant "
                       "target with it.")
              .when(P("move", **{"from": V.f}), P("ep", pawn=V.f).as_("e"))
              .then(RetractFact("e")))
    rules.add(Rule("preset.multi-move-ep-drop-taken", stage="post-move", salience=25,
                   doc=f"{tag}: a captured pawn takes its en-passant target with it.")
              .when(P("move", victim=V.s), Test("ne", V.s, None), P("ep", pawn=V.s).as_("e"))
              .then(RetractFact("e")))
    rules.add(Rule("preset.multi-move-ep-drop-occupied", stage="post-move", salience=25,
                   doc=f"{tag}: a piece that lands on an en-passant target square ends "
                       "that target.")
              .when(P("move", to=V.t), P("ep", square=V.t).as_("e"))
              .then(RetractFact("e")))
    rules.add(Rule("preset.multi-move-ep-drop-passed", stage="post-move", salience=25,
                   doc=f"{tag}: a double step that passes the square of a target made "
                       "earlier in the turn takes the target over (one target a square).")
              .when(P("move", kind="double-push", ep_square=V.s, to=V.t),
                    P("ep", square=V.s, pawn=V.p).as_("e"), Test("ne", V.p, V.t))
              .then(RetractFact("e")))
    rules.setup_hooks.append(check_position)


def apply(rules, config) -> None:
    install_turn_structure(rules, {"white": 2, "black": 2}, "double-move")
