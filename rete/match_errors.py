"""The error a test raises while a change is matched, located: which rule's test
raised and, for a rule from rule text, where that rule uses the function.

Matching itself keeps no bookkeeping for this: only this error path walks the
traceback, to the network node and the compiled test that were running.
"""
from __future__ import annotations

from . import compiler
from .errors import MatchError

_COMPILER_FILE = compiler.__file__


def _rules_testing(exc: BaseException) -> list:
    """The productions below the node whose test raised, found from the
    traceback (only on this error path: matching itself carries no bookkeeping
    for it), sorted by name; empty when no node is found."""
    from .alpha import AlphaMemory
    node = None
    tb = exc.__traceback__
    while tb is not None:
        loc = tb.tb_frame.f_locals
        for cand in (loc.get("m"), loc.get("self")):
            # an alpha memory, or a beta node (nodes keep their children in a list)
            if isinstance(cand, AlphaMemory) or isinstance(getattr(cand, "children", None), list):
                node = cand
        tb = tb.tb_next
    if node is None:
        return []
    prods, seen, stack = {}, set(), [node]
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        prod = getattr(n, "production", None)
        if prod is not None and getattr(n, "kind", "") == "production":
            prods[prod.name] = prod
        stack.extend(getattr(n, "successors", ()) if isinstance(n, AlphaMemory) else
                     getattr(n, "children", ()) or ())
    return [prods[k] for k in sorted(prods)]


def _failed_function(exc: BaseException):
    """The function a compiled test was calling when ``exc`` was raised (the
    deepest test closure of the traceback holds it), or None."""
    fn = None
    tb = exc.__traceback__
    while tb is not None:
        frame = tb.tb_frame
        if frame.f_code.co_filename == _COMPILER_FILE:
            cand = frame.f_locals.get("fn")
            if callable(cand):
                fn = cand
        tb = tb.tb_next
    return fn


def match_error(exc: BaseException, functions: dict, what: str,
                production=None) -> MatchError:
    """A :class:`MatchError` for ``exc``, raised by a test while matching ``what``.

    It names the rule (or rules) whose test raised and, for a single rule from
    rule text, where that rule first uses the failing function: ``source``,
    ``line``, ``column``, and the message starts ``source:line:column:``.
    ``production``: the rule whose test it was, when the caller knows (one
    being added), else found in the network."""
    prods = [production] if production is not None else _rules_testing(exc)
    of = ""
    if prods:
        of = (" of rule " if len(prods) == 1 else " of rules ") + \
            ", ".join(repr(p.name) for p in prods)
    at = None
    if len(prods) == 1 and prods[0].test_lines:
        fn = _failed_function(exc)
        for key, line, column in prods[0].test_lines:
            # by identity: one function may have several names (gt and >)
            if fn is not None and functions.get(key) is fn:
                at = (prods[0].source, line, column)
                break
    return MatchError(f"a test{of} raised while matching {what}: {exc!r}", exc, at)
