"""``make bench``: every side-by-side benchmark in one go.

    python benchmarks/run_all.py [rete_bench options...]

Runs :mod:`rete_bench` (Miss Manners and Waltz beside CLIPS, experta and
durable_rules) with the options given, then the chess perft benchmark
(``benchmarks/perft.py``), perft per preset (``presets_perft.py``) and the Dice
Chess turn-tree benchmark (``dice_bench.py``) and the lab on Dask
(``lab_bench.py``). Exits non-zero if one of them
does.
"""
from __future__ import annotations

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    rc = subprocess.call([sys.executable, os.path.join(HERE, "rete_bench.py"), *argv])
    for name in ("perft.py", "presets_perft.py", "dice_bench.py", "lab_bench.py"):
        path = os.path.join(HERE, name)
        if os.path.exists(path):
            print()
            rc = subprocess.call([sys.executable, path]) or rc
    return rc


if __name__ == "__main__":
    sys.exit(main())
