"""``explain_move`` checked against the truth, for Dice Chess (as
tests/chess/test_explain_differential.py does for chess).

On seeded random rolled positions, hand-made ones (castling with one die, en
passant onto several targets, promotion inside a turn, two dice of one type, a
king capture that shortens a turn, the spec's worked examples) and the positions
met along a turn (each micro-move applied to the DFEN, then judged afresh), for
moves from every piece of the side to move (every square, and promotions):

* the verdict is legal exactly for ``legal_uci_moves`` (the tree's first level);
  a legal move names a generator, the dice it spends (its piece's, or the king's
  and the rook's for castling) and the dice the tree can spend after it;
* ``dice.die-filter``: the move is no micro-move, the die named is its piece's
  (or castling's two), the dice listed are those left, and giving the position
  that die makes the move (or, on a promotion's squares, a promotion on them) a
  micro-move;
* ``dice.maximum-micro-moves``: the move is a micro-move, takes no king, and the
  turns after it (built afresh on the position it leaves) spend fewer dice than
  the number the reason gives, which is the most a turn spends (brute force),
  and reach no king;
* the game over: a side has no king, and the reason says who took it;
* any other refusal: the move is no micro-move even with its piece's die (for a
  king, the king's and the rook's), and under FIDE the reason's facts hold on
  the board (the occupied square, the empty one, the blocker on the line, the
  attacked square as python-chess sees it, the missing right, the promotions
  offered);
* ``apply_move`` raises the class of the verdict (NoDieError,
  MaxMicroMovesError, GameOverError, NotLegalMoveError) with its rule and
  reason; the CLI's ``dice explain`` prints the same text, and a scenario's
  ``expect illegal UCI by RULE "TEXT"`` passes with the verdict's rule and words;
* along a turn, ``houserules dice playable`` gives what the tree gives, and
  the moves the tree continues with are legal afresh.
"""
from __future__ import annotations

import contextlib
import io
import json
import random
import re
from collections import Counter

import chess
import pytest

from rete.model import as_production

from chess_rules.squares import PIECE_LETTER, SQUARE_NAMES
from dice import (DiceGame, DiceMoveError, GameOverError, MaxMicroMovesError, NoDieError,
                  NotLegalMoveError, apply_move, explain_move, legal_turn_tree, legal_uci_moves,
                  turn_tree, with_dice)
from dice.dfen import LETTER_TYPE, TYPE_FACE
from dice.engine import as_dice_rules, default_ruleset
from houserules.dice_play import explain_in_turn
from dice.turns import _explain, _refusal
from presets import load

# ------------------------------------------------------------------ positions

EXAMPLE = "8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1 NPP"            # the spec's c2c4 example
HAND_MADE = [
    EXAMPLE,
    "8/8/8/2k5/2P5/1N6/8/K7 w - c3 0 1 NP",                 # ... after c2c4
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 QRN",   # knight, then rook
    "rnbqkbnr/pppppppp/8/8/8/N7/PPPPPPPP/R1BQKBNR w KQkq - 1 1 QR",
    # castling: one die, both, through an attacked square, out of check, blocked
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 K",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 R",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 KRP",
    "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1 KRB",
    "r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1 KR",
    "r3k2r/8/8/8/8/8/8/RN2K1NR w KQkq - 0 1 KRN",
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1 KRR",
    "4k3/8/8/8/8/8/8/4K2R w - - 0 1 KR",                      # no right
    # en passant onto several targets, with one pawn die or two; an own target
    "4k3/8/8/8/2PpP3/8/8/4K3 b - c3e3 0 1 PPB",
    "4k3/8/8/8/1pPpP3/8/8/4K3 b - c3e3 0 1 PP",
    "4k3/8/8/8/2PpP3/8/8/4K3 b - c3e3 0 1 NNB",
    "4k3/8/8/2pP4/8/8/8/4K3 b - c6 0 1 PPP",
    "4k3/3p4/8/2pP4/8/8/8/4K3 b - c6 0 1 PP",                # d7c6 onto its own target
    # promotion inside a turn: the new piece moves on; all promotions shut in
    "4k3/P7/8/8/8/8/8/4K3 w - - 0 1 PPN",
    "2N4k/PB6/N1N5/8/8/8/7P/4K3 w - - 0 1 PB",
    "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1 PQ",
    "4k3/P7/8/8/8/8/8/4K3 w - - 0 1 N",
    "4k3/8/8/8/8/8/p7/4K3 b - - 0 1 PRR",
    # two dice of one type; a blocked pawn that makes e2e4 break the rule
    "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 PP",
    "7k/8/8/4p3/8/8/4P3/K7 w - - 0 1 PP",
    "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1 RRP",
    # a king capture that shortens the turn; the game over
    "3k4/8/8/8/8/8/3R4/4K3 w - - 0 1 RNP",
    "4k3/8/8/8/8/8/4q3/4K3 w - - 0 1 KPP",
    "8/8/8/2N5/8/8/8/K7 w - - 0 1 NP",
]


def rolled_position(seed: int, turns: int, ruleset=None) -> str:
    """``turns`` random turns played from the start under ``ruleset`` (as
    tests/dice/test_properties.py plays them), then a roll: the rolled DFEN, or
    the finished game."""
    rng = random.Random(seed)
    g = DiceGame(None, ruleset)
    for _ in range(turns):
        g.roll(rng)
        while g.legal_moves():
            g._play(rng.choice(g.legal_moves()))
            if g.is_game_over():
                return g.dfen()
        g.run_end_turn()
    g.roll(rng)
    return g.dfen()


def _own_moves(g: DiceGame) -> list[str]:
    """Every from-to of the side to move's pieces, and on a pawn's last rank
    (either: a preset may move pawns backward) the promotions and none."""
    st = g.state
    out = []
    for f in range(64):
        if st.colors[f] != g.turn:
            continue
        for t in range(64):
            if t == f:
                continue
            u = SQUARE_NAMES[f] + SQUARE_NAMES[t]
            out.append(u)
            if st.types[f] == "pawn" and t // 8 in (0, 7):
                out += [u + p for p in "qrbnk"]
    return out


# ------------------------------------------------------------------ the truth


def _dice(t) -> list[str]:
    """The dice left, as types, read from the DFEN's dice field."""
    return [LETTER_TYPE[c.upper()] for c in t.dfen.split()[6] if c != "-"]


def _best(g: DiceGame, memo: dict) -> tuple[int, bool]:
    """(the most dice a turn spends from here, whether a turn takes a king or
    otherwise ends the game), by plain search on the engine's micro-moves."""
    if g.is_game_over():
        return 0, False
    k = g.dfen()
    if k in memo:
        return memo[k]
    best, king = 0, False
    before = len(g.dice())
    for m in list(g.legal_moves()):
        g._play(m)
        spent = before - len(g.dice())
        if g.is_game_over():
            b, kk = spent, True
        else:
            b, kk = _best(g, memo)
            b += spent
        g.pop()
        best, king = max(best, b), king or kk
    memo[k] = best, king
    return best, king


class Truth:
    """What a position's verdicts are checked against, computed lazily."""

    def __init__(self, dfen: str, ruleset=None):
        self.dfen, self.ruleset = dfen, ruleset
        self.game = DiceGame(dfen, ruleset)
        self.tree = turn_tree(dfen, ruleset)
        self.legal = set(legal_uci_moves(dfen, ruleset))
        self.micro = set(self.game.legal_uci())
        self._with: dict = {}
        self._scratch = None
        self._most = None

    def micro_with(self, letters: str) -> set[str]:
        """The micro-moves of the position with exactly these dice."""
        if letters not in self._with:
            d = with_dice(self.dfen, letters, self.ruleset)
            if self._scratch is None:
                self._scratch = DiceGame(d, self.ruleset)
            else:
                self._scratch.reload(d)
            self._with[letters] = set(self._scratch.legal_uci())
        return self._with[letters]

    def micro_without(self, rule: str) -> set[str]:
        """The micro-moves of the position under the rule set less ``rule``."""
        rs = (self.ruleset or default_ruleset()).copy()
        rs.remove(rule, "test")
        return set(DiceGame(self.dfen, rs).legal_uci())

    def most(self) -> int:
        if self._most is None:
            self._most = _best(self.game, {})[0]        # (the search leaves it as it was)
        return self._most

    def after(self, u: str) -> tuple[int, bool, bool]:
        """(dice u spends, the most dice the turns after it spend, whether one of
        them, or u itself, ends the game): u played, the rest judged afresh."""
        g = self.game
        before = len(g.dice())
        g.push(u)
        try:
            spent = before - len(g.dice())
            if g.is_game_over():
                return spent, 0, True
            best, king = _best(g, {})
            return spent, best, king
        finally:
            g.pop()


# ------------------------------------------------------------------ the checks

SQ = r"([a-h][1-8])"
DIE_REASON = re.compile(rf"no (\w+) die for the (\w+) on {SQ} \(dice left: (.*)\)")
CASTLE_DICE = re.compile(r"castling needs a king die and a rook die \(dice left: (.*)\)")
MMM = re.compile(r"it breaks the Maximum Micro-moves Rule: the turn can spend (\d+) dice, and "
                 r"no turn starting with (\S+) spends that many or captures the king "
                 r"\(legal: (.*)\)")
LEGAL = re.compile(r"spends the (.+) die; (?:then \[(.*)\]|the turn is complete)")

PROMO = {"q": "queen", "r": "rook", "b": "bishop", "n": "knight", "k": "king"}
ERRORS = {"dice.die-filter": NoDieError, "dice.maximum-micro-moves": MaxMicroMovesError}


def _left(t) -> str:
    return ", ".join(sorted(_dice(t), key=TYPE_FACE.get)) or "none"


def _castling_move(g: DiceGame, u: str) -> bool:
    from chess_rules.explain import castling_squares
    return g.state.types[SQUARE_NAMES.index(u[:2])] == "king" and \
        castling_squares(g, g.turn, SQUARE_NAMES.index(u[:2]), SQUARE_NAMES.index(u[2:4]))


def _rules(t: Truth):
    return as_dice_rules(t.ruleset)


def _stage(t: Truth, rule: str | None) -> str | None:
    prod = _rules(t).productions.get(rule) if rule else None
    return as_production(prod).stage if prod is not None else None


def _filter_after_dice(t: Truth, rule: str | None) -> bool:
    prods = _rules(t).productions
    return _stage(t, rule) == "filter" and \
        as_production(prods[rule]).salience < as_production(prods["dice.die-filter"]).salience


def _die_letters(g: DiceGame, u: str) -> str:
    """The dice a move of ``u``'s piece needs: its type's; a king's move on
    castling's squares, a king and a rook die."""
    if _castling_move(g, u):
        return "KR"
    return PIECE_LETTER[g.state.types[SQUARE_NAMES.index(u[:2])]].upper()


def check_verdict(t: Truth, u: str, ex, fide: bool) -> str:
    """Check one verdict against the truth; returns its category."""
    g, dfen = t.game, t.dfen
    ctx = (dfen, u, ex.text)
    assert ex.move == u, ctx
    assert ex.legal == (u in t.legal), ctx
    frm = SQUARE_NAMES.index(u[:2])
    ptype = g.state.types[frm]
    if g.state.colors[frm] != g.turn and not g.is_game_over():
        # an empty square, the opponent's piece: the board's word
        assert not ex.legal and ex.rule is None, ctx
        if ptype is None:
            assert ex.reason == f"there is no piece on {u[:2]}", ctx
        else:
            assert ex.reason == (f"the {ptype} on {u[:2]} is {g.state.colors[frm]}'s, and it "
                                 f"is {g.turn} to move"), ctx
        return "not-own"
    if ex.legal:
        assert ex.rule is not None and ex.rule in ex.generated_by, ctx
        m = LEGAL.fullmatch(ex.reason)
        assert m, ctx
        want = "king and the rook" if t.tree.nodes[u][0] == ("king", "rook") else ptype
        # (under a preset a piece may change type on its way: the die is the mover's)
        assert m.group(1) == " and the ".join(t.tree.nodes[u][0]), ctx
        if t.ruleset is None:
            assert m.group(1) == want, ctx
        after = t.tree.playable([u])
        assert (m.group(2) or "") == ", ".join(map(str, after)), ctx
        return "legal"
    cls, reason, rule, generated_by = _refusal(g, t.tree, u)
    assert (reason, rule, generated_by) == (ex.reason, ex.rule, ex.generated_by), ctx
    assert ex.reason.strip(), ctx
    if g.is_game_over():
        assert cls is GameOverError and rule is None, ctx
        winner = g.winner()
        assert ex.reason.startswith(f"the game is over ({winner} "), ctx
        return "game-over"
    assert cls is ERRORS.get(rule, NotLegalMoveError), ctx
    if rule == "dice.die-filter":
        assert u not in t.micro, ctx
        need = _die_letters(g, u)
        if need == "KR":
            m = CASTLE_DICE.fullmatch(ex.reason)
            assert m and not ({"king", "rook"} <= set(_dice(t))), ctx
            assert m.group(1) == _left(t), ctx
        else:
            m = DIE_REASON.fullmatch(ex.reason)
            assert m and m.group(1) == m.group(2) == ptype and m.group(3) == u[:2], ctx
            assert ptype not in _dice(t) and m.group(4) == _left(t), ctx
        # the die frees it, or the filter that drops it with the die runs after
        # the die filter (which would have dropped it first)
        freed = t.micro_with(need)
        if not (u in freed or any(k[:4] == u[:4] and len(k) == 5 for k in freed)):
            with_die = DiceGame(with_dice(dfen, need, t.ruleset), t.ruleset).explain(u)
            assert with_die.generated_by and _filter_after_dice(t, with_die.rule), (ctx, with_die)
        return "die-filter"
    if rule == "dice.maximum-micro-moves":
        assert u in t.micro, ctx
        m = MMM.fullmatch(ex.reason)
        assert m and m.group(2) == u, ctx
        most = int(m.group(1))
        assert most == t.most() == t.tree.most, ctx
        assert m.group(3) == ", ".join(sorted(t.legal)), ctx
        spent, best, king = t.after(u)
        assert not king and spent + best < most, (ctx, spent, best)
        return "max-micro-moves"
    if _stage(t, rule) == "filter":
        # a filter's refusal: without that filter the move is a micro-move
        assert u not in t.micro and u in t.micro_without(rule), ctx
        return rule
    # refused by a generator's own reason, or no rule: no micro-move even with the die
    assert u not in t.micro_with(_die_letters(g, u)), ctx
    if fide:
        _check_facts(t, u, ex)
    return rule or "no-rule"


def _board(dfen: str) -> chess.Board:
    return chess.Board(" ".join(dfen.split()[:2]) + " - - 0 1")


def _attacked(t: Truth, king_from: str, sq: str) -> bool:
    """Whether ``sq`` is attacked by the opponent with the king moved there
    (python-chess's word, not the engine's)."""
    b = _board(t.dfen)
    color = b.turn
    k = b.remove_piece_at(chess.parse_square(king_from))
    b.set_piece_at(chess.parse_square(sq), k)
    return b.is_attacked_by(not color, chess.parse_square(sq))


def _check_facts(t: Truth, u: str, ex) -> None:
    """The facts a refusal's reason states, checked on the board (FIDE's reasons)."""
    b = _board(t.dfen)
    r = ex.reason
    ctx = (t.dfen, u, ex.text)
    frm, to = chess.parse_square(u[:2]), chess.parse_square(u[2:4])
    piece = b.piece_at(frm)
    name = chess.piece_name(piece.piece_type)
    color = "white" if piece.color else "black"

    def at(s):
        return b.piece_at(chess.parse_square(s))

    if m := re.fullmatch(rf"{SQ} holds (white|black)'s own (\w+)", r):
        own = at(m.group(1))
        assert m.group(1) == u[2:4] and m.group(2) == color and own is not None \
            and own.color == piece.color and chess.piece_name(own.piece_type) == m.group(3), ctx
    elif m := re.match(rf"the (\w+) on {SQ} cannot pass the (\w+) on {SQ} on its way to {SQ}", r):
        assert (m.group(1), m.group(2), m.group(5)) == (name, u[:2], u[2:4]), ctx
        blocker = chess.parse_square(m.group(4))
        assert blocker in chess.SquareSet.between(frm, to), ctx
        assert chess.piece_name(b.piece_at(blocker).piece_type) == m.group(3), ctx
        # and it is the first one on the way
        line = [s for s in chess.SquareSet.between(frm, to) if b.piece_at(s)]
        assert min(line, key=lambda s: chess.square_distance(s, frm)) == blocker, ctx
    elif m := re.match(rf"no rule moves the (\w+) on {SQ} to {SQ}", r):
        assert (m.group(1), m.group(2), m.group(3)) == (name, u[:2], u[2:4]), ctx
    elif m := re.fullmatch(rf"{SQ} is occupied \(pawns push only to empty squares\)", r):
        assert ex.rule == "fide.pawn-single-push" and m.group(1) == u[2:4] and at(u[2:4]), ctx
    elif m := re.fullmatch(rf"{SQ} is occupied", r):
        mid = chess.square_name((frm + to) // 2)
        assert ex.rule == "fide.pawn-double-push" and m.group(1) in (mid, u[2:4]), ctx
        assert at(m.group(1)) and (m.group(1) == mid or not at(mid)), ctx
    elif m := re.fullmatch(rf"a pawn moves diagonally only to capture, and {SQ} is empty"
                           rf"(?:: the en-passant target there is (white|black)'s own \(made by "
                           rf"its pawn on {SQ}\), and a pawn captures en passant only onto the "
                           rf"opponent's targets)?", r):
        assert ex.rule == "fide.pawn-capture" and m.group(1) == u[2:4] and not at(u[2:4]), ctx
        # the side's own target there is named (over FIDE: rank 3 is White's)
        ep = t.dfen.split()[3].replace("-", "")
        own = u[2:4] in {ep[i:i + 2] for i in range(0, len(ep), 2)} and \
            (u[3] == "3") == (color == "white")
        assert (m.group(2) is not None) == own, ctx
        if own:
            beyond = u[2] + ("4" if color == "white" else "5")
            assert m.group(2) == color and m.group(3) == beyond, ctx
    elif m := re.fullmatch(rf"{SQ} is not empty", r):
        assert ex.rule == "fide.castling" and at(m.group(1)), ctx
        rook = "a" if u[2] == "c" else "h"
        span = chess.SquareSet.between(frm, chess.parse_square(rook + u[1])) | {to}
        assert chess.parse_square(m.group(1)) in span, ctx
    elif m := re.fullmatch(rf"{SQ} is attacked", r):
        # (the king's own square too: Dice Chess has no check to call it)
        s = chess.parse_square(m.group(1))
        assert ex.rule == "fide.castling" and s in chess.SquareSet.between(frm, to) | {frm, to}, ctx
        assert _attacked(t, u[:2], m.group(1)), ctx
        # and the squares before it are not
        for p in chess.SquareSet.between(frm, s):
            assert not _attacked(t, u[:2], chess.square_name(p)), ctx
    elif r.endswith("there is no castling right for that side"):
        g = DiceGame(t.dfen)
        rights = g.castling_rights()
        side = ("K" if u[2] == "g" else "Q") if piece.color else ("k" if u[2] == "g" else "q")
        assert side not in rights, ctx
    elif m := re.fullmatch(r"(a pawn that reaches the last rank must promote: name the piece|"
                           r"a pawn may not promote to a \w+ here) \((.*)\), but no turn starting "
                           r"with any of them keeps to the Maximum Micro-moves Rule "
                           r"\(legal: (.*)\)", r):
        offered = m.group(2).split(", ")
        assert offered == sorted(k for k in t.micro if k[:4] == u[:4]), ctx
        assert not set(offered) & t.legal and m.group(3) == ", ".join(sorted(t.legal)), ctx
    elif m := re.fullmatch(r"a pawn that reaches the last rank must promote: name the piece "
                           r"\((.*)\)", r):
        assert len(u) == 4 and m.group(1).split(", ") == \
            sorted(k for k in t.legal if k[:4] == u), ctx
    elif m := re.fullmatch(r"a pawn may not promote to a (\w+) here \((.*)\)", r):
        offered = m.group(2).split(", ")
        assert m.group(1) == PROMO[u[4:]] and u not in offered, ctx
        assert offered == sorted(k for k in t.legal if k[:4] == u[:4]), ctx
    else:
        raise AssertionError(f"a reason this test does not know: {ctx}")


# ------------------------------------------------------------------ the outside views


def _cli(*argv) -> tuple[int, str]:
    from houserules.cli import main
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(list(argv))
    return code, out.getvalue()


def check_outside(t: Truth, u: str, ex) -> None:
    """The public API, apply_move, the CLI and a scenario say what the verdict says."""
    assert explain_move(t.dfen, u, t.ruleset) == ex
    if ex.legal:
        apply_move(t.dfen, u, t.ruleset)
        return
    with pytest.raises(DiceMoveError) as ei:
        apply_move(t.dfen, u, t.ruleset)
    err = ei.value
    assert type(err) is _refusal(t.game, t.tree, u)[0]
    assert (err.rule, err.move) == (ex.rule, u) and ex.reason in err.reason
    if t.ruleset is None:
        code, out = _cli("dice", "explain", t.dfen, u)
        assert code == 0 and out == ex.text + "\n"
        _scenario_agrees(t.dfen, u, ex)


def _scenario_agrees(dfen: str, u: str, ex) -> None:
    from houserules.scenarios import parse_text, run_scenario
    by = f" by {ex.rule}" if ex.rule else ""
    words = ex.reason.replace("\\", "\\\\").replace('"', '\\"')
    text = f'scenario "s"\n  dfen {dfen}\n  expect illegal {u}{by} "{words}"\n'
    for sc in parse_text(text, "t.hrt"):
        run_scenario(sc)


def check_position(dfen: str, ruleset=None, sample=None, outside=0, rng=None) -> Counter:
    """Every verdict on the moves of the side to move checked (``sample``: None
    for every move; ``(k, n)`` for the sample :func:`_probes` takes); ``outside``
    of them (at random) through the public API, apply_move, the CLI and a
    scenario too. Returns the categories met."""
    rng = rng or random.Random(0)
    t = Truth(dfen, ruleset)
    before = t.game.dfen()
    moves = _own_moves(t.game) if sample is None else _probes(t.game, rng, *sample)
    seen = Counter()
    for u in moves:
        ex = _explain(t.game, t.tree, u)
        seen[check_verdict(t, u, ex, fide=ruleset is None)] += 1
    assert t.game.dfen() == before and set(t.game.legal_uci()) == t.micro   # left as it was
    for u in rng.sample(moves, min(outside, len(moves))):
        check_outside(t, u, _explain(t.game, t.tree, u))
    return seen


def _candidates(dfen: str) -> set[str]:
    """The moves a chess player would try, dice or no dice: python-chess's
    pseudo-legal moves (castling included), and a pawn's diagonal step onto
    each en-passant target (the DFEN may hold several)."""
    f = dfen.split()
    b = chess.Board(f"{f[0]} {f[1]} {f[2]} - 0 1")
    out = {m.uci() for m in b.pseudo_legal_moves}
    if f[3] != "-":
        for i in range(0, len(f[3]), 2):
            ep = chess.parse_square(f[3][i:i + 2])
            out |= {chess.square_name(s) + f[3][i:i + 2]
                    for s in b.attackers(b.turn, ep) if b.piece_type_at(s) == chess.PAWN}
    for sq, p in b.piece_map().items():
        if p.color != b.turn:
            continue
        if p.piece_type == chess.PAWN:       # pushes and diagonals, blocked or empty
            step = 8 if p.color else -8
            for d in (step, 2 * step, step - 1, step + 1):
                to = sq + d
                if 0 <= to < 64 and abs(to % 8 - sq % 8) <= 1:
                    out.add(chess.square_name(sq) + chess.square_name(to))
        elif p.piece_type == chess.KING and sq in (chess.E1, chess.E8):   # castling
            out |= {chess.square_name(sq) + chess.square_name(sq + d) for d in (-2, 2)}
    return out


def _probes(g: DiceGame, rng: random.Random, k: int | None, n: int) -> list[str]:
    """Moves to judge: the micro-moves, the candidates (all, or ``k`` of them at
    random), on a promotion's squares the move without its piece and with a king,
    and ``n`` more moves of the side to move at random: a sample that meets
    every kind of verdict."""
    every = _own_moves(g)
    mine = set(every)
    cands = sorted((_candidates(g.dfen()) | set(g.legal_uci())) & mine)
    if k is not None:
        cands = rng.sample(cands, min(k, len(cands)))
    near = {u[:4] + x for u in cands if len(u) == 5 for x in ("", "k")}
    others = [a + b for a in rng.sample(SQUARE_NAMES, 2) for b in rng.sample(SQUARE_NAMES, 2)
              if a != b and a + b not in mine]
    return sorted(set(cands) | near | set(rng.sample(every, min(n, len(every)))) | set(others))


def walk_turn(dfen: str, rng: random.Random, check, ruleset=None) -> None:
    """Play a random legal turn through apply_move; at each step ``check`` the
    position judged afresh, and the CLI's playable and the afresh moves against
    the tree of the whole turn."""
    tree = turn_tree(dfen, ruleset)
    played: list[str] = []
    d = dfen
    while True:
        node = tree.node(played)
        afresh = legal_uci_moves(d, ruleset)
        # the turn's continuations are legal afresh (the afresh answer may allow more)
        assert set(node) <= set(afresh), (dfen, played)
        check(d)
        # the terminal game's explain follows the tree: legal exactly for its moves
        for u in rng.sample(afresh, min(3, len(afresh))):
            said = explain_in_turn(d, u, node, tree.most, played, ruleset)
            assert said.startswith(f"{u}: legal") == (u in node), (dfen, played, said)
        if ruleset is None:
            code, out = _cli("dice", "playable", dfen, *played)
            assert code == 0 and json.loads(out) == tree.playable(played), (dfen, played, out)
        if not node:
            break
        u = rng.choice(sorted(node))
        d = apply_move(d, u, ruleset)
        played.append(u)


# ------------------------------------------------------------------ the tests

def test_hand_made_positions():
    seen = Counter()
    for i, dfen in enumerate(HAND_MADE):
        rng = random.Random(i)
        seen += check_position(dfen, sample=(None, 6), outside=1, rng=rng)
    # every kind of verdict was met
    for kind in ("legal", "die-filter", "max-micro-moves", "no-rule", "fide.castling",
                 "fide.pawn-capture", "fide.pawn-single-push", "fide.pawn-double-push"):
        assert seen[kind], (kind, seen)


def test_game_over_verdicts():
    over = apply_move(apply_move(EXAMPLE, "c2c4"), "b3c5")
    seen = check_position(over, sample=(None, 6), outside=3)
    assert set(seen) == {"game-over"}


def test_random_rolled_positions():
    seen = Counter()
    for seed in range(60):
        rng = random.Random(seed)
        dfen = rolled_position(seed, seed % 25)
        seen += check_position(dfen, sample=(5, 1),
                               outside=1 if seed % 10 == 0 else 0, rng=rng)
    assert seen["legal"] and seen["die-filter"] and seen["no-rule"]


@pytest.mark.parametrize("pid", ["wrap-board", "berolina-pawns", "knights-leap-twice",
                                 "pawns-move-backward", "double-move"])
def test_presets(pid):
    rs = load(pid)
    for seed in range(2):
        rng = random.Random(seed)
        dfen = rolled_position(seed, 3 + 4 * seed, rs)
        check_position(dfen, rs, sample=(8, 2), outside=seed, rng=rng)


def test_mid_turn_positions_are_judged_afresh():
    for i, dfen in enumerate([EXAMPLE, HAND_MADE[2], HAND_MADE[12], HAND_MADE[16]]
                             + [rolled_position(s, s % 20) for s in range(4)]):
        rng = random.Random(i)
        walk_turn(dfen, rng, lambda d: check_position(
            d, sample=(6, 1), outside=1, rng=rng))


def test_after_c2c4_explain_judges_afresh_and_the_turn_follows_the_tree():
    # the spec's example: after c2c4 a quiet knight move is legal afresh (two
    # dice left, one spent either way) though the turn goes on only with Nxc5
    after = apply_move(EXAMPLE, "c2c4")
    assert explain_move(after, "b3a5").legal and legal_turn_tree(EXAMPLE)["c2c4"] == {"b3c5": {}}
    node = turn_tree(EXAMPLE).node(["c2c4"])
    said = explain_in_turn(after, "b3a5", node, 3, ["c2c4"])
    assert said.startswith("b3a5: not a continuation of this turn")
    check_position(after, outside=2)


@pytest.mark.slow
def test_hand_made_positions_every_move():
    for i, dfen in enumerate(HAND_MADE):
        check_position(dfen, outside=6, rng=random.Random(i))


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(4))
def test_random_rolled_positions_every_move_deep(chunk):
    for seed in range(chunk * 25, chunk * 25 + 25):
        rng = random.Random(seed)
        dfen = rolled_position(seed, seed % 40)
        check_position(dfen, outside=3, rng=rng)
        walk_turn(dfen, rng, lambda d: check_position(d, outside=1, rng=rng))


@pytest.mark.slow
@pytest.mark.parametrize("pid", ["wrap-board", "berolina-pawns", "berolina-pawns-2",
                                 "knights-leap-twice", "pawns-move-backward", "double-move",
                                 "pawn-diagonal-no-capture", "double-pawn-sprint", "rook-warp",
                                 "coregal", "piece-hp", "suicide-chess"])
def test_presets_every_move_deep(pid):
    rs = load(pid)
    for seed in range(6):
        rng = random.Random(seed)
        dfen = rolled_position(seed, 3 + 2 * seed, rs)
        check_position(dfen, rs, outside=2, rng=rng)
        walk_turn(dfen, rng, lambda d: check_position(
            d, rs, sample=(10, 5), outside=1, rng=rng), rs)
