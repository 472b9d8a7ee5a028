"""``houserules perft`` against python-chess counting the last ply the same way.

    python benchmarks/cli_perft.py [--min-time S]

The command line's perft generates the moves of each node above the last ply
and counts the last ply's moves without playing them (the usual bulk count).
Here it runs in-process (``main(["perft", FEN, DEPTH])``, its output
captured, so process start-up is left out), against python-chess doing the
same: ``push``/``pop`` above the last ply, ``legal_moves.count()`` at it.
Start position depth 3 and Kiwipete depth 2, as in ``perft.py``; both counts
are checked against each other. Times are CPU time of this process; the ratio
is ours over python-chess's nodes per second (higher is faster).
"""
from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.append(ROOT)       # (after the installed packages: a compiled build stays first)

import chess  # noqa: E402

from houserules.cli import main as houserules_main  # noqa: E402

POSITIONS = {
    "start": ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 3),
    "kiwipete": ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 2),
}


def pc_bulk_perft(board: chess.Board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    n = 0
    for m in board.legal_moves:
        board.push(m)
        n += pc_bulk_perft(board, depth - 1)
        board.pop()
    return n


def cli_perft(fen: str, depth: int) -> int:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = houserules_main(["perft", fen, str(depth), "--no-progress"])
    if rc:
        raise SystemExit(f"houserules perft exited {rc}")
    return int(out.getvalue().split()[-1])


def rate(fn, min_time: float) -> tuple[int, float]:
    """(nodes, nodes per CPU second), repeating ``fn`` for at least ``min_time``."""
    reps, t0 = 0, time.process_time()
    while True:
        n = fn()
        reps += 1
        dt = time.process_time() - t0
        if dt >= min_time:
            return n, n * reps / dt


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--min-time", type=float, default=1.0,
                    help="CPU seconds per measurement (default 1)")
    a = ap.parse_args(argv)
    cli_perft(*POSITIONS["start"][:1], 1)          # warm: imports, parser tables
    ours_t = theirs_t = 0.0
    nodes_total = 0
    for name, (fen, depth) in POSITIONS.items():
        n_pc, r_pc1 = rate(lambda: pc_bulk_perft(chess.Board(fen), depth), a.min_time / 2)
        n_us, r_us = rate(lambda: cli_perft(fen, depth), a.min_time)
        _, r_pc2 = rate(lambda: pc_bulk_perft(chess.Board(fen), depth), a.min_time / 2)
        if n_us != n_pc:
            print(f"MISMATCH on {name}: houserules {n_us}, python-chess {n_pc}")
            return 1
        r_pc = (r_pc1 + r_pc2) / 2
        print(f"{name:10} depth {depth}: {n_us} nodes; houserules perft {r_us:,.0f} n/s, "
              f"python-chess {r_pc:,.0f} n/s ({r_us / r_pc:.3f})")
        ours_t += n_us / r_us
        theirs_t += n_pc / r_pc
        nodes_total += n_us
    print(f"ratio (houserules perft / python-chess, last ply counted): {theirs_t / ours_t:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
