"""The playground's JSON API, through Starlette's TestClient (no server, no
browser): each answer checked against the library's own word (Game, dice),
each refusal for its kind, its rule and reason, and for the game left as it was."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient  # noqa: E402

import dice  # noqa: E402
from chess_rules.fen import STARTING_FEN  # noqa: E402
from chess_rules.game import Game  # noqa: E402
from houserules.web import Limits, create_app  # noqa: E402
from presets.registry import preset_table  # noqa: E402

from .api_calls import act, client, new  # noqa: E402,F401  (client: a fixture)

ROOT = Path(__file__).resolve().parents[2]
CASTLE_THROUGH_CHECK = "4kr2/8/8/8/8/8/8/4K2R w K - 0 1"


def state(client, game: dict) -> dict:
    r = client.get(f"/api/games/{game['id']}")
    assert r.status_code == 200
    return r.json()


# ------------------------------------------------------------ chess


def test_a_new_game_is_the_start_position_with_the_rules_legal_moves(client):
    g = new(client)
    assert g["fen"] == STARTING_FEN
    assert (g["board"]["files"], g["board"]["ranks"]) == (8, 8)
    assert len(g["board"]["pieces"]) == 32
    ref = Game()
    assert sorted(m["uci"] for m in g["legal"]) == ref.legal_uci()
    assert {m["uci"]: m["rule"] for m in g["legal"]} == {m.uci(): m.rule for m in ref.legal_moves()}


def test_a_move_is_played_with_its_san_and_production(client):
    g = new(client)
    s = act(client, g, "moves", {"move": "e2e4"})
    s = act(client, g, "moves", {"move": "Nf6"})        # SAN too
    ref = Game()
    ref.push("e2e4"), ref.push("g8f6")
    assert s["fen"] == ref.fen()
    assert [(h["san"], h["rule"]) for h in s["history"]] == \
        [("e4", "fide.pawn-double-push"), ("Nf6", "fide.knight-move")]
    assert s["last_move"] == {"uci": "g8f6", "from": "g8", "to": "f6"}


def test_a_refused_move_names_the_rule_and_reason_and_changes_nothing(client):
    g = new(client, fen=CASTLE_THROUGH_CHECK)
    before = state(client, g)
    body = act(client, g, "moves", {"move": "e1g1"}, status=422)["error"]
    ex = Game(CASTLE_THROUGH_CHECK).explain("e1g1")
    assert body["kind"] == "move-refused"
    assert (body["rule"], body["reason"]) == ("fide.castling", ex.reason)
    assert body["message"] == ex.text == "e1g1: refused by fide.castling - f1 is attacked"
    assert state(client, g) == before


def test_check_and_the_outcome_are_marked(client):
    g = new(client, fen="rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    assert g["check"] == ["e1"]
    assert g["outcome"]["reason"] == "checkmate" and g["outcome"]["rule"] == "fide.checkmate-win"
    assert g["legal"] == []


def test_undo_takes_back_a_move_and_refuses_when_there_is_none(client):
    g = new(client)
    act(client, g, "moves", {"move": "d2d4"})
    s = act(client, g, "undo")
    assert s["fen"] == STARTING_FEN and s["history"] == []
    err = act(client, g, "undo", status=409)["error"]
    assert err["kind"] == "not-now"
    assert state(client, g)["fen"] == STARTING_FEN


def test_the_bot_plays_a_legal_move(client):
    g = new(client)
    act(client, g, "moves", {"move": "e2e4"})
    s = act(client, g, "bot", {"level": 1})
    assert len(s["history"]) == 2 and s["turn"] == "white"
    ref = Game()
    ref.push("e2e4")
    assert s["history"][1]["uci"] in ref.legal_uci()


def test_a_fen_is_set_up_and_a_bad_one_is_refused_with_nothing_changed(client):
    g = new(client)
    fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    assert act(client, g, "position", {"fen": fen})["fen"] == fen
    before = state(client, g)
    err = act(client, g, "position", {"fen": "4k3/8/8/8 w - - 0 1"}, status=422)["error"]
    assert err["kind"] == "position" and "rank" in err["message"]
    assert state(client, g) == before


def test_the_pgn_reads_back_as_the_same_game(client):
    g = new(client, presets=["pawns-move-backward"], fen="4k3/8/8/8/4P3/3p4/8/4K3 w - - 0 1")
    act(client, g, "moves", {"move": "e4e3"})
    act(client, g, "moves", {"move": "e8d7"})
    text = client.get(f"/api/games/{g['id']}/pgn").json()["pgn"]
    back = Game.from_pgn(text)
    assert [m.uci() for m in back.move_stack] == ["e4e3", "e8d7"]
    assert back.ruleset.presets == ["pawns-move-backward"]


def test_explain_names_the_generating_or_refusing_production(client):
    g = new(client, fen=CASTLE_THROUGH_CHECK)
    ok = client.get(f"/api/games/{g['id']}/explain", params={"move": "h1h8"}).json()
    no = client.get(f"/api/games/{g['id']}/explain", params={"move": "e1g1"}).json()
    assert ok["legal"] and ok["generated_by"] == ["fide.rook-move"]
    assert not no["legal"] and no["rule"] == "fide.castling"


def test_a_square_says_what_may_move_there_and_what_is_refused(client):
    g = new(client, fen=CASTLE_THROUGH_CHECK)
    info = client.get(f"/api/games/{g['id']}/squares/g1").json()
    assert {m["uci"] for m in info["moves"]} == {"h1g1"}
    assert [(r["uci"], r["rule"]) for r in info["refused"]] == [("e1g1", "fide.castling")]
    assert client.get(f"/api/games/{g['id']}/squares/z9").status_code == 422


# ------------------------------------------------------------ rules


def _incompatible_pair() -> tuple[str, str, str]:
    for p in preset_table():
        for other, why in p["incompatible_because"].items():
            return p["id"], other, why
    raise AssertionError("no incompatible presets")


def test_incompatible_presets_are_refused_with_the_reason_before_anything_is_built(client):
    a, b, why = _incompatible_pair()
    answer = client.post("/api/compose", json={"presets": [a, b]}).json()
    assert not answer["ok"] and why in answer["reason"]
    assert client.post("/api/compose", json={"presets": [a]}).json() == \
        {"ok": True, "order": [a], "reason": None}
    n = len(client.app.state.sessions)
    err = client.post("/api/games", json={"presets": [a, b]}).json()["error"]
    assert err["kind"] == "rules" and why in err["message"]
    assert len(client.app.state.sessions) == n


def test_a_preset_offers_new_moves(client):
    fen = "4k3/8/8/8/4P3/3p4/8/4K3 w - - 0 1"
    plain = {m["uci"] for m in new(client, fen=fen)["legal"]}
    moved = {m["uci"]: m["rule"] for m in new(client, fen=fen, presets=["pawns-move-backward"])["legal"]}
    assert "e4e3" not in plain and moved["e4e3"] == "preset.pawn-backward-push"


def test_preset_settings_are_applied_and_bad_ones_refused(client):
    g = new(client, presets=["monster-rules"], config={"monster-rules": {"scope": "black"}})
    assert g["rules"]["config"] == {"monster-rules": {"scope": "black"}}
    err = client.post("/api/games", json={"presets": ["monster-rules"],
                                          "config": {"monster-rules": {"scope": "purple"}}})
    assert err.status_code == 422 and "scope" in err.json()["error"]["message"]


def test_rule_text_is_parsed_by_the_rule_language(client):
    text = (ROOT / "examples/rules/rook_steps_diagonally.hr").read_text()
    fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"
    g = new(client, rules=text, fen=fen)
    assert {m["uci"]: m["rule"] for m in g["legal"]}["a1b2"] == "custom.rook-diagonal-step"
    err = client.post("/api/games", json={"rules": "rule broken when"}).json()["error"]
    assert err["kind"] == "rules" and "rules:1:" in err["message"]


RUNAWAY_ON_E4 = """template counter (n)
rule "custom.seed" stage result salience 10
when
  game()
  not counter()
then
  assert counter(n: 0)
end
rule "custom.spin" stage result
when
  game()
  piece(type: pawn, square: e4)
  ?k <- counter(n: ?n)
then
  modify ?k (n: ?n)
end
"""


def test_rules_that_never_stop_firing_are_a_422_and_change_nothing(client):
    g = new(client, rules=RUNAWAY_ON_E4)
    before = state(client, g)
    err = act(client, g, "moves", {"move": "e2e4"}, status=422)["error"]
    assert err["kind"] == "rules" and "custom.spin" in err["message"]
    assert state(client, g) == before
    err = client.post("/api/games", json={"rules": RUNAWAY_ON_E4,
                                          "fen": "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1"})
    assert err.status_code == 422 and err.json()["error"]["kind"] == "rules"


def test_rules_that_fail_when_the_position_is_judged_make_no_game(client):
    spin_on_status = RUNAWAY_ON_E4.replace("piece(type: pawn, square: e4)", "status()")
    n = len(client.app.state.sessions)
    err = client.post("/api/games", json={"rules": spin_on_status})
    assert err.status_code == 422 and "custom.spin" in err.json()["error"]["message"]
    assert len(client.app.state.sessions) == n


def test_python_in_rule_text_is_not_run(client, tmp_path):
    marker = tmp_path / "ran"
    text = f'__import__("pathlib").Path({str(marker)!r}).touch()'
    r = client.post("/api/games", json={"rules": text})
    assert r.status_code == 422 and not marker.exists()


# ------------------------------------------------------------ Dice Chess


def test_dice_roll_micro_moves_and_the_end_of_turn(client):
    g = new(client, variant="dice")
    assert g["dice"]["rolled"] is False and g["legal"] == []
    err = act(client, g, "end-turn", status=409)["error"]
    assert "roll" in err["message"]
    s = act(client, g, "roll", {"faces": [1, 2, 1]})
    assert s["dice"]["left"] == ["pawn", "knight", "pawn"]
    tree = dice.legal_turn_tree(s["fen"])
    assert sorted(m["uci"] for m in s["legal"]) == sorted(tree)
    before = state(client, g)
    err = act(client, g, "end-turn", status=409)["error"]
    assert "a legal micro-move is left" in err["message"]
    assert state(client, g) == before
    s = act(client, g, "moves", {"move": "e2e4"})
    assert s["dice"]["letters"] == "NP" and s["turn"] == "white"
    assert sorted(m["uci"] for m in s["legal"]) == sorted(tree["e2e4"])
    s = act(client, g, "moves", {"move": "g1f3"})
    s = act(client, g, "moves", {"move": "d2d4"})
    assert s["dice"]["turn_complete"] and s["legal"] == []
    s = act(client, g, "end-turn")
    assert s["turn"] == "black" and s["dice"]["letters"] == "-"


def test_a_micro_move_without_its_die_names_the_die_filter(client):
    g = new(client, variant="dice")
    act(client, g, "roll", {"faces": [1, 1, 1]})
    before = state(client, g)
    err = act(client, g, "moves", {"move": "g1f3"}, status=422)["error"]
    assert err["rule"] == "dice.die-filter" and "knight" in err["reason"]
    assert state(client, g) == before


def test_a_micro_move_no_legal_turn_goes_on_with_is_refused_by_the_maximum_rule(client):
    dfen = "8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1 NPP"
    g = new(client, variant="dice", fen=dfen)
    assert act(client, g, "moves", {"move": "c2c4"})["legal"] == [
        {"uci": "b3c5", "from": "b3", "to": "c5", "promotion": None, "rule": "fide.knight-move"}]
    before = state(client, g)
    err = act(client, g, "moves", {"move": "b3d4"}, status=422)["error"]
    assert err["rule"] == "dice.maximum-micro-moves" and "after c2c4" in err["reason"]
    assert state(client, g) == before
    ok = client.get(f"/api/games/{g['id']}/explain", params={"move": "b3c5"}).json()
    assert ok["legal"] and ok["reason"] == "spends the knight die; the turn is complete"


def test_a_micro_move_before_the_roll_is_refused_until_the_dice_are_rolled(client):
    g = new(client, variant="dice")
    err = act(client, g, "moves", {"move": "e2e4"}, status=409)["error"]
    assert "roll the dice first" in err["message"]


def test_dice_no_legal_turn_can_spend_are_not_playable(client):
    g = new(client, variant="dice", fen="4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 -")
    s = act(client, g, "roll", {"faces": [3, 1, 1]})
    assert s["dice"]["left"] == ["bishop", "pawn", "pawn"]
    assert s["dice"]["playable"] == dice.playable_dice(s["fen"], []) == [1, 1]


def test_the_bot_plays_a_whole_legal_dice_turn(client):
    g = new(client, variant="dice")
    s = act(client, g, "roll", {"faces": [1, 2, 2]})
    tree = dice.legal_turn_tree(s["fen"])
    s = act(client, g, "bot", {"level": 1})
    played = [h["uci"] for h in s["history"]]
    node = tree
    for u in played:
        assert u in node
        node = node[u]
    assert node == {} and s["turn"] == "black"


def test_dice_undo_takes_back_the_last_micro_move(client):
    g = new(client, variant="dice")
    s0 = act(client, g, "roll", {"faces": [1, 2, 1]})
    act(client, g, "moves", {"move": "e2e4"})
    s = act(client, g, "undo")
    assert s["fen"] == s0["fen"] and s["dice"]["letters"] == "PNP"


def test_a_chess_game_has_no_dice_and_dice_chess_no_pgn(client):
    g = new(client)
    assert act(client, g, "roll", status=409)["error"]["kind"] == "not-now"
    d = new(client, variant="dice")
    assert client.get(f"/api/games/{d['id']}/pgn").status_code == 409


# ------------------------------------------------------------ what the server refuses


@pytest.mark.parametrize("body, where", [
    ({"move": 7}, "move"), ({"mvoe": "e2e4"}, "mvoe"), ({}, "move"), ([], "body")])
def test_a_request_the_api_does_not_read_is_a_422_with_a_message(client, body, where):
    g = new(client)
    r = client.post(f"/api/games/{g['id']}/moves", json=body)
    assert r.status_code == 422
    assert r.json()["error"]["kind"] == "bad-request" and where in r.json()["error"]["message"]


def test_malformed_json_and_unknown_routes_are_4xx_with_a_message(client):
    r = client.post("/api/games", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["error"]["message"]
    assert client.get("/api/games/nope").json()["error"]["kind"] == "not-found"
    r = client.put("/api/games")
    assert r.status_code == 405 and r.json()["error"]["kind"] == "method-not-allowed"
    assert client.post("/api/games/nope/bot", json={"level": 0}).status_code == 422


def test_a_body_over_the_size_limit_is_a_413():
    with TestClient(create_app(Limits(max_body=1000))) as c:
        r = c.post("/api/games", json={"rules": "#" * 2000})
        assert r.status_code == 413 and r.json()["error"]["kind"] == "too-large"


def test_rule_text_over_its_limit_is_refused_before_it_is_parsed():
    with TestClient(create_app(Limits(max_rule_text=100))) as c:
        r = c.post("/api/games", json={"rules": "# " * 100})
        assert r.status_code == 413 and "100" in r.json()["error"]["message"]


def test_the_game_count_is_bounded():
    with TestClient(create_app(Limits(max_sessions=2))) as c:
        ids = [new(c)["id"] for _ in range(2)]
        r = c.post("/api/games", json={})
        assert r.status_code == 503 and r.json()["error"]["kind"] == "too-many-games"
        assert c.delete(f"/api/games/{ids[0]}").status_code == 204
        assert c.post("/api/games", json={}).status_code == 201


def test_a_game_ends_after_its_idle_lifetime():
    app = create_app(Limits(session_ttl=60))
    now = [0.0]
    app.state.sessions.clock = lambda: now[0]
    with TestClient(app) as c:
        g = new(c)
        now[0] = 59
        assert c.get(f"/api/games/{g['id']}").status_code == 200
        now[0] = 59 + 61
        assert c.get(f"/api/games/{g['id']}").status_code == 404


def test_the_page_and_its_files_are_served_and_nothing_else(client):
    page = client.get("/")
    assert page.status_code == 200 and "/static/app.js" in page.text
    assert client.get("/static/app.js").headers["content-type"].startswith("text/javascript")
    assert client.get("/static/..%2Fapp.py").status_code == 404
    assert client.get("/static/tables.py").status_code == 404


def test_the_openapi_schema_describes_the_api(client):
    schema = client.get("/openapi.json").json()
    assert {"/api/games", "/api/games/{game_id}/moves", "/api/games/{game_id}/roll",
            "/api/catalog", "/api/compose"} <= set(schema["paths"])
    assert "422" in schema["paths"]["/api/games/{game_id}/moves"]["post"]["responses"]
