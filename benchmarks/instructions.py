"""Instructions, not seconds: houserules against its peers, counted by callgrind.

The timed benchmarks (``perft.py``, ``dice_bench.py``) report ratios of CPU
time, which a shared machine still moves by 10-30% from run to run. This one
counts the machine instructions each side executes for the same work, under
valgrind's callgrind, which the machine's load does not change: two runs of the
same commit agree to a fraction of a per cent, so it can tell a 2% change from
noise (an A/B of two checkouts: run it in each). Instructions are not time
(the two sides need not run at the same instructions per cycle), so the
ratios are a companion to the timed ones, not a replacement.

    python benchmarks/instructions.py                 # Dice Chess trees and perft
    python benchmarks/instructions.py --only dice --positions 40
    python benchmarks/instructions.py --cache-sim     # and the L1 cache misses

Work counted (each side in a process of its own; a set-up-only process, run the
same way, is subtracted, so imports, compiling the rule set and loading the
positions do not count):

dice    the legal turn tree of ``--positions`` rolled positions (those of
        ``dice_bench.py``, seed 0): ``houserules tree`` on an already loaded
        session, ``houserules API`` ``legal_turn_tree(dfen)`` (parse, reload,
        tree, fresh dicts), ``baseline`` the python-chess enumerator.
perft   perft with make/undo at every node, start position and Kiwipete to
        ``--perft-depth``: ``Game.perft(depth, bulk=False)`` against python-chess
        push/pop.

Needs valgrind (``apt install valgrind``); it is not a Python package, so it is
not among the project's dependencies. Under callgrind the work runs some 50
times slower: the defaults take about three minutes (``make bench-instructions``).
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

from benchmarks.progress import note  # noqa: E402

WORKERS = ("dice-setup", "dice-tree", "dice-api", "dice-base",
           "perft-setup", "perft-ours", "perft-base")

_EVENTS = re.compile(r"Events\s*:\s*([A-Za-z0-9 ]+)")
_COLLECTED = re.compile(r"Collected\s*:\s*([\d ]+)")


def run_worker(kind: str, positions: int, depth: int) -> int:
    """Do one side's work in this process (what callgrind counts); returns a
    number derived from the result, so the work cannot be skipped."""
    if kind.startswith("dice"):
        from dice_bench import positions as rolled

        from dice import turns
        from dice.baseline import baseline_tree
        from dice.game import DiceGame
        dfens = rolled(positions, 0, 30)
        games = [DiceGame(d) for d in dfens]
        turns.legal_turn_tree(dfens[0])             # compile the API's session
        out = 0
        if kind == "dice-tree":
            for g, d in zip(games, dfens):
                out += len(turns._tree_of(g, d).nodes)
        elif kind == "dice-api":
            for d in dfens:
                turns._CACHE.clear()
                out += len(turns.legal_turn_tree(d))
        elif kind == "dice-base":
            for d in dfens:
                out += len(baseline_tree(d))
        return out
    import chess
    from perft import POSITIONS, pc_perft

    from chess_rules.game import Game
    work = [(POSITIONS[name][0], depth) for name in ("start", "kiwipete")]
    games = [Game.from_fen(fen) for fen, _ in work]
    boards = [chess.Board(fen) for fen, _ in work]
    out = 0
    if kind == "perft-ours":
        for g, (_, d) in zip(games, work):
            out += g.perft(d, bulk=False)
    elif kind == "perft-base":
        for b, (_, d) in zip(boards, work):
            out += pc_perft(b, d)
    return out


def count(kind: str, positions: int, depth: int, cache_sim: bool = False) -> dict[str, int]:
    """Callgrind's totals for one worker process: ``Ir`` (instructions) and,
    with ``cache_sim``, the simulated cache misses (``I1mr``, ``D1mr``, ``D1mw``...)."""
    note(f"  running {kind} under callgrind...")
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
           f"--cache-sim={'yes' if cache_sim else 'no'}",
           sys.executable, os.path.abspath(__file__), "--worker", kind,
           "--positions", str(positions), "--perft-depth", str(depth)]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise RuntimeError(f"{kind} failed under valgrind:\n{r.stderr[-2000:]}")
    return parse_collected(r.stderr)


def parse_collected(stderr: str) -> dict[str, int]:
    """The totals callgrind prints on exit (``Events :`` names, ``Collected :`` counts)."""
    m = _COLLECTED.search(stderr)
    if m is None:
        raise RuntimeError("callgrind printed no instruction total")
    counts = [int(x) for x in m.group(1).split()]
    e = _EVENTS.search(stderr)
    names = e.group(1).split() if e else ["Ir"]
    return dict(zip(names, counts))


def _per(run: dict, setup: dict, n: int) -> dict[str, float]:
    return {k: (run[k] - setup[k]) / n for k in run}


def _misses(per: dict) -> str:
    if "D1mr" not in per:
        return ""
    return (f"   L1 misses: instruction {per['I1mr'] / 1e3:8.1f} k, "
            f"data {(per['D1mr'] + per['D1mw']) / 1e3:8.1f} k")


def perft_nodes(depth: int) -> int:
    import chess
    from perft import POSITIONS, pc_perft
    return sum(pc_perft(chess.Board(POSITIONS[n][0]), depth) for n in ("start", "kiwipete"))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", choices=("dice", "perft"), help="one of the two workloads")
    ap.add_argument("--positions", type=int, default=20, help="Dice Chess positions (20)")
    ap.add_argument("--perft-depth", type=int, default=2, help="perft depth (2)")
    ap.add_argument("--cache-sim", action="store_true",
                    help="also simulate the caches: L1 misses beside the instructions "
                         "(about twice as slow)")
    ap.add_argument("--worker", choices=WORKERS, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        run_worker(args.worker, args.positions, args.perft_depth)
        return 0
    if shutil.which("valgrind") is None:
        print("instructions.py: needs valgrind (e.g. apt install valgrind)", file=sys.stderr)
        return 2
    cs = args.cache_sim
    print("instructions counted by callgrind (the machine's load does not change them)")
    if args.only in (None, "dice"):
        n = args.positions
        setup = count("dice-setup", n, args.perft_depth, cs)
        per = {k: _per(count(k, n, args.perft_depth, cs), setup, n)
               for k in ("dice-tree", "dice-api", "dice-base")}
        print(f"Dice Chess turn tree, {n} rolled positions, per tree:")
        for k, label in (("dice-tree", "houserules tree on a loaded session"),
                         ("dice-api", "houserules legal_turn_tree(dfen)   "),
                         ("dice-base", "baseline python-chess enumeration  ")):
            print(f"  {label} {per[k]['Ir'] / 1e6:8.1f} M{_misses(per[k])}")
        print(f"  ratio (houserules / baseline): "
              f"{per['dice-tree']['Ir'] / per['dice-base']['Ir']:.2f} (tree), "
              f"{per['dice-api']['Ir'] / per['dice-base']['Ir']:.2f} (API)")
    if args.only in (None, "perft"):
        d = args.perft_depth
        nodes = perft_nodes(d)
        setup = count("perft-setup", 0, d, cs)
        ours = _per(count("perft-ours", 0, d, cs), setup, nodes)
        base = _per(count("perft-base", 0, d, cs), setup, nodes)
        print(f"perft with make/undo, start and Kiwipete to depth {d} ({nodes} nodes), per node:")
        print(f"  houserules   {ours['Ir'] / 1e3:8.1f} k{_misses(ours)}")
        print(f"  python-chess {base['Ir'] / 1e3:8.1f} k{_misses(base)}")
        print(f"  ratio of nodes per instruction (houserules / python-chess): "
              f"{base['Ir'] / ours['Ir']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
