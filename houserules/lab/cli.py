"""``houserules lab ...``: run, resume, report, schema.

Registered in the CLI by :func:`add_commands`, as the other command modules are. Errors are typed
(:class:`~houserules.lab.spec.LabSpecError`, a ChessError): the CLI prints
them on stderr and exits 2.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from contextlib import contextmanager
from pathlib import Path

from .spec import LabSpec, LabSpecError, MAX_LEVEL, load_spec, parse_spec, resolve, spec_schema
from .store import DEFAULT_DB

__all__ = ["add_commands", "spec_from_args", "DEFAULT_HTML"]

#: where ``report --html`` writes without --out (in the working folder)
DEFAULT_HTML = "houserules-lab-report.html"


def _level(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a level 1..{MAX_LEVEL}, not {text!r}") from None
    if not 1 <= n <= MAX_LEVEL:
        raise argparse.ArgumentTypeError(f"expected a level 1..{MAX_LEVEL}, not {n}")
    return n


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected 1 or more, not {n}")
    return n


def _count(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"expected 0 or more, not {n}")
    return n


VARIANT_OPTIONS = ("preset", "config", "rules", "modifier", "layout", "fen", "dice")


def _split_ids(items: list[str] | None) -> list[str]:
    ids = []
    for item in items or []:
        for pid in item.split(","):
            if not pid.strip():
                raise LabSpecError(f"--preset {item!r}: an empty preset id in the list")
            ids.append(pid.strip())
    return ids


def spec_from_args(args) -> LabSpec:
    """The spec of ``lab run``: the SPEC file, or one variant from the
    options; the run options (--games, --level, ...) override the file's."""
    variant_given = [o for o in VARIANT_OPTIONS if getattr(args, o, None)]
    if args.spec:
        if variant_given:
            raise LabSpecError(f"give a SPEC file or variant options "
                               f"(--{variant_given[0]}), not both")
        spec = load_spec(args.spec)
    else:
        from presets.base import PresetConfigError
        from presets.registry import parse_config_items
        presets = _split_ids(args.preset)
        try:
            config = parse_config_items(args.config or [])
        except PresetConfigError as e:
            raise LabSpecError(f"--config {e}") from None
        name = ("dice" if args.dice else "") + ("+" if args.dice and presets else "") \
            + "+".join(presets)
        variant = {"name": name or "fide", "presets": presets, "config": config,
                   "rules": args.rules or [], "modifiers": args.modifier or [],
                   "layout": args.layout, "fen": args.fen, "dice": bool(args.dice)}
        spec = resolve(parse_spec({"variant": [variant]}, "the command line"), Path.cwd())
    update = {}
    for option, key in (("name", "name"), ("games", "games"), ("seed", "seed"),
                        ("max_plies", "max_plies")):
        if getattr(args, option) is not None:
            update[key] = getattr(args, option)
    if args.level is not None:
        update["bots"] = [args.level, args.level]
    if args.bots is not None:
        update["bots"] = args.bots
    if args.random_plies is not None or args.openings is not None:
        opening = spec.opening.model_dump()
        if args.random_plies is not None:
            opening["random_plies"] = args.random_plies
        if args.openings is not None:
            opening.update(file=args.openings, lines=[])
        update["opening"] = opening
    if update:
        data = spec.model_dump()
        data.update(update)
        spec = resolve(parse_spec(data, "the command line"), Path.cwd())
    return spec


def _check_cluster_options(args) -> None:
    if args.scheduler and args.workers:
        raise LabSpecError("--workers sizes the embedded cluster: give it or --scheduler, "
                           "not both")


def _progress(args) -> bool:
    if args.progress is not None:
        return args.progress
    return sys.stderr.isatty() and os.environ.get("TERM") != "dumb"


def _store(args, existing: bool = False):
    from .store import LabStore
    if existing and not Path(args.db).is_file():
        raise LabSpecError(f"no lab database at {args.db!r} ('houserules lab run' makes one; "
                           "--db names another)")
    return LabStore(args.db)


def _said(summary, verb: str) -> None:
    print(f"run {summary.run}: {verb} {summary.played} games in {summary.seconds:.1f} s; "
          f"{summary.stored} of {summary.total} stored")
    if summary.stored < summary.total:
        print(f"'houserules lab resume {summary.run}' plays the rest")
    else:
        print(f"'houserules lab report {summary.run}' reports on it")


def cmd_run(args) -> int:
    from . import players
    from .runner import check_rules, run_lab
    _check_cluster_options(args)
    spec = spec_from_args(args)
    check_rules(spec)       # refused rules leave no database behind
    with _store(args) as store:
        run = store.new_run(spec, players.ENGINE)
        with _interrupted(store, run):
            summary = run_lab(spec, store, run=run, scheduler=args.scheduler,
                              workers=args.workers, progress=_progress(args))
    _said(summary, "played")
    return 0


def cmd_resume(args) -> int:
    from .runner import resume_lab, unfinished_run
    _check_cluster_options(args)
    with _store(args, existing=True) as store:
        run = args.run if args.run is not None else unfinished_run(store)
        with _interrupted(store, run):
            summary = resume_lab(store, run, scheduler=args.scheduler, workers=args.workers,
                                 progress=_progress(args))
    _said(summary, "resumed:")
    return 0


@contextmanager
def _interrupted(store, run: int):
    """On Ctrl-C, say what is stored and how to go on (then the CLI exits 130)."""
    try:
        yield
    except KeyboardInterrupt:
        info = store.run(run)
        # (on a terminal, below the ^C it echoed)
        print(("\n" if sys.stderr.isatty() else "")
              + f"run {run} interrupted: {info.done} of {info.games} games stored; "
              f"'houserules lab resume {run}' plays the rest", file=sys.stderr)
        raise


def cmd_report(args) -> int:
    if args.html or args.out or args.png:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise LabSpecError("the report's plots need matplotlib, which is not installed: "
                               "pip install 'houserules[lab]'") from None
    from . import report
    with _store(args, existing=True) as store:
        rep = report.build(store, args.runs)
    if args.json:
        print(json.dumps(_as_json(rep), indent=2))
    else:
        from rich.console import Console
        report.text_table(rep, Console(width=max(120, 45 + 24 * len(rep.stats))))
    if args.html or args.out:
        out = Path(args.out or DEFAULT_HTML)
        try:
            out.write_text(report.html(rep), encoding="utf-8")
        except OSError as e:
            raise LabSpecError(f"cannot write the report to {str(out)!r}: "
                               f"{e.strerror or e}") from None
        print(f"report written to {out}", file=sys.stderr)
    if args.png:
        from .plots import figure_png, summary_figure
        title = "; ".join(f"run {r.id}: {r.name}" for r in rep.runs)
        try:
            Path(args.png).write_bytes(figure_png(summary_figure(rep.stats, title)))
        except OSError as e:
            raise LabSpecError(f"cannot write {args.png!r}: {e.strerror or e}") from None
        print(f"plots written to {args.png}", file=sys.stderr)
    return 0


def _as_json(rep) -> dict:
    from .report import significance_lines
    variants = []
    for s in rep.stats:
        q1, median, q3 = s.length_quartiles()
        diff, err = s.elo
        variants.append({
            "name": s.name, "games": s.games, "white": s.white, "draws": s.draws,
            "black": s.black, "white_rate": s.rate(s.white), "draw_rate": s.rate(s.draws),
            "black_rate": s.rate(s.black), "score": s.score,
            "elo": diff if abs(diff) != float("inf") else None,
            "elo_error": err if err != float("inf") else None,
            "length": {"q1": q1, "median": median, "q3": q3,
                       "unit": "turns" if s.dice else "plies"},
            "endings": dict(s.endings.most_common()), "turns_cut_share": s.cut_share})
    return {"runs": [r.id for r in rep.runs], "variants": variants,
            "tests": [{"variants": c.names, "chi2": c.statistic, "df": c.df, "p": c.p,
                       "p_adjusted": c.p_adjusted, "significant": c.significant}
                      for c in rep.comparisons],
            "summary": significance_lines(rep)}


def cmd_runs(args) -> int:
    with _store(args, existing=True) as store:
        runs = store.runs()
    for r in runs:
        state = "complete" if r.done == r.games else "unfinished"
        print(f"{r.id}\t{r.name}\t{r.done}/{r.games} games ({state})\t"
              f"{', '.join(v.name for v in r.spec.variant)}\t{r.created}\t{r.engine}")
    return 0


def cmd_schema(args) -> int:
    print(json.dumps(spec_schema(), indent=2))
    return 0


def _cluster_options(p) -> None:
    p.add_argument("--db", default=DEFAULT_DB, metavar="PATH",
                   help=f"the lab database (default: {DEFAULT_DB} in the working folder)")
    p.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                   help="an existing Dask scheduler (default: an embedded LocalCluster)")
    p.add_argument("--workers", type=_positive, metavar="N",
                   help="worker processes of the embedded cluster (default: one per core)")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="a live progress bar on stderr (default: when stderr is a terminal)")


def add_commands(sub) -> None:
    """Register ``houserules lab`` on the CLI's subparsers."""
    lab = sub.add_parser(
        "lab", help="self-play balance lab: many games per variant, on Dask, in SQLite",
        description="Self-play many games per variant and report on their balance "
                    "(tutorial and reference: docs/lab.md).")
    lsub = lab.add_subparsers(dest="lab_command", metavar="SUBCOMMAND")
    lsub.required = True

    r = lsub.add_parser(
        "run", help="play a spec's games (or one variant given by options)",
        description="Play the games of SPEC.toml, or of one variant given by the options "
                    "(e.g. --preset double-move --games 500 --level 3), storing each game "
                    "as it finishes. Interrupted, 'houserules lab resume' finishes it.")
    r.add_argument("spec", nargs="?", metavar="SPEC.toml", help="the lab spec (TOML)")
    g = r.add_argument_group("one variant instead of a SPEC")
    g.add_argument("--preset", action="append", metavar="ID",
                   help="a preset (repeatable, or a comma-separated list)")
    g.add_argument("--config", action="append", metavar="ID.KEY=VALUE",
                   help="configure a preset")
    g.add_argument("--rules", action="append", metavar="FILE.hr", help="a rule file")
    g.add_argument("--modifier", action="append", metavar="FILE.json|NAME",
                   help="a modifier descriptor: a JSON file or a gallery name")
    g.add_argument("--layout", metavar="ID", help="a starting layout id")
    g.add_argument("--fen", metavar="FEN", help="a start position (a DFEN with --dice)")
    g.add_argument("--dice", action="store_true", help="play Dice Chess")
    o = r.add_argument_group("run options (over a SPEC's too)")
    o.add_argument("--name", help="what the run is called")
    o.add_argument("--games", type=_positive, help="games per variant (default: 100)")
    o.add_argument("--level", type=_level, help="both bots' level (1..10; default: 3)")
    o.add_argument("--bots", type=_level, nargs=2, metavar=("A", "B"),
                   help="bot A's and bot B's levels (they alternate colours)")
    o.add_argument("--seed", type=int, help="the run's seed (default: 0)")
    o.add_argument("--max-plies", type=_positive, help="the cap on a game's plies "
                   "(Dice Chess: turns); a game at the cap is a draw (default: 200)")
    o.add_argument("--random-plies", type=_count,
                   help="random plies (Dice Chess: turns) to open each game (default: 4)")
    o.add_argument("--openings", metavar="FILE", help="an opening file: UCI moves, one line each")
    _cluster_options(r)
    r.set_defaults(func=cmd_run)

    rs = lsub.add_parser(
        "resume", help="finish an interrupted run",
        description="Play the games of a run that are not stored yet (the latest unfinished "
                    "run by default): none is lost, none played twice.")
    rs.add_argument("run", nargs="?", type=_positive, help="the run's id (see 'lab report')")
    _cluster_options(rs)
    rs.set_defaults(func=cmd_resume)

    rp = lsub.add_parser(
        "report", help="per variant: results, Elo, length, endings; --html with plots",
        description="The stored games of the runs (default: the latest), per variant side by "
                    "side, and whether their results differ significantly.")
    rp.add_argument("runs", nargs="*", type=_positive, metavar="RUN", help="run ids")
    rp.add_argument("--db", default=DEFAULT_DB, metavar="PATH",
                    help=f"the lab database (default: {DEFAULT_DB})")
    rp.add_argument("--html", action="store_true",
                    help=f"also write the HTML report with plots (to {DEFAULT_HTML} "
                         "unless --out)")
    rp.add_argument("--out", metavar="FILE.html", help="where the HTML report goes (implies --html)")
    rp.add_argument("--png", metavar="FILE.png", help="also write the four plots as one image")
    rp.add_argument("--json", action="store_true", help="the figures as JSON instead of a table")
    rp.set_defaults(func=cmd_report)

    ru = lsub.add_parser(
        "runs", help="the runs in the database, one per line",
        description="One line per run: id, name, games stored of all, state, variants, "
                    "when it started, which bots played (tab-separated).")
    ru.add_argument("--db", default=DEFAULT_DB, metavar="PATH",
                    help=f"the lab database (default: {DEFAULT_DB})")
    ru.set_defaults(func=cmd_runs)

    sc = lsub.add_parser("schema", help="the JSON Schema of a lab spec")
    sc.set_defaults(func=cmd_schema)
