"""First Blood: the first capture wins the game.

Productions (override):

``fide.checkmate-win`` is replaced by the first-capture win (the rule's
``preset.first-capture-win``; an override preset installs its rules as
replacements, so it keeps the name of the win condition it supersedes): when a
move captures - any piece, en passant and capturing promotions included - its
side wins at once. The result is asserted when the move is played, so the game
is over and has no legal moves (``fide.game-over-no-moves``).

``fide.stalemate-draw`` is replaced: a side to move with no legal move draws,
in check or not (checkmate is disabled).

``fide.insufficient-material`` is replaced: only a position with no capturable
piece left (nothing but royal pieces) is dead; king and knight against king is
not, since the bare king may still take the knight.

Rulings (ours where marked):

* Check and the self-check filter stay: a king may not be left attacked, and a
  capture that would leave it attacked is not a legal move (so it does not win).
* A promotion is not a capture unless it captures; a move that offers a piece is
  not one either.
* (ours) Royal pieces are never captured, so two bare kings (or only royal
  pieces) draw at once; the fifty-move and repetition draws stay.

* Scenario 3 (in check, the only move captures the checker) wins.

Fairy-Stockfish: compared in ``tests/presets/test_v1_fsf.py`` from the
standard start with chess plus ``extinctionPieceTypes = *``,
``extinctionPieceCount = 15`` (the side left with 15 pieces loses): legal
moves and perft agree. Differences: the emulation counts pieces, so it holds
only from 16 v 16; FSF keeps checkmate as a loss where First Blood draws.
"""
from rete import Assert, Call, P, Rule, Not, V

from presets.base import PresetMeta

META = PresetMeta(
    id="capture-to-win", name="First Blood", category="Win/Loss Condition",
    description="The first player to capture any enemy piece wins at once; checkmate is "
                "disabled and a side with no legal move draws.",
    mode="override",
    affects=["fide.checkmate-win", "fide.stalemate-draw", "fide.insufficient-material"],
    incompatible_with=["last-piece-standing"],
    incompatible_because={
        "last-piece-standing": (
            "their wins contradict each other: the first capture, against the last "
            "piece standing"),
    },
)


def nothing_capturable(ctx, status):
    st = ctx.session.chess
    for s in range(64):
        c = st.colors[s]
        if c is not None and st.types[s] not in st.royal[c]:
            return
    ctx.assert_logical("result", winner="draw", reason="no capturable piece left")


def apply(rules, config) -> None:
    rules.function("capture-to-win.nothing-capturable", nothing_capturable)
    rules.replace(Rule("fide.checkmate-win", stage="result", salience=50,
                       doc="capture-to-win (preset.first-capture-win): a move that captures "
                           "wins the game for its side at once; checkmate is disabled.")
                  .when(P("move", color=V.c, capture=True), Not(P("result")))
                  .then(Assert("result", winner=V.c, reason="first capture")))
    rules.replace(Rule("fide.stalemate-draw", stage="result", salience=40,
                       doc="capture-to-win: a side to move with no legal move draws, in check "
                           "or not.")
                  .when(P("status", color=V.c, moves=0))
                  .then(Assert("result", True, winner="draw", reason="no legal move")))
    rules.replace(Rule("fide.insufficient-material", stage="result", salience=30,
                       doc="capture-to-win: with nothing but royal pieces left no capture can "
                           "happen: a draw.")
                  .when(P("status").as_("s"))
                  .then(Call("capture-to-win.nothing-capturable", V.s)))
