"""``make bench``: every side-by-side benchmark in one go.

    python benchmarks/run_all.py [rete_bench options...]

Runs :mod:`rete_bench` (Miss Manners and Waltz beside CLIPS, experta and
durable_rules) with the options given, then the chess perft benchmark
(``benchmarks/perft.py``) when it is present. Exits non-zero if one of them
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
    perft = os.path.join(HERE, "perft.py")
    if os.path.exists(perft):
        print()
        rc = subprocess.call([sys.executable, perft]) or rc
    return rc


if __name__ == "__main__":
    sys.exit(main())
