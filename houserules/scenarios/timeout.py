"""The scenario time limit, read from ``HOUSERULES_SCENARIO_TIMEOUT``.

A module of its own, importing no engine code, so that the pytest plugin can
refuse a mistyped limit at start-up without loading the engine in every pytest
run of a project that merely has houserules installed.
"""
from __future__ import annotations

import math
import os

__all__ = ["DEFAULT_TIMEOUT", "scenario_timeout"]

#: Seconds a scenario may run before it is stopped (``HOUSERULES_SCENARIO_TIMEOUT``; 0 = never).
DEFAULT_TIMEOUT = 60.0


def scenario_timeout() -> float:
    """Seconds from ``HOUSERULES_SCENARIO_TIMEOUT`` (unset or empty: the default;
    0, a negative number or ``inf``: no limit). Text that is no number raises
    ``ValueError``: a limit mistyped is not silently the default."""
    raw = os.environ.get("HOUSERULES_SCENARIO_TIMEOUT")
    if raw is None or not raw.strip():
        return DEFAULT_TIMEOUT
    try:
        t = float(raw)
    except ValueError:
        raise ValueError(f"HOUSERULES_SCENARIO_TIMEOUT={raw!r} is not a number of seconds "
                         f"(e.g. 120; 0 or inf for no limit; unset for the default "
                         f"{DEFAULT_TIMEOUT:g})") from None
    return t if math.isfinite(t) and t > 0 else 0.0
