"""The games the server holds: at most so many, each for a bounded time.

A game is named by a random id the server hands out when it makes it. A game
idle for longer than its lifetime is dropped at the next request; a new game
past the count is refused (the oldest is not evicted: a page in use keeps its
game).
"""
from __future__ import annotations

import secrets
import threading
import time
from contextlib import contextmanager
from typing import Callable, Iterator

from .errors import NotFoundError, TooManyError
from .limits import Limits
from .tables import Table


class Sessions:
    """The tables of one server, by id."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic):
        self.limits = limits
        self.clock = clock
        self._tables: dict[str, Table] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            self._expire()
            return len(self._tables)

    def add(self, make: Callable[[], Table]) -> tuple[str, Table]:
        """Make a table and keep it under a new id (refused past the count; the
        table is made only when there is room for it)."""
        with self._lock:
            self._expire()
            if len(self._tables) >= self.limits.max_sessions:
                raise TooManyError(f"the server holds {len(self._tables)} games, its limit; "
                                   f"a game is dropped {self.limits.session_ttl:g} s after "
                                   f"its last request")
        table = make()
        with self._lock:
            if len(self._tables) >= self.limits.max_sessions:
                raise TooManyError(f"the server holds {len(self._tables)} games, its limit")
            game_id = secrets.token_urlsafe(12)
            table.touched = self.clock()
            self._tables[game_id] = table
        return game_id, table

    @contextmanager
    def use(self, game_id: str) -> Iterator[Table]:
        """The table of ``game_id``, locked for the request (:class:`NotFoundError`
        if there is none)."""
        with self._lock:
            self._expire()
            table = self._tables.get(game_id)
            if table is None:
                raise NotFoundError(f"no game {game_id[:40]!r} (it may have ended: a game is "
                                    f"dropped {self.limits.session_ttl:g} s after its last "
                                    f"request)")
            table.touched = self.clock()
        with table.lock:
            yield table

    def remove(self, game_id: str) -> None:
        with self._lock:
            if self._tables.pop(game_id, None) is None:
                raise NotFoundError(f"no game {game_id[:40]!r}")

    def _expire(self) -> None:
        now = self.clock()
        ttl = self.limits.session_ttl
        for k in [k for k, t in self._tables.items() if now - t.touched > ttl]:
            del self._tables[k]
