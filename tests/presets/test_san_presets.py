"""SAN under every preset: each legal move's SAN reads back as that move.

Pawns that leave their file without capturing (Berolina pawns, slanting pawns)
and two pawns of one file reaching one square (backward steps) need more than
FIDE's pawn SAN; python-chess checks the FIDE cases (tests/chess).
"""
from __future__ import annotations

import random

import pytest

from chess_rules.game import Game
from presets import all_presets, load
from presets.layouts import get_layout

METAS = {m.id: m for m in all_presets()}


def round_trips(pid: str, seed: int, games: int, plies: int) -> int:
    meta = METAS[pid]
    rs = load(pid, *meta.requires)
    fen = get_layout(meta.preferred_layout or "standard").fen
    rng = random.Random(seed)
    checked = 0
    for _ in range(games):
        g = Game(fen, ruleset=rs)
        for _ in range(plies):
            moves = g.legal_moves()
            if not moves or g.outcome() is not None:
                break
            for m in moves:
                san = g.san(m)
                assert g.parse_san(san).uci() == m.uci(), (pid, g.fen(), m.uci(), san)
                checked += 1
            g._play(rng.choice(moves))
    return checked


@pytest.mark.parametrize("pid", sorted(METAS))
def test_san_reads_back(pid):
    assert round_trips(pid, seed=3, games=1, plies=16) > 50


@pytest.mark.slow
@pytest.mark.parametrize("pid", sorted(METAS))
def test_san_reads_back_long(pid):
    round_trips(pid, seed=4, games=6, plies=60)


@pytest.mark.parametrize("pid, fen, uci, san", [
    ("berolina-pawns", None, "a2b3", "ab3"),
    ("berolina-pawns", None, "c2b3", "cb3"),
    ("pawn-diagonal-no-capture", None, "a2b3", "ab3"),
    ("pawn-diagonal-no-capture", None, "b2b3", "b3"),
    ("pawns-move-backward", "4k3/8/3p4/8/3p4/8/8/4K3 b - - 0 1", "d6d5", "d6d5"),
    ("pawns-move-backward", "4k3/8/3p4/8/3p4/8/8/4K3 b - - 0 1", "d4d5", "d4d5"),
])
def test_pawn_san_under_presets(pid, fen, uci, san):
    g = Game(fen, ruleset=load(pid))
    assert g.san(uci) == san and g.parse_san(san).uci() == uci


def test_a_win_by_another_rule_is_no_checkmate_in_san():
    # capture-to-win: Bxb5 wins at once and gives check; '#' means checkmate only
    g = Game("4k3/8/8/1p6/8/8/8/4KB2 w - - 0 1", presets=["capture-to-win"])
    assert g.san("f1b5") == "Bxb5+"
    g.push("f1b5")
    assert not g.is_checkmate() and g.outcome().reason == "first capture"
    assert Game("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2").san("d8h4") \
        == "Qh4#"
