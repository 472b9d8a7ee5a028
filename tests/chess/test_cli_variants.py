"""houserules variants, and --variant / --variants-ini on the commands that take rules."""
from __future__ import annotations

import pytest

from chess_rules.game import Game
from chess_rules.variants import catalogue, load_variant
from houserules.cli import main

sf = pytest.importorskip("pyffish")

WAZIR_INI = """[wazirchess:chess]
# the queen is a wazir-rider
customPiece1 = w:WW
queen = -
startFen = rnbwkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBWKBNR w KQkq - 0 1
promotionPieceTypes = wrbn
"""


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def fsf_perft(variant, fen, depth, moves=()):
    if depth == 0:
        return 1
    return sum(fsf_perft(variant, fen, depth - 1, [*moves, m])
               for m in sf.legal_moves(variant, fen, list(moves)))


def test_variants_lists_the_catalogue(capsys):
    code, out, err = run(capsys, "variants")
    assert code == 0 and err == ""
    names = [line.split()[0] for line in out.splitlines()]
    assert names == [s.name for s in catalogue()] and len(names) >= 12


def test_a_variant_is_shown_with_its_start(capsys):
    code, out, _ = run(capsys, "variants", "almost")
    assert code == 0 and load_variant("almost").config["start-fen"] in out
    assert "chancellor = c" in out


def test_commands_start_from_the_variants_start(capsys):
    code, out, _ = run(capsys, "moves", "--variant", "amazon")
    game = Game.from_variant("amazon")
    assert code == 0 and out.split() == sorted(game.legal_uci())
    code, out, _ = run(capsys, "explain",
                       "rnbmkbnr/pppppppp/8/8/8/8/PPP1PPPP/RNBMKBNR w KQkq - 0 1", "d1d3",
                       "--variant", "amazon")
    assert code == 0 and "piece.amazon-move" in out


def test_a_users_variants_ini_with_a_custom_piece(capsys, tmp_path):
    ini = tmp_path / "my.ini"
    ini.write_text(WAZIR_INI)
    code, out, _ = run(capsys, "perft", "3", "--variants-ini", str(ini), "--variant", "wazirchess")
    sf.load_variant_config(WAZIR_INI)
    assert code == 0 and int(out.split()[-1]) == fsf_perft(
        "wazirchess", sf.start_fen("wazirchess"), 3)
    code, out, _ = run(capsys, "variants", "--variants-ini", str(ini))
    assert out.split()[0] == "wazirchess"


@pytest.mark.parametrize("argv, what", [
    (["moves", "--variant", "capablanca"], "no variant 'capablanca'"),
    (["moves", "--variants-ini", "x.ini"], "needs --variant NAME"),
    (["moves", "--variant", "almost", "--ruleset", "chess_rules.fide:fide_rules"],
     "not both"),
])
def test_bad_variant_options_exit_2(capsys, argv, what):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and what in err


def test_an_unsupported_option_is_an_error_at_its_line(capsys, tmp_path):
    ini = tmp_path / "bad.ini"
    ini.write_text("[x:chess]\ncastling = true\npieceDrops = true\n")
    code, _, err = run(capsys, "moves", "--variants-ini", str(ini), "--variant", "x")
    assert code == 2 and f"{ini}:3:1: option 'pieceDrops' is not supported" in err
