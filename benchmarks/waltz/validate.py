"""Check a Waltz answer against the drawing, independently of any engine.

Valid means:

* the run finished (the stage fact says ``done``);
* every line became exactly two edges, one each way;
* every point got exactly one junction: ``L`` where two lines meet, and where
  three meet the type the classic ``make-3_junction`` classifier gives for
  some order of the three far ends (the rules may present them in any order);
* every label is one of ``B + - nil`` and the two edges of a line carry the
  same label (``match_edge`` copies a label to the reverse edge);
* the number of firings is the classic program's on this data:
  66 for one region, ``67 r - 4`` for ``r >= 2`` (the middle regions are
  only reversed, joined and plotted; CLIPS fires the same numbers).
"""
from __future__ import annotations

from itertools import permutations

from .generate import WaltzData
from .geometry import classify


class InvalidLabelling(AssertionError):
    pass


def expected_firings(regions: int) -> int:
    return 66 if regions == 1 else 67 * regions - 4


def validate(data: WaltzData, result: dict, exact_firings: bool = True) -> None:
    if result.get("stage") != ["done"]:
        raise InvalidLabelling(f"the run did not finish: stage {result.get('stage')}")
    edges = result["edges"]
    want = sorted([(a, b) for a, b in data.lines] + [(b, a) for a, b in data.lines])
    got = sorted((a, b) for a, b, _ in edges)
    if got != want:
        raise InvalidLabelling(f"{len(got)} edges, expected both directions of {len(data.lines)} lines")
    ends: dict[int, list] = {}
    for a, b in data.lines:
        ends.setdefault(a, []).append(b)
        ends.setdefault(b, []).append(a)
    junctions = result["junctions"]
    if sorted(bp for bp, _ in junctions) != sorted(ends):
        raise InvalidLabelling("not exactly one junction per point")
    for bp, jtype in junctions:
        far = ends[bp]
        if len(far) == 2:
            ok = {"L"}
        else:
            ok = {classify(bp, *p)[0] for p in permutations(far)}
        if jtype not in ok:
            raise InvalidLabelling(f"junction at {bp} is {jtype!r}, expected one of {sorted(ok)}")
    label = {(a, b): l for a, b, l in edges}
    for (a, b), l in label.items():
        if l not in ("B", "+", "-", "nil"):
            raise InvalidLabelling(f"edge {a}->{b} has label {l!r}")
        if label[(b, a)] != l:
            raise InvalidLabelling(f"line {a}-{b} is labelled {l!r} one way, {label[(b, a)]!r} the other")
    if exact_firings and result["firings"] != expected_firings(data.regions):
        raise InvalidLabelling(f"{result['firings']} firings, expected {expected_firings(data.regions)}")
