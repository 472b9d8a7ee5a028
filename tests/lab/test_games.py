"""One lab game, played as a worker plays it (no Dask here): every move legal
by an independent referee, the PGN readable, the game the same for the same
seed, colours alternating, and Dice Chess turns replayed through the dice API."""
from __future__ import annotations

import io

import chess
import chess.pgn

from dice import DiceGame, apply_move, end_turn, with_dice
from houserules.lab.games import CAP_REASON, play, tasks, turn_cut
from houserules.lab.spec import parse_spec

FACE = {"P": 1, "N": 2, "B": 3, "R": 4, "Q": 5, "K": 6}


def _spec(**kw):
    data = {"games": 4, "bots": [2, 1], "max_plies": 16, "seed": 3,
            "variant": [{"name": "fide"}]}
    data.update(kw)
    return parse_spec(data)


def test_tasks_alternate_colours_and_give_each_game_its_own_seed():
    ts = tasks(_spec(variant=[{"name": "fide"}, {"name": "dm", "presets": ["double-move"]}]), 1)
    assert [t.index for t in ts] == list(range(8))
    assert [(t.white_bot, t.white_level, t.black_level) for t in ts[:2]] == \
        [("A", 2, 1), ("B", 1, 2)]
    assert len({t.seed for t in ts}) == 8
    # the seeds come from the run's seed: another run seed, other games
    assert {t.seed for t in tasks(_spec(seed=4), 1)}.isdisjoint({t.seed for t in ts})


def test_a_fide_game_is_legal_move_by_move_for_python_chess_and_replays_the_same():
    task = tasks(_spec(), 1)[0]
    record = play(task)
    board = chess.Board()
    for uci in record.moves.split():
        move = chess.Move.from_uci(uci)
        assert move in board.legal_moves, (uci, board.fen())
        board.push(move)
    assert record.plies == len(board.move_stack) <= task.max_plies
    if record.reason == CAP_REASON:
        assert record.result == "1/2-1/2" and record.plies == task.max_plies
    else:
        assert board.is_game_over() and board.result() == record.result
    game = chess.pgn.read_game(io.StringIO(record.pgn))
    assert [m.uci() for m in game.mainline_moves()] == record.moves.split()
    assert game.headers["White"] == "level 2 (bot A)"
    again = play(task)
    assert (again.moves, again.result) == (record.moves, record.result)


def test_a_preset_game_writes_its_variant_tag_and_reads_back_under_it():
    from chess_rules.game import Game
    task = tasks(_spec(variant=[{"name": "hp", "presets": ["piece-hp"],
                                 "config": {}}], max_plies=12), 1)[1]
    record = play(task)
    assert '[Variant "piece-hp"]' in record.pgn
    game = Game.from_pgn(record.pgn)
    assert [m.uci() for m in game.move_stack] == record.moves.split()


def test_an_opening_line_is_played_first():
    task = tasks(_spec(opening={"lines": ["g1f3 g8f6 c2c4"], "random_plies": 0}), 1)[2]
    assert play(task).moves.split()[:3] == ["g1f3", "g8f6", "c2c4"]


def test_a_dice_game_replays_turn_by_turn_through_the_dice_api():
    record = play(tasks(_spec(variant=[{"name": "dice", "dice": True}], max_plies=8), 1)[1])
    assert 0 < record.turns <= 8 and record.pgn is None
    dfen = DiceGame().dfen()
    played = 0
    for word in record.moves.split():
        faces, _, micro = word.partition(":")
        dfen = with_dice(dfen, [FACE[f] for f in faces])
        for u in ([] if micro == "-" else micro.split(",")):
            dfen = apply_move(dfen, u)
            played += 1
        game = DiceGame(dfen)
        if game.is_game_over():
            assert game.winner() == record.winner
            break
        dfen = end_turn(dfen)
    assert played == record.plies
    assert 0 <= record.turns_cut <= record.turns


def test_a_turn_is_cut_when_the_rule_forbids_a_first_micro_move_the_dice_allow():
    # a2a4 spends one pawn die (a5 blocks the next step), a2a3 a3a4 spends two
    assert turn_cut(DiceGame("4k3/8/8/p7/8/8/P7/4K3 w - - 0 1 PP"))
    assert not turn_cut(DiceGame("4k3/8/8/8/8/8/P7/4K3 w - - 0 1 PP"))


def test_a_variant_of_rule_text_a_modifier_and_a_layout_plays_from_its_spec(tmp_path):
    from pathlib import Path
    from houserules.lab.rules import variant_rules
    from houserules.lab.spec import load_spec
    from presets.layouts import get_layout
    root = Path(__file__).resolve().parents[2]
    (tmp_path / "lab.toml").write_text(
        f'games = 2\nmax_plies = 10\n[opening]\nrandom_plies = 10\n'
        f'[[variant]]\nname = "koth"\nrules = ["{root}/examples/rules/king_of_the_hill.hr"]\n'
        f'presets = ["piece-hp"]\nmodifiers = ["decay"]\nlayout = "monster"\n', encoding="utf-8")
    spec = load_spec(tmp_path / "lab.toml")
    rules = variant_rules(spec.variant[0])
    assert "koth.hill" in rules.ruleset.productions
    assert rules.start == get_layout("monster").fen
    # the same rules under another name: the worker's rule set is built once
    assert variant_rules(spec.variant[0].model_copy(update={"name": "other"})) is rules
    record = play(tasks(spec, 1)[0])
    assert record.plies <= 10 and record.variant == "koth"
