"""Shared pieces of the royalty presets (not a preset itself).

Royalty is rule-set data: ``RuleSet.royal_types[colour]`` names the royal piece
types of each side; ``Game`` asserts one ``royal`` fact per type and colour, and
``ChessState.royal`` mirrors them. Every piece of a royal type is royal,
promoted pieces included. The FIDE
productions already handle any number of royal pieces:

* ``fide.check-resolution`` drops a move that leaves *any* of the mover's royal
  pieces attacked (on the board after the whole move);
* ``fide.check-detection`` asserts one ``check`` fact per attacked royal piece of
  the side to move;
* ``fide.checkmate-win`` / ``fide.stalemate-draw`` read those facts;
* ``fide.castling`` tests attacked squares only when the king is royal.

The helpers here add what the FIDE rule set cannot know: a side left with no
royal piece at all loses (only reachable from a position set up that way, or
under presets that let royal pieces be captured), and a dead-position rule for
rule sets whose only royal pieces are symmetric leapers.
"""
from __future__ import annotations

from rete import Call, Not, P, Rule, V

from chess_rules.squares import opposite

COLOURS = ("white", "black")


def set_royal(rules, types) -> None:
    """Make ``types`` the royal piece types of both sides."""
    for c in COLOURS:
        rules.royal_types[c] = tuple(types)


def _side_without_royals(st, color) -> bool:
    royal = st.royal[color]
    if not royal:
        return False
    colors, types = st.colors, st.types
    return not any(colors[s] == color and types[s] in royal for s in range(64))


def make_no_royal_left(reason: str = "no royal piece left"):
    """A result function: a side that has royal types but no royal piece on the
    board loses (both such sides: a draw). The result is persistent, so the game
    is over and has no legal moves."""

    def no_royal_left(ctx):
        s = ctx.session
        if s.facts_of("result"):
            return
        st = s.chess
        gone = [c for c in COLOURS if _side_without_royals(st, c)]
        if len(gone) == 2:
            ctx.assert_fact("result", winner="draw", reason=reason)
        elif gone:
            ctx.assert_fact("result", winner=opposite(gone[0]), reason=reason)
    return no_royal_left


def add_no_royal_left(rules, preset_id: str, reason: str = "no royal piece left") -> None:
    """Install ``<preset>.no-royal-left`` (stage result, salience 60): judged on
    every position (the ``game`` fact changes with every move, and is there when a
    position is loaded)."""
    fname = f"{preset_id}.no-royal-left"
    rules.function(fname, make_no_royal_left(reason))
    rules.add(Rule(fname, stage="result", salience=60,
                   doc=f"{preset_id}: a side with no royal piece left loses.")
              .when(P("game"), Not(P("result")))
              .then(Call(fname)))


def make_bare_side(reason: str, *, it_wins: bool):
    """A result function for a rule set where a side with no pieces left has lost
    (``it_wins`` False) or won (True), judged on every position (call it from a
    production on the ``game`` fact, which changes with every move): the side to
    move bare, or else the side not to move bare. The latter happens in play
    where a side may lose its last piece other than on the opponent's single
    move: mid-turn under ``double-move`` / ``monster-rules`` (the capturing side
    keeps the move), or by its own move under ``poisoned-squares`` (its last
    piece poisoned at the end of its turn). The result is recorded, so the game
    is over at once and has no legal moves; taking the move back takes it back."""

    def bare_side(ctx, game) -> None:
        s = ctx.session
        if s.facts_of("result"):
            return
        present = set(s.chess.colors)
        turn = game.values["turn"]
        for c in (turn, opposite(turn)):
            if c not in present:
                ctx.assert_fact("result", winner=c if it_wins else opposite(c), reason=reason)
                return
    return bare_side


def bare_side_rule(rules, preset_id: str, reason: str, *, it_wins: bool, doc: str) -> Rule:
    """``fide.checkmate-win`` as a rule set without royal pieces writes it: a side
    with no pieces left has lost (or won), judged on every position
    (:func:`make_bare_side`)."""
    fname = f"{preset_id}.bare-side"
    rules.function(fname, make_bare_side(reason, it_wins=it_wins))
    return (Rule("fide.checkmate-win", stage="result", salience=50, doc=doc)
            .when(P("game").as_("g"), Not(P("result")))
            .then(Call(fname, V.g)))


def bare_opponent_at_setup(reason: str, *, it_wins: bool):
    """A setup hook for a rule set where a side with no pieces left has lost
    (``it_wins`` False) or won (True): a position set up with the side *not* to
    move bare is over, and says so (a ``result`` fact that stays: no move is
    generated, ``outcome()`` reads it; no production decided it, so its rule is
    None).

    In play ``fide.checkmate-win`` as :func:`bare_side_rule` writes it judges
    a bare side, the side not to move included (mid-turn under a multi-move
    preset, or a side's own last piece poisoned), as this hook does.
    Fairy-Stockfish judges such a position the same way (antichess: no legal
    move, a loss for the side to move)."""

    def bare_opponent(game, pos) -> None:
        s = game.session
        if s.facts_of("result"):
            return
        colors = game.state.colors
        turn = pos.turn
        if opposite(turn) not in colors and turn in colors:
            s.assert_fact("result", winner=opposite(turn) if it_wins else turn, reason=reason)
    return bare_opponent


def only_royal_leapers(ctx, status):
    """Dead position: every piece on the board is royal, and every royal type is a
    symmetric leaper (king or knight). A royal leaper can never attack an enemy
    royal piece of its own type, for it would stand attacked by it. Not where a
    king may be lost otherwise (``config['dead-positions']`` False)."""
    st = ctx.session.chess
    if st.ruleset.config.get("dead-positions", True) is False:
        return
    for c in COLOURS:
        if not st.royal[c] or not st.royal[c] <= {"king", "knight"}:
            return
    kinds = set()
    for s in range(64):
        c = st.colors[s]
        if c is None:
            continue
        t = st.types[s]
        if t not in st.royal[c]:
            return
        kinds.add(t)
    if len(kinds) <= 1:
        ctx.assert_logical("result", winner="draw", reason="insufficient material")


def replace_insufficient_material(rules, preset_id: str) -> None:
    fname = f"{preset_id}.only-royal-leapers"
    rules.function(fname, only_royal_leapers)
    rules.replace(Rule("fide.insufficient-material", stage="result", salience=30,
                       doc=f"{preset_id}: a position with nothing but royal pieces of one "
                           "leaping type (kings, or knights) is dead: a draw.")
                  .when(P("status").as_("s"))
                  .then(Call(fname, V.s)))
