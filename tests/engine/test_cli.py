"""The engine's commands: analyse, uci, and --level for play and dice play."""
import pytest

from houserules.cli import main


def run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def test_analyse_prints_the_line_with_its_rules_and_score(capsys):
    rc, out, err = run(capsys, "analyse", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "--depth", "2")
    assert rc == 0 and err == ""
    assert out.splitlines()[0].startswith("score: mate in 1 (for white;")
    assert "white a1a8   fide.rook-move" in out


def test_analyse_defaults_to_the_rules_start(capsys):
    rc, out, _ = run(capsys, "analyse", "--preset", "capture-to-win", "--depth", "1")
    assert rc == 0 and "principal variation:" in out


def test_analyse_of_a_finished_game_says_so(capsys):
    rc, out, _ = run(capsys, "analyse", "R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1")
    assert rc == 0 and out.strip() == "the game is over: 1-0 by checkmate (fide.checkmate-win)"


@pytest.mark.parametrize("argv", [["analyse", "--depth", "0"], ["analyse", "--movetime", "x"],
                                  ["analyse", "--depth", "2", "--movetime", "5"],
                                  ["play", "--level", "0"], ["play", "--level", "11"],
                                  ["dice", "play", "--level", "ten"]])
def test_bad_options_exit_2_with_a_message(capsys, argv):
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    assert "error" in capsys.readouterr().err


def test_analyse_reports_a_bad_fen_on_stderr(capsys):
    rc, out, err = run(capsys, "analyse", "not a fen")
    assert rc == 2 and out == "" and err.startswith("houserules: error:")


def test_play_against_a_level(capsys):
    rc, out, _ = run(capsys, "play", "--level", "2", "--human", "none", "--max-moves", "4",
                     "--seed", "1")
    assert rc == 0 and "move cap (4 plies) reached" in out


def test_dice_play_with_a_level(capsys):
    rc, out, _ = run(capsys, "dice", "play", "--level", "3", "--max-turns", "3", "--seed", "2")
    assert rc == 0 and "(level 3) plays" in out
