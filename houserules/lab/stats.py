"""The statistics of a lab report, from the stored games.

Results are counted from White's side: White is the first player. A game
stopped at the spec's cap counts as a draw (its ending says ``move cap``).

``wilson``       the Wilson score interval of a proportion (95%: z = 1.96),
                 which stays inside [0, 1] and is sound for rates near 0 or 1
                 and for small counts, where the normal interval is not.
``elo``          the first player's Elo advantage from its score s (wins and
                 half the draws over games): 400 log10(s / (1 - s)); its error
                 by the delta method from the per-game variance of the score
                 (draws included), 1.96 standard errors for 95%.
``chi_square``   Pearson's chi-square test of homogeneity on the White win /
                 draw / Black win counts of several variants (columns that are
                 zero everywhere dropped): whether their results differ more
                 than chance would make them. The p-value is the chi-square
                 distribution's upper tail, computed here (the regularized
                 incomplete gamma function).
``holm``         Holm-Bonferroni: p-values of several comparisons adjusted so
                 that "significant at 5%" holds for the family of them.
"""
from __future__ import annotations

import math
import statistics
from collections import Counter
from dataclasses import dataclass, field

__all__ = ["ending", "wilson", "elo", "chi_square", "chi2_sf", "holm", "VariantStats", "summarize",
           "compare", "Comparison", "Z95"]

Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``k`` successes in ``n`` trials."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # (exact at the ends: rounding would leave 0 successes a lower bound of 1e-17)
    lo = 0.0 if k == 0 else max(0.0, centre - half)
    hi = 1.0 if k == n else min(1.0, centre + half)
    return (lo, hi)


def elo(wins: int, draws: int, losses: int, z: float = Z95) -> tuple[float, float]:
    """(Elo difference, its ``z``-sigma error) of a score of wins, draws and losses.
    A score of 0 or 1 has an infinite difference (and error)."""
    n = wins + draws + losses
    if n == 0:
        return (0.0, math.inf)
    s = (wins + draws / 2) / n
    if s <= 0 or s >= 1:
        return (math.copysign(math.inf, s - 0.5), math.inf)
    diff = 400 * math.log10(s / (1 - s))
    var = (wins * (1 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s ** 2) / n
    se_s = math.sqrt(var / n)
    se_elo = 400 / math.log(10) * se_s / (s * (1 - s))
    return (diff, z * se_elo)


def _gamma_p_series(a: float, x: float) -> float:
    term = total = 1 / a
    ap = a
    for _ in range(10_000):
        ap += 1
        term *= x / ap
        total += term
        if abs(term) < abs(total) * 1e-15:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _gamma_q_fraction(a: float, x: float) -> float:
    # Lentz's method for the continued fraction of the upper incomplete gamma
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square distributed with ``df`` degrees of freedom."""
    if df <= 0:
        raise ValueError("degrees of freedom must be 1 or more")
    if x <= 0:
        return 1.0
    a, half = df / 2, x / 2
    if half < a + 1:
        return max(0.0, 1 - _gamma_p_series(a, half))
    return min(1.0, _gamma_q_fraction(a, half))


def chi_square(table: list[list[int]]) -> tuple[float, int, float, float]:
    """Pearson's test of homogeneity of the rows of a contingency table:
    (statistic, degrees of freedom, p-value, the smallest expected count; the
    test is an approximation that wants it 5 or more)."""
    cols = [j for j in range(len(table[0])) if any(row[j] for row in table)]
    rows = [[row[j] for j in cols] for row in table if sum(row[j] for j in cols)]
    if len(rows) < 2 or len(cols) < 2:
        return (0.0, 0, 1.0, 0.0)
    total = sum(map(sum, rows))
    col_sums = [sum(r[j] for r in rows) for j in range(len(cols))]
    stat, least = 0.0, math.inf
    for r in rows:
        n = sum(r)
        for j, obs in enumerate(r):
            exp = n * col_sums[j] / total
            least = min(least, exp)
            stat += (obs - exp) ** 2 / exp
    df = (len(rows) - 1) * (len(cols) - 1)
    return (stat, df, chi2_sf(stat, df), least)


def holm(pvalues: list[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values (in the order given)."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def ending(rule: str | None, reason: str) -> str:
    """How a game ended, for the report: the deciding production, with the
    reason when its name does not say it (a preset that rewrote
    ``fide.checkmate-win`` to end the game on the first capture:
    ``fide.checkmate-win (first capture)``), else the reason (``move cap``)."""
    if not rule:
        return reason
    if reason.replace(" ", "-") in rule:
        return rule
    return f"{rule} ({reason})"


@dataclass
class VariantStats:
    """One variant's games, summed up (see the module's docstring)."""

    name: str
    games: int
    white: int
    draws: int
    black: int
    dice: bool
    lengths: list[int]                  # plies (Dice Chess: turns), in game order
    endings: Counter                    # deciding rule (or reason) -> games
    scores: list[float]                 # White's score per game, in game order
    turns: int = 0
    turns_cut: int = 0
    seconds: float = 0.0
    config: dict = field(default_factory=dict)

    def rate(self, k: int) -> tuple[float, float, float]:
        """(rate, low, high) of ``k`` of the games, with the 95% Wilson interval."""
        lo, hi = wilson(k, self.games)
        return (k / self.games if self.games else 0.0, lo, hi)

    @property
    def score(self) -> float:
        return (self.white + self.draws / 2) / self.games if self.games else 0.0

    @property
    def elo(self) -> tuple[float, float]:
        return elo(self.white, self.draws, self.black)

    def length_quartiles(self) -> tuple[float, float, float]:
        """(first quartile, median, third quartile) of the game lengths."""
        if not self.lengths:
            return (0.0, 0.0, 0.0)
        if len(self.lengths) == 1:
            v = float(self.lengths[0])
            return (v, v, v)
        q1, q2, q3 = statistics.quantiles(self.lengths, n=4, method="inclusive")
        return (q1, q2, q3)

    @property
    def cut_share(self) -> float | None:
        """Dice Chess: the share of turns the Maximum Micro-moves Rule cut."""
        return self.turns_cut / self.turns if self.dice and self.turns else None


def summarize(rows: list[dict], label=lambda row: row["variant"]) -> list[VariantStats]:
    """The stats of each variant (``label(row)`` names it), in first-seen order."""
    import json
    out: dict[str, VariantStats] = {}
    for row in rows:
        name = label(row)
        config = json.loads(row["variant_config"])
        st = out.get(name)
        if st is None:
            st = out[name] = VariantStats(name, 0, 0, 0, 0, bool(config.get("dice")), [],
                                          Counter(), [], config=config)
        st.games += 1
        winner = row["winner"]
        if winner == "white":
            st.white += 1
        elif winner == "black":
            st.black += 1
        else:
            st.draws += 1
        st.scores.append({"white": 1.0, "black": 0.0}.get(winner or "", 0.5))
        st.lengths.append(row["turns"] if st.dice else row["plies"])
        st.endings[ending(row["rule"], row["reason"])] += 1
        st.turns += row["turns"]
        st.turns_cut += row["turns_cut"]
        st.seconds += row["seconds"]
    return list(out.values())


@dataclass
class Comparison:
    """A chi-square test between variants' results."""

    names: list[str]
    statistic: float
    df: int
    p: float
    p_adjusted: float
    least_expected: float

    @property
    def significant(self) -> bool:
        return self.df > 0 and self.p_adjusted < 0.05


def compare(stats: list[VariantStats]) -> list[Comparison]:
    """All variants together, then each against the first (the baseline):
    chi-square tests of their White/draw/Black counts, Holm-adjusted over the
    pairwise ones (the overall test stands alone)."""
    if len(stats) < 2:
        return []
    table = lambda group: [[s.white, s.draws, s.black] for s in group]  # noqa: E731
    out = []
    stat, df, p, least = chi_square(table(stats))
    if len(stats) > 2:
        out.append(Comparison([s.name for s in stats], stat, df, p, p, least))
    base = stats[0]
    pairs = []
    for other in stats[1:]:
        stat, df, p, least = chi_square(table([base, other]))
        pairs.append(Comparison([base.name, other.name], stat, df, p, p, least))
    for c, adj in zip(pairs, holm([c.p for c in pairs])):
        c.p_adjusted = adj
    return out + pairs
