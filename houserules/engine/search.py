"""Negamax alpha-beta search over any rule set, through the game API alone.

The search plays moves with ``push`` and takes them back with ``pop``, asks
the rules for the legal moves (``legal_moves``) and the end of the game
(``outcome``): a preset that overrides a rule, a custom rule file or a
modifier changes what is searched, with no fast path around the productions.

* Iterative deepening, principal variation kept from the transposition table.
* Move ordering: the table's move, then captures (most valuable victim first,
  least valuable attacker) and promotions, then two killer moves per ply, then
  the history heuristic.
* A transposition table keyed by :func:`position_key`: the extended FEN
  (board, side to move, castling, en passant, and every attribute a preset
  keeps, such as hit points), less the move number, plus the facts of any
  template the rule set declares beyond the chess schema.
* Quiescence over captures and promotions (every move when in check).
* Multi-move turns (double-move, monster-rules): a move that leaves the same
  side to move is searched with its score not negated.
* Limits: depth, nodes, time, and an external stop (a ``threading.Event``);
  the best move found so far is always ready, from the first legal move on.
"""
from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from chess_rules.schema import TEMPLATES

from .evaluate import Evaluator

#: the score of a won game, less one per ply to it (a quicker win is better)
MATE = 100_000
#: scores beyond this are wins or losses in so many plies
MATE_BOUND = MATE - 1_000
INF = MATE + 1
MAX_DEPTH = 64
#: how deep the quiescence search follows captures
MAX_QUIESCENCE = 8
_EXACT, _LOWER, _UPPER = 0, 1, 2


@dataclass
class Limits:
    """When a search stops: the first limit reached (none: it runs until ``stop``
    is set, to :data:`MAX_DEPTH` at most). ``movetime`` is in seconds."""

    depth: int | None = None
    nodes: int | None = None
    movetime: float | None = None
    stop: threading.Event | None = None


@dataclass
class Info:
    """What an iteration found: what UCI's ``info`` line reports."""

    depth: int
    score: int
    nodes: int
    seconds: float
    pv: list = field(default_factory=list)

    @property
    def mate_in(self) -> int | None:
        """Moves to mate (negative: being mated), or None for a centipawn score."""
        if abs(self.score) < MATE_BOUND:
            return None
        plies = MATE - abs(self.score)
        moves = (plies + 1) // 2
        return moves if self.score > 0 else -moves

    @property
    def nps(self) -> int:
        return int(self.nodes / self.seconds) if self.seconds > 0 else 0


@dataclass
class Result:
    """A finished search: the move to play, its score and principal variation."""

    move: Any               # a Move of the game searched
    score: int
    depth: int
    nodes: int
    seconds: float
    pv: list


class _Stop(Exception):
    """A limit was reached in the middle of an iteration."""


def extra_templates(ruleset) -> tuple[str, ...]:
    """The templates a rule set declares beyond the chess schema (a rule file's
    counters): their facts are part of the position, and the FEN does not
    write them (those a position token writes, ``config['keyed-templates']``,
    it does)."""
    known = {t.name for t in TEMPLATES} | set(ruleset.config.get("keyed-templates", ()))
    return tuple(sorted(t for t in ruleset.templates if t not in known))


def position_key(game, extra: tuple[str, ...] = ()) -> str:
    """A text that two positions share only if the rules cannot tell them apart
    (the move number aside): the transposition table's key."""
    fields = game.fen().split(" ")
    del fields[5]           # the move number: nothing the rules decide by
    key = " ".join(fields)
    for t in extra:
        key += "|" + repr(sorted(repr(sorted(f.values.items())) for f in game.session.facts_of(t)))
    return key


class Searcher:
    """A search over one game. ``search(limits)`` leaves the game as it found
    it (the moves it made taken back, also when stopped or failing).

    ``on_info(info)`` is called after each completed iteration. ``noise``
    (centipawns) and ``rng`` make the weakest levels err: each root move's score
    gets a random number up to ``noise`` added before the best is chosen.
    ``hash_entries`` bounds the transposition table (it is cleared when full).
    ``quiescence`` bounds the plies of captures searched past the horizon (0:
    the static score at the horizon, as the two weakest levels play).
    """

    def __init__(self, game, evaluator: Evaluator | None = None,
                 on_info: Callable[[Info], None] | None = None,
                 hash_entries: int = 200_000, noise: int = 0,
                 rng: random.Random | None = None, quiescence: int = MAX_QUIESCENCE):
        self.game = game
        self.quiescence = quiescence
        self.evaluate = evaluator or Evaluator(game.ruleset)
        self.on_info = on_info
        self.hash_entries = max(1, hash_entries)
        self.tt: dict[str, tuple] = {}
        self.noise = noise
        self.rng = rng or random.Random()
        self.extra = extra_templates(game.ruleset)
        self.repetition_draws = "fide.threefold-repetition" in game.ruleset.productions
        self.nodes = 0
        self.start = time.monotonic()
        self.deadline: float | None = None
        self.node_limit: int | None = None
        self.stop: threading.Event | None = None
        self.killers: list[list] = []
        self.history: dict[tuple, int] = {}
        self._partial: tuple | None = None

    # ------------------------------------------------------------ the driver

    def search(self, limits: Limits | None = None) -> Result:
        """The best move within ``limits`` (None: depth 1). Raises ValueError
        when the game is over (there is no move to choose)."""
        limits = limits or Limits(depth=1)
        game = self.game
        if game.outcome() is not None:
            raise ValueError(f"the game is over ({game.outcome().reason}): no move to search")
        root = game.legal_moves()
        if not root:
            raise ValueError("no legal move to search")
        self.nodes = 0
        self.start = time.monotonic()
        self.deadline = None if limits.movetime is None else self.start + limits.movetime
        self.node_limit = limits.nodes
        self.stop = limits.stop
        self.killers = [[None, None] for _ in range(MAX_DEPTH + MAX_QUIESCENCE + 2)]
        self.history = {}
        if len(self.tt) > self.hash_entries:
            self.tt.clear()
        base = len(game.move_stack)
        best = self._ordered(root, None, 0)[0]
        score, depth_done, pv = 0, 0, [best]
        max_depth = min(limits.depth or MAX_DEPTH, MAX_DEPTH)
        try:
            for depth in range(1, max_depth + 1):
                m, s = self._root(depth, root, best)
                best, score, depth_done = m, s, depth
                pv = self._pv(best)
                if self.on_info is not None:
                    self.on_info(Info(depth, score, self.nodes, self._elapsed(), pv))
                if abs(score) >= MATE_BOUND and MATE - abs(score) <= depth:
                    break           # a forced result found in full: deeper finds no other
        except _Stop:
            if self._partial is not None:
                best, score = self._partial
                pv = self._pv(best)
        finally:
            while len(game.move_stack) > base:
                game.pop()
        return Result(best, score, depth_done, self.nodes, self._elapsed(), pv)

    def _elapsed(self) -> float:
        return time.monotonic() - self.start

    def _check_limits(self) -> None:
        if self.node_limit is not None and self.nodes >= self.node_limit:
            raise _Stop
        if self.nodes & 63 == 0:
            if self.stop is not None and self.stop.is_set():
                raise _Stop
            if self.deadline is not None and time.monotonic() >= self.deadline:
                raise _Stop

    def _root(self, depth: int, moves: list, prev_best) -> tuple:
        """One iteration at the root: (best move, score). With ``noise`` a root
        move is searched with a window just wide enough to tell whether its
        noisy score can still win: one whose true score is more than ``noise``
        below the best true score so far cannot, so its search may fail low
        (a full window made the weakest levels search ten times more than
        level 3)."""
        game = self.game
        turn = game.turn
        alpha, beta = -INF, INF
        best, best_noisy = prev_best, -INF
        top = -INF                          # (the best true score so far)
        self._partial = None
        for m in self._ordered(moves, prev_best.uci(), 0):
            game.push(m)
            try:
                if game.turn == turn:
                    s = self._negamax(depth - 1, alpha, beta, 1, None)
                else:
                    s = -self._negamax(depth - 1, -beta, -alpha, 1, len(moves))
            finally:
                game.pop()
            noisy = s + (self.rng.randint(0, self.noise) if self.noise else 0)
            if noisy > best_noisy:
                best, best_noisy = m, noisy
                self._partial = (m, s)
            if not self.noise:
                if s > alpha:
                    alpha = s
            elif s > top:
                top = s
                alpha = max(alpha, top - self.noise - 1)
        if self.noise:
            return best, best_noisy         # (a noisy score is no bound to keep)
        self._store(position_key(game, self.extra), depth, alpha, _EXACT, best.uci())
        return best, alpha

    def _pv(self, first) -> list:
        """The principal variation: ``first``, then the table's moves."""
        game = self.game
        pv = [first]
        pushed = 0
        try:
            game.push(first)
            pushed += 1
            seen = {position_key(game, self.extra)}
            while len(pv) < MAX_DEPTH and game.outcome() is None:
                entry = self.tt.get(position_key(game, self.extra))
                if entry is None or entry[3] is None:
                    break
                m = next((x for x in game.legal_moves() if x.uci() == entry[3]), None)
                if m is None:
                    break
                game.push(m)
                pushed += 1
                pv.append(m)
                k = position_key(game, self.extra)
                if k in seen:
                    break
                seen.add(k)
        finally:
            for _ in range(pushed):
                game.pop()
        return pv

    # ------------------------------------------------------------ the tree

    def _terminal(self, ply: int) -> int | None:
        """The score of a finished game for the side to move, or None."""
        out = self.game.outcome()
        if out is None:
            return None
        if out.winner is None:
            return 0
        return MATE - ply if out.winner == self.game.turn else -(MATE - ply)

    def _negamax(self, depth: int, alpha: int, beta: int, ply: int,
                 opponent_moves: int | None) -> int:
        """The score for the side to move; ``opponent_moves``: how many legal
        moves the opponent had a ply up (the evaluation's mobility term)."""
        self.nodes += 1
        self._check_limits()
        game = self.game
        end = self._terminal(ply)
        if end is not None:
            return end
        if self.repetition_draws and game.repetitions() >= 2:
            return 0
        if depth <= 0:
            return self._quiesce(alpha, beta, ply, 0, opponent_moves)
        key = position_key(game, self.extra)
        entry = self.tt.get(key)
        tt_move = None
        if entry is not None:
            e_depth, e_score, e_flag, tt_move = entry
            if e_depth >= depth:
                e_score = _from_tt(e_score, ply)
                if e_flag == _EXACT:
                    return e_score
                if e_flag == _LOWER and e_score >= beta:
                    return e_score
                if e_flag == _UPPER and e_score <= alpha:
                    return e_score
        alpha0 = alpha
        turn = game.turn
        best_score, best_move = -INF, None
        moves = game.legal_moves()
        n = len(moves)
        for m in self._ordered(moves, tt_move, ply):
            game.push(m)
            try:
                if game.turn == turn:
                    s = self._negamax(depth - 1, alpha, beta, ply + 1, opponent_moves)
                else:
                    s = -self._negamax(depth - 1, -beta, -alpha, ply + 1, n)
            finally:
                game.pop()
            if s > best_score:
                best_score, best_move = s, m
                if s > alpha:
                    alpha = s
                    if alpha >= beta:
                        if m.victim is None:
                            self._killer(m, ply)
                            h = (m.piece, m.to)
                            self.history[h] = self.history.get(h, 0) + depth * depth
                        break
        flag = _UPPER if best_score <= alpha0 else _LOWER if best_score >= beta else _EXACT
        self._store(key, depth, _to_tt(best_score, ply), flag,
                    best_move.uci() if best_move is not None else None)
        return best_score

    def _quiesce(self, alpha: int, beta: int, ply: int, qdepth: int,
                 opponent_moves: int | None) -> int:
        """Captures and promotions only (all moves in check), the static score
        standing in for the quiet moves."""
        game = self.game
        in_check = game.is_check()
        if not in_check:
            stand = self.evaluate(game, opponent_moves)
            if stand >= beta or qdepth >= self.quiescence:
                return stand
            alpha = max(alpha, stand)
            best = stand
        else:
            best = -INF
            if qdepth >= self.quiescence:
                return self.evaluate(game, opponent_moves)
        turn = game.turn
        moves = game.legal_moves()
        n = len(moves)
        if not in_check:
            moves = [m for m in moves if m.victim is not None or m.promo]
        for m in self._ordered(moves, None, ply):
            game.push(m)
            try:
                self.nodes += 1
                self._check_limits()
                end = self._terminal(ply + 1)
                if end is not None:
                    s = end if game.turn == turn else -end
                elif game.turn == turn:
                    s = self._quiesce(alpha, beta, ply + 1, qdepth + 1, opponent_moves)
                else:
                    s = -self._quiesce(-beta, -alpha, ply + 1, qdepth + 1, n)
            finally:
                game.pop()
            if s > best:
                best = s
                if s > alpha:
                    alpha = s
                    if alpha >= beta:
                        break
        return best

    # ------------------------------------------------------------ ordering and table

    def _ordered(self, moves: list, tt_move: str | None, ply: int) -> list:
        game = self.game
        value = self.evaluate.piece_value
        turn = game.turn
        killers = self.killers[ply] if ply < len(self.killers) else (None, None)
        history = self.history

        def rank(m) -> int:
            u = m.uci()
            if u == tt_move:
                return 10_000_000
            r = 0
            if m.victim is not None:
                victim = game.piece_at(m.victim)
                worth = value(victim.values["type"], victim.values["color"]) if victim else 100
                # a royal victim (a king captured in a variant) first of all
                r = 1_000_000 + 10 * (worth or 5_000) - value(m.piece, turn) // 10
            if m.promo:
                r += 900_000 + value(m.promo, turn)
            if r:
                return r
            if m in killers:
                return 500_000
            return history.get((m.piece, m.to), 0)

        return sorted(moves, key=rank, reverse=True)

    def _killer(self, m, ply: int) -> None:
        k = self.killers[ply]
        if k[0] != m:
            k[1], k[0] = k[0], m

    def _store(self, key: str, depth: int, score: int, flag: int, move: str | None) -> None:
        old = self.tt.get(key)
        if old is not None and old[0] > depth and move is None:
            return
        if len(self.tt) >= self.hash_entries and old is None:
            return              # full: keep what is there until the next search clears it
        self.tt[key] = (depth, score, flag, move)


def _to_tt(score: int, ply: int) -> int:
    """A mate score as the distance from the stored position, not from the root."""
    if score >= MATE_BOUND:
        return score + ply
    if score <= -MATE_BOUND:
        return score - ply
    return score


def _from_tt(score: int, ply: int) -> int:
    if score >= MATE_BOUND:
        return score - ply
    if score <= -MATE_BOUND:
        return score + ply
    return score
