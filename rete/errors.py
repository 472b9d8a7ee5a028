"""The engine's typed errors: one hierarchy rooted in :class:`ReteError`.

Every error leaves the session as it was before the call that raised it.
"""
from __future__ import annotations


def did_you_mean(name, known) -> str:
    """`` (did you mean 'x'?)`` for the known name closest to a misspelt one, or
    nothing: what an unknown template, slot or function's message ends with."""
    if not isinstance(name, str):
        return ""
    import difflib
    close = difflib.get_close_matches(name, [k for k in known if isinstance(k, str)], n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _rebuilt(cls, args, state):
    e = cls.__new__(cls)
    e.args = args
    e.__dict__.update(state)
    return e


class ReteError(Exception):
    """Base of every error the engine raises.

    Errors pickle and copy as they are (their message and attributes, whatever
    their constructor takes), so a game run in a worker process can hand one back.
    """

    #: Where in rule text the error is (the file or ``<string>``, the line and
    #: column), for one raised loading rule text; None for one that is not.
    source: str | None = None
    line: int | None = None
    column: int | None = None

    def __reduce__(self):
        return (_rebuilt, (type(self), self.args, dict(self.__dict__)))


class RuleSyntaxError(ReteError):
    """Rule text that does not parse. Carries the line and column."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None,
                 source: str | None = None):
        self.line = line
        self.column = column
        self.source = source
        where = ""
        if line is not None:
            where = f"{source + ':' if source else ''}{line}:{column}: "
        super().__init__(f"{where}{message}")


class CompileError(ReteError):
    """A production or template that cannot be compiled into the network."""

    #: for a mistake in one action: its index among the production's actions
    #: and, for a slot it gives twice, the index of the second among its slots
    action: int | None = None
    slot_index: int | None = None

    def __init__(self, message: str, rule: str | None = None):
        self.rule = rule
        prefix = f"rule {rule!r}: " if rule else ""
        super().__init__(prefix + message)


class UnknownTemplateError(CompileError):
    pass


class UnknownSlotError(CompileError):
    pass


class UnknownFunctionError(CompileError):
    pass


class ActionFunctionError(CompileError):
    """An action calls a function of values only (``add``, ``>``...): an action's
    call passes the firing context first. ``function`` names it."""

    def __init__(self, function: str, rule: str | None = None):
        self.function = function
        super().__init__(f"{function!r} is a function of values, for tests and expressions; "
                         "an action's call passes the firing context first, so it calls "
                         "a function registered for actions", rule)


class UnboundVariableError(CompileError):
    pass


class UnknownSlotValueError(CompileError):
    """A constant that a slot never holds, by the session's
    :attr:`~rete.Session.slot_values` hook (``piece(type: kniht)`` where the
    layer above says a piece's type is one of six): a condition on it would
    never match. ``name`` is ``(template, slot)``, ``value`` the constant."""

    def __init__(self, template: str, slot: str, value, allowed, rule: str | None = None):
        self.name = (template, slot)
        self.value = value
        shown = ", ".join("nil" if v is None else str(v) for v in allowed)
        super().__init__(f"slot {slot!r} of {template!r} never holds {value!r}"
                         f"{did_you_mean(value, allowed)}; it holds one of: {shown}", rule)


class CollectedFactsError(CompileError):
    """A variable a ``collect`` binds is used where one value or fact must be:
    in a test or a pattern (``target`` false), or as the fact a retract or a
    modify acts on (``target`` true). ``variable`` names it."""

    def __init__(self, message: str, variable: str, rule: str | None = None,
                 target: bool = False):
        self.variable = variable
        self.target = target
        super().__init__(message, rule)


class DuplicateTemplateError(CompileError):
    pass


class DuplicateProductionError(ReteError):
    pass


class UnknownProductionError(ReteError):
    pass


class UnknownStageError(ReteError):
    #: the rule that names the stage, as a :class:`CompileError` names its rule
    #: (None for a run's focus)
    rule: str | None = None


class StageCycleError(ReteError):
    """Stage ordering constraints that form a cycle."""

    def __init__(self, cycle: list[str]):
        self.cycle = cycle
        super().__init__("stage order has a cycle: " + " -> ".join(cycle + cycle[:1]))


class FactError(ReteError):
    pass


class UnknownFactError(FactError):
    """Retract or modify of a fact this session never had."""


class RetractedFactError(FactError):
    """Retract or modify of a fact that was already retracted."""


class SlotValueError(FactError):
    """A fact asserted with slots its template does not declare."""


class MatchError(FactError):
    """A test or predicate raised while a change was being matched.

    The change is undone (working memory and agenda are as before the call)
    and the original exception is the ``cause``. For a rule from rule text,
    ``source``, ``line`` and ``column`` say where the rule first uses the
    function that raised (None otherwise), and the message starts with them.
    """

    def __init__(self, message: str, cause: BaseException | None = None,
                 at: tuple | None = None):
        self.cause = cause
        self.source, self.line, self.column = at if at is not None else (None, None, None)
        where = f"{self.source}:{self.line}:{self.column}: " if at is not None else ""
        super().__init__(where + message)


class RunawayError(ReteError):
    """A run reached its ``max_firings`` with activations still pending (a rule
    that keeps matching what its own actions change); the run was rolled back."""

    def __init__(self, rule: str, firings: int):
        self.rule = rule
        self.firings = firings
        super().__init__(
            f"the run stopped after {firings} firings with rule {rule!r} still to fire: "
            f"a rule whose action makes it (or another) match again, over and over; "
            f"nothing the run did was kept")


class ActionError(ReteError):
    """An action raised while a production fired; the run was rolled back."""

    def __init__(self, rule: str, cause: BaseException, at: tuple | None = None):
        self.rule = rule
        self.cause = cause
        # ``source``, ``line``, ``column``: the action in rule text that raised
        self.source, self.line, self.column = at if at is not None else (None, None, None)
        where = f"{self.source}:{self.line}:{self.column}: " if at is not None else ""
        super().__init__(f"{where}rule {rule!r} failed in its action: {cause!r}")
