"""Strength of the engine's levels: matches, a score with its 95% interval and
the Elo difference with its error.

A match plays ``--games`` games between two players. The games go in pairs:
each pair starts from its own opening, ``--opening-plies`` uniformly random
legal moves from the start position (seeded; an opening that ends the game is
drawn again), and plays it once with each player as White. Without openings
the levels from 3 up, which choose without chance, would play the same two
games over and over. A game ends by the rules' own outcome, or after
``--max-plies`` plies of the players' own moves; then it is adjudicated: the
side that the engine's static evaluation puts at least ``--adjudicate``
centipawns ahead wins, anything closer is a draw (``--adjudicate 0``: every
game still going is a draw). A player is a level (``5``) or ``random`` (a
uniformly random legal move; in Dice Chess ``random`` and ``greedy`` are the
existing bots of ``houserules dice play``, and the dice give each game its
own course: no openings there). Games are seeded (``--seed``), so a run
repeats.

    python benchmarks/strength.py                        # the default report
    python benchmarks/strength.py --match 5:random --variant chess --games 20
    python benchmarks/strength.py --match 4:3 --games 20 --jobs 2
    python benchmarks/strength.py --dice --match 5:greedy --games 20

The default report: level 5 against random in chess and three presets
(knightmate-rules, coregal, capture-all), and the ladder 2:1, 3:2, ... 10:9
in chess, ``--games`` (6) games each of at most ``--max-plies`` (60), then
Dice Chess level 5 against the greedy bot: about two hours of CPU, most of
it the top of the ladder (``--jobs 2`` halves the wait on two cores).

Score: wins plus half the draws over games, for the first player, with its
95% Wilson interval; Elo: ``-400 log10(1/score - 1)``, with the Elo of the
interval's ends (at a score of 100% only the lower end is finite: printed
as a bound).
"""
from __future__ import annotations

import argparse
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

DEFAULT_MATCHES = [("chess", "5", "random"), ("knightmate-rules", "5", "random"),
                   ("coregal", "5", "random"), ("capture-all", "5", "random"),
                   ("chess", "2", "1"), ("chess", "3", "2"), ("chess", "4", "3"),
                   ("chess", "5", "4"), ("chess", "6", "5"), ("chess", "7", "6"),
                   ("chess", "8", "7"), ("chess", "9", "8"), ("chess", "10", "9"),
                   ("dice", "5", "greedy")]


def opening(game, plies: int, rng: random.Random) -> None:
    """Play ``plies`` uniformly random legal moves, none of them ending the
    game (an opening that would is drawn again from the start)."""
    for _ in range(100):
        for _ in range(plies):
            if game.outcome() is not None:
                break
            game.push(rng.choice(game.legal_moves()))
        if game.outcome() is None:
            return
        while game.move_stack:
            game.pop()
    raise RuntimeError("no opening of that length leaves the game going")


def adjudicate(game, margin: int) -> float:
    """White's score in a game stopped at the ply cap: the side the static
    evaluation puts ``margin`` centipawns ahead wins, else a draw."""
    from houserules.engine import Evaluator
    if margin <= 0:
        return 0.5
    score = Evaluator(game.ruleset)(game)
    if game.turn == "black":
        score = -score
    return 1.0 if score >= margin else 0.0 if score <= -margin else 0.5


def play_chess(variant: str, white: str, black: str, seed: int, max_plies: int,
               opening_seed: int = 0, opening_plies: int = 0, margin: int = 0) -> float:
    """One game; the score for White (1, 0.5, 0)."""
    from chess_rules.game import Game
    from houserules.engine import choose_move
    from presets.layouts import preferred_layout
    ids = [] if variant == "chess" else [variant]
    game = Game(preferred_layout(ids).fen, presets=ids)
    opening(game, opening_plies, random.Random(opening_seed))
    rng = random.Random(seed)
    for _ in range(max_plies):
        out = game.outcome()
        if out is not None:
            return {"white": 1.0, "black": 0.0}.get(out.winner, 0.5)
        player = white if game.turn == "white" else black
        if player == "random":
            game.push(rng.choice(game.legal_moves()))
        else:
            game.push(choose_move(game, int(player), rng))
    out = game.outcome()
    if out is not None:
        return {"white": 1.0, "black": 0.0}.get(out.winner, 0.5)
    return adjudicate(game, margin)


def play_dice(white: str, black: str, seed: int, max_turns: int) -> float:
    """One Dice Chess game; the score for White (no draws but the turn cap)."""
    from dice import DiceGame, apply_move, end_turn, roll, turn_tree
    from dice.dfen import START_DFEN
    from houserules.dice_play import choose_turn
    from houserules.engine import choose_dice_turn
    rng = random.Random(seed)
    dfen = START_DFEN
    for _ in range(max_turns):
        dfen = roll(dfen, rng)
        color = dfen.split(" ")[1]
        player = white if color == "w" else black
        if player in ("random", "greedy"):
            path = choose_turn(dfen, player, rng, turn_tree(dfen))
        else:
            path = choose_dice_turn(dfen, int(player), rng)
        for u in path:
            dfen = apply_move(dfen, u)
        winner = DiceGame(dfen).winner()
        if winner:
            return 1.0 if winner == "white" else 0.0
        dfen = end_turn(dfen)
    return 0.5


def _game(args) -> float:
    variant, first, second, i, seed, max_plies, opening_plies, margin = args
    # the first player is White in even games, Black in odd ones; a pair of
    # games shares its opening
    white, black = (first, second) if i % 2 == 0 else (second, first)
    if variant == "dice":
        s = play_dice(white, black, seed + i, max_plies)
    else:
        s = play_chess(variant, white, black, seed + i, max_plies,
                       opening_seed=seed * 7919 + i // 2, opening_plies=opening_plies,
                       margin=margin)
    return s if i % 2 == 0 else 1 - s


def elo(score: float) -> float:
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def interval(scores: list[float], z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of the mean score (a draw counts a half): unlike
    the normal approximation it does not shrink to a point at 0% or 100%."""
    n = len(scores)
    p = sum(scores) / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(centre - half, 0.0), min(centre + half, 1.0)


def summary(scores: list[float]) -> str:
    n = len(scores)
    mean = sum(scores) / n
    lo, hi = interval(scores)
    w, d = scores.count(1.0), scores.count(0.5)
    e = elo(mean)
    if e == math.inf:
        elo_text = f"Elo > {elo(lo):+.0f}"
    elif e == -math.inf:
        elo_text = f"Elo < {elo(hi):+.0f}"
    else:
        elo_text = f"Elo {e:+.0f} [{elo(lo):+.0f}, {elo(hi):+.0f}]"
    return (f"+{w} ={d} -{n - w - d}  score {100 * mean:5.1f}% "
            f"[{100 * lo:.1f}, {100 * hi:.1f}]  {elo_text}")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--match", action="append", metavar="A:B",
                   help="a match of player A against B (a level 1..10, random, greedy)")
    p.add_argument("--variant", action="append",
                   help="chess, a preset id, or dice (default: chess; repeat for several)")
    p.add_argument("--dice", action="store_true", help="the matches are Dice Chess")
    p.add_argument("--games", type=int, default=6, help="games per match (default: 6)")
    p.add_argument("--max-plies", type=int, default=60,
                   help="a game still going after this many plies (the opening's not "
                        "counted) is adjudicated (default 60)")
    p.add_argument("--max-turns", type=int, default=150,
                   help="a Dice Chess game still going after this many turns is a draw "
                        "(default 150)")
    p.add_argument("--opening-plies", type=int, default=8, metavar="N",
                   help="random plies that open each pair of games (default 8)")
    p.add_argument("--adjudicate", type=int, default=300, metavar="CP",
                   help="at the ply cap, a side this many centipawns ahead by the static "
                        "evaluation wins; 0: a draw (default 300)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=1, help="games played at once (processes)")
    a = p.parse_args(argv)
    if a.games < 1 or a.jobs < 1:
        p.error("--games and --jobs are at least 1")
    if a.opening_plies < 0 or a.adjudicate < 0:
        p.error("--opening-plies and --adjudicate are not negative")
    if a.match:
        variants = a.variant or (["dice"] if a.dice else ["chess"])
        matches = []
        for m in a.match:
            first, _, second = m.partition(":")
            if not second:
                p.error(f"--match is A:B, not {m!r}")
            matches += [(v, first, second) for v in variants]
    else:
        matches = DEFAULT_MATCHES
    print(f"{a.games} games a match, {a.opening_plies} random opening plies, "
          f"at most {a.max_plies} plies (Dice Chess: {a.max_turns} turns), "
          f"adjudicated at {a.adjudicate} cp, seed {a.seed}")
    with ProcessPoolExecutor(a.jobs) as pool:
        for variant, first, second in matches:
            t = time.perf_counter()
            cap = a.max_turns if variant == "dice" else a.max_plies
            jobs = [(variant, first, second, i, a.seed, cap, a.opening_plies,
                     a.adjudicate) for i in range(a.games)]
            scores = list(pool.map(_game, jobs))
            print(f"{variant:18} {first:>6} vs {second:<6} {summary(scores)}  "
                  f"({time.perf_counter() - t:.0f}s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
