"""Waltz data: ``regions`` copies of the classic 18-line drawing.

The OPS5/CLIPS Waltz benchmark labels the lines of a drawing of simple
polyhedra. Its drawing unit is the 18-line, 13-point figure of the classic
``begin`` rule, with points encoded as ``x * 100 + y`` (``get_x`` and
``get_y`` decode them). The sizes (waltz 12, 25, 50) are numbers of regions;
this generator lays the regions out side by side, region ``r`` translated by
``100 * r`` in x, so a point is ``(x + 100 r) * 100 + y``. Translation keeps
every angle, hence every junction type, and the encoding stays valid.

The classic rules seed the labelling at two junctions only (the one with the
largest base point and the one with the smallest), so with disconnected
regions the labelling propagates through the first and the last region and the
regions between are left to ``plot_boundaries``: that is the classic program
on multi-region data, kept as it is.

    python -m benchmarks.waltz.generate 12          # CLIPS facts on stdout
"""
from __future__ import annotations

import sys
from dataclasses import dataclass

# The classic figure: 18 lines between 13 points, (x, y) pairs.
FIGURE = (
    ((1, 22), (1, 7)), ((1, 7), (22, 7)), ((22, 7), (32, 4)), ((32, 4), (64, 4)),
    ((22, 16), (22, 7)), ((32, 13), (32, 4)), ((22, 16), (32, 13)), ((1, 7), (26, 1)),
    ((26, 1), (74, 1)), ((64, 4), (74, 1)), ((32, 13), (64, 13)), ((64, 13), (64, 4)),
    ((74, 16), (74, 1)), ((52, 16), (64, 13)), ((22, 16), (52, 16)), ((1, 22), (52, 22)),
    ((52, 22), (74, 16)), ((52, 22), (52, 16)),
)

REGION_DX = 100


@dataclass(frozen=True)
class WaltzData:
    regions: int
    lines: tuple            # ((p1, p2), ...) encoded points


def encode(x: int, y: int) -> int:
    return x * 100 + y


def decode(p: int) -> tuple[int, int]:
    return p // 100, p % 100


def generate(regions: int) -> WaltzData:
    if regions < 1:
        raise ValueError("Waltz needs at least one region")
    lines = []
    for r in range(regions):
        dx = REGION_DX * r
        for (x1, y1), (x2, y2) in FIGURE:
            lines.append((encode(x1 + dx, y1), encode(x2 + dx, y2)))
    return WaltzData(regions, tuple(lines))


def clips_facts(data: WaltzData) -> str:
    out = [f"(line (p1 {a}) (p2 {b}))" for a, b in data.lines]
    out.append("(stage (value duplicate))")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    sys.stdout.write(clips_facts(generate(int(sys.argv[1]) if len(sys.argv) > 1 else 12)))
