"""Progress on stderr for the long benchmark runs, only when stderr is a terminal
(so that output piped or captured stays exactly the results)."""
from __future__ import annotations

import sys
from typing import Iterable, Iterator, TypeVar

T = TypeVar("T")


def shown() -> bool:
    return sys.stderr.isatty()


def track(items: Iterable[T], total: int, what: str) -> Iterator[T]:
    """``items`` unchanged, with a transient progress bar on a terminal stderr.

    The bar is redrawn between items, never by a thread of its own: the timed
    benchmarks read the process's CPU time, which such a thread would add to."""
    if not shown():
        yield from items
        return
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                               TimeElapsedColumn)
    columns = (TextColumn(what), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(file=sys.stderr), transient=True,
                  auto_refresh=False) as prog:
        task = prog.add_task(what, total=total)
        for item in items:
            yield item
            prog.advance(task)
            prog.refresh()


def note(text: str) -> None:
    """A line on a terminal stderr (a step of a long run)."""
    if shown():
        print(text, file=sys.stderr, flush=True)
