"""Dice Chess: time to build the legal turn tree, houserules against python-chess.

Positions: ``--positions`` (1,000 by default) rolled positions from seeded
random playouts (position ``i`` comes from seed ``--seed + i``: between 0 and
``--max-turns`` random turns from the start, each turn rolling three dice and
playing random micro-moves until no die or no move is left, then a roll for
the side to move; finished games are skipped).

Both sides, on every position, in one run, timed with ``time.process_time``
(CPU time of this process, so other load on a shared machine skews less):

houserules  ``legal_turn_tree(dfen)``: parse the DFEN, load the position (into
            the session the previous call compiled and left, reloaded; the
            first call compiles the rule set), and build the tree on the
            rule set's micro-move generator (generate and filter stages,
            apply/post-move through the engine, rollback through the journal);
            the second order of a pair of micro-moves is not played again
            (under FIDE Dice Chess both orders reach one position:
            ``dice.turns.COMMUTATION``). ``tree`` also
            times the tree alone on an already loaded session.
baseline    :func:`dice.baseline.baseline_tree`: python-chess pseudo-legal
            moves (its castling keeps the attack conditions, as ruled),
            filtered by the dice, en-passant targets kept by hand, turns
            enumerated depth-first (push/pop) without transposition tables,
            then pruned by the Maximum Micro-moves Rule.

Memory, in a run of its own under tracemalloc (``--memory-positions``, 100 by
default): the bytes a loaded position holds (ours: a ``DiceGame``, its network
and facts; the baseline: its python-chess board and dice), and the peak
allocation while a tree is built (the finished tree included, on both sides).

The two trees are compared on every position (a differential check); any
mismatch is reported and makes the exit status 1. Printed: median and 99th
percentile per position, and the ratio of medians (ours / baseline; above 1
means the baseline is faster).

    .venv/bin/python benchmarks/dice_bench.py                  # 1,000 positions
    .venv/bin/python benchmarks/dice_bench.py --positions 200  # quicker
    .venv/bin/python benchmarks/dice_bench.py --breakdown      # and what a tree is made of

What bounds the speed: every node of the turn tree is a movegen request (a
run of the generate and filter stages: one activation per mover whose piece
type has a die, each calling the geometry code for its pieces) and every
inner edge played a
make/unmake through the engine (the ``move`` event, the apply and post-move
productions, the die fact retracted, the journal rolled back): per tree
about 88 of each on average, some 20-70 microseconds apiece. Each working-memory change
costs several microseconds in the pure-Python network, where python-chess's
bitboard generator and push/pop cost a few microseconds per move in all.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

# (appended: the installed packages come first, so a compiled build is the one measured)
if os.path.dirname(os.path.dirname(os.path.abspath(__file__))) not in sys.path:
    sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks.memory import held, kib, peak  # noqa: E402
from benchmarks.progress import note, track  # noqa: E402
from dice import turns  # noqa: E402
from dice.baseline import baseline_tree  # noqa: E402
from dice.game import DiceGame  # noqa: E402


def random_rolled_position(seed: int, max_turns: int) -> str | None:
    rng = random.Random(seed)
    g = DiceGame()
    for _ in range(rng.randint(0, max_turns)):
        g.roll(rng)
        while True:
            moves = g.legal_moves()
            if not moves:
                break
            g._play(rng.choice(moves))
            if g.is_game_over():
                return None
        g.run_end_turn()
    g.roll(rng)
    return g.dfen()


def positions(n: int, seed: int, max_turns: int) -> list[str]:
    out = []
    s = seed
    while len(out) < n:
        d = random_rolled_position(s, max_turns)
        s += 1
        if d is not None:
            out.append(d)
    return out


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    k = min(len(xs) - 1, max(0, int(round(p / 100 * (len(xs) - 1)))))
    return xs[k]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-turns", type=int, default=30)
    ap.add_argument("--memory-positions", type=int, default=100,
                    help="how many of the positions to measure memory on (0: none)")
    ap.add_argument("--breakdown", action="store_true",
                    help="also time the tree's parts: movegen requests, makes and unmakes "
                         "(per tree and per call, on the benchmark's positions)")
    args = ap.parse_args(argv)

    note(f"making {args.positions} rolled positions from random playouts...")
    t0 = time.process_time()
    dfens = positions(args.positions, args.seed, args.max_turns)
    gen_time = time.process_time() - t0

    ours, ours_tree, base = [], [], []
    mismatches = 0
    leaves = 0
    for d in track(dfens, len(dfens), "timing trees"):
        turns._CACHE.clear()                       # time a fresh build every time
        t = time.process_time()
        tree = turns.legal_turn_tree(d)
        ours.append(time.process_time() - t)

        g = DiceGame(d)
        t = time.process_time()
        turns._tree_of(g, d)
        ours_tree.append(time.process_time() - t)

        t = time.process_time()
        ref = baseline_tree(d)
        base.append(time.process_time() - t)
        if ref != tree:
            mismatches += 1
            print(f"MISMATCH {d}", file=sys.stderr)
        leaves += _count_leaves(tree)

    def row(name, xs):
        return (f"{name:<34} median {statistics.median(xs) * 1e3:8.2f} ms   "
                f"p99 {pct(xs, 99) * 1e3:8.2f} ms   total {sum(xs):7.2f} s")

    print(f"Dice Chess turn tree: {len(dfens)} rolled positions "
          f"(seeds {args.seed}.., up to {args.max_turns} random turns; "
          f"{leaves} legal turns in all; positions made in {gen_time:.1f} s CPU)")
    print(row("houserules legal_turn_tree(dfen)", ours))
    print(row("houserules tree on a loaded session", ours_tree))
    print(row("baseline python-chess enumeration", base))
    r1 = statistics.median(ours) / statistics.median(base)
    r2 = statistics.median(ours_tree) / statistics.median(base)
    rp = pct(ours, 99) / pct(base, 99)
    print(f"ratio of medians (houserules / baseline): {r1:.2f} (API), {r2:.2f} (tree alone); "
          f"ratio of p99: {rp:.2f}")
    print(f"trees identical on {len(dfens) - mismatches}/{len(dfens)} positions")
    if args.memory_positions > 0:
        memory_report(dfens[:args.memory_positions])
    if args.breakdown:
        print_breakdown(dfens)
    return 1 if mismatches else 0


def memory_report(dfens: list[str]) -> None:
    """Median bytes a loaded position holds, and median peak while building a tree."""
    from dice.baseline import BaselineTurns
    DiceGame(dfens[0])                      # module-level caches, not a position's
    holds, base_holds, peaks, base_peaks = [], [], [], []
    for d in track(dfens, len(dfens), "memory"):
        g, n = held(lambda: DiceGame(d))
        holds.append(n)
        base_holds.append(held(lambda: BaselineTurns(d))[1])
        peaks.append(peak(lambda: turns._tree_of(g, d))[1])
        base_peaks.append(peak(lambda: baseline_tree(d))[1])
    med = statistics.median
    print(f"memory over {len(dfens)} positions (tracemalloc, medians): a loaded position "
          f"{kib(med(holds))} against the baseline's {kib(med(base_holds))} "
          f"({med(holds) / med(base_holds):.0f}x); peak while building the tree "
          f"{kib(med(peaks))} against {kib(med(base_peaks))} "
          f"({med(peaks) / med(base_peaks):.1f}x)")


class _TimedBackend(turns.EngineBackend):
    """The tree builder's backend with a clock on each of its parts (wall time:
    the CPU clock costs a system call per reading, several times the wall clock's)."""

    def __init__(self, game, clock: dict):
        super().__init__(game)
        self.clock = clock

    def _timed(self, part, fn, *a):
        t = time.perf_counter()
        try:
            return fn(*a)
        finally:
            c = self.clock[part]
            c[0] += 1
            c[1] += time.perf_counter() - t

    def moves(self):
        return self._timed("movegen", lambda: list(super(_TimedBackend, self).moves()))

    def push(self, m) -> None:
        self._timed("make", super().push, m)

    def pop(self) -> None:
        self._timed("unmake", super().pop)


def print_breakdown(dfens: list[str]) -> None:
    """What a tree is made of: movegen requests, makes and unmakes, each timed."""
    clock = {k: [0, 0.0] for k in ("movegen", "make", "unmake")}
    total = 0.0
    for d in track(dfens, len(dfens), "breakdown"):
        g = DiceGame(d)
        t = time.perf_counter()
        turns.build_tree(_TimedBackend(g, clock))
        total += time.perf_counter() - t
    n = len(dfens)
    print(f"breakdown over {n} trees (wall time; the timers add a little): "
          f"{total / n * 1e3:.2f} ms per tree")
    for part, (calls, secs) in clock.items():
        print(f"  {part:<8} {calls / n:6.1f} per tree  {secs / max(calls, 1) * 1e6:7.1f} us each  "
              f"{secs / total * 100:4.0f}% of the tree")


def _count_leaves(tree: dict) -> int:
    if not tree:
        return 1
    return sum(_count_leaves(t) for t in tree.values())


if __name__ == "__main__":
    sys.exit(main())
