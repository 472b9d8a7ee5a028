"""Miss Manners and Waltz on houserules' engine beside CLIPS, experta and durable_rules.

    python benchmarks/rete_bench.py                       # Manners 16..128, Waltz 12 and 50
    python benchmarks/rete_bench.py --sizes 16,32 --waltz 12 --repeat 5
    python benchmarks/rete_bench.py --skip-slow-peers     # no experta beyond 32, no durable at 128

Every engine runs the classic programs on the same generated data (a port
of the 1991 OPS5 Manners generator; Waltz as copies of the classic figure).
Ours are the rule-language files ``benchmarks/manners/manners.hr`` and
``benchmarks/waltz/waltz.hr``. Each measured run is one child process that
builds the rules, asserts the data, runs to the end and validates the
answer: for Manners a valid seating and exactly N(N-1)/2 + 4N - 1 firings,
for Waltz a consistent labelling and the classic firing count. A run that
fails validation is an error in the table, not a time.

Our engine runs twice: ``houserules`` as it is (its join-order planning
joins Manners' ``context`` pattern last, see ``rete/joinorder.py``) and
``houserules-written`` with every condition joined as written, so the table
shows what the planning buys.

Times are medians over ``--repeat`` runs of the whole job (build, assert,
run), in CPU seconds of the child by default (``--clock wall`` for wall
time): the machine this was written on is shared, and CPU time is much less
disturbed by other load. A run over ``--timeout`` seconds is killed and shown
as ``> T s``. The ratio columns are peer time / our time (above 1: we are
faster). Memory is the peak resident set (``ru_maxrss``) of the child that
ran Manners at the largest size, and its growth over the resident set just
before the run: the same method for every engine, C cores included.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
if ROOT not in sys.path:
    sys.path.append(ROOT)   # (after the installed packages: a compiled build stays first)

ENGINES = ("houserules", "houserules-written", "clips", "experta", "durable")
LABELS = {"houserules": "houserules", "houserules-written": "houserules (as written)",
          "clips": "CLIPS 6.4 (clipspy)", "experta": "experta", "durable": "durable_rules"}
# peers that take minutes on larger sizes (skipped with --skip-slow-peers)
SLOW = {("experta", "manners"): 32, ("durable", "manners"): 64, ("experta", "waltz"): 12}


# ------------------------------------------------------------------ child side


def _module(engine: str, bench: str):
    import importlib
    name = {"houserules": "houserules", "houserules-written": "houserules", "clips": "clips",
            "experta": "experta", "durable": "durable"}[engine]
    return importlib.import_module(f"benchmarks.{bench}.{name}_{bench}")


def _rss_kb() -> int:
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[1]) * (os.sysconf("SC_PAGE_SIZE") // 1024)
    except OSError:
        return 0


def _warm(engine: str) -> None:
    """One-time per-process costs that are not the benchmark: imports, parser tables."""
    if engine.startswith("houserules"):
        from rete.language import parse_rules
        parse_rules("template warm (x)")
    elif engine == "clips":
        import clips  # noqa: F401
    elif engine == "experta":
        from benchmarks.experta_compat import import_experta
        import_experta()
    elif engine == "durable":
        import durable.lang  # noqa: F401


def child(engine: str, bench: str, size: int, clock: str) -> dict:
    mod = _module(engine, bench)
    _warm(engine)
    if bench == "manners":
        from benchmarks.manners.generate import expected_firings, generate
        from benchmarks.manners.validate import validate
        data = generate(size)
    else:
        from benchmarks.waltz.generate import generate
        from benchmarks.waltz.validate import expected_firings, validate as wvalidate
        data = generate(size)
    rss0 = _rss_kb()
    tick = time.process_time if clock == "cpu" else time.perf_counter
    t0 = tick()
    # "houserules-written": the same engine joining every condition as written
    # (no join-order planning, rete/joinorder.py): what the planning buys
    res = mod.run(data, join_order="written") if engine == "houserules-written" else mod.run(data)
    dt = tick() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    if bench == "manners":
        validate(data, res["seating"], res["firings"], exact_firings=True)
        want = expected_firings(size)
    else:
        wvalidate(data, res, exact_firings=True)
        want = expected_firings(size)
    return {"seconds": dt, "firings": res["firings"], "expected": want, "maxrss_kb": peak,
            "rss_before_kb": rss0}


# ------------------------------------------------------------------ parent side


def measure(engine, bench, size, repeat, timeout, clock) -> dict:
    runs = []
    for _ in range(repeat):
        cmd = [sys.executable, os.path.abspath(__file__), "--child", engine, bench, str(size),
               "--clock", clock]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
        except subprocess.TimeoutExpired:
            return {"status": "timeout", "timeout": timeout, "runs": runs}
        if p.returncode != 0:
            err = (p.stderr.strip().splitlines() or ["failed"])[-1]
            return {"status": "error", "error": err[:200], "runs": runs}
        runs.append(json.loads(p.stdout.strip().splitlines()[-1]))
    return {"status": "ok", "median": statistics.median(r["seconds"] for r in runs),
            "firings": runs[-1]["firings"], "expected": runs[-1]["expected"],
            "maxrss_kb": max(r["maxrss_kb"] for r in runs),
            "growth_kb": max(r["maxrss_kb"] - r["rss_before_kb"] for r in runs), "runs": runs}


def _available(engine: str) -> str | None:
    mod = {"houserules": "rete", "houserules-written": "rete", "clips": "clips",
           "experta": "experta", "durable": "durable"}[engine]
    import importlib.util
    if importlib.util.find_spec(mod) is None:
        return f"{mod} is not installed (make bench installs the bench extra)"
    return None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="16,32,64,128", help="Manners sizes (guests)")
    ap.add_argument("--waltz", default="12,50", help="Waltz sizes (regions); empty for none")
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement (median)")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per run")
    ap.add_argument("--engines", default=",".join(ENGINES))
    ap.add_argument("--skip-slow-peers", action="store_true",
                    help="skip experta beyond Manners 32 / Waltz 12 and durable beyond Manners 64")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    ap.add_argument("--json", help="also write the results to this file")
    ap.add_argument("--child", nargs=3, metavar=("ENGINE", "BENCH", "SIZE"), help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.child:
        engine, bench, size = a.child
        print(json.dumps(child(engine, bench, int(size), a.clock)))
        return 0

    engines = [e.strip() for e in a.engines.split(",") if e.strip()]
    jobs = [("manners", int(x)) for x in a.sizes.split(",") if x.strip()]
    jobs += [("waltz", int(x)) for x in a.waltz.split(",") if x.strip()]
    missing = {e: _available(e) for e in engines}
    results: dict = {}
    from rich.console import Console
    con = Console(width=max(130, Console().width))
    for bench, size in jobs:
        for e in engines:
            key = f"{bench}:{size}:{e}"
            if missing[e]:
                results[key] = {"status": "missing", "error": missing[e]}
                continue
            cap = SLOW.get((e, bench))
            if a.skip_slow_peers and cap is not None and size > cap:
                results[key] = {"status": "skipped"}
                continue
            con.print(f"[dim]{bench} {size}: {LABELS[e]} ...[/dim]", end=" ")
            r = measure(e, bench, size, a.repeat, a.timeout, a.clock)
            results[key] = r
            con.print(_cell(r, None) if r["status"] != "ok" else f"{r['median']:.3f} s")
    _report(con, results, engines, jobs, a)
    if a.json:
        with open(a.json, "w") as fh:
            json.dump({"args": vars(a), "results": results}, fh, indent=2)
    bad = [k for k, r in results.items() if r["status"] == "error"]
    return 1 if any(k.endswith(":houserules") for k in bad) else 0


def _cell(r, ours) -> str:
    st = r["status"]
    if st == "timeout":
        out = f"> {r['timeout']:g} s"
        if ours is not None and ours.get("status") == "ok":
            out += f"  (> {r['timeout'] / ours['median']:.2g}x)"
        return out
    if st == "skipped":
        return "skipped"
    if st == "missing":
        return "not installed"
    if st == "error":
        return "error"
    s = f"{r['median']:.3f}"
    if ours is not None and ours.get("status") == "ok" and r is not ours:
        s += f"  ({r['median'] / ours['median']:.2g}x)"
    return s


def _report(con, results, engines, jobs, a) -> None:
    from rich.table import Table
    t = Table(title=f"median {a.clock} seconds over {a.repeat} runs; (peer / houserules)")
    t.add_column("benchmark")
    t.add_column("firings")
    for e in engines:
        t.add_column(LABELS[e], justify="right")
    for bench, size in jobs:
        ours = results.get(f"{bench}:{size}:houserules")
        fir = ""
        for e in engines:
            r = results.get(f"{bench}:{size}:{e}", {})
            if r.get("status") == "ok":
                fir = f"{r['firings']} (= {r['expected']})"
                break
        t.add_row(f"{bench} {size}", fir,
                  *[_cell(results[f"{bench}:{size}:{e}"], ours) for e in engines])
    con.print(t)
    for k, r in results.items():
        if r["status"] == "error":
            con.print(f"[red]{k}: {r['error']}[/red]")
    msizes = [s for b, s in jobs if b == "manners"]
    if msizes:
        big = max(msizes)
        m = Table(title=f"peak memory, Manners {big} (child ru_maxrss; growth over the RSS before the run)")
        m.add_column("engine")
        m.add_column("peak RSS MB", justify="right")
        m.add_column("growth MB", justify="right")
        for e in engines:
            r = results.get(f"manners:{big}:{e}", {})
            if r.get("status") == "ok":
                m.add_row(LABELS[e], f"{r['maxrss_kb'] / 1024:.1f}", f"{r['growth_kb'] / 1024:.1f}")
            else:
                m.add_row(LABELS[e], _cell(r, None) if r else "-", "")
        con.print(m)


if __name__ == "__main__":
    sys.exit(main())
