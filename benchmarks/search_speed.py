"""Search speed: nodes per second on the first positions of Stockfish's bench.

Each position is searched to ``--depth`` (3 by default) or ``--nodes`` nodes,
whichever comes first, with a fresh transposition table; a node is a position
the search visits (quiescence included), each made and taken back through the
productions. Printed per position: the nodes, the CPU time
(``time.process_time``), nodes per second, and the move. Beside it, in the
same run: our perft make/unmake rate on the same positions (what the
productions cost per node without the search's own work: outcome, key,
ordering, evaluation), and Stockfish's nodes per second on them where it is
installed (``make stockfish``), single-threaded, per second of its CPU time,
for the scale.

    python benchmarks/search_speed.py                 # 10 positions, depth 3
    python benchmarks/search_speed.py --positions 4 --nodes 1000
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import time

# the first positions of Stockfish 15.1's 'bench' (stockfish bench prints them)
BENCH = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 11",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
    "rq3rk1/ppp2ppp/1bnpN3/3N2B1/4P3/7P/PPPQ1PP1/2KR3R b - - 0 14",
    "r1bq1r1k/1pp1n1pp/1p1p4/4p2Q/4PpP1/1BNP4/PPP2P1P/3R1RK1 b - g3 0 14",
    "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
    "r1bbk1nr/pp3p1p/2n5/1N4p1/2Np1B2/8/PPP2PPP/2KR1B1R w kq - 0 13",
    "r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16",
    "4r1k1/r1q2ppp/ppp2n2/4P3/5Rb1/1N1BQ3/PPP3PP/R5K1 w - - 1 17",
]


def ours(fen: str, depth: int, nodes: int) -> tuple[int, float, str]:
    from chess_rules.game import Game
    from houserules.engine import Limits, Searcher
    game = Game(fen)
    t = time.process_time()
    r = Searcher(game).search(Limits(depth=depth, nodes=nodes))
    return r.nodes, time.process_time() - t, r.move.uci()


def perft_rate(fen: str) -> float:
    from chess_rules.game import Game
    game = Game(fen)
    t = time.process_time()
    n = game.perft(2, bulk=False)
    return n / (time.process_time() - t)


def stockfish_nps(fen: str, nodes: int = 2_000_000) -> int | None:
    """Stockfish's nodes per second of CPU time (its own nps is per second of
    wall time, which a loaded machine distorts): ``go nodes`` on one thread,
    over the process's CPU time (start-up included, small beside the search)."""
    path = shutil.which("stockfish") or ("/usr/games/stockfish"
                                         if os.path.exists("/usr/games/stockfish") else None)
    if path is None:
        return None
    text = (f"setoption name Threads value 1\nposition fen {fen}\ngo nodes {nodes}\n")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(text)
    proc.stdin.flush()
    searched = 0
    for line in proc.stdout:
        if " nodes " in line:
            words = line.split()
            searched = int(words[words.index("nodes") + 1])
        if line.startswith("bestmove"):
            break
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return int(searched / cpu) if cpu > 0 else None


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--positions", type=int, default=len(BENCH), help="how many (1..10)")
    p.add_argument("--depth", type=int, default=3)
    p.add_argument("--nodes", type=int, default=3000)
    a = p.parse_args(argv)
    fens = BENCH[:max(1, min(a.positions, len(BENCH)))]
    total_nodes, total_time, perft_rates, sf = 0, 0.0, [], []
    print(f"{'#':>2} {'nodes':>6} {'cpu s':>6} {'nps':>6} {'perft nps':>9} "
          f"{'stockfish nps':>13}  move")
    for i, fen in enumerate(fens, 1):
        n, t, move = ours(fen, a.depth, a.nodes)
        pr = perft_rate(fen)
        s = stockfish_nps(fen)
        total_nodes += n
        total_time += t
        perft_rates.append(pr)
        if s:
            sf.append(s)
        print(f"{i:2} {n:6} {t:6.2f} {n / t:6.0f} {pr:9.0f} {s or '-':>13}  {move}", flush=True)
    nps = total_nodes / total_time
    print(f"search: {total_nodes} nodes in {total_time:.1f}s CPU: {nps:.0f} nodes/s; "
          f"perft make/unmake: {sum(perft_rates) / len(perft_rates):.0f} nodes/s "
          f"(search/perft {nps / (sum(perft_rates) / len(perft_rates)):.2f})")
    if sf:
        mean_sf = sum(sf) / len(sf)
        print(f"stockfish (1 thread): {mean_sf:.0f} nodes/s; ours/stockfish "
              f"{nps / mean_sf:.2e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
