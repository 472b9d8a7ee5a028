"""piece-hp through the Game API and the CLI: the numbered scenarios, and the
extended position (FEN plus ``hp:SQ=N`` tokens) that round-trips and that
``houserules moves`` / ``perft`` accept."""
from __future__ import annotations

import random

import pytest

from houserules.cli import main as cli
from chess_rules.errors import FenError
from chess_rules.game import Game

HP = ["piece-hp"]


def hp(g, sq):
    f = g.piece_at(sq)
    return None if f is None else f.values["hp"]


def test_scenario_1_damage_and_push_north():
    g = Game("4k3/8/8/8/3p4/8/8/3R3K w - - 0 1", presets=HP)
    g.push("d1d4")
    assert g.piece_at("d4").values["type"] == "rook"
    assert g.piece_at("d5").values["type"] == "pawn" and hp(g, "d5") == 1
    assert g.fen() == "4k3/8/8/3p4/3R4/8/8/7K b - - 0 1 hp:d5=1"


def test_scenario_2_one_hp_target_is_removed():
    g = Game("4k3/8/8/8/3p4/8/8/3R3K w - - 0 1 hp:d4=1", presets=HP)
    g.push("d1d4")
    assert g.fen() == "4k3/8/8/8/3R4/8/8/7K b - - 0 1"


def test_scenario_3_no_empty_neighbour_removes_the_target():
    g = Game("4k3/8/8/2PPP3/2PnP3/1NPPP3/8/7K w - - 0 1", presets=HP)
    g.push("b3d4")
    assert g.fen() == "4k3/8/8/2PPP3/2PNP3/2PPP3/8/7K b - - 0 1"


def test_explain_names_the_mover_and_the_damage_rule_replaces_fide_capture():
    g = Game("4k3/8/8/8/3p4/8/8/3R3K w - - 0 1", presets=HP)
    ex = g.explain("d1d4")
    assert ex.legal and "fide.rook-move" in ex.generated_by
    assert g.ruleset.origin["fide.capture"] == "piece-hp"


@pytest.mark.parametrize("text", [
    "4k3/8/8/3p4/3R4/8/8/7K b - - 0 1 hp:d4=3,d5=1,e8=2",
    "4k3/8/8/3p4/3R4/8/8/7K w - - 7 12 hp:d5=1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "4k3/8/8/8/8/8/4P3/K7 w - - 0 1 moved:e2 hp:e2=5",
])
def test_extended_position_round_trips(text):
    g = Game(text, presets=HP)
    assert g.fen() == text
    again = Game(g.fen(), presets=HP)
    assert again.legal_uci() == g.legal_uci()


def test_default_hit_points_are_not_written():
    g = Game("4k3/8/8/3p4/3R4/8/8/7K b - - 0 1 hp:d4=2,e8=1", presets=HP)
    assert g.fen() == "4k3/8/8/3p4/3R4/8/8/7K b - - 0 1"
    assert hp(g, "d4") == 2 and hp(g, "e8") == 1 and hp(g, "h1") == 1


def test_hit_points_round_trip_along_a_playout():
    rng = random.Random(5)
    g = Game(presets=["piece-hp", "king-heals", "poisoned-squares"])
    seen_hp = False
    for _ in range(80):
        moves = g.legal_moves()
        if not moves or g.outcome() is not None:
            break
        g.push(rng.choice(moves))
        text = g.fen()
        seen_hp |= " hp:" in text
        again = Game(text, ruleset=g.ruleset)
        assert again.fen() == text
        assert again.legal_uci() == g.legal_uci()
    assert seen_hp


@pytest.mark.parametrize("text", [
    "4k3/8/8/3p4/3R4/8/8/7K b - - 0 1 hp:d5=0",
    "4k3/8/8/3p4/3R4/8/8/7K b - - 0 1 hp:d5=-1",
    "4k3/8/8/3p4/3R4/8/8/7K b - - 0 1 hp:a1=2",
    "4k3/8/8/3p4/3R4/8/8/7K b - - 0 1 hp:d5",
    "4k3/8/8/3p4/3R4/8/8/7K b - - 0 1 hp:z9=1",
    "4k3/8/8/3p4/3R4/8/8/7K b - - 0 1 hp:d5=two",
])
def test_bad_hit_points_are_refused(text):
    with pytest.raises(FenError):
        Game(text, presets=HP)


def test_hp_token_needs_the_preset():
    with pytest.raises(FenError):
        Game("4k3/8/8/3p4/3R4/8/8/7K b - - 0 1 hp:d5=1")


def run_cli(capsys, *args):
    rc = cli(list(args))
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_cli_moves_accepts_the_extended_position(capsys):
    fen = "4k3/8/8/8/3p4/8/8/3R3K w - - 0 1 hp:d4=1"
    rc, out, _ = run_cli(capsys, "moves", fen, "--preset", "piece-hp")
    assert rc == 0
    assert out.split() == Game(fen, presets=HP).legal_uci()
    assert "d1d4" in out.split()


def test_cli_perft_accepts_the_extended_position(capsys):
    fen = "4k3/8/8/3p4/3R4/8/8/7K b - - 0 1 hp:d4=3,d5=1"
    g = Game(fen, presets=HP)
    rc, out, _ = run_cli(capsys, "perft", fen, "2", "--preset", "piece-hp")
    assert rc == 0 and int(out.split()[-1]) == g.perft(2)
    rc, out, _ = run_cli(capsys, "perft", fen, "2", "--divide", "--preset", "piece-hp")
    lines = out.strip().splitlines()
    assert int(lines[-1]) == g.perft(2)
    assert {l.split(":")[0] for l in lines[:-1]} == set(g.legal_uci())


def test_cli_with_dependent_presets(capsys):
    fen = "4r2k/8/8/8/8/8/8/4K3 b - - 0 1 hp:e1=2"
    rc, out, _ = run_cli(capsys, "moves", fen, "--preset", "piece-hp", "--preset", "king-heals")
    assert rc == 0 and "e8e1" in out.split()


def test_cli_refuses_a_bad_hp_token(capsys):
    rc, out, err = run_cli(capsys, "moves", "4k3/8/8/3p4/3R4/8/8/7K b - - 0 1 hp:d5=0",
                           "--preset", "piece-hp")
    assert rc == 2 and out == "" and "hp:d5=0" in err


def test_cli_refuses_hp_without_the_preset(capsys):
    rc, out, err = run_cli(capsys, "perft", "4k3/8/8/3p4/3R4/8/8/7K b - - 0 1 hp:d5=1", "1")
    assert rc == 2 and "hp" in err
