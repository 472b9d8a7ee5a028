"""Miss Manners data, after Tim Grose's 1991 OPS5 generator (``manner_data.c``).

The original asks for a number of guests, seats and the minimum/maximum
number of hobbies, seeds ``srand(10)`` and, for each guest:

* draws a sex at random, capped so that exactly ``n // 2`` guests are male
  and ``n - n // 2`` female (once one sex is full, the other is forced);
* draws a hobby count uniformly in ``[min_hobbies, max_hobbies]``;
* draws that many distinct hobbies out of ``1..max_hobbies`` by rejection.

The standard data sets (manners16/32/64/128 of the OPS5 and CLIPS suites) use
``seats = guests`` and 2-3 hobbies out of 3, so any two guests share a hobby
and the greedy depth-first search never backtracks. This port uses Python's
``random.Random(seed)`` instead of the C library's ``rand()``, so the data is
deterministic for a seed but not byte-identical to the historical files.

Facts come out in the generator's order: that order is the recency order the
engines see, so every engine is given the same list.

    python -m benchmarks.manners.generate 16          # CLIPS facts on stdout
"""
from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field


@dataclass(frozen=True)
class MannersData:
    n: int
    seats: int
    guests: tuple            # ((name, sex, hobby), ...): one fact per guest hobby
    seed: int = 10
    sexes: dict = field(default_factory=dict, compare=False)
    hobbies: dict = field(default_factory=dict, compare=False)


def generate(n: int, seed: int = 10, max_hobbies: int = 3, min_hobbies: int = 2,
             seats: int | None = None) -> MannersData:
    """``n`` guests (names 1..n), each with min..max hobbies out of ``max_hobbies``."""
    if n < 2:
        raise ValueError("Miss Manners needs at least two guests")
    if not 1 <= min_hobbies <= max_hobbies:
        raise ValueError("need 1 <= min_hobbies <= max_hobbies")
    rng = random.Random(seed)
    max_male = n // 2
    max_female = n - max_male
    males = females = 0
    facts = []
    sexes: dict[int, str] = {}
    hobbies: dict[int, tuple] = {}
    for name in range(1, n + 1):
        sex = "m" if rng.random() < 0.5 else "f"
        if sex == "m" and males == max_male:
            sex = "f"
        if sex == "f" and females == max_female:
            sex = "m"
        if sex == "m":
            males += 1
        else:
            females += 1
        count = min(max_hobbies, min_hobbies + int(rng.random() * (max_hobbies - min_hobbies + 1)))
        chosen: list[int] = []
        for _ in range(count):
            while True:
                h = 1 + min(max_hobbies - 1, int(rng.random() * max_hobbies))
                if h not in chosen:
                    break
            chosen.append(h)
            facts.append((name, sex, h))
        sexes[name] = sex
        hobbies[name] = tuple(chosen)
    return MannersData(n, seats if seats is not None else n, tuple(facts), seed, sexes, hobbies)


def expected_firings(n: int) -> int:
    """Firings of the classic rules on data that needs no backtracking.

    assign_first_seat 1; per seat k = 2..n: find_seating 1 + make_path (k-1)
    + path_done 1 + continue/are_we_done 1; print_results n; all_done 1.
    Sum: n(n-1)/2 + 3(n-1) + n + 2 = n(n-1)/2 + 4n - 1.
    """
    return n * (n - 1) // 2 + 4 * n - 1


def clips_facts(data: MannersData) -> str:
    """The data as CLIPS fact text (the manners*.dat format)."""
    lines = [f"(guest (name {g}) (sex {s}) (hobby {h}))" for g, s, h in data.guests]
    lines.append(f"(last_seat (seat {data.seats}))")
    lines.append("(count (c 1))")
    lines.append("(context (state start))")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 16
    sys.stdout.write(clips_facts(generate(size)))
