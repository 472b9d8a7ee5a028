"""Run a :class:`Scenario` on the Game API (or, with ``dfen``, on the dice API).

:func:`run_scenario` returns normally when every expectation holds, raises
:class:`ScenarioFailure` (what was expected, what happened, the engine's
explanation of the move involved) at the first that does not, and
:class:`ScenarioError` when the scenario itself cannot be set up or played
(unknown preset, bad FEN, a move the position refuses).
"""
from __future__ import annotations

import signal
import threading

from chess_rules.errors import ArgumentError
from chess_rules.ruleset import checked_ruleset
from .dice_runner import DiceRunner
from .game_runner import GameRunner
from .model import Expectation, Scenario, ScenarioError, ScenarioFailure, Step, scenario_error
from .setup import REFUSALS, locate_setup_error
from .timeout import DEFAULT_TIMEOUT, scenario_timeout

__all__ = ["run_scenario", "scenario_timeout", "ScenarioFailure", "DEFAULT_TIMEOUT"]


class _Timeout(BaseException):
    pass


def run_scenario(sc: Scenario, timeout: float | None = None, ruleset=None) -> None:
    """Run one scenario; raise :class:`ScenarioFailure` or :class:`ScenarioError`.

    ``ruleset``: the rule set the scenario runs on, a
    :class:`~chess_rules.ruleset.RuleSet` composed in Python (FIDE when None);
    the scenario's ``presets``, ``rules`` and ``modifier`` statements apply on
    top of a copy of it.

    A scenario still running after ``timeout`` seconds (default
    :func:`scenario_timeout`) is stopped with a :class:`ScenarioError` at the
    statement it was running (only where SIGALRM can be used: the main thread).
    """
    # (not a scenario's fault: raised as they are)
    if not isinstance(sc, Scenario):
        raise ArgumentError(f"run_scenario runs a Scenario (parse_file or parse_text gives them, "
                            f"a list: run each), not {type(sc).__name__}")
    checked_ruleset(ruleset)
    timeout = scenario_timeout() if timeout is None else timeout
    usable = timeout and 0 < timeout < 1e9 and hasattr(signal, "setitimer") and \
        threading.current_thread() is threading.main_thread()
    if not usable:
        return _run_scenario(sc, None, ruleset)
    where: list = [sc]

    def on_alarm(signum, frame):
        raise _Timeout()

    old = signal.signal(signal.SIGALRM, on_alarm)
    try:
        # armed inside the try: a limit shorter than this line still reports
        signal.setitimer(signal.ITIMER_REAL, timeout)
        _run_scenario(sc, where, ruleset)
    except _Timeout:
        item = where[-1]
        what = f"while running {item.source() if isinstance(item, Expectation) else item.kind}" \
            if isinstance(item, (Step, Expectation)) else "while setting up"
        raise scenario_error(f"scenario {sc.name!r} timed out after {timeout:g}s {what} "
                             f"(HOUSERULES_SCENARIO_TIMEOUT sets the limit)",
                             item if isinstance(item, (Step, Expectation)) else sc.loc) from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _run_scenario(sc: Scenario, where: list | None = None, ruleset=None) -> None:
    refused = [e for e in sc.expectations if e.kind == "refused"]
    if refused:
        first = refused[0]
        if sc.body[0] is not first or len(sc.body) > 1:
            raise scenario_error("'expect refused' checks the setup: it must be the only statement "
                                 "after the setup", first)
    try:
        runner = DiceRunner(sc, ruleset) if sc.setup.is_dice else GameRunner(sc, ruleset)
        if refused:
            # the rules run once, as the first statement would run them: a rule
            # whose test or action raises (MatchError, ActionError) refuses the setup
            runner.legal()
    except ScenarioError:
        raise
    except REFUSALS as e:
        if refused:
            kind = refused[0].args[0].text
            names = [c.__name__ for c in type(e).__mro__]
            if kind in names:
                return
            raise ScenarioFailure(refused[0].loc, refused[0].source(),
                                  f"the setup refused with {kind}",
                                  f"refused with {type(e).__name__}: {e}") from None
        raise locate_setup_error(sc, e) from None
    if refused:
        raise ScenarioFailure(refused[0].loc, refused[0].source(),
                              f"the setup refused with {refused[0].args[0].text}",
                              "the setup was accepted")
    runner.where = where if where is not None else []
    runner.run()
