"""The time limit: a computation that runs on is stopped, reported, and the
game is left as it was before the request."""
from __future__ import annotations

import threading

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

from houserules.web import Limits, create_app, players  # noqa: E402
from houserules.web.errors import TooLongError  # noqa: E402
from houserules.web.limits import TimeLimitError, run_limited  # noqa: E402
from houserules.web.rules import RulesChoice  # noqa: E402
from houserules.web.dice_table import DiceTable  # noqa: E402
from houserules.web.tables import ChessTable  # noqa: E402


def spin(*_args):
    """Never ends (but for the interrupt)."""
    while True:
        pass


def test_a_computation_past_the_limit_is_stopped_and_reported():
    before = threading.active_count()
    with pytest.raises(TimeLimitError, match="the test's spin took longer than"):
        run_limited(spin, 0.2, "the test's spin")
    assert threading.active_count() == before       # the worker is gone


def test_what_the_computation_returns_or_raises_is_passed_on():
    assert run_limited(lambda: 42, 5, "x") == 42
    with pytest.raises(KeyError):
        run_limited(lambda: {}["missing"], 5, "x")


def test_a_chess_table_cut_mid_request_is_as_it_was_before():
    table = ChessTable(RulesChoice(), Limits(time_limit=0.3))
    table.play("e2e4")
    before = table.state()

    def move_then_spin():
        table.play("e7e5")
        spin()
    with pytest.raises(TooLongError):
        table.run("the move", move_then_spin)
    assert table.state() == before
    table.play("c7c5")           # and it plays on
    assert [h["san"] for h in table.state()["history"]] == ["e4", "c5"]


def test_a_dice_table_cut_mid_turn_is_as_it_was_before():
    table = DiceTable(RulesChoice(variant="dice"), Limits(time_limit=0.3))
    table.roll([1, 2, 1])
    table.play("e2e4")
    before = table.state()

    def turn_then_spin():
        table.play("g1f3")
        table.play("d2d4")
        table.end_turn()
        spin()
    with pytest.raises(TooLongError):
        table.run("the turn", turn_then_spin)
    assert table.state() == before


def test_an_engine_past_the_limit_gets_a_503_and_changes_nothing(monkeypatch):
    monkeypatch.setattr(players, "choose_move", spin)
    with TestClient(create_app(Limits(time_limit=0.3))) as c:
        g = c.post("/api/games", json={}).json()
        c.post(f"/api/games/{g['id']}/moves", json={"move": "e2e4"})
        before = c.get(f"/api/games/{g['id']}").json()
        r = c.post(f"/api/games/{g['id']}/bot", json={"level": 5})
        assert r.status_code == 503
        assert r.json()["error"]["kind"] == "time-limit"
        assert "the engine's move took longer than" in r.json()["error"]["message"]
        assert c.get(f"/api/games/{g['id']}").json() == before
