"""Racing Kings: the first king to reach the eighth rank wins; nobody may give check.

Composed in Python on top of FIDE with the public API:

* a start layout of its own (``START``) with no pawns and no castling;
* a filter-stage rule, ``racing-kings.no-check``, that drops every move that
  would leave the opponent's king attacked (judged on the board after the
  move, as the self-check filter judges the mover's own king);
* ``racing-kings.goal``, a result rule judged on every position (it matches
  the ``game`` fact, which every move changes): black's king on the eighth
  rank wins for black, white's wins for white once black has had its reply,
  and both there is a draw;
* ``racing-kings.last-chance``, a filter: after white's king arrives, black
  plays on only if its king can arrive too: otherwise black has no move, and
  ``racing-kings.goal-unanswered`` scores that for white;
* ``fide.insufficient-material`` is removed: two bare kings still race.

Rulings as lichess, python-chess's ``RacingKingsBoard`` and Fairy-Stockfish's
``racingkings`` have them.
"""
from rete import AssertLogical, Call, Not, P, Rule, Test, V

from chess_rules.fide import fide_rules
from chess_rules.squares import opposite

START = "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1"
GOAL = range(56, 64)


def no_check(ctx, color):
    """Drop the moves of ``color`` after which the enemy king stands attacked."""
    st = ctx.session.chess
    rule = ctx.pnode.production.name
    opp = opposite(color)
    for u, m in list(st.candidates.items()):
        colors, types = st.simulate(m)
        for k in st.royal_squares(colors, types, opp):
            if st.attacked(colors, types, k, color):
                st.drop(u, rule, "it would give check, and no move may")
                break


def _king(st, color):
    ks = st.royal_squares(st.colors, st.types, color)
    return ks[0] if ks else None


def last_chance(ctx, color):
    """Black, with white's king home: only if black's king can get home too."""
    st = ctx.session.chess
    k = _king(st, color)
    if any(m.frm == k and m.to in GOAL for m in st.candidates.values()):
        return
    rule = ctx.pnode.production.name
    for u in list(st.candidates):
        st.drop(u, rule, "white's king has reached the eighth rank and black's cannot follow")


def home(st, color) -> bool:
    k = _king(st, color)
    return k is not None and k in GOAL


def goal(ctx, game):
    s = ctx.session
    st = s.chess
    w, b = home(st, "white"), home(st, "black")
    turn = game.values["turn"]
    if w and b:
        ctx.assert_fact("result", winner="draw", reason="both kings home")
    elif b:
        ctx.assert_fact("result", winner="black", reason="king reached the eighth rank")
    elif w and turn == "white":
        ctx.assert_fact("result", winner="white", reason="king reached the eighth rank")


def build():
    rs = fide_rules()
    rs.name = "racing-kings"
    rs.remove("fide.castling")
    rs.remove("fide.insufficient-material")
    rs.function("racing-kings.no-check", no_check)
    rs.function("racing-kings.last-chance", last_chance)
    rs.function("racing-kings.goal", goal)
    rs.add(Rule("racing-kings.no-check", stage="filter", salience=9,
                doc="No move may give check.")
           .when(P("movegen", color=V.c))
           .then(Call("racing-kings.no-check", V.c)))
    rs.add(Rule("racing-kings.last-chance", stage="filter", salience=0,
                doc="With white's king home, black moves only if its king can get home too.")
           .when(P("movegen", color="black"),
                 P("piece", type="king", color="white", square=V.s), Test("ge", V.s, 56))
           .then(Call("racing-kings.last-chance", "black")))
    rs.add(Rule("racing-kings.goal", stage="result", salience=70,
                doc="A king on the eighth rank wins (white's once black has replied); "
                    "both there draw.")
           .when(P("game").as_("g"), Not(P("result")))
           .then(Call("racing-kings.goal", V.g)))
    rs.add(Rule("racing-kings.goal-unanswered", stage="result", salience=60,
                doc="Black, with no move after white's king got home, has lost.")
           .when(P("status", color="black", moves=0),
                 P("piece", type="king", color="white", square=V.s), Test("ge", V.s, 56))
           .then(AssertLogical("result", winner="white", reason="king reached the eighth rank")))
    # where a game starts when no position is given (Game(ruleset=rs),
    # houserules play --ruleset, a scenario with no fen)
    rs.config["start-fen"] = START
    return rs
