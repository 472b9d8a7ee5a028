"""The playground's limits: how much one request may ask and how long it may run.

Everything a request can make the server do is bounded: the size of what it
sends (the body, a FEN, a rule text), how many games live at once and for how
long, and the time one computation may take. A computation that runs past its
time is interrupted and answered with :class:`TimeLimitError`; the game it ran
on is put back as it was before the request (:mod:`houserules.web.tables`).
"""
from __future__ import annotations

import ctypes
import threading
from dataclasses import dataclass
from typing import Callable, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Limits:
    """The bounds of one server (the defaults are ``houserules serve``'s)."""

    #: the most games (sessions) alive at once; a new one past it is refused
    max_sessions: int = 64
    #: seconds a game lives after its last request
    session_ttl: float = 3600.0
    #: the largest request body, in bytes
    max_body: int = 64 * 1024
    #: the longest rule text, in characters
    max_rule_text: int = 20_000
    #: the longest FEN or DFEN, in characters
    max_fen: int = 1_000
    #: the most moves (plies, or micro-moves) one game keeps
    max_plies: int = 2_000
    #: seconds one computation (a game built, a bot move, an explanation) may take
    time_limit: float = 10.0
    #: the engine levels offered
    max_level: int = 10


class TimeLimitError(TimeoutError):
    """A computation ran past the time limit and was interrupted.

    A TimeoutError, so that a game interrupted by it treats it as the
    interrupt it is (it rebuilds itself rather than trust a half-made change)."""


class _Interrupted(TimeoutError):
    """Raised inside the worker thread to stop it (never seen by a client)."""


def run_limited(fn: Callable[[], T], seconds: float, what: str) -> T:
    """``fn()``, run on a worker thread for at most ``seconds``.

    Past the limit the worker is interrupted (an exception raised in it at its
    next Python instruction: the engine is pure Python, so that is soon) and
    :class:`TimeLimitError` says what ran too long. Python cannot stop a thread
    from outside otherwise, and a worker left running would hold a core and
    the game's lock. Whatever ``fn`` raised is raised here.
    """
    box: dict = {}
    done = threading.Event()

    def work() -> None:
        try:
            box["value"] = fn()
        except BaseException as e:      # handed over to the caller's thread
            box["error"] = e
        finally:
            done.set()

    worker = threading.Thread(target=work, name="houserules-web-work", daemon=True)
    worker.start()
    if not done.wait(seconds):
        # it stops at its next instruction, unless the exception lands where
        # Python drops it (a weakref callback, a __del__): then again, for a
        # while; a worker that never stops (stuck in C code) is left as a
        # daemon, its result dropped (the caller no longer uses what it holds)
        for _ in range(50):
            _interrupt(worker)
            if done.wait(0.1):
                break
        raise TimeLimitError(f"{what} took longer than the server's limit of "
                             f"{seconds:g} s and was stopped")
    if "error" in box:
        raise box["error"]
    return box["value"]


def _interrupt(thread: threading.Thread) -> None:
    """Raise :class:`_Interrupted` in ``thread`` (CPython's asynchronous exception)."""
    if thread.ident is not None:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident),
                                                   ctypes.py_object(_Interrupted))
