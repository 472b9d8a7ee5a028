"""``houserules dice ...``: output formats are a contract; errors to stderr, exit 2."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from houserules.cli import main
from dice import legal_turn_tree, legal_uci_moves

EXAMPLE = "8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1 NPP"
START_QRN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 QRN"


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_moves_sorted_one_per_line(capsys):
    code, out, err = run(capsys, "dice", "moves", EXAMPLE)
    assert code == 0 and err == ""
    assert out.splitlines() == ["b3a5", "b3c1", "b3c5", "b3d2", "b3d4", "c2c3", "c2c4"]


def test_dfen_given_as_seven_words(capsys):
    code, out, _ = run(capsys, "dice", "moves", *EXAMPLE.split())
    assert code == 0 and out.splitlines() == legal_uci_moves(EXAMPLE)


def test_tree_is_json_with_empty_leaves(capsys):
    code, out, _ = run(capsys, "dice", "tree", EXAMPLE)
    assert code == 0
    tree = json.loads(out)
    assert tree == legal_turn_tree(EXAMPLE)
    assert tree["c2c4"] == {"b3c5": {}}


def test_tree_of_a_roll_without_moves(capsys):
    code, out, _ = run(capsys, "dice", "tree",
                       "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 QBK")
    assert code == 0 and json.loads(out) == {}


def test_playable(capsys):
    assert run(capsys, "dice", "playable", START_QRN)[1].strip() == "[2, 4]"
    assert json.loads(run(capsys, "dice", "playable", START_QRN, "b1a3")[1]) == [4]
    assert json.loads(run(capsys, "dice", "playable", START_QRN, "b1a3", "a1b1")[1]) == []
    assert run(capsys, "dice", "playable", START_QRN, "a1b1")[1].strip() == "null"
    # seven words, then the moves
    assert json.loads(run(capsys, "dice", "playable", *START_QRN.split(), "b1c3")[1]) == [4]


def test_apply_end_roll(capsys):
    code, out, _ = run(capsys, "dice", "apply", EXAMPLE, "c2c4")
    assert code == 0 and out.strip() == "8/8/8/2k5/2P5/1N6/8/K7 w - c3 0 1 NP"
    code, out, _ = run(capsys, "dice", "end", "8/8/8/2k5/2P5/1N6/8/K7 w - c3 0 1 -")
    assert code == 0 and out.strip() == "8/8/8/2k5/2P5/1N6/8/K7 b - c3 0 1 -"
    code, a, _ = run(capsys, "dice", "roll", "8/8/8/2k5/2P5/1N6/8/K7 b - c3 0 1 -", "--seed", "5")
    code2, b, _ = run(capsys, "dice", "roll", "8/8/8/2k5/2P5/1N6/8/K7 b - c3 0 1 -", "--seed", "5")
    assert code == code2 == 0 and a == b
    dice_field = a.split()[6]
    assert len(dice_field) == 3 and set(dice_field) <= set("PNBRQK")


@pytest.mark.parametrize("argv, words", [
    (["dice", "apply", EXAMPLE, "a1a2"], "no king die"),
    (["dice", "apply", EXAMPLE, "b3b5"], "b3b5"),
    (["dice", "apply", "8/8/8/2k5/2P5/1N6/8/K7 w - c3 0 1 NP", "b3c1"], None),
    (["dice", "end", EXAMPLE], "legal micro-move is left"),
    (["dice", "moves", "8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1 NPX"], "bad DFEN (dice)"),
    (["dice", "roll", EXAMPLE], "already rolled"),
    (["dice", "apply", EXAMPLE], "one UCI"),
])
def test_errors_go_to_stderr_with_exit_2(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    if words is None:           # b3c1 is legal judged afresh after c2c4: not an error
        assert code == 0 and out.strip().endswith(" P")
        return
    assert code == 2 and out == ""
    assert err.startswith("houserules: error:") and words in err


def test_play_a_whole_game_between_bots(capsys):
    code, out, _ = run(capsys, "dice", "play", "--seed", "3", "--max-turns", "6",
                       "--white", "random", "--black", "random")
    assert code == 0
    assert "rolls" in out and out.strip().splitlines()[-1].startswith("result:")


def test_console_script_subprocess():
    r = subprocess.run([sys.executable, "-m", "houserules.cli", "dice", "moves", START_QRN],
                       capture_output=True, text=True, timeout=120)
    if r.returncode != 0 and "No module named houserules.cli.__main__" in r.stderr:
        r = subprocess.run([sys.executable, "-c",
                            "import sys; from houserules.cli import main; sys.exit(main())",
                            "dice", "moves", START_QRN], capture_output=True, text=True,
                           timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["b1a3", "b1c3", "g1f3", "g1h3"]


def test_dice_over_a_preset(capsys):
    from dice.rules import dice_rules
    from presets import load
    d = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 PP"
    code, out, _ = run(capsys, "dice", "moves", d, "--preset", "berolina-pawns")
    assert code == 0 and out.splitlines() == ["e2c4", "e2d3", "e2f3", "e2g4"]
    assert out.splitlines() == legal_uci_moves(d, dice_rules(load("berolina-pawns")))
    code, out, _ = run(capsys, "dice", "apply", d, "e2c4", "--preset", "berolina-pawns")
    assert code == 0 and out.strip() == "4k3/8/8/8/2P5/8/8/4K3 w - d3 0 1 P"
    code, out, _ = run(capsys, "dice", "tree", d, "--preset", "berolina-pawns",
                       "--config", "berolina-pawns.scope=black")
    assert code == 0 and set(json.loads(out)) == {"e2e3", "e2e4"}   # White's pawns are FIDE's
    hp = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 PK hp:e2=1"
    code, out, _ = run(capsys, "dice", "apply", hp, "e2e3", "--preset", "piece-hp")
    assert code == 0 and out.strip() == "4k3/8/8/8/8/4P3/8/4K3 w - - 0 1 K hp:e3=1"
    code, out, err = run(capsys, "dice", "apply", hp, "e2e3")       # no hp without the preset
    assert code == 2 and out == "" and "hp" in err and "extended" in err


def test_play_over_a_preset(capsys):
    code, out, _ = run(capsys, "dice", "play", "--seed", "3", "--max-turns", "300",
                       "--preset", "knightmate-rules")
    assert code == 0
    last = out.strip().splitlines()
    assert last[-1].startswith("result: ") and "captures the knight and wins" in last[-2]


def test_dice_explain_names_the_production_or_the_refusing_rule(capsys):
    code, out, err = run(capsys, "dice", "explain", EXAMPLE, "c2c4")
    assert code == 0 and err == ""
    assert out.strip() == ("c2c4: legal - generated by fide.pawn-double-push "
                           "(spends the pawn die; then [2])")
    code, out, _ = run(capsys, "dice", "explain", EXAMPLE, "a1b1")
    assert code == 0 and out.startswith("a1b1: refused by dice.die-filter - no king die")
    code, out, err = run(capsys, "dice", "explain", EXAMPLE, "c2")
    assert code == 2 and out == "" and "c2" in err


def test_playable_after_text_that_is_no_move_is_an_error_not_null(capsys):
    # null answers "no legal turn begins so"; 'zz' is no micro-move at all
    code, out, err = run(capsys, "dice", "playable", START_QRN, "b1a3", "zz")
    assert code == 2 and out == "" and "bad move 'zz'" in err
    # what the API reads as UCI is still read: a capital promotion letter
    d = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1 PK"
    assert json.loads(run(capsys, "dice", "playable", d, "a7a8Q")[1]) == [6]


def test_unquoted_dfen_keeps_its_key_value_tokens(capsys):
    # the chess commands read an unquoted extended FEN whole; a DFEN's tokens
    # (what 'dice apply' writes under a preset) are part of it too, not arguments
    hp = "4k3/8/8/4p3/3P4/8/8/4K3 w - - 0 1 P hp:e5=1"
    quoted = run(capsys, "dice", "moves", hp, "--preset", "piece-hp")
    assert quoted[0] == 0
    assert run(capsys, "dice", "moves", *hp.split(), "--preset", "piece-hp") == quoted
    applied = run(capsys, "dice", "apply", hp, "d4d5", "--preset", "piece-hp")
    assert applied[0] == 0
    assert run(capsys, "dice", "apply", *hp.split(), "d4d5", "--preset", "piece-hp") == applied
    code, out, _ = run(capsys, "dice", "playable", *hp.split(), "d4d5", "--preset", "piece-hp")
    assert code == 0 and json.loads(out) == []


def test_unquoted_plain_fen_then_a_move_is_not_read_as_dice(capsys):
    # a plain FEN (six words) reads as having no dice: the word after it is the
    # move, and the error is the move's (no die), not a malformed dice field
    fen = "8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1"
    code, out, err = run(capsys, "dice", "apply", *fen.split(), "c2c4")
    assert code == 2 and out == "" and "no pawn die" in err
    code, out, err = run(capsys, "dice", "playable", *fen.split(), "c2c4")
    assert (code, out.strip()) == (0, "null")
    code, out, err = run(capsys, "dice", "explain", *fen.split(), "c2c4")
    assert code == 0 and out.startswith("c2c4: refused by dice.die-filter")
