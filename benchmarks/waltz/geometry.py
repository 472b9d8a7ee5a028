"""The Waltz junction classifier (the classic ``make-3_junction`` function).

Given a base point and the far ends of its three edges, find the pair of
edges whose inscribed angles with the third sum least: that third edge is the
shaft, the others are barbs. A sum of pi (within 0.001) is a tee, more than
pi a fork, less an arrow. Ties are broken as in the classic function, so the
result depends on the order of p1, p2, p3 exactly as there.
"""
from __future__ import annotations

import math

from .generate import decode


def angle(p1: int, p2: int) -> float:
    x1, y1 = decode(p1)
    x2, y2 = decode(p2)
    dx, dy = x2 - x1, y2 - y1
    if dx == 0:
        return math.pi / 2 if dy > 0 else -math.pi / 2
    if dy == 0:
        return 0.0 if dx > 0 else math.pi
    return math.atan2(dy, dx)


def inscribed_angle(bp: int, p1: int, p2: int) -> float:
    t = abs(angle(bp, p1) - angle(bp, p2))
    if t > math.pi:
        t = 2 * math.pi - t
    return abs(t)


def classify(bp: int, p1: int, p2: int, p3: int) -> tuple[str, int, int, int]:
    """``(jtype, barb1, shaft, barb2)``: the junction's p1, p2 (shaft) and p3."""
    a12 = inscribed_angle(bp, p1, p2)
    a13 = inscribed_angle(bp, p1, p3)
    a23 = inscribed_angle(bp, p2, p3)
    s1213, s1223, s1323 = a12 + a13, a12 + a23, a13 + a23
    if s1213 < s1223:
        if s1213 < s1323:
            total, shaft, b1, b2 = s1213, p1, p2, p3
        else:
            total, shaft, b1, b2 = s1323, p3, p1, p2
    else:
        if s1223 < s1323:
            total, shaft, b1, b2 = s1223, p2, p1, p3
        else:
            total, shaft, b1, b2 = s1323, p3, p1, p2
    if abs(total - math.pi) < 0.001:
        jtype = "tee"
    elif total > math.pi:
        jtype = "fork"
    else:
        jtype = "arrow"
    return jtype, b1, shaft, b2
