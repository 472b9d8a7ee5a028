"""``make bench``: every row of the speed targets, on the pure and the compiled build.

    python benchmarks/builds.py [--pure PYTHON] [--compiled PYTHON] [--quick]

Runs each benchmark under each build's interpreter (by default ``.venv``, the
editable pure-Python install, and ``.venv-compiled``, the compiled core that
``make test-compiled`` installs) and prints one table: every row with the
figure on each build, as a ratio against the peer measured in the same run,
beside the floors the project set. Each run first checks which build it
imported (``rete.build_kind()``), so a compiled figure is never pure
Python's by mistake. A build whose interpreter is missing is left out with a
note.

Rows (the peer, and the script that measures it):
  perft, make/undo at every node: python-chess push/pop (``perft.py``)
  CLI perft, last ply counted: python-chess the same way (``cli_perft.py``)
  Dice Chess turn tree: the python-chess enumerator (``dice_bench.py``)
  Manners 128, Waltz 12: CLIPS 6.4 through clipspy (``rete_bench.py``)
  memory a ``Game`` holds: tracemalloc (``perft.py``)
  slowest preset's perft: FIDE's perft (``presets_perft.py``)
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

#: (row, floor on the pure build, floor on the compiled build, how to read it)
ROWS = [
    ("perft make/undo vs python-chess (x its speed)", 0.09, 0.25, "higher"),
    ("CLI perft vs python-chess, last ply counted (x)", 0.25, 0.5, "higher"),
    ("Dice Chess tree vs baseline (x its speed)", 1.0, 2.0, "higher"),
    ("Manners 128 vs CLIPS (x its time)", 2.0, 1.0, "lower"),
    ("Waltz 12 vs CLIPS (x its time)", 2.0, 1.0, "lower"),
    ("memory a Game holds (KiB)", 96, 96, "lower"),
    ("slowest preset's perft vs FIDE's (x)", 0.5, 0.5, "higher"),
]


def _run(python: str, script: str, *args: str) -> str:
    done = subprocess.run([python, os.path.join(HERE, script), *args], cwd=ROOT,
                          capture_output=True, text=True,
                          env={**os.environ, "PYTHONSAFEPATH": "1"})
    if done.returncode != 0:
        raise RuntimeError(f"{script} failed (exit {done.returncode}):\n"
                           f"{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return done.stdout


def _find(pattern: str, text: str, script: str) -> re.Match:
    m = re.search(pattern, text)
    if m is None:
        raise RuntimeError(f"{script} printed no {pattern!r}:\n{text[-2000:]}")
    return m


def measure(python: str, quick: bool) -> dict[str, float]:
    """Every row's figure under one interpreter."""
    say = lambda what: print(f"  {what} ...", file=sys.stderr, flush=True)  # noqa: E731
    out: dict[str, float] = {}
    say("perft")
    text = _run(python, "perft.py")
    out[ROWS[0][0]] = float(_find(r"nodes per second\): ([\d.]+)", text, "perft.py").group(1))
    out[ROWS[5][0]] = float(_find(r"a game holds ([\d,.]+) KiB", text, "perft.py")
                            .group(1).replace(",", ""))
    say("CLI perft")
    text = _run(python, "cli_perft.py", "--min-time", "0.5" if quick else "1")
    out[ROWS[1][0]] = float(_find(r"last ply counted\): ([\d.]+)", text, "cli_perft.py").group(1))
    say("Dice Chess trees")
    text = _run(python, "dice_bench.py", "--positions", "100" if quick else "300",
                "--memory-positions", "0")
    api = float(_find(r"houserules / baseline\): ([\d.]+) \(API\)", text, "dice_bench.py").group(1))
    same = _find(r"trees identical on (\d+)/(\d+)", text, "dice_bench.py")
    if same.group(1) != same.group(2):
        raise RuntimeError(f"the Dice Chess trees differ from the baseline's: {same.group(0)}")
    out[ROWS[2][0]] = round(1 / api, 3)
    say("Manners and Waltz")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "rete.json")
        _run(python, "rete_bench.py", "--sizes", "128", "--waltz", "12", "--engines",
             "houserules,clips", "--repeat", "1" if quick else "3", "--json", path)
        with open(path) as fh:
            res = json.load(fh)["results"]
    for row, bench in ((ROWS[3][0], "manners:128"), (ROWS[4][0], "waltz:12")):
        ours, clips = res[f"{bench}:houserules"], res[f"{bench}:clips"]
        if ours["status"] != "ok" or clips["status"] != "ok":
            raise RuntimeError(f"{bench}: {ours.get('error')} {clips.get('error')}")
        out[row] = round(ours["median"] / clips["median"], 2)
    say("perft under every preset")
    text = _run(python, "presets_perft.py", "--min-time", "0.2" if quick else "0.5")
    m = _find(r"slowest preset: (\S+) at ([\d.]+)", text, "presets_perft.py")
    out[ROWS[6][0]] = float(m.group(2))
    out["slowest preset"] = m.group(1)          # type: ignore[assignment]
    return out


def build_kind(python: str) -> str:
    done = subprocess.run([python, "-c", "import rete; print(rete.build_kind())"], cwd=ROOT,
                          capture_output=True, text=True, env={**os.environ, "PYTHONSAFEPATH": "1"})
    return done.stdout.strip() if done.returncode == 0 else f"unusable: {done.stderr[-200:]}"


def _met(value: float, floor: float, way: str) -> str:
    return "met" if (value >= floor if way == "higher" else value <= floor) else "NOT met"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pure", default=os.path.join(ROOT, ".venv", "bin", "python"))
    ap.add_argument("--compiled", default=os.path.join(ROOT, ".venv-compiled", "bin", "python"))
    ap.add_argument("--quick", action="store_true", help="fewer positions and repeats")
    a = ap.parse_args(argv)
    figures: dict[str, dict] = {}
    for label, python in (("pure", a.pure), ("compiled", a.compiled)):
        if not os.path.exists(python):
            print(f"{label}: no interpreter at {python}: left out "
                  f"({'make test-compiled' if label == 'compiled' else 'make test'} builds it)")
            continue
        kind = build_kind(python)
        if kind != label:
            print(f"{label}: {python} runs the {kind} build: left out")
            continue
        print(f"measuring the {label} build ({python})", file=sys.stderr)
        figures[label] = measure(python, a.quick)
    if not figures:
        return 1
    builds = list(figures)
    head = f"{'row':<50}" + "".join(f"{b:>10} {'floor':>6} {'':>7}" for b in builds)
    if len(builds) == 2:
        head += f"{'compiled/pure':>14}"
    print(head)
    for row, floor_pure, floor_compiled, way in ROWS:
        line = f"{row:<50}"
        for b in builds:
            floor = floor_pure if b == "pure" else floor_compiled
            line += f"{figures[b][row]:>10g} {floor:>6g} {_met(figures[b][row], floor, way):>7}"
        if len(builds) == 2:
            line += f"{figures['compiled'][row] / figures['pure'][row]:>14.2f}"
        print(line)
    for b in builds:
        print(f"slowest preset on the {b} build: {figures[b]['slowest preset']}")
    print("(x its speed, higher is faster; x its time, lower is faster; "
          "every ratio is against the peer measured in the same run)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
