"""The playground's ASGI app: one page and the JSON API it uses.

``create_app(limits)`` makes the app (FastAPI on Starlette); ``houserules
serve`` runs it with uvicorn. The API is described by its OpenAPI schema at
``/openapi.json``. Every refusal is a 4xx with ``{"error": {"kind", "message",
...}}`` and changes nothing.
"""
from __future__ import annotations

from importlib import resources
from typing import Callable

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from chess_rules.errors import ChessError
from presets.registry import preset_table
from rete.errors import ReteError

from . import players
from .body_limit import BodyLimit
from .errors import NotFoundError, NotNowError, PlaygroundError, TooLongError
from .limits import Limits, TimeLimitError, run_limited
from .rules import RulesChoice, check_presets, layout_table, variant_table
from .schemas import (BotRequest, Catalog, Composition, CompositionAnswer, ErrorBody,
                      Explanation, FenRequest, GameState, MoveRequest, NewGame, Pgn,
                      RollRequest, SquareInfo)
from .sessions import Sessions
from .dice_table import DiceTable
from .tables import ChessTable, Table

#: the page's files, served by name (nothing else under static/ is reachable)
STATIC = {"app.js": "text/javascript", "board.js": "text/javascript",
          "style.css": "text/css"}
REFUSALS: dict[int | str, dict] = {
    code: {"model": ErrorBody, "description": what} for code, what in (
        (400, "a body that is not JSON text"), (404, "no such game"), (409, "not now (nothing to undo, dice not rolled, ...)"),
        (413, "over a size limit"), (422, "refused (a move, rules, a position), or a "
                                          "request the API does not read"),
        (503, "over the game count or the time limit"))}


def _static(name: str) -> bytes:
    return resources.files("houserules.web").joinpath("static", name).read_bytes()


def create_app(limits: Limits | None = None) -> FastAPI:
    """The playground app under ``limits`` (the defaults: :class:`Limits`)."""
    limits = limits or Limits()
    sessions = Sessions(limits)
    app = FastAPI(
        title="houserules playground",
        description="Play, explain and compose chess variants: the JSON API of the "
                    "page served at /. Every refusal is a 4xx whose body names its kind "
                    "and says why; a refused request changes nothing.",
        version=_version(), responses=REFUSALS,
        # (FastAPI's schema browsers load their scripts from a CDN: the page
        # of a local server loads nothing from elsewhere)
        docs_url=None, redoc_url=None)
    app.state.sessions = sessions
    app.state.limits = limits
    app.add_middleware(BodyLimit, max_body=limits.max_body)
    _add_error_handlers(app)

    def state(game_id: str, table: Table) -> dict:
        s = table.state()
        rules = dict(table.choice.describe(), name=table.ruleset.name)
        return dict(s, id=game_id, rules=rules)

    def act(game_id: str, what: str, fn: Callable[[Table], object]) -> dict:
        """Run ``fn`` on the game under the time limit; the game's state after."""
        with sessions.use(game_id) as table:
            table.run(what, lambda: fn(table))
            return state(game_id, table)

    # ------------------------------------------------------------ the page

    @app.get("/", include_in_schema=False)
    def page() -> HTMLResponse:
        return HTMLResponse(_static("index.html"))

    @app.get("/static/{name}", include_in_schema=False)
    def static(name: str) -> Response:
        if name not in STATIC:
            raise NotFoundError(f"no file {name[:60]!r}")
        return Response(_static(name), media_type=STATIC[name],
                        headers={"Cache-Control": "no-cache"})

    # ------------------------------------------------------------ rules

    @app.get("/api/catalog", response_model=Catalog, tags=["rules"])
    def catalog() -> dict:
        """The presets (with what each requires, what it cannot go with and why, and
        its settings' JSON schema), the layouts, the catalogue's variants (with
        their boards), the engine and the server's limits."""
        return {"presets": preset_table(), "layouts": layout_table(), "variants": variant_table(),
                "engine": players.ENGINE, "limits": vars(limits)}

    @app.post("/api/compose", response_model=CompositionAnswer, tags=["rules"])
    def compose(body: Composition) -> dict:
        """Whether presets compose (unknown ids, missing requirements,
        incompatible pairs), checked without building anything."""
        try:
            return {"ok": True, "order": check_presets(body.presets)}
        except PlaygroundError as e:
            return {"ok": False, "order": [], "reason": e.message}

    # ------------------------------------------------------------ games

    @app.post("/api/games", response_model=GameState, status_code=201, tags=["games"])
    def new_game(body: NewGame) -> dict:
        """A new game under the rules chosen, from the layout's start or ``fen``."""
        choice = RulesChoice(body.variant, body.layout, list(body.presets),
                             {k: dict(v) for k, v in body.config.items()}, body.rules)
        kind = DiceTable if body.variant == "dice" else ChessTable

        def build() -> Table:
            table = kind(choice, limits, body.fen)
            table.state()       # (rules that fail on the start fail here, not kept)
            return table

        def make() -> Table:
            try:
                return run_limited(build, limits.time_limit, "building the rules")
            except TimeLimitError as e:
                raise TooLongError(str(e)) from None
        game_id, table = sessions.add(make)
        with sessions.use(game_id) as table:
            return state(game_id, table)

    @app.get("/api/games/{game_id}", response_model=GameState, tags=["games"])
    def get_game(game_id: str) -> dict:
        """The game's position, legal moves, moves played and result."""
        with sessions.use(game_id) as table:
            return state(game_id, table)

    @app.delete("/api/games/{game_id}", status_code=204, tags=["games"])
    def end_game(game_id: str) -> Response:
        """Drop the game."""
        sessions.remove(game_id)
        return Response(status_code=204)

    @app.post("/api/games/{game_id}/moves", response_model=GameState, tags=["play"])
    def play(game_id: str, body: MoveRequest) -> dict:
        """Play a move (a Dice Chess micro-move); a refused one is a 422 naming
        the rule that refused it and why, and leaves the game as it was."""
        return act(game_id, "the move", lambda t: t.play(body.move))

    @app.post("/api/games/{game_id}/undo", response_model=GameState, tags=["play"])
    def undo(game_id: str) -> dict:
        """Take back the last move (Dice Chess: micro-move)."""
        return act(game_id, "taking back", lambda t: t.undo())

    @app.post("/api/games/{game_id}/bot", response_model=GameState, tags=["play"])
    def bot(game_id: str, body: BotRequest) -> dict:
        """The engine plays the side to move (Dice Chess: its whole turn)."""
        return act(game_id, "the engine's move", lambda t: t.bot(body.level))

    @app.post("/api/games/{game_id}/position", response_model=GameState, tags=["play"])
    def position(game_id: str, body: FenRequest) -> dict:
        """Set up a FEN (DFEN) under the game's rules; the moves played are dropped."""
        return act(game_id, "the position", lambda t: t.load(body.fen))

    @app.post("/api/games/{game_id}/roll", response_model=GameState, tags=["dice"])
    def roll(game_id: str, body: RollRequest | None = None) -> dict:
        """Dice Chess: roll the three dice of the turn."""
        faces = body.faces if body is not None else None
        return act(game_id, "the roll", lambda t: _dice(t).roll(faces))

    @app.post("/api/games/{game_id}/end-turn", response_model=GameState, tags=["dice"])
    def end_turn(game_id: str) -> dict:
        """Dice Chess: hand the turn over (refused while a legal micro-move is left)."""
        return act(game_id, "ending the turn", lambda t: _dice(t).end_turn())

    @app.get("/api/games/{game_id}/explain", response_model=Explanation, tags=["explain"])
    def explain(game_id: str, move: str) -> dict:
        """Which production generates ``move``, or which refuses it and why."""
        if len(move) > 32:
            raise PlaygroundError("a move is at most 32 characters")
        with sessions.use(game_id) as table:
            return table.run("the explanation", lambda: table.explain(move))

    @app.get("/api/games/{game_id}/squares/{square}", response_model=SquareInfo,
             tags=["explain"])
    def square(game_id: str, square: str) -> dict:
        """What may move to ``square``, and what the rules refuse there and why."""
        with sessions.use(game_id) as table:
            return table.run("the square's explanation", lambda: table.square(square))

    @app.get("/api/games/{game_id}/pgn", response_model=Pgn, tags=["games"])
    def pgn(game_id: str) -> dict:
        """The game as PGN (its presets in a Variant tag)."""
        with sessions.use(game_id) as table:
            return {"pgn": table.run("the PGN", table.pgn)}

    return app


def _dice(table: Table) -> DiceTable:
    if not isinstance(table, DiceTable):
        raise NotNowError("this is a game of chess: dice are for Dice Chess games")
    return table


def _add_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(PlaygroundError)
    def refused(request: Request, e: PlaygroundError) -> JSONResponse:
        return JSONResponse(e.body(), status_code=e.status)

    @app.exception_handler(ChessError)
    @app.exception_handler(ReteError)
    def rules_failed(request: Request, e: Exception) -> JSONResponse:
        # the rules' own typed error where no refusal was foreseen (a rule of
        # the page's rule text that never stops firing once a move is made):
        # the engine has undone the run, and the table was rebuilt as it was
        return JSONResponse({"error": {"kind": "rules", "message": f"the rules failed: {e}"}},
                            status_code=422)

    @app.exception_handler(RequestValidationError)
    def unreadable(request: Request, e: RequestValidationError) -> JSONResponse:
        parts = []
        for err in e.errors()[:5]:
            where = ".".join(str(x) for x in err.get("loc", ()) if x != "body") or "body"
            parts.append(f"{where}: {err.get('msg', 'invalid')}")
        return JSONResponse({"error": {"kind": "bad-request",
                                       "message": "; ".join(parts)}}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    def http_error(request: Request, e: StarletteHTTPException) -> JSONResponse:
        kind = {404: "not-found", 405: "method-not-allowed"}.get(e.status_code, "bad-request")
        message = str(e.detail)
        if e.status_code == 400:
            # (FastAPI's words for a body it could not decode)
            message = f"the request body cannot be read as JSON text in UTF-8 ({message.lower()})"
        headers = dict(getattr(e, "headers", None) or {})
        if e.status_code == 405:
            # every method of the path (Starlette names only its first route's)
            headers["Allow"] = ", ".join(_allowed(request))
        return JSONResponse({"error": {"kind": kind, "message": message}},
                            status_code=e.status_code, headers=headers)


def _allowed(request: Request) -> list[str]:
    """The methods the routes of the request's path answer."""
    methods: set[str] = set()
    for route in request.app.router.routes:
        match, _ = route.matches(request.scope)
        if match != Match.NONE:
            methods |= set(getattr(route, "methods", None) or ()) - {"HEAD"}
    return sorted(methods)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("houserules")
    except PackageNotFoundError:
        return "0"
