"""One game of the playground and what a request may do to it.

A table holds a game under the rules the page chose, the moves played with
the SAN and the production of each, and answers the page's questions. Every
operation either does what it was asked or raises a
:class:`~houserules.web.errors.PlaygroundError` having changed nothing. An
operation cut by the time limit (or failing in a way nobody foresaw) leaves
the table as it was before it too: the table keeps a log of what was done to
it (moves, rolls, ends of turn) and is rebuilt from the log as it stood before
the request (:meth:`Table.run`).

Chess and Dice Chess are two kinds of table (:class:`ChessTable` here,
:class:`~houserules.web.dice_table.DiceTable`); the web app sees only their
common operations.
"""
from __future__ import annotations

import random
import threading
import time
from typing import Callable, TypeVar

from chess_rules.errors import ChessError, FenError, IllegalMoveError, MoveParseError
from chess_rules.game import Game
from chess_rules.explain import Explanation
from rete.errors import ReteError

from . import players
from .board import board_view, square_names
from .errors import (MoveRefusedError, NotNowError, PlaygroundError, PositionError,
                     RulesError, TooLargeError, TooLongError)
from .limits import Limits, TimeLimitError, run_limited
from .rules import RulesChoice, build_ruleset, start_position

T = TypeVar("T")


class Table:
    """What chess and Dice Chess tables share: the rules, the lock, the clock."""

    game: Game

    def __init__(self, choice: RulesChoice, limits: Limits, fen: str | None = None):
        self.choice = choice
        self.limits = limits
        #: one request at a time on a game (a Game is not thread-safe)
        self.lock = threading.Lock()
        self.touched = time.monotonic()
        self.rng = random.Random()
        self.ruleset = build_ruleset(choice, limits)
        self.start = self._checked_fen(fen) if fen is not None else \
            start_position(choice, self.ruleset)
        #: what was done to the game since its start, to rebuild it from
        self.log: list[tuple] = []
        self._reset(self.start)

    # ------------------------------------------------------------ guarding

    def run(self, what: str, fn: Callable[[], T]) -> T:
        """``fn()`` under the time limit; if it fails other than by a refusal
        (which changes nothing), the table is rebuilt as it was before."""
        before = (self.start, list(self.log))
        try:
            return run_limited(fn, self.limits.time_limit, what)
        except PlaygroundError:
            raise
        except TimeLimitError as e:
            self._restore(*before)
            raise TooLongError(str(e)) from None
        except BaseException:
            self._restore(*before)
            raise

    def _restore(self, start: str, log: list[tuple]) -> None:
        self.start = start
        self._reset(start)
        for entry in log:
            self._redo(entry)
        self.log = log

    def _checked_fen(self, fen: str) -> str:
        if len(fen) > self.limits.max_fen:
            raise TooLargeError(f"the position has {len(fen)} characters, more than the "
                                f"server's limit of {self.limits.max_fen}")
        return fen

    def _check_room(self) -> None:
        if len(self.log) >= self.limits.max_plies:
            raise NotNowError(f"the game holds {len(self.log)} moves, the server's limit: "
                              f"start a new game (or load its FEN)")

    # ------------------------------------------------------------ the common answers

    def explain(self, move: str) -> dict:
        """Which production generates ``move``, or which refuses it and why."""
        ex = self._explanation(move)
        return {"move": ex.move, "legal": ex.legal, "rule": ex.rule, "reason": ex.reason,
                "generated_by": list(ex.generated_by), "text": ex.text}

    def square(self, name: str) -> dict:
        """What may move to square ``name``: the legal moves there with their
        productions, and for each other piece of the side to move that a
        production refuses there, the rule and the reason."""
        view = board_view(self.game)
        if name not in {f + r for f in view["file_names"] for r in view["rank_names"]}:
            raise PositionError(f"{name!r} is not a square of this board")
        legal = [m for m in self._legal() if m["to"] == name]
        movers = {m["from"] for m in legal}
        refused = []
        turn = self.game.turn
        for p in view["pieces"]:
            if p["color"] != turn or p["square"] in movers or p["square"] == name:
                continue
            ex = self._explanation(p["square"] + name)
            if not ex.legal and ex.rule is not None:
                refused.append({"from": p["square"], "uci": ex.move, "rule": ex.rule,
                                "reason": ex.reason, "text": ex.text})
        occupant = next((p for p in view["pieces"] if p["square"] == name), None)
        return {"square": name, "piece": occupant, "moves": legal, "refused": refused}

    def _legal_dicts(self, moves) -> list[dict]:
        out = []
        for m in moves:
            u = m.uci()
            frm, to, promo = square_names(u)
            out.append({"uci": u, "from": frm, "to": to, "promotion": promo or None,
                        "rule": m.rule})
        return out

    def _last(self) -> dict | None:
        stack = self.game.move_stack
        if not stack:
            return None
        frm, to, _ = square_names(stack[-1].uci())
        return {"uci": stack[-1].uci(), "from": frm, "to": to}

    def _refusal(self, e: ChessError) -> MoveRefusedError:
        if isinstance(e, IllegalMoveError):
            rule = e.rule
            text = f"{e.move}: refused by {rule} - {e.reason}" if rule else \
                f"{e.move}: illegal - {e.reason}"
            return MoveRefusedError(text, move=e.move, rule=rule, reason=e.reason)
        if isinstance(e, MoveParseError):
            return MoveRefusedError(str(e), reason=e.reason)
        return MoveRefusedError(str(e))

    # ------------------------------------------------------------ kinds fill these in

    def state(self) -> dict:
        """The game as the page shows it (the API's GameState, less id and rules)."""
        raise NotImplementedError

    def play(self, text: str) -> dict:
        raise NotImplementedError

    def undo(self) -> dict:
        raise NotImplementedError

    def bot(self, level: int) -> dict:
        raise NotImplementedError

    def load(self, fen: str) -> None:
        raise NotImplementedError

    def pgn(self) -> str:
        raise NotImplementedError

    def _reset(self, start: str) -> None:
        raise NotImplementedError

    def _redo(self, entry: tuple) -> None:
        raise NotImplementedError

    def _explanation(self, move: str) -> Explanation:
        raise NotImplementedError

    def _legal(self) -> list[dict]:
        raise NotImplementedError


def new_game(cls, fen: str, ruleset):
    """A game from ``fen``: a position the rules cannot read is a
    :class:`PositionError`, rules that fail on it (a rule that never stops
    firing) a :class:`RulesError`."""
    try:
        return cls(fen, ruleset=ruleset)
    except FenError as e:
        raise PositionError(str(e)) from None
    except (ChessError, ReteError) as e:
        raise RulesError(f"the rules failed on the position: {e}") from None


class ChessTable(Table):
    """A game of chess (FIDE, presets, rule text) on the playground."""

    def _reset(self, start: str) -> None:
        self.game = new_game(Game, start, self.ruleset)
        self.history: list[dict] = []
        self.log = []

    def _redo(self, entry: tuple) -> None:
        self._push(entry[1])

    def _push(self, uci: str) -> dict:
        g = self.game
        color = g.turn
        san = g.san(uci)
        m = g.push(uci)
        entry = {"uci": m.uci(), "san": san, "rule": m.rule, "color": color}
        self.history.append(entry)
        self.log.append(("move", m.uci()))
        return entry

    # ------------------------------------------------------------ operations

    def play(self, text: str) -> dict:
        """Play a move given in UCI or SAN; a refused one raises
        :class:`MoveRefusedError` naming the rule and the reason."""
        self._check_room()
        g = self.game
        try:
            uci = uci_or_san(g, text)
        except ChessError as e:
            raise self._refusal(e) from None
        if not g.is_legal(uci):
            ex = g.explain(uci)
            raise MoveRefusedError(ex.text, move=ex.move, rule=ex.rule, reason=ex.reason)
        return self._push(uci)

    def undo(self) -> dict:
        if not self.history:
            raise NotNowError("no move to take back")
        self.game.pop()
        self.history.pop()
        self.log.pop()
        return {}

    def bot(self, level: int) -> dict:
        """The engine's move at ``level``, played."""
        self._check_room()
        if self.game.is_game_over():
            raise NotNowError(f"the game is over: {_outcome_text(self.game.outcome())}")
        m = players.bot_move(self.game.copy(), level, self.rng)
        if m is None:
            raise NotNowError("no legal move to play")
        return self._push(m.uci() if not isinstance(m, str) else m)

    def load(self, fen: str) -> None:
        """Set up ``fen`` under the same rules (a bad one changes nothing)."""
        fen = self._checked_fen(fen)
        game = new_game(Game, fen, self.ruleset)
        self.start, self.game, self.history, self.log = fen, game, [], []

    def pgn(self) -> str:
        try:
            return self.game.pgn({"Event": "houserules playground"})
        except ChessError as e:
            raise NotNowError(str(e)) from None

    def _explanation(self, move: str) -> Explanation:
        return self.game.explain(move)

    def _legal(self) -> list[dict]:
        return self._legal_dicts(self.game.legal_moves())

    def state(self) -> dict:
        g = self.game
        out = g.outcome()
        checks = [f.values["square"] for f in g.session.facts_of("check")
                  if f.values["color"] == g.turn]
        return {
            "variant": "chess", "turn": g.turn, "fen": g.fen(),
            "board": board_view(g), "legal": [] if out else self._legal(),
            "last_move": self._last(),
            "check": [g.ruleset.shape.square_name(s) for s in checks if isinstance(s, int)],
            "history": list(self.history),
            "outcome": outcome_dict(out), "dice": None,
        }


def uci_or_san(game, text: str) -> str:
    """The UCI of a move given in UCI or SAN (SAN as the rules' moves spell it)."""
    text = text.strip()
    try:
        square_names(text.lower())
    except ValueError:
        return game.parse_san(text).uci()
    return text.lower()


def _outcome_text(out) -> str:
    if out is None:
        return "the game goes on"
    who = f"{out.winner} wins" if out.winner else "draw"
    return f"{out.result()} {who} by {out.reason}" + (f" ({out.rule})" if out.rule else "")


def outcome_dict(out) -> dict | None:
    if out is None:
        return None
    return {"winner": out.winner, "reason": out.reason, "rule": out.rule,
            "result": out.result(), "text": _outcome_text(out)}

