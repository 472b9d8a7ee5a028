"""The playground API tests' shared calls: a TestClient fixture, and a game
started or acted on with its expected status checked."""
from __future__ import annotations

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from houserules.web import create_app  # noqa: E402


@pytest.fixture
def client():
    with TestClient(create_app()) as c:
        yield c


def new(client, **body) -> dict:
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def act(client, game: dict, path: str, body=None, status: int = 200) -> dict:
    r = client.post(f"/api/games/{game['id']}/{path}", json=body)
    assert r.status_code == status, r.text
    return r.json()
