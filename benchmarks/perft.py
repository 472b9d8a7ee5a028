"""Perft with make/undo at every node: houserules against python-chess, in one run.

Both sides walk the same trees the same way: generate the legal moves, then
for each one make it, recurse, and take it back (``Game.perft(depth,
bulk=False)``; python-chess ``board.push``/``board.pop``). Leaf nodes are
visited, not counted in bulk. The ratio printed is ours over python-chess's
nodes per second, measured side by side, so load on the machine affects both:
times are CPU time of this process (``time.process_time``), and python-chess runs
once before and once after ours (the mean is used), so a burst of load on a
shared machine skews the ratio less.

    python benchmarks/perft.py                       # depth 3 start, depth 2 Kiwipete
    python benchmarks/perft.py --depth 3 --positions start kiwipete

Also printed: the time to build the network for the FIDE rule set (compiling
the productions into a session) and to set up a game on it, and memory (in a
run of its own, under tracemalloc): the bytes a game holds (ours: the rule
set, the compiled network and the position's facts; python-chess: a Board)
and the peak allocation during a perft. ``--profile``
runs our side under pyinstrument and prints where the time goes.

What bounds the speed. Every node is a make and an unmake through the
productions: ``push`` asserts the ``move`` event (its matches with the apply
and post-move productions are built in the network), fires
``fide.move-piece`` (a modify of the piece fact), ``fide.turn-advance`` (a
modify of the game fact) and ``fide.check-detection``, and retracts the
event; ``pop`` rolls the two modifies back through the journal. Each working-
memory change costs several microseconds in the pure-Python network (alpha
memories, join buckets, tokens, agenda), so one make/unmake costs tens of
microseconds where python-chess spends about four on push+pop. Our own chess
code (generators, filters, mailbox, repetition key) is a few per cent of a
profile; the rest is the engine.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

# (appended: the installed packages come first, so a compiled build is the one measured)
if os.path.dirname(os.path.dirname(os.path.abspath(__file__))) not in sys.path:
    sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import chess  # noqa: E402

from benchmarks.memory import held, kib, peak  # noqa: E402
from chess_rules.fide import fide_rules  # noqa: E402
from chess_rules.game import Game  # noqa: E402

POSITIONS = {
    "start": ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 3),
    "kiwipete": ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 2),
    "pos3": ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 3),
    "pos4": ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 2),
    "pos5": ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 2),
}


def pc_perft(board: chess.Board, depth: int) -> int:
    if depth == 0:
        return 1
    n = 0
    for m in board.legal_moves:
        board.push(m)
        n += pc_perft(board, depth - 1)
        board.pop()
    return n


def timed(fn, min_time: float):
    """(result, seconds per call): repeat until ``min_time`` has passed."""
    reps = 0
    t0 = time.process_time()
    while True:
        r = fn()
        reps += 1
        dt = time.process_time() - t0
        if dt >= min_time:
            return r, dt / reps


def build_times(reps: int = 3) -> tuple[float, float]:
    best_build = best_game = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        rs = fide_rules()
        rs.build()
        best_build = min(best_build, time.perf_counter() - t0)
        t0 = time.perf_counter()
        Game(ruleset=fide_rules())
        best_game = min(best_game, time.perf_counter() - t0)
    return best_build, best_game


def breakdown(fen: str, reps: int = 20) -> None:
    """Per-operation CPU costs on one position, ours and python-chess's: what a node
    is made of, and the engine's cost of a single working-memory change."""
    T = time.process_time
    g = Game(fen)
    moves = list(g.legal_moves())
    t0 = T()
    for _ in range(reps):
        for m in moves:
            g._play(m)
            g.pop()
    pp = (T() - t0) / (reps * len(moves))
    t0 = T()
    for _ in range(reps):
        g._legal_cache = None
        g.legal_moves()
    lm = (T() - t0) / reps
    s = g.session
    piece = next(f for f in s.facts_of("piece"))
    t0 = T()
    for _ in range(reps * len(moves)):
        mark = s.checkpoint()
        s.modify(piece, moved=not piece.values["moved"])
        s.rollback(mark)
    mod = (T() - t0) / (reps * len(moves))
    b = chess.Board(fen)
    pm = list(b.legal_moves)
    t0 = T()
    for _ in range(reps):
        for m in pm:
            b.push(m)
            b.pop()
    pc_pp = (T() - t0) / (reps * len(pm))
    t0 = T()
    for _ in range(reps):
        list(b.legal_moves)
    pc_lm = (T() - t0) / reps
    print(f"per operation (CPU us): make+unmake {pp * 1e6:.1f} vs python-chess {pc_pp * 1e6:.1f}; "
          f"legal moves {lm * 1e6:.0f} vs {pc_lm * 1e6:.0f}; one fact modify + rollback in "
          f"the engine {mod * 1e6:.1f}")


def memory_report(fen: str, depth: int) -> None:
    """What a game holds, and the peak allocation of a perft, for both sides."""
    Game(fen).perft(1)                              # module-level caches, not a game's
    pc_perft(chess.Board(fen), 1)
    g, g_held = held(lambda: Game(fen))
    b, b_held = held(lambda: chess.Board(fen))
    _, g_peak = peak(lambda: g.perft(depth, bulk=False))
    _, b_peak = peak(lambda: pc_perft(b, depth))
    print(f"memory (tracemalloc): a game holds {kib(g_held)} against python-chess's Board "
          f"{kib(b_held)} ({g_held / b_held:.0f}x); peak during perft({depth}) "
          f"{kib(g_peak)} against {kib(b_peak)} ({g_peak / max(b_peak, 1):.1f}x)")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--depth", type=int, default=None,
                    help="perft depth for every position (default: 3 start, 2 others)")
    ap.add_argument("--positions", nargs="+", default=["start", "kiwipete"],
                    choices=sorted(POSITIONS), help="positions to run (default: start kiwipete)")
    ap.add_argument("--min-time", type=float, default=0.0,
                    help="repeat python-chess runs until this many seconds (steadier rates)")
    ap.add_argument("--breakdown", action="store_true",
                    help="also print per-operation costs (make+unmake, legal moves, one "
                         "working-memory change) for us and python-chess")
    ap.add_argument("--profile", action="store_true",
                    help="profile our perft with pyinstrument and print the call tree")
    args = ap.parse_args(argv)
    if args.profile:
        from pyinstrument import Profiler
        fen, d = POSITIONS[args.positions[0]]
        g = Game(fen)
        prof = Profiler(interval=0.0005)
        prof.start()
        g.perft(args.depth or d, bulk=False)
        prof.stop()
        print(prof.output_text(unicode=False, color=False))
        return 0

    build, game = build_times()
    print(f"network build (FIDE rule set -> session): {build * 1000:.1f} ms; "
          f"new Game (build + load start position): {game * 1000:.1f} ms")
    tot_us = tot_pc = 0.0
    nodes_us = nodes_pc = 0
    print(f"{'position':10} {'depth':>5} {'nodes':>9} {'houserules n/s':>15} "
          f"{'python-chess n/s':>17} {'ratio':>7}")
    for name in args.positions:
        fen, d = POSITIONS[name]
        depth = args.depth or d
        g = Game(fen)
        b = chess.Board(fen)
        n_pc, t_pc1 = timed(lambda: pc_perft(b, depth), args.min_time)
        t0 = time.process_time()
        n_us = g.perft(depth, bulk=False)
        t_us = time.process_time() - t0
        _, t_pc2 = timed(lambda: pc_perft(b, depth), args.min_time)
        t_pc = (t_pc1 + t_pc2) / 2
        if n_us != n_pc:
            print(f"MISMATCH on {name} depth {depth}: houserules {n_us}, python-chess {n_pc}")
            return 1
        if g.fen() != fen:
            print(f"{name}: the game did not return to its root position: {g.fen()}")
            return 1
        tot_us += t_us
        tot_pc += t_pc
        nodes_us += n_us
        nodes_pc += n_pc
        print(f"{name:10} {depth:5d} {n_us:9d} {n_us / t_us:15.0f} {n_pc / t_pc:17.0f} "
              f"{(n_us / t_us) / (n_pc / t_pc):7.3f}")
    r_us, r_pc = nodes_us / tot_us, nodes_pc / tot_pc
    print(f"{'total':10} {'':5} {nodes_us:9d} {r_us:15.0f} {r_pc:17.0f} {r_us / r_pc:7.3f}")
    print(f"ratio (houserules / python-chess nodes per second): {r_us / r_pc:.3f}")
    memory_report(POSITIONS[args.positions[0]][0], 2)
    if args.breakdown:
        breakdown(POSITIONS[args.positions[-1]][0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
