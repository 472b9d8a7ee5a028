"""Functions every session knows by name, for tests and actions in rule text.

Tests call them as ``fn(*values)``; action calls receive the firing context
first (``fn(ctx, *values)``). Only registered functions can be called: rule
text never evaluates Python.
"""
from __future__ import annotations

import operator
from typing import Any, Callable


def _print(ctx, *args):
    print(*args)


BUILTINS: dict[str, Callable[..., Any]] = {
    "eq": operator.eq, "ne": operator.ne, "neq": operator.ne,
    "lt": operator.lt, "le": operator.le, "gt": operator.gt, "ge": operator.ge,
    "=": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge,
    "add": operator.add, "sub": operator.sub, "mul": operator.mul,
    "mod": operator.mod, "abs": abs, "not": operator.not_,
    "member": lambda x, *xs: x in xs,
    "even": lambda x: x % 2 == 0, "odd": lambda x: x % 2 == 1,
    "count": len,       # of the facts a ``collect`` binds
    "print": _print,
}

#: The builtins that take values only: an action may not ``call`` them.
VALUE_FUNCTIONS = frozenset(BUILTINS) - {"print"}
