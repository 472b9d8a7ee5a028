"""houserules replay FILE.pgn: each move with the rule that made it, the final
FEN and the outcome; the first move the rules refuse stops it (exit 2)."""
from __future__ import annotations

import io
import sys

import pytest

from houserules.cli import main

FOOLS_MATE = '[White "Ann"]\n[Black "Bob"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n'


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def write(tmp_path, text, name="g.pgn", encoding="utf-8"):
    p = tmp_path / name
    p.write_bytes(text.encode(encoding))
    return str(p)


def test_each_move_with_its_rule_then_fen_and_outcome(capsys, tmp_path):
    code, out, err = run(capsys, "replay", write(tmp_path, FOOLS_MATE))
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "1. f3  white plays f2f3  (fide.pawn-single-push)",
        "1... e5  black plays e7e5  (fide.pawn-double-push)",
        "2. g4  white plays g2g4  (fide.pawn-double-push)",
        "2... Qh4#  black plays d8h4  (fide.queen-move)",
        "fen: rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
        "outcome: 0-1 black wins by checkmate (fide.checkmate-win)",
    ]


def test_several_games_each_under_its_variant_and_a_result_the_rules_do_not_declare(
        capsys, tmp_path):
    text = FOOLS_MATE + '\n[Variant "double-move"]\n\n1. e4 d4 1... e5 d5 1-0\n'
    code, out, err = run(capsys, "replay", write(tmp_path, text))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "game 1 (line 1): Ann - Bob" and lines[7] == ""
    assert lines[8:] == [
        "game 2 (line 6): ? - ?",
        "1. e4  white plays e2e4  (fide.pawn-double-push)",
        "1. d4  white plays d2d4  (fide.pawn-double-push)",
        "1... e5  black plays e7e5  (fide.pawn-double-push)",
        "1... d5  black plays d7d5  (fide.pawn-double-push)",
        "fen: rnbqkbnr/ppp2ppp/8/3pp3/3PP3/8/PPP2PPP/RNBQKBNR w KQkq d6e6 0 2",
        "outcome: ongoing (the file records 1-0)",
    ]


def test_the_first_illegal_move_stops_with_its_place_and_reason(capsys, tmp_path):
    path = write(tmp_path, '[Event "x"]\n\n1. e4 e5 2. Nf3 Nf6 3. O-O Nc6 *\n')
    code, out, err = run(capsys, "replay", path)
    assert code == 2
    assert out.splitlines()[-1] == "2... Nf6  black plays g8f6  (fide.knight-move)"
    assert err == (f"houserules: error: {path}:3:24: move 3. O-O (e1g1): refused by "
                   f"fide.castling - f1 is not empty\n")


def test_presets_given_replace_the_variant_and_config_configures_it(capsys, tmp_path):
    path = write(tmp_path, '[Variant "monster-rules"]\n\n1. e4 1... e5 d5 2. Nf3 *\n')
    code, out, err = run(capsys, "replay", path, "--config", "monster-rules.scope=black")
    assert (code, err) == (0, "") and "1... d5  black plays d7d5" in out
    # rules named by an option are the rules: the Variant tag is not read
    code, out, err = run(capsys, "replay", path, "--preset", "double-move")
    assert code == 2 and "1. e5  white plays e4e5" in out
    assert err.startswith(f"houserules: error: {path}:3:21: move 1... Nf3 ")
    code, out, err = run(capsys, "replay", path, "--preset", "piece-hp")
    assert code == 2 and err.startswith(f"houserules: error: {path}:3:15: move 2. d5 ")


def test_standard_input_and_a_latin_1_file(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(FOOLS_MATE.encode())))
    code, out, _ = run(capsys, "replay", "-")
    assert code == 0 and out.splitlines()[-1].startswith("outcome: 0-1")
    path = write(tmp_path, FOOLS_MATE.replace("Ann", "Zoé"), encoding="latin-1")
    code, out, _ = run(capsys, "replay", path)
    assert code == 0


def test_a_file_with_a_utf_8_mark_and_latin_1_text(capsys, tmp_path):
    # an editor's BOM on a file whose names are Latin-1 (pasted in from another
    # file): read as Latin-1, the mark is no 'ï»¿' move at 1:1
    path = tmp_path / "mixed.pgn"
    path.write_bytes(b"\xef\xbb\xbf" + FOOLS_MATE.replace("Ann", "Zoé").encode("latin-1"))
    code, out, err = run(capsys, "replay", str(path))
    assert (code, err) == (0, "")
    assert out.splitlines()[-1] == "outcome: 0-1 black wins by checkmate (fide.checkmate-win)"


def test_errors_are_one_line_with_exit_2(capsys, tmp_path):
    cases = [
        (write(tmp_path, "1. e4 zf3 *\n", "a.pgn"), "a.pgn:1:7: not a move: 'zf3'"),
        (write(tmp_path, '[Variant "chess960"]\n\n1. e4 *\n', "b.pgn"),
         "b.pgn:1:10: Variant 'chess960' is not a preset"),
        (write(tmp_path, "{nothing}\n", "c.pgn"), "c.pgn: no game in the text"),
        (str(tmp_path / "missing.pgn"), "cannot read PGN file"),
    ]
    for path, says in cases:
        code, _, err = run(capsys, "replay", path)
        assert code == 2 and err.startswith("houserules: error: ") and says in err, err
        assert err.count("\n") == 1



@pytest.mark.parametrize("text, at, played, refused, result, outcome", [
    # python-chess stops there too: after the mate the move is illegal to it
    (FOOLS_MATE.replace("Qh4# 0-1", "Qh4# 3. a3 Nc6 0-1"), "a3 Nc6", 4, "3. a3", "0-1",
     "refused by fide.checkmate-win - the game is already over: 0-1 black wins by checkmate"),
], ids=["after-a-mate"])
def test_a_move_after_the_game_has_ended_is_refused_naming_the_outcome(
        capsys, tmp_path, text, at, played, refused, result, outcome):
    chess_pgn = pytest.importorskip("chess.pgn")
    path = write(tmp_path, text)
    code, out, err = run(capsys, "replay", path)
    assert code == 2 and len(out.splitlines()) == played
    pos = text.index(at)
    line, column = text.count("\n", 0, pos) + 1, pos - text.rfind("\n", 0, pos)
    assert err == f"houserules: error: {path}:{line}:{column}: move {refused}: {outcome}\n"
    theirs = chess_pgn.read_game(io.StringIO(text))
    moves = list(theirs.mainline_moves())
    board = theirs.board()
    for m in moves[:played]:
        board.push(m)
    # the same moves up to the end, and the same end
    assert [ln.split()[4] for ln in out.splitlines()] == [m.uci() for m in moves[:played]]
    assert board.outcome() is not None and board.outcome().result() == result
    # python-chess refuses what follows a mate (an error, the rest of the line
    # dropped) and plays on after a draw these rules declare
    assert (len(moves) == played) == bool(theirs.errors)


def test_a_draw_by_rule_leaves_the_moves_and_the_replay_plays_on(capsys, tmp_path):
    # the draw leaves the moves (RULES.md: a move played on from a drawn position
    # makes a new position, judged afresh), Game.push plays them, and python-chess
    # reads on: the replay refused them as "refused by fide.insufficient-material",
    # a rule that refuses no move (explain said the same move was legal)
    chess_pgn = pytest.importorskip("chess.pgn")
    text = '[SetUp "1"]\n[FEN "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1"]\n\n1. Kxd2 Ke7 2. Ke3 *\n'
    code, out, err = run(capsys, "replay", write(tmp_path, text))
    assert (code, err) == (0, "")
    board = chess_pgn.read_game(io.StringIO(text)).end().board()
    lines = out.splitlines()
    assert [ln.split()[4] for ln in lines[:-2]] == ["e1d2", "e8e7", "d2e3"]
    assert lines[-2] == f"fen: {board.fen()}"
    assert lines[-1] == ("outcome: 1/2-1/2 draw by insufficient material "
                         "(fide.insufficient-material) (the file records *)")
