"""The API fuzzed from its own OpenAPI schema (schemathesis): whatever a
request holds, the answer is never an internal error, it conforms to the
schema, and a refused request changes nothing.

Slow (``make test-slow``): hundreds of generated requests per operation.
Requests that name a game mostly name a real one (a chess game with moves
played, a Dice Chess game mid-turn), so that they reach the game's code
rather than the 404 of an unknown id; its state is compared before and after
every refusal.
"""
from __future__ import annotations

import random

import pytest

pytest.importorskip("fastapi")
schemathesis = pytest.importorskip("schemathesis")

from fastapi.testclient import TestClient  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.checks import CHECKS, load_all_checks  # noqa: E402

from houserules.web import Limits, create_app  # noqa: E402

pytestmark = pytest.mark.slow

# room for every game the fuzz makes, and time for every request on a busy
# machine (tests/web/test_limits.py tests the limit itself)
APP = create_app(Limits(max_sessions=100_000, time_limit=120.0))
SCHEMA = schemathesis.openapi.from_asgi("/openapi.json", APP)
CLIENT = TestClient(APP)
#: the 5xx the API may answer (capacity and time): typed refusals, never a crash
REFUSED_5XX = {"too-many-games", "time-limit"}
load_all_checks()
#: a well-formed request may still be refused (a move the rules refuse): all
#: schemathesis's checks but the one that wants every valid request accepted
#: (looked up by name: the checks' modules moved between schemathesis 4.x)
NOT_CHECKED = CHECKS.get_by_names(["positive_data_acceptance"])


_GAMES: dict[str, str] = {}


def _new_game(kind: str) -> str:
    if kind == "chess":
        game = CLIENT.post("/api/games", json={"presets": ["piece-hp"]}).json()["id"]
        for move in ("e2e4", "e7e5", "g1f3"):
            CLIENT.post(f"/api/games/{game}/moves", json={"move": move})
    else:
        game = CLIENT.post("/api/games", json={"variant": "dice"}).json()["id"]
        CLIENT.post(f"/api/games/{game}/roll", json={"faces": [1, 2, 3]})
        CLIENT.post(f"/api/games/{game}/moves", json={"move": "e2e4"})
    return game


def _games() -> list[str]:
    """A chess game under a preset with moves played and a Dice Chess game
    mid-turn: the same ones from case to case (the fuzz plays on in them),
    made again when a case has dropped one."""
    for kind in ("chess", "dice"):
        if kind not in _GAMES or CLIENT.get(f"/api/games/{_GAMES[kind]}").status_code != 200:
            _GAMES[kind] = _new_game(kind)
    return list(_GAMES.values())


def _snapshot(game_id: str):
    r = CLIENT.get(f"/api/games/{game_id}")
    return r.status_code, r.json()


@SCHEMA.parametrize()
@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                 HealthCheck.function_scoped_fixture])
def test_no_request_crashes_the_server_or_changes_state_when_refused(case):
    game_id = None
    if case.path_parameters and "game_id" in case.path_parameters:
        rng = random.Random(repr(case.path_parameters))
        if rng.random() < 0.9:
            game_id = rng.choice(_games())
            case.path_parameters["game_id"] = game_id
    before = _snapshot(game_id) if game_id else None
    response = case.call()
    if response.status_code >= 500:
        body = response.json()
        assert response.status_code == 503 and body["error"]["kind"] in REFUSED_5XX, \
            f"{case.method} {case.formatted_path}: {response.status_code} {response.text}"
    else:
        case.validate_response(response, excluded_checks=NOT_CHECKED)
    if game_id and 400 <= response.status_code < 600 and case.method != "DELETE":
        assert _snapshot(game_id) == before, \
            f"{case.method} {case.formatted_path} was refused but changed the game"
