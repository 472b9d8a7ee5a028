"""``make bench-compiled``: how much of the gap to python-chess is the interpreter's.

    python benchmarks/compiled.py [--positions N] [--rounds R] [--dir DIR]

houserules is pure Python and ships as such: this project's machine kind is
Python with no compiled core. The two speed targets it has not met (perft at
half python-chess's speed, a Dice Chess tree faster than the baseline) raise
a question this benchmark answers with a measurement rather than a guess:
what would the same engine, running the same productions, cost if the
interpreter's overhead were compiled away?

It copies ``rete``, ``chess_rules``, ``dice``, ``presets`` and the benchmarks
unchanged into a scratch directory, compiles the modules on the hot path with Cython (no type
declarations added: the source is the one in this checkout), checks that the
compiled modules are the ones a child process imports, and then runs the Dice
Chess tree benchmark (``dice_bench.py``) and the perft benchmark (``perft.py``)
in turn on the pure-Python checkout and on the compiled copy, ``--rounds``
times. The peer, python-chess, stays as installed (pure Python) in every run,
so each line is a ratio against the same peer. The compiled runs check their
own answers as the plain ones do: the trees against the baseline's on every
position, perft against the published counts.

Needs Cython (the ``bench`` extra) and a C compiler; compiling takes a minute
or two on two cores.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from importlib.util import find_spec

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

from benchmarks.progress import note  # noqa: E402

PACKAGES = ("rete", "chess_rules", "dice", "presets")
# (the benchmarks put their own checkout first on sys.path: the compiled runs
# use the copies beside the compiled packages)
COPIED = PACKAGES + ("benchmarks",)
# the modules a tree or a perft spends its time in (docs/performance.md): the
# engine whole, and the chess and Dice Chess rule sets with what they call
NOT_COMPILED = {"rete/__init__.py"}
HOT = ["rete/" + name for name in sorted(os.listdir(os.path.join(ROOT, "rete")))
       if name.endswith(".py") and "rete/" + name not in NOT_COMPILED] + [
    "chess_rules/fide.py", "chess_rules/geometry.py", "chess_rules/state.py",
    "chess_rules/moves.py", "chess_rules/game.py",
    "dice/rules.py", "dice/game.py", "dice/turns.py",
]

DICE_RATIO = re.compile(r"ratio of medians \(houserules / baseline\): ([\d.]+) \(API\), "
                        r"([\d.]+) \(tree alone\)")
DICE_SAME = re.compile(r"trees identical on (\d+)/(\d+) positions")
PERFT_RATIO = re.compile(r"ratio \(houserules / python-chess nodes per second\): ([\d.]+)")


def parse_dice(text: str) -> tuple[float, float]:
    """``(API ratio, tree-alone ratio)`` from ``dice_bench.py``'s output; refused
    (:class:`ValueError`) without them, or if a tree differed from the baseline's."""
    m, same = DICE_RATIO.search(text), DICE_SAME.search(text)
    if m is None or same is None:
        raise ValueError(f"dice_bench.py printed no ratio:\n{text}")
    if same.group(1) != same.group(2):
        raise ValueError(f"the trees differ from the baseline's:\n{text}")
    return float(m.group(1)), float(m.group(2))


def parse_perft(text: str) -> float:
    """The nodes-per-second ratio from ``perft.py``'s output (:class:`ValueError`
    without one)."""
    p = PERFT_RATIO.search(text)
    if p is None:
        raise ValueError(f"perft.py printed no ratio:\n{text}")
    return float(p.group(1))


def build(where: str) -> None:
    """Copy the packages into ``where`` and compile :data:`HOT` there in place."""
    if find_spec("Cython") is None:
        raise SystemExit("bench-compiled needs Cython: pip install -e '.[bench]'")
    for pkg in COPIED:
        shutil.copytree(os.path.join(ROOT, pkg), os.path.join(where, pkg),
                        ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.c"))
    note(f"compiling {len(HOT)} modules with Cython in {where} ...")
    # (run in ``where``: no pyproject.toml there for setuptools to read)
    # annotation_typing off: Cython would otherwise read an annotation such as
    # ``int`` as a type to enforce, and refuse at the call what the source lets
    # through to its own, typed error: the copy must behave as the source does
    cmd = [sys.executable, "-m", "Cython.Build.Cythonize", "-i", "-3", "-q",
           "-X", "annotation_typing=False", "-j", str(os.cpu_count() or 1), *HOT]
    done = subprocess.run(cmd, cwd=where, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-4000:] + done.stderr[-4000:])
        raise SystemExit(f"compiling failed (exit {done.returncode})")
    check = [sys.executable, "-c",
             "import importlib, sys\n"
             "for m in sys.argv[1:]:\n"
             "    print(importlib.import_module(m).__file__)"]
    mods = [p[:-3].replace("/", ".") for p in HOT]
    # (from ``where``: ``-c`` puts the working directory first on sys.path)
    files = subprocess.run(check + mods, env=_env(where), cwd=where, capture_output=True,
                           text=True, check=True).stdout.split()
    plain = [f for f in files if not f.endswith(".so")]
    if plain or len(files) != len(mods):
        raise SystemExit(f"the compiled copy does not import as compiled: {plain}")


def _env(where: str | None) -> dict:
    env = dict(os.environ)
    if where is not None:
        env["PYTHONPATH"] = where
    return env


def run(script: str, args: list[str], where: str | None) -> str:
    cmd = [sys.executable, os.path.join(where or ROOT, "benchmarks", script), *args]
    done = subprocess.run(cmd, env=_env(where), cwd=where or ROOT, capture_output=True,
                          text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-4000:] + done.stderr[-4000:])
        raise SystemExit(f"{script} failed (exit {done.returncode})")
    return done.stdout


def one_round(where: str, positions: int) -> dict:
    out = {}
    for label, place in (("pure Python", None), ("compiled", where)):
        note(f"  {label}: Dice Chess trees on {positions} positions ...")
        try:
            api, alone = parse_dice(run("dice_bench.py", ["--positions", str(positions),
                                                          "--memory-positions", "0"], place))
            note(f"  {label}: perft ...")
            perft = parse_perft(run("perft.py", [], place))
        except ValueError as e:
            raise SystemExit(f"{label}: {e}") from None
        out[label] = (api, alone, perft)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=300,
                    help="rolled positions per Dice Chess run (default 300)")
    ap.add_argument("--rounds", type=int, default=2,
                    help="how many times to run both builds in turn (default 2)")
    ap.add_argument("--dir", default=None,
                    help="build the compiled copy here and keep it (default: a "
                         "temporary directory, removed afterwards)")
    a = ap.parse_args(argv)
    if a.positions < 1 or a.rounds < 1:
        ap.error("--positions and --rounds must be at least 1")
    if a.dir and os.path.isdir(a.dir) and os.listdir(a.dir):
        ap.error(f"--dir {a.dir} is not empty")
    where = os.path.abspath(a.dir) if a.dir else tempfile.mkdtemp(prefix="houserules-compiled-")
    os.makedirs(where, exist_ok=True)
    try:
        build(where)
        rows = []
        for r in range(a.rounds):
            note(f"round {r + 1} of {a.rounds}")
            rows.append(one_round(where, a.positions))
    finally:
        if a.dir is None:
            shutil.rmtree(where, ignore_errors=True)
    print(f"houserules pure Python against the same source compiled with Cython "
          f"({len(HOT)} modules, no declarations added); the peer is python-chess, "
          f"pure Python, in every run")
    print(f"{'round':>5}  {'build':<12} {'Dice tree, API':>15} {'tree alone':>11} "
          f"{'perft':>7}")
    for i, row in enumerate(rows, 1):
        for label, (api, alone, perft) in row.items():
            print(f"{i:>5}  {label:<12} {api:>14.2f}x {alone:>10.2f}x {perft:>7.3f}")
    print("(Dice tree: houserules' median over the baseline's, lower is faster; "
          "perft: houserules' nodes per second over python-chess's, higher is faster)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
