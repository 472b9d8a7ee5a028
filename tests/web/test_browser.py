"""The playground in a real browser: Debian's chromium, driven by Playwright.

The server is started here (``houserules serve --port 0`` on 127.0.0.1)
and stopped after. Each test drives the page as a person would: drag a
piece, read the refusal, switch a preset on, play the engine, roll the dice.
Screenshots go to $HOUSERULES_SCREENSHOTS (default: the test's temporary
folder); docs/images/playground.png is one of them.

Without chromium (``make browser`` installs it) the tests are skipped, and
fail under CI, where .ci/run installs it.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

pytestmark = pytest.mark.browser

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CASTLE_THROUGH_CHECK = "4kr2/8/8/8/8/8/8/4K2R w K - 0 1"
#: the command that starts the server
SERVE = [sys.executable, "-m", "houserules", "serve"]


@pytest.fixture(scope="module")
def server():
    """``houserules serve`` on a free port (--port 0: the address it prints),
    stopped after the module's tests."""
    proc = subprocess.Popen(SERVE + ["--host", "127.0.0.1", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:\d+", line)
        if match is None:
            proc.kill()
            pytest.fail(f"the server printed no address: {line!r} {proc.stderr.read()!r}")
        url = match.group(0)
        with urllib.request.urlopen(url + "/api/catalog", timeout=30) as r:
            assert r.status == 200
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="module")
def browser():
    if not os.access(CHROMIUM, os.X_OK):
        message = f"no chromium at {CHROMIUM}: 'make browser' installs Debian's"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM)
        yield b
        b.close()


@pytest.fixture
def page(server, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    yield page
    context.close()
    assert errors == [], errors


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    where = os.environ.get("HOUSERULES_SCREENSHOTS")
    path = Path(where) if where else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


def center(page, square: str) -> tuple[float, float]:
    # (the rules column is taller than the window: ticking a preset low in it
    # scrolls the board away, and the mouse works on what is in view)
    page.locator("#board").scroll_into_view_if_needed()
    box = page.locator(f'[data-square="{square}"]').bounding_box()
    assert box is not None, square
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def drag(page, frm: str, to: str) -> None:
    page.mouse.move(*center(page, frm))
    page.mouse.down()
    x, y = center(page, to)
    page.mouse.move(x, y, steps=5)
    page.mouse.up()


def click(page, square: str) -> None:
    page.mouse.click(*center(page, square))


def load_fen(page, fen: str) -> None:
    page.fill("#fen", fen)
    page.click("#load-fen")
    expect(page.locator("#board")).to_have_attribute("data-fen", fen)


def moves(page):
    return page.locator("#moves")


# ------------------------------------------------------------ chess


def test_the_page_draws_the_board_from_the_position(page, shots):
    expect(page.locator("[data-square]")).to_have_count(64)
    expect(page.locator("[data-piece]")).to_have_count(32)
    expect(page.locator('[data-piece="e1"]')).to_have_attribute("data-type", "king")
    # White at the bottom: a1 is drawn below a8
    assert center(page, "a1")[1] > center(page, "a8")[1]
    page.screenshot(path=shots / "start.png")


DRAW = """async ({view, last}) => {
    const {Board} = await import("/static/board.js");
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    document.body.append(svg);
    new Board(svg, {onMove() {}}).show(view, [], {last: null, check: []}, false);
    const box = (sq) => svg.querySelector(`[data-square="${sq}"]`).getBBox();
    return {squares: svg.querySelectorAll("[data-square]").length,
            letter: svg.querySelector(`[data-piece="${last}"] .letter`).textContent,
            glyph: svg.querySelector('[data-piece="a1"] text').textContent,
            last: [box(last).x, box(last).y], a1: [box("a1").x, box("a1").y]};
}"""


@pytest.mark.parametrize("files, ranks", [(10, 8), (5, 5), (12, 10)])
def test_the_board_is_drawn_at_any_size_with_unknown_pieces_as_letters(page, files, ranks):
    last = "abcdefghijkl"[files - 1] + str(ranks)
    view = {"files": files, "ranks": ranks, "file_names": list("abcdefghijkl"[:files]),
            "rank_names": [str(r) for r in range(1, ranks + 1)], "topology": "plain",
            "pieces": [{"square": "a1", "type": "king", "color": "white", "letter": "K",
                        "attrs": {}},
                       {"square": last, "type": "chancellor", "color": "black",
                        "letter": "c", "attrs": {}}]}
    drawn = page.evaluate(DRAW, {"view": view, "last": last})
    assert drawn["squares"] == files * ranks
    assert drawn["letter"] == "C" and drawn["glyph"] == "\u265a"
    # the last file's top rank is to the right of and above a1
    assert drawn["last"][0] > drawn["a1"][0] and drawn["last"][1] < drawn["a1"][1]


def test_a_legal_move_by_drag_is_played_with_its_rule(page):
    drag(page, "e2", "e4")
    expect(moves(page)).to_contain_text("e4")
    expect(moves(page)).to_contain_text("fide.pawn-double-push")
    expect(page.locator('[data-piece="e4"]')).to_have_count(1)
    expect(page.locator('[data-piece="e2"]')).to_have_count(0)
    expect(page.locator("#message")).to_contain_text("e4: generated by fide.pawn-double-push")


def test_an_illegal_move_stays_unplayed_and_the_refusal_names_the_rule(page, shots):
    load_fen(page, CASTLE_THROUGH_CHECK)
    drag(page, "e1", "g1")
    message = page.locator("#message")
    expect(message).to_contain_text("refused by fide.castling")
    expect(message).to_contain_text("f1 is attacked")
    expect(page.locator('[data-piece="e1"]')).to_have_count(1)
    expect(moves(page).locator("li")).to_have_count(0)
    page.screenshot(path=shots / "refusal.png")


def test_a_selected_piece_shows_its_legal_targets(page):
    click(page, "g1")
    targets = page.locator("[data-target]")
    expect(targets).to_have_count(2)
    assert {targets.nth(i).get_attribute("data-target") for i in range(2)} == {"f3", "h3"}
    click(page, "f3")           # the second click plays it
    expect(moves(page)).to_contain_text("Nf3")


def test_hovering_a_square_says_what_may_move_there_and_what_is_refused(page):
    load_fen(page, CASTLE_THROUGH_CHECK)
    page.mouse.move(*center(page, "g1"))
    info = page.locator("#hover-info")
    expect(info).to_contain_text("h1g1")
    expect(info).to_contain_text("e1g1")
    expect(info.locator("ul.refused")).to_contain_text("fide.castling")


def test_a_preset_switched_on_offers_a_new_move(page):
    fen = "4k3/8/8/8/4P3/3p4/8/4K3 w - - 0 1"
    load_fen(page, fen)
    click(page, "e4")
    expect(page.locator('[data-target="e3"]')).to_have_count(0)
    page.check('input[data-preset="pawns-move-backward"]')
    expect(page.locator("#preset-message")).to_contain_text("pawns-move-backward")
    page.click("#new-game")
    expect(page.locator("#rules-name")).to_contain_text("pawns-move-backward")
    load_fen(page, fen)
    drag(page, "e4", "e3")
    expect(moves(page)).to_contain_text("preset.pawn-backward-push")


def test_an_incompatible_preset_is_refused_with_the_reason_before_a_game_is_built(page):
    page.check('input[data-preset="pawns-move-backward"]')
    page.click('input[data-preset="double-pawn-sprint"]')
    expect(page.locator("#preset-message")).to_contain_text("incompatible")
    expect(page.locator('input[data-preset="double-pawn-sprint"]')).not_to_be_checked()
    expect(page.locator('input[data-preset="pawns-move-backward"]')).to_be_checked()


def test_the_engine_replies_to_a_move(page):
    page.select_option("#engine-side", "black")
    drag(page, "d2", "d4")
    expect(moves(page).locator(".ply.black")).to_have_count(1)
    expect(page.locator("#turn")).to_have_text("White to move")
    # against the engine, White is at the bottom; the engine as White flips it
    page.select_option("#engine-side", "white")
    expect(moves(page).locator(".ply")).to_have_count(3)
    assert center(page, "a1")[1] < center(page, "a8")[1]


def test_a_promotion_asks_for_the_piece(page):
    load_fen(page, "8/4P3/8/8/8/8/k7/4K3 w - - 0 1")
    drag(page, "e7", "e8")
    page.click('#promotion button[data-promotion="n"]')
    expect(moves(page)).to_contain_text("e8=N")
    expect(page.locator('[data-piece="e8"]')).to_have_attribute("data-type", "knight")


def test_a_move_typed_in_san_is_played_and_a_bad_one_refused(page):
    page.fill("#move-text", "Nf3")
    page.press("#move-text", "Enter")
    expect(moves(page)).to_contain_text("fide.knight-move")
    page.fill("#move-text", "Ke2")
    page.press("#move-text", "Enter")
    expect(page.locator("#message")).to_contain_text("Ke2")
    expect(moves(page).locator(".ply")).to_have_count(1)


def test_undo_and_pgn(page):
    drag(page, "e2", "e4")
    expect(moves(page)).to_contain_text("e4")
    page.click("#pgn")
    expect(page.locator("#pgn-text")).to_contain_text("1. e4 *")
    page.click("#undo")
    expect(moves(page).locator(".ply")).to_have_count(0)
    expect(page.locator('[data-piece="e2"]')).to_have_count(1)


# ------------------------------------------------------------ Dice Chess


def test_a_dice_chess_micro_move_and_the_end_turn_refusal(page, shots):
    page.check('input[name="variant"][value="dice"]')
    expect(page.locator("#dice")).to_be_visible()
    load_fen(page, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PNP")
    expect(page.locator(".die")).to_have_count(3)
    page.click("#end-turn")
    expect(page.locator("#message")).to_contain_text("a legal micro-move is left")
    drag(page, "e2", "e4")
    expect(moves(page)).to_contain_text("fide.pawn-double-push")
    expect(page.locator(".die")).to_have_count(2)
    expect(page.locator("#turn")).to_have_text("White to move")
    page.screenshot(path=shots / "dice.png")


def test_dice_no_legal_turn_can_spend_are_dimmed(page):
    page.check('input[name="variant"][value="dice"]')
    expect(page.locator("#dice")).to_be_visible()
    load_fen(page, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 BPP")
    expect(page.locator(".die")).to_have_count(3)
    expect(page.locator(".die.dim")).to_have_count(1)
    expect(page.locator(".die.dim")).to_have_attribute("data-type", "bishop")


def test_a_capablanca_game_is_started_from_the_catalogue_and_its_chancellor_moves(page, shots):
    page.select_option("#catalogue-variant", "capablanca")
    expect(page.locator("#rules-name")).to_contain_text("capablanca")
    expect(page.locator("[data-square]")).to_have_count(80)
    expect(page.locator('[data-piece="h1"]')).to_have_attribute("data-type", "chancellor")
    drag(page, "h1", "i3")
    expect(moves(page)).to_contain_text("Ci3")
    expect(moves(page)).to_contain_text("piece.chancellor-move")
    expect(page.locator('[data-piece="i3"]')).to_have_attribute("data-type", "chancellor")
    expect(page.locator('[data-piece="h1"]')).to_have_count(0)
    page.screenshot(path=shots / "capablanca.png")


def test_the_showcase_screenshot(page, shots):
    """The README's picture: a game under a preset, the rule of every move, a
    hovered square's explanation and a refusal."""
    page.set_viewport_size({"width": 1500, "height": 940})
    page.check('input[data-preset="knights-leap-twice"]')
    page.click("#new-game")
    expect(page.locator("#rules-name")).to_contain_text("knights-leap-twice")
    for frm, to in (("e2", "e4"), ("e7", "e5"), ("g1", "f3"), ("b8", "c6"), ("b1", "d5"),
                    ("g8", "f6")):
        n = moves(page).locator(".ply").count()
        drag(page, frm, to)
        expect(moves(page).locator(".ply")).to_have_count(n + 1)
    expect(moves(page)).to_contain_text("preset.knight-double-leap")
    drag(page, "e1", "g1")
    expect(page.locator("#message")).to_contain_text("refused by fide.castling")
    click(page, "f3")
    expect(page.locator('[data-target="f7"]')).to_have_count(1)
    page.mouse.move(*center(page, "f7"))
    expect(page.locator("#hover-info")).to_contain_text("preset.knight-double-leap")
    page.screenshot(path=shots / "playground.png")
