"""The playground's refusals: every one an HTTP status, a kind and a message.

A refused request changes nothing: the game it names is as it was before.
The JSON body of a refusal is ``{"error": {"kind": ..., "message": ...}}``,
with ``rule`` and ``reason`` added when a rule of the game refused a move.
"""
from __future__ import annotations


class PlaygroundError(Exception):
    """A request the playground refuses (never a fault of the server)."""

    status = 422
    kind = "refused"

    def __init__(self, message: str, **details):
        super().__init__(message)
        self.message = message
        self.details = {k: v for k, v in details.items() if v is not None}

    def body(self) -> dict:
        return {"error": {"kind": self.kind, "message": self.message, **self.details}}


class BadRequestError(PlaygroundError):
    """A request that is not one the API reads (its JSON, its fields)."""

    status = 400
    kind = "bad-request"


class NotFoundError(PlaygroundError):
    """No such game (never made, ended, or past its lifetime)."""

    status = 404
    kind = "not-found"


class RulesError(PlaygroundError):
    """Rules that cannot be built: presets that do not compose, a bad setting,
    rule text with an error, an unknown layout."""

    kind = "rules"


class PositionError(PlaygroundError):
    """A FEN or DFEN the rules cannot read."""

    kind = "position"


class MoveRefusedError(PlaygroundError):
    """A move the rules refuse: ``rule`` names the production, ``reason`` says why."""

    kind = "move-refused"


class NotNowError(PlaygroundError):
    """A request that does not fit the game's state now (nothing to undo, dice
    not rolled, a turn with a micro-move left, the game over)."""

    status = 409
    kind = "not-now"


class TooLargeError(PlaygroundError):
    """A request over a size limit (the body, a rule text, a FEN)."""

    status = 413
    kind = "too-large"


class TooManyError(PlaygroundError):
    """The server holds as many games as it may."""

    status = 503
    kind = "too-many-games"


class TooLongError(PlaygroundError):
    """A computation cut by the time limit."""

    status = 503
    kind = "time-limit"
