"""The UCI engine under a fuzz of random and malformed lines: it never
crashes, answers ``isready`` at the end, and writes nothing but protocol."""
import random
import re
import string
import subprocess
import sys

import pytest

PROTOCOL = re.compile(
    r"(id (name|author) .+|option name .+|uciok|readyok|info .*|bestmove \S+( ponder \S+)?"
    r"|[a-h][1-8][a-h][1-8][nbrqk]?: \d+|Nodes searched: \d+|)$")
WORDS = ["uci", "isready", "ucinewgame", "setoption", "name", "value", "position", "startpos",
         "fen", "moves", "go", "depth", "nodes", "movetime", "wtime", "btime", "winc", "binc",
         "movestogo", "infinite", "stop", "perft", "ponder", "searchmoves", "mate", "d",
         "UCI_Variant", "Skill", "Level", "Hash", "Threads", "Presets", "Config", "e2e4",
         "e7e5", "g1f3", "e1g1", "a7a8q", "zz", "-1", "0", "1", "2", "99999999999", "chess",
         "capture-to-win", "knightmate-rules", "piece-hp", "8/8/8/8/8/8/8/8", "w", "b", "KQkq",
         "-", "extinction-chess.target_type=rook", "\t", "é", "\x00"]
FENS = ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 hp:e2=1",
        "8/8/8/8/8/8/8/8 w - - 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x"]


def fuzz_lines(n: int, seed: int) -> list[str]:
    """``n`` lines: commands with random arguments, shuffled words, and noise.
    Searches are kept short (a few nodes or milliseconds) or stopped, so that
    the run is bounded; 'go infinite' is always followed by a stop."""
    rng = random.Random(seed)
    lines = []
    while len(lines) < n:
        kind = rng.random()
        if kind < 0.25:
            lines.append(" ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 8))))
        elif kind < 0.35:
            lines.append("".join(rng.choice(string.printable) for _ in range(rng.randint(0, 40))))
        elif kind < 0.55:
            fen = rng.choice(FENS)
            moves = " ".join(rng.choice(["e2e4", "e7e5", "g1f3", "a1a8", "e1e2", "x"])
                             for _ in range(rng.randint(0, 4)))
            lines.append(rng.choice([f"position fen {fen}", f"position startpos moves {moves}",
                                     f"position fen {fen} moves {moves}", "position"]))
        elif kind < 0.75:
            lines.append(rng.choice([f"go nodes {rng.randint(0, 40)}",
                                     f"go depth {rng.randint(0, 1)}",
                                     f"go movetime {rng.randint(0, 30)}",
                                     f"go wtime {rng.randint(-100, 500)} btime {rng.randint(0, 500)}",
                                     f"go perft {rng.randint(-1, 2)}", "go mate 1",
                                     f"go nodes {rng.choice(['x', '', '-5', '1e3'])}"]))
        elif kind < 0.8:
            lines += ["go infinite", rng.choice(["isready", "stop"]), "stop"]
        elif kind < 0.93:
            name = rng.choice(["UCI_Variant", "Skill Level", "Hash", "Threads", "Presets",
                               "Config", "Nonsense", ""])
            value = rng.choice(["chess", "capture-to-win", "knightmate-rules", "piece-hp",
                                "monster-rules", "1", "10", "0", "-3", "x", "", "<empty>",
                                "extinction-chess.target_type=rook", "a.b=c d"])
            lines.append(f"setoption name {name} value {value}")
        else:
            lines.append(rng.choice(["uci", "isready", "ucinewgame", "stop", "d", ""]))
    return lines[:n] + ["stop", "isready", "quit"]


def run_fuzz(n: int, seed: int) -> list[str]:
    text = "\n".join(fuzz_lines(n, seed)) + "\n"
    proc = subprocess.run([sys.executable, "-m", "houserules", "uci"], input=text.encode(),
                          capture_output=True, timeout=1800)
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    assert proc.stderr == b"", proc.stderr.decode()[-2000:]
    out = proc.stdout.decode().split("\n")
    assert out[-1] == ""
    out = out[:-1]
    stray = [x for x in out if not PROTOCOL.match(x)]
    assert not stray, stray[:10]
    assert out[-1] == "readyok"         # the engine lived to the end
    return out


def test_a_fuzz_of_500_lines():
    out = run_fuzz(500, seed=1)
    assert any(x.startswith("info string") for x in out)
    assert any(x.startswith("bestmove") for x in out)


@pytest.mark.slow
def test_a_fuzz_of_10000_lines():
    out = run_fuzz(10_000, seed=2)
    assert sum(x.startswith("bestmove") for x in out) > 100
