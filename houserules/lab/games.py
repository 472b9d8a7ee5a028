"""One self-play game: the task a Dask worker runs.

:func:`play` takes a :class:`GameTask` (plain data: the variant's spec, the
seed, the bots' levels) and returns a :class:`GameRecord` (plain data again:
the result, the deciding rule, the length, the PGN). It opens nothing and
writes nothing: the client stores what it returns.
"""
from __future__ import annotations

import hashlib
import os
import random
import socket
import time
from dataclasses import dataclass, field

from . import players
from .rules import variant_rules
from .spec import LabSpec, Variant

__all__ = ["GameTask", "GameRecord", "play", "tasks", "game_seed", "turn_cut", "CAP_REASON"]

#: the reason of a game stopped at the spec's max_plies (counted a draw)
CAP_REASON = "move cap"


@dataclass(frozen=True)
class GameTask:
    """What one game needs: ``index`` is its number in the run (0-based)."""

    run: int
    index: int
    variant: Variant
    seed: int
    white_level: int
    black_level: int
    white_bot: str          # "A" or "B": which of the spec's bots plays White
    max_plies: int
    random_plies: int
    opening: str = ""       # UCI moves from the opening file, if any


@dataclass
class GameRecord:
    """What one game gave. ``plies``: moves (Dice Chess: micro-moves);
    ``turns``, ``turns_cut``: Dice Chess only (see :func:`_play_dice`)."""

    run: int
    index: int
    variant: str
    result: str             # 1-0, 0-1, 1/2-1/2
    winner: str | None
    reason: str
    rule: str | None
    plies: int
    seconds: float
    pgn: str | None = None
    moves: str = ""         # UCI moves; Dice Chess: "ROLL:m1,m2 ..." one word per turn
    turns: int = 0
    turns_cut: int = 0
    worker: str = field(default_factory=lambda: f"{socket.gethostname()}:{os.getpid()}")


def game_seed(run_seed: int, variant: str, index: int) -> int:
    """A game's seed, from the run's seed, the variant's name and the game's
    index: the same game replays the same wherever and whenever it runs."""
    digest = hashlib.sha256(f"{run_seed}/{variant}/{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def tasks(spec: LabSpec, run: int) -> list[GameTask]:
    """Every game of the run, in index order: variant by variant, colours
    alternating (bot A is White in the even games of each variant)."""
    out = []
    a, b = spec.bots
    lines = spec.opening.lines
    for vi, variant in enumerate(spec.variant):
        for g in range(spec.games):
            index = vi * spec.games + g
            a_white = g % 2 == 0
            out.append(GameTask(
                run=run, index=index, variant=variant,
                seed=game_seed(spec.seed, variant.name, g),
                white_level=a if a_white else b, black_level=b if a_white else a,
                white_bot="A" if a_white else "B", max_plies=spec.max_plies,
                random_plies=spec.opening.random_plies,
                opening=lines[(g // 2) % len(lines)] if lines else ""))
    return out


def play(task: GameTask) -> GameRecord:
    """Play the game ``task`` describes to its end (or its cap)."""
    started = time.perf_counter()
    rules = variant_rules(task.variant)
    rng = random.Random(task.seed)
    record = (_play_dice if rules.dice else _play_chess)(task, rules, rng)
    record.seconds = time.perf_counter() - started
    return record


def _play_chess(task: GameTask, rules, rng: random.Random) -> GameRecord:
    from chess_rules.game import Game
    game = Game(rules.start, ruleset=rules.ruleset)
    opening = task.opening.split()
    move: object
    while game.outcome() is None and len(game.move_stack) < task.max_plies:
        ply = len(game.move_stack)
        if ply < len(opening):
            move = opening[ply]         # (an illegal one is the opening file's error)
        elif ply < len(opening) + task.random_plies:
            legal = game.legal_moves()
            move = rng.choice(legal) if legal else None
        elif not game.legal_moves():
            move = None
        else:
            level = task.white_level if game.turn == "white" else task.black_level
            move = players.choose_move(game, level, rng)
        if move is None:        # no legal move and no result: the rules declare none
            break
        game.push(move)
    out = game.outcome()
    # Game.pgn adds the Variant and VariantConfig tags of the presets
    headers = {"Event": f"houserules lab run {task.run}: {task.variant.name}",
               "Round": str(task.index + 1),
               "White": f"level {task.white_level} (bot {task.white_bot})",
               "Black": f"level {task.black_level} "
                        f"(bot {'B' if task.white_bot == 'A' else 'A'})"}
    pgn = game.pgn(headers)
    plies = len(game.move_stack)
    moves = " ".join(m.uci() for m in game.move_stack)
    if out is None:
        reason = CAP_REASON if plies >= task.max_plies else "no legal move, no result"
        return GameRecord(task.run, task.index, task.variant.name, "1/2-1/2", None, reason,
                          None, plies, 0.0, pgn, moves)
    return GameRecord(task.run, task.index, task.variant.name, out.result(), out.winner,
                      out.reason, out.rule, plies, 0.0, pgn, moves)


def turn_cut(game, nodes: dict | None = None) -> bool:
    """Whether the Maximum Micro-moves Rule cuts the turn of a rolled Dice
    Chess game: it forbids a first micro-move the dice allow (one that only
    begins turns spending fewer dice than the longest). ``nodes``: the legal
    turn tree's first level, if already built."""
    from dice.turns import EngineBackend, build_tree
    if nodes is None:
        nodes, _ = build_tree(EngineBackend(game))
    return set(nodes) != {u for u, _, _, _ in game.micro_moves()}


def _play_dice(task: GameTask, rules, rng: random.Random) -> GameRecord:
    """A Dice Chess game turn by turn, counting the turns the Maximum
    Micro-moves Rule cuts (:func:`turn_cut`)."""
    from dice import DiceGame
    from dice.turns import EngineBackend, build_tree
    game = DiceGame(rules.start, rules.ruleset)
    turns = cut = plies = 0
    words = []
    while not game.is_game_over() and turns < task.max_plies:
        game.roll(rng)
        faces = "".join(game.dice_letters())
        nodes, _ = build_tree(EngineBackend(game))
        if turn_cut(game, nodes):
            cut += 1
        if turns < task.random_plies:
            path, node = [], nodes
            while node:
                u = rng.choice(sorted(node))
                path.append(u)
                node = node[u][1]
        else:
            level = task.white_level if game.turn == "white" else task.black_level
            path = players.choose_dice_turn(game, level, rng)
        for u in path:
            game.push(u)
        plies += len(path)
        turns += 1
        words.append(f"{faces}:{','.join(path) or '-'}")
        if not game.is_game_over():
            game.run_end_turn()
    out = game.outcome()
    moves = " ".join(words)
    if out is None:
        return GameRecord(task.run, task.index, task.variant.name, "1/2-1/2", None,
                          CAP_REASON, None, plies, 0.0, None, moves, turns, cut)
    return GameRecord(task.run, task.index, task.variant.name, out.result(), out.winner,
                      out.reason, out.rule, plies, 0.0, None, moves, turns, cut)
