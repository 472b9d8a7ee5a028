"""The playground's API on a variant of the catalogue (Capablanca's 10x8):
a game started by name, fairy pieces' moves, explain, the engine's reply and
undo, each answer checked against the library's own Game; and the refusals
(an unknown variant, presets written for 8x8, a layout) that change nothing."""
from __future__ import annotations

import pytest

pytest.importorskip("fastapi")

from chess_rules.game import Game  # noqa: E402
from chess_rules.variants import catalogue, load_variant  # noqa: E402
from presets.registry import load  # noqa: E402

from .api_calls import act, client, new  # noqa: E402,F401  (client: a fixture)


def legal_by_rule(game: Game) -> dict[str, str]:
    return {m.uci(): m.rule for m in game.legal_moves()}


def same_as(answer: dict, ref: Game) -> None:
    """The API's game is the library's: position, legal moves and their rules."""
    assert answer["fen"] == ref.fen()
    assert {m["uci"]: m["rule"] for m in answer["legal"]} == legal_by_rule(ref)


def test_the_catalog_lists_every_catalogue_variant_with_its_board(client):
    listed = client.get("/api/catalog").json()["variants"]
    assert [v["name"] for v in listed] == [s.name for s in catalogue()]
    for v in listed:
        shape = load_variant(v["name"]).shape
        assert (v["files"], v["ranks"]) == (shape.width, shape.height)
    assert {v["name"]: (v["files"], v["ranks"]) for v in listed}["capablanca"] == (10, 8)


def test_a_capablanca_game_plays_fairy_moves_the_engine_and_undo(client):
    g = new(client, variant="capablanca")
    ref = Game.from_variant("capablanca")
    assert g["rules"]["variant"] == "capablanca" and g["rules"]["name"] == "capablanca"
    assert (g["board"]["files"], g["board"]["ranks"]) == (10, 8)
    assert g["board"]["file_names"][-1] == "j"
    same_as(g, ref)

    for uci in ("e2e4", "e7e5", "h1i3"):        # h1i3: the chancellor's knight leap
        g = act(client, g, "moves", {"move": uci})
        ref.push(uci)
    assert g["history"][-1]["rule"] == "piece.chancellor-move"
    g = act(client, g, "moves", {"move": "Ab6"})     # SAN of Black's archbishop, c8b6
    ref.push("c8b6")
    assert g["history"][-1]["rule"] == "piece.archbishop-move"
    state = client.get(f"/api/games/{g['id']}").json()
    same_as(state, ref)
    assert [h["san"] for h in state["history"]] == ["e4", "e5", "Ci3", "Ab6"]

    ex = client.get(f"/api/games/{g['id']}/explain", params={"move": "i3j5"}).json()
    assert ex["legal"] and ex["generated_by"] == ["piece.chancellor-move"]
    sq = client.get(f"/api/games/{g['id']}/squares/j5").json()
    assert {m["uci"] for m in sq["moves"]} == {u for u in ref.legal_uci() if u.endswith("j5")}

    before = ref.fen()
    state = act(client, g, "bot", {"level": 1})
    reply = state["history"][-1]
    assert reply["rule"] == legal_by_rule(ref)[reply["uci"]]    # a legal move of 10x8
    ref.push(reply["uci"])
    same_as(state, ref)
    assert len(state["history"]) == 5

    act(client, state, "undo")
    ref.pop()
    state = client.get(f"/api/games/{state['id']}").json()
    assert state["fen"] == before
    same_as(state, ref)

    pgn = client.get(f"/api/games/{state['id']}/pgn").json()["pgn"]
    assert "Ci3" in pgn and "Ab6" in pgn
    assert Game.from_pgn(pgn).fen() == ref.fen()


def test_a_refused_fairy_move_names_its_reason_and_changes_nothing(client):
    g = new(client, variant="capablanca")
    r = client.post(f"/api/games/{g['id']}/moves", json={"move": "c1e3"})   # d2 blocks
    assert r.status_code == 422 and r.json()["error"]["kind"] == "move-refused"
    assert r.json()["error"]["move"] == "c1e3"
    assert client.get(f"/api/games/{g['id']}").json()["fen"] == g["fen"]


@pytest.mark.parametrize("body, words", [
    ({"variant": "capablanka"}, ["unknown variant 'capablanka'", "capablanca"]),
    ({"variant": "capablanca", "presets": ["double-move"]}, ["8x8", "double-move"]),
    ({"variant": "gardner", "layout": "standard"}, ["own position", "layout"]),
])
def test_a_variant_the_server_cannot_start_is_refused_and_nothing_is_kept(client, body, words):
    n = len(client.app.state.sessions)
    r = client.post("/api/games", json=body)
    assert r.status_code == 422, r.text
    err = r.json()["error"]
    assert err["kind"] == "rules"
    for w in words:
        assert w in err["message"]
    assert len(client.app.state.sessions) == n


def test_an_8x8_fen_under_a_10x8_variant_is_a_position_error(client):
    n = len(client.app.state.sessions)
    r = client.post("/api/games", json={"variant": "capablanca",
                                        "fen": "4k3/8/8/8/8/8/8/4K3 w - - 0 1"})
    assert r.status_code == 422 and r.json()["error"]["kind"] == "position"
    assert len(client.app.state.sessions) == n


def test_a_variant_on_8x8_takes_presets_and_rule_text(client):
    g = new(client, variant="almost", presets=["double-move"])
    rules = load("double-move", base=load_variant("almost"))
    ref = Game(rules.config["start-fen"], ruleset=rules)
    assert g["rules"]["presets"] == ["double-move"]
    same_as(g, ref)
    g5 = new(client, variant="gardner", fen="4k/5/5/5/C3K w - - 0 1",
             rules='piece cannon c "mRcpR"\n')
    assert any(m["rule"] == "piece.cannon-move" for m in g5["legal"])


def test_a_king_in_check_is_named_on_the_variants_board(client):
    g = new(client, variant="capablanca", fen="9k/10/10/10/10/10/10/K8R b - - 0 1")
    assert g["check"] == ["j8"]
    assert {m["uci"] for m in g["legal"]} == {"j8i8", "j8i7"}


def test_games_of_other_variants_started_between_moves_change_nothing(client):
    g = new(client, variant="capablanca")
    ref = Game.from_variant("capablanca")
    for uci, other in (("c1b3", {}), ("c8d6", {"variant": "grasshopper"}),
                       ("h1i3", {"variant": "dice"})):
        new(client, **other)            # another game starts: its own pieces' letters
        g = act(client, g, "moves", {"move": uci})
        ref.push(uci)
    same_as(g, ref)
    assert [h["san"] for h in g["history"]] == ["Ab3", "Ad6", "Ci3"]
