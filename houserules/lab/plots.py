"""The lab report's plots (matplotlib, drawn off-screen: no display needed).

Each function draws on an ``Axes`` it is given, so that the HTML report puts
each plot in a figure of its own and :func:`summary_figure` puts all four in
one image (the README's).
"""
from __future__ import annotations

import base64
import io
import math

from matplotlib.figure import Figure

from .stats import VariantStats

__all__ = ["results_bars", "length_histograms", "endings_bars", "convergence",
           "summary_figure", "figure_png", "png_base64"]

RESULT_COLORS = ("#f0f0f0", "#9a9a9a", "#303030")       # White wins, draws, Black wins


def results_bars(ax, stats: list[VariantStats]) -> None:
    """White win / draw / Black win rates per variant, with 95% Wilson intervals."""
    width = 0.26
    for j, (label, attr) in enumerate((("White wins", "white"), ("draws", "draws"),
                                       ("Black wins", "black"))):
        xs, ys, lo, hi = [], [], [], []
        for i, s in enumerate(stats):
            rate, low, high = s.rate(getattr(s, attr))
            xs.append(i + (j - 1) * width)
            ys.append(100 * rate)
            lo.append(100 * (rate - low))
            hi.append(100 * (high - rate))
        ax.bar(xs, ys, width, yerr=[lo, hi], capsize=3, label=label,
               color=RESULT_COLORS[j], edgecolor="black", linewidth=0.6)
    ax.set_xticks(range(len(stats)), [s.name for s in stats])
    ax.set_ylabel("% of games")
    ax.set_ylim(0, 100)
    ax.set_title("Results (95% Wilson intervals)")
    ax.legend(fontsize="small")


def length_histograms(ax, stats: list[VariantStats]) -> None:
    """How long the games last: one outlined histogram per variant."""
    every = [x for s in stats for x in s.lengths]
    if not every:
        return
    top = max(every)
    bins = max(5, min(30, int(math.sqrt(len(every)))))
    edges = [top * i / bins for i in range(bins + 1)] if top else [0, 1]
    for s in stats:
        ax.hist(s.lengths, bins=edges, histtype="step", linewidth=1.6,
                label=f"{s.name} ({'turns' if s.dice else 'plies'})")
    ax.set_xlabel("game length")
    ax.set_ylabel("games")
    ax.set_title("Game length")
    ax.legend(fontsize="small")


def endings_bars(ax, stats: list[VariantStats], most: int = 7) -> None:
    """How games end, by deciding rule: stacked shares per variant (the
    ``most`` commonest endings over all variants, the rest as 'other')."""
    total: dict[str, int] = {}
    for s in stats:
        for k, n in s.endings.items():
            total[k] = total.get(k, 0) + n
    top = sorted(total, key=lambda k: -total[k])[:most]
    kinds = top + (["other"] if len(total) > len(top) else [])
    bottoms = [0.0] * len(stats)
    for kind in kinds:
        heights = []
        for s in stats:
            n = (sum(v for k, v in s.endings.items() if k not in top) if kind == "other"
                 else s.endings.get(kind, 0))
            heights.append(100 * n / s.games if s.games else 0)
        ax.bar(range(len(stats)), heights, 0.6, bottom=bottoms, label=kind,
               edgecolor="black", linewidth=0.4)
        bottoms = [b + h for b, h in zip(bottoms, heights)]
    ax.set_xticks(range(len(stats)), [s.name for s in stats])
    ax.set_ylabel("% of games")
    ax.set_ylim(0, 100)
    ax.set_title("Endings by deciding rule")
    ax.legend(fontsize="x-small", loc="upper left", bbox_to_anchor=(1.0, 1.0))


def convergence(ax, stats: list[VariantStats]) -> None:
    """White's running score over the games, with a 95% band (normal
    approximation from the running per-game variance)."""
    for s in stats:
        xs, mean, lo, hi = [], [], [], []
        total = squares = 0.0
        for n, x in enumerate(s.scores, 1):
            total += x
            squares += x * x
            m = total / n
            sd = math.sqrt(max(0.0, squares / n - m * m))
            half = 1.96 * sd / math.sqrt(n)
            xs.append(n)
            mean.append(100 * m)
            lo.append(100 * max(0.0, m - half))
            hi.append(100 * min(1.0, m + half))
        line, = ax.plot(xs, mean, label=s.name)
        ax.fill_between(xs, lo, hi, alpha=0.15, color=line.get_color())
    ax.axhline(50, color="black", linewidth=0.6, linestyle="--")
    ax.set_xlabel("games played")
    ax.set_ylabel("White's score, %")
    ax.set_ylim(0, 100)
    ax.set_title("Convergence of the first player's score")
    ax.legend(fontsize="small")


def figure_png(fig: Figure) -> bytes:
    """A figure as PNG bytes."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, bbox_inches="tight")
    return buf.getvalue()


def png_base64(draw, stats: list[VariantStats], size=(6.4, 4.0)) -> str:
    """One plot (``draw(ax, stats)``) as a base64 PNG, for an <img> data URL."""
    fig = Figure(figsize=size)
    draw(fig.add_subplot(), stats)
    return base64.b64encode(figure_png(fig)).decode("ascii")


def summary_figure(stats: list[VariantStats], title: str = "") -> Figure:
    """The four plots in one figure (2 x 2)."""
    fig = Figure(figsize=(13, 9), layout="constrained")
    axes = fig.subplots(2, 2)
    results_bars(axes[0][0], stats)
    endings_bars(axes[0][1], stats)
    length_histograms(axes[1][0], stats)
    convergence(axes[1][1], stats)
    if title:
        fig.suptitle(title)
    return fig
