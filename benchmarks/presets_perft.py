"""Perft speed with each preset active, relative to plain FIDE, in one run.

For every preset (and its requirements) the benchmark runs perft with make/undo
at every node (``Game.perft(depth, bulk=False)``) from the preset's preferred
layout, and from the same position under plain FIDE, interleaved so machine
load hits both alike. It prints nodes per second for each and the ratio
preset/FIDE; a preset below 0.5x is flagged. A preset should cost only what its
rule costs.

    python benchmarks/presets_perft.py                 # depth 2, all presets
    python benchmarks/presets_perft.py --depth 3 --presets piece-hp wrap-board
"""
from __future__ import annotations

import argparse
import os
import sys
import time

# (appended: the installed packages come first, so a compiled build is the one measured)
if os.path.dirname(os.path.dirname(os.path.abspath(__file__))) not in sys.path:
    sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from benchmarks.progress import track  # noqa: E402
from chess_rules.fide import fide_rules  # noqa: E402
from chess_rules.game import Game  # noqa: E402
from presets import registry  # noqa: E402
from presets.layouts import get_layout  # noqa: E402


def _with_requirements(pid: str) -> list[str]:
    out: list[str] = []

    def visit(p):
        for r in registry.get(p).requires:
            visit(r)
        if p not in out:
            out.append(p)
    visit(pid)
    return out


def _rate(make_game, depth: int, min_time: float) -> tuple[int, float]:
    """(nodes, nodes per second) over repeated runs lasting ``min_time``."""
    nodes = 0
    elapsed = 0.0
    count = 0
    while elapsed < min_time:
        g = make_game()
        t0 = time.perf_counter()
        count = g.perft(depth, bulk=False)
        elapsed += time.perf_counter() - t0
        nodes += count
    return count, nodes / elapsed


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--depth", type=int, default=2)
    ap.add_argument("--presets", nargs="+", default=None, metavar="ID")
    ap.add_argument("--min-time", type=float, default=0.5,
                    help="seconds of perft per measurement (default 0.5)")
    args = ap.parse_args(argv)
    ids = args.presets or [m.id for m in registry.all_presets()]
    con = Console(stderr=False)
    table = Table(title=f"perft({args.depth}) with make/undo: each preset vs plain FIDE")
    for col in ("preset", "layout", "nodes", "preset n/s", "FIDE n/s", "ratio", "note"):
        table.add_column(col, justify="right" if col in ("nodes", "preset n/s", "FIDE n/s", "ratio")
                         else "left")
    fide = fide_rules()
    slow = []
    ratios: dict[str, float] = {}
    for pid in track(ids, len(ids), "presets"):
        meta = registry.get(pid)
        layout = meta.preferred_layout or "standard"
        fen = get_layout(layout).fen
        combo = _with_requirements(pid)
        rs = registry.load(*combo)
        n, ours = _rate(lambda: Game(fen, ruleset=rs), args.depth, args.min_time)
        _, base = _rate(lambda: Game(fen, ruleset=fide), args.depth, args.min_time)
        ratio = ours / base
        ratios[pid] = ratio
        flag = "below 0.5x" if ratio < 0.5 else ""
        if flag:
            slow.append(pid)
        table.add_row(pid if combo == [pid] else "+".join(combo), layout, str(n),
                      f"{ours:,.0f}", f"{base:,.0f}", f"{ratio:.2f}", flag)
    con.print(table)
    worst = min(ratios, key=ratios.__getitem__)
    print(f"slowest preset: {worst} at {ratios[worst]:.2f} of FIDE's nodes per second")
    if slow:
        con.print(f"{len(slow)} preset(s) below 0.5x of FIDE: {', '.join(slow)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
