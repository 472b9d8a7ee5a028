"""Horde: thirty-six white pawns against Black's army.

Composed in Python on top of FIDE with the public API:

* white has no royal piece (``rs.royal_types["white"] = ()``): nothing of
  white's is ever in check, and white may leave any piece en prise;
* ``horde.double-push``: a white pawn on the first rank may also advance two
  squares (to the third rank) through an empty square; as on lichess
  (python-chess) and in Fairy-Stockfish, that step leaves no en-passant
  target (the move is of kind ``normal``, not ``double-push``). The double
  step belongs to the square, not to the pawn: a pawn that stepped from the
  first rank to the second may double-step again from there (FIDE's
  ``fide.pawn-double-push`` refuses a pawn that has moved, so this rule adds
  that step);
* ``horde.horde-destroyed``: white with no piece left has lost (judged on
  every position, so a position set up that way is over too);
* ``fide.insufficient-material`` is removed: FIDE's table of dead positions
  assumes two kings (a lone white knight cannot mate, but black can still
  win by taking it);

Black wins by capturing every white piece; white wins by checkmate;
stalemate draws. Start: ``START`` (lichess's and Fairy-Stockfish's ``horde``).
"""
from rete import Call, Collect, Not, P, Rule, V

from chess_rules.moves import Move
from chess_rules.fide import fide_rules
from chess_rules.move_helpers import as_pieces

START = "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1"


def horde_double_push(ctx, pawns):
    st = ctx.session.chess
    rule = ctx.pnode.production.name
    for p in as_pieces(pawns):
        v = p.values
        sq = v["square"]
        mid, to = sq + 8, sq + 16
        if sq < 8:                          # the first rank: no en-passant target
            if st.colors[mid] is None and st.colors[to] is None:
                st.add(Move(sq, to, piece="pawn", rule=rule))
        elif sq < 16 and v["moved"]:        # back on the second rank from the first
            if st.colors[mid] is None and st.colors[to] is None:
                st.add(Move(sq, to, piece="pawn", kind="double-push", ep_square=mid,
                            rule=rule))


def horde_destroyed(ctx, game):
    if "white" not in ctx.session.chess.colors:
        ctx.assert_fact("result", winner="black", reason="the horde is destroyed")


def build():
    rs = fide_rules()
    rs.name = "horde"
    rs.royal_types["white"] = ()
    rs.remove("fide.insufficient-material")
    rs.function("horde.double-push", horde_double_push)
    rs.function("horde.horde-destroyed", horde_destroyed)
    rs.add(Rule("horde.double-push", stage="generate",
                doc="A white pawn on the first rank, or one that came to the second "
                    "rank from it, may advance two squares through an empty one.")
           .when(P("movegen", color="white"),
                 Collect(P("piece", type="pawn", color="white")).as_("ps"))
           .then(Call("horde.double-push", V.ps)))
    rs.add(Rule("horde.horde-destroyed", stage="result", salience=70,
                doc="White, with no piece left, has lost.")
           .when(P("game").as_("g"), Not(P("result")))
           .then(Call("horde.horde-destroyed", V.g)))
    # where a game starts when no position is given (Game(ruleset=rs),
    # houserules play --ruleset, a scenario with no fen)
    rs.config["start-fen"] = START
    return rs
