"""``houserules lab report``: the stored games of some runs, per variant.

:func:`build` reads the games and works out the statistics
(:mod:`houserules.lab.stats`); :func:`text_table` prints them side by side,
:func:`html` writes the self-contained page (plots embedded as base64 PNG).
"""
from __future__ import annotations

import html as _html
import math
from dataclasses import dataclass

from .stats import Comparison, VariantStats, compare, summarize
from .store import LabStore, RunInfo
from .spec import LabSpecError

__all__ = ["Report", "build", "text_table", "html", "significance_lines", "TEST_NAME"]

TEST_NAME = ("Pearson's chi-square test of homogeneity on the White win / draw / Black win "
             "counts (each variant against the first, Holm-Bonferroni adjusted; and all "
             "variants together)")


@dataclass
class Report:
    """The runs reported on, their variants' statistics and the tests between them."""

    runs: list[RunInfo]
    stats: list[VariantStats]
    comparisons: list[Comparison]


def build(store: LabStore, run_ids: list[int] | None = None) -> Report:
    """The report on ``run_ids`` (default: the latest run). Variants of the
    same name in several runs are one variant when their rules are the same,
    else each is named with its run (``name@run``)."""
    every = store.runs()
    if not every:
        raise LabSpecError(f"{store.path}: no run yet ('houserules lab run' plays one)")
    runs = [store.run(i) for i in run_ids] if run_ids else [every[-1]]
    rows = store.games([r.id for r in runs])
    if not rows:
        raise LabSpecError("no game stored yet in run " + ", ".join(str(r.id) for r in runs))
    configs: dict[str, set[str]] = {}
    for row in rows:
        configs.setdefault(row["variant"], set()).add(_rules_of(row))
    label = lambda row: (row["variant"] if len(configs[row["variant"]]) == 1  # noqa: E731
                         else f"{row['variant']}@{row['run']}")
    stats = summarize(rows, label)
    return Report(runs, stats, compare(stats))


def _rules_of(row: dict) -> str:
    import json
    config = json.loads(row["variant_config"])
    config.pop("name", None)
    return json.dumps(config, sort_keys=True)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _rate(s: VariantStats, k: int) -> str:
    rate, lo, hi = s.rate(k)
    return f"{_pct(rate)} [{100 * lo:.1f}, {100 * hi:.1f}]"


def _elo(s: VariantStats) -> str:
    diff, err = s.elo
    if math.isinf(diff):
        return f"{'+' if diff > 0 else '-'}inf"
    return f"{diff:+.0f} ± {err:.0f}"


def rows_of(report: Report) -> list[tuple[str, list[str]]]:
    """The table's rows: (what, one cell per variant)."""
    st = report.stats
    out = [
        ("games", [str(s.games) for s in st]),
        ("White wins [95%]", [_rate(s, s.white) for s in st]),
        ("draws [95%]", [_rate(s, s.draws) for s in st]),
        ("Black wins [95%]", [_rate(s, s.black) for s in st]),
        ("White's score", [_pct(s.score) for s in st]),
        ("White's Elo advantage (95%)", [_elo(s) for s in st]),
        ("length: median (quartiles)",
         [f"{q[1]:g} ({q[0]:g}-{q[2]:g}) {'turns' if s.dice else 'plies'}"
          for s in st for q in [s.length_quartiles()]]),
    ]
    kinds: list[str] = []
    for s in st:
        kinds += [k for k, _ in s.endings.most_common() if k not in kinds]
    for k in kinds:
        out.append((f"ends by {k}", [_pct(s.endings.get(k, 0) / s.games) for s in st]))
    if any(s.dice for s in st):
        out.append(("turns cut by the Maximum Micro-moves Rule",
                    [_pct(s.cut_share) if s.cut_share is not None else "-" for s in st]))
    out.append(("seconds per game", [f"{s.seconds / s.games:.2f}" for s in st]))
    return out


def significance_lines(report: Report) -> list[str]:
    """What the tests say, one line each."""
    if len(report.stats) < 2:
        return ["one variant: no comparison"]
    lines = [f"test: {TEST_NAME}"]
    for c in report.comparisons:
        what = " vs ".join(c.names) if len(c.names) == 2 else "all variants"
        verdict = "significant" if c.significant else "not significant"
        p = f"p = {c.p:.3g}" + (f", adjusted {c.p_adjusted:.3g}" if c.p_adjusted != c.p else "")
        caution = (f" (smallest expected count {c.least_expected:.1f} < 5: approximate)"
                   if c.df and c.least_expected < 5 else "")
        lines.append(f"{what}: chi2 = {c.statistic:.2f}, df = {c.df}, {p}: "
                     f"{verdict} at 5%{caution}")
    return lines


def text_table(report: Report, console) -> None:
    """The report on a rich console: the table, then the tests."""
    from rich.table import Table
    runs = ", ".join(f"{r.id} ({r.name}, {r.done}/{r.games} games)" for r in report.runs)
    t = Table(title=f"lab report: run {runs}")
    t.add_column("", no_wrap=True)
    for s in report.stats:
        t.add_column(s.name, justify="right")
    for what, cells in rows_of(report):
        t.add_row(what, *cells)
    console.print(t)
    for line in significance_lines(report):
        console.print(line, markup=False, highlight=False)


_CSS = """body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}
table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:4px 8px;text-align:right}
td:first-child,th:first-child{text-align:left}img{max-width:100%}
.sig{font-weight:bold}"""


def html(report: Report) -> str:
    """The report as one self-contained HTML page."""
    from . import plots     # (matplotlib: only the page and the image need it)
    e = _html.escape
    st = report.stats
    runs = ", ".join(f"{r.id} ({e(r.name)}: {r.done} of {r.games} games, bots "
                     f"{r.spec.bots[0]} and {r.spec.bots[1]}, {e(r.engine)})"
                     for r in report.runs)
    head = "".join(f"<th>{e(s.name)}</th>" for s in st)
    body = "".join(f"<tr><td>{e(what)}</td>" + "".join(f"<td>{e(c)}</td>" for c in cells)
                   + "</tr>" for what, cells in rows_of(report))
    tests = "".join(f"<li{' class=sig' if 'significant at' in l and 'not' not in l else ''}>"
                    f"{e(l)}</li>" for l in significance_lines(report))
    figures = "".join(
        f"<h2>{e(title)}</h2><img alt='{e(title)}' src='data:image/png;base64,"
        f"{plots.png_base64(draw, st)}'>"
        for title, draw in (("Results", plots.results_bars),
                            ("Endings by deciding rule", plots.endings_bars),
                            ("Game length", plots.length_histograms),
                            ("Convergence of the first player's score", plots.convergence)))
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>houserules lab "
            f"report</title><style>{_CSS}</style></head><body><h1>houserules lab report</h1>"
            f"<p>Runs: {runs}.</p><table><tr><th></th>{head}</tr>{body}</table>"
            f"<h2>Are the differences significant?</h2><ul>{tests}</ul>{figures}"
            "<p>White is the first player. A game stopped at the move cap counts as a draw. "
            "Intervals are 95% Wilson score intervals; the Elo error is 1.96 standard errors "
            "(delta method).</p></body></html>")
