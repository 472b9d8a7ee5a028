"""The playground's board view of a game on a board other than 8x8: its size,
square names and pieces as the rules have them (Capablanca's 10x8)."""
from __future__ import annotations

from chess_rules.game import Game
from houserules.web.board import board_view


def test_a_capablanca_board_is_viewed_on_its_ten_files():
    game = Game.from_variant("capablanca")
    game.push("j2j4")
    view = board_view(game)
    assert (view["files"], view["ranks"]) == (10, 8)
    assert view["file_names"] == list("abcdefghij")
    by_square = {p["square"]: (p["type"], p["color"], p["letter"]) for p in view["pieces"]}
    assert len(by_square) == 40
    assert by_square["j4"] == ("pawn", "white", "P") and "j2" not in by_square
    assert by_square["c1"] == ("archbishop", "white", "A")
    assert by_square["h8"] == ("chancellor", "black", "c")
    assert by_square["f8"] == ("king", "black", "k")
    # every square the view names is one of the game's own
    for name in by_square:
        assert game.piece_at(name) is not None
