"""Check a Miss Manners answer: a valid seating of every guest.

An engine reports its answer as the ``(name, seat)`` pairs that
``print_results`` printed. Valid means: seats 1..N each hold exactly one
guest, every guest is seated exactly once, and neighbours (seat i and i+1;
the classic program does not close the circle) are of opposite sex and share
a hobby.
"""
from __future__ import annotations

from .generate import MannersData, expected_firings


class InvalidSeating(AssertionError):
    pass


def validate(data: MannersData, pairs, firings: int | None = None,
             exact_firings: bool = False) -> list:
    """Return the seating as a list of guest names by seat; raise if invalid."""
    pairs = [(int(n), int(s)) for n, s in pairs]
    n = data.seats
    by_seat: dict[int, int] = {}
    for name, seat in pairs:
        if seat in by_seat:
            raise InvalidSeating(f"seat {seat} is given twice ({by_seat[seat]} and {name})")
        by_seat[seat] = name
    if sorted(by_seat) != list(range(1, n + 1)):
        raise InvalidSeating(f"seats {sorted(by_seat)} are not 1..{n}")
    names = [by_seat[s] for s in range(1, n + 1)]
    if sorted(names) != sorted(data.sexes):
        raise InvalidSeating(f"guests seated {sorted(names)} are not each guest once")
    for i in range(n - 1):
        a, b = names[i], names[i + 1]
        if data.sexes[a] == data.sexes[b]:
            raise InvalidSeating(f"seats {i + 1} and {i + 2}: guests {a} and {b} are both {data.sexes[a]}")
        if not set(data.hobbies[a]) & set(data.hobbies[b]):
            raise InvalidSeating(f"seats {i + 1} and {i + 2}: guests {a} and {b} share no hobby")
    if exact_firings and firings is not None and firings != expected_firings(data.n):
        raise InvalidSeating(f"{firings} firings, expected {expected_firings(data.n)}")
    return names
