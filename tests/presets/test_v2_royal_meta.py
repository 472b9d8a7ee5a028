"""Metadata, composition and CLI of the royalty and objective v2 presets
(knightmate-rules, coregal, dual-king, weak-dual-king, first-promotion-wins,
suicide-chess, capture-all, extinction-chess)."""
from __future__ import annotations

import pytest

from houserules.cli import main
from chess_rules.game import Game
from presets import load
from presets.base import IncompatiblePresetsError, PresetConfigError
from presets.layouts import LAYOUTS, get_layout
from presets.registry import get, incompatibilities

MINE = ["knightmate-rules", "coregal", "dual-king", "weak-dual-king", "first-promotion-wins",
        "suicide-chess", "capture-all", "extinction-chess"]
ROYAL_SETS = {"knightmate-rules": ("knight",), "coregal": ("king", "queen"),
              "dual-king": ("king",), "weak-dual-king": ("king",),
              "suicide-chess": (), "capture-all": (), "extinction-chess": ("king",),
              "first-promotion-wins": ("king",)}
PREFERRED = {"knightmate-rules": "knightmate", "dual-king": "dual-classic",
             "weak-dual-king": "dual-classic", "first-promotion-wins": "pawns-only"}


@pytest.mark.parametrize("pid", MINE)
def test_meta(pid):
    meta = get(pid)
    assert meta.gallery == "v2"
    assert meta.preferred_layout == PREFERRED.get(pid)
    assert meta.scope_aware is False
    assert (meta.config_model is not None) == (pid == "extinction-chess")


@pytest.mark.parametrize("pid", MINE)
def test_royal_set_is_rule_set_data(pid):
    rs = load(pid)
    assert rs.royal_types == {"white": ROYAL_SETS[pid], "black": ROYAL_SETS[pid]}
    g = Game(ruleset=rs)
    royal_facts = {(f.values["type"], f.values["color"]) for f in g.session.facts_of("royal")}
    assert royal_facts == {(t, c) for c in ("white", "black") for t in ROYAL_SETS[pid]}


def test_coregal_and_dual_king_compose_as_a_union():
    rs = load("coregal", "dual-king")
    assert set(rs.royal_types["white"]) == {"king", "queen"}
    g = Game("3kk3/8/8/8/8/1r6/8/3QK3 w - - 0 1", ruleset=rs)
    assert "d1b1" not in g.legal_uci()        # the queen stays royal


ROYALTY = ["knightmate-rules", "coregal", "dual-king", "weak-dual-king"]
EXPECTED_INCOMPATIBLE = [
    ("knightmate-rules", "coregal"), ("knightmate-rules", "dual-king"),
    ("knightmate-rules", "weak-dual-king"), ("dual-king", "weak-dual-king"),
    ("coregal", "weak-dual-king"), ("suicide-chess", "capture-all"),
    ("weak-dual-king", "king-heals"),
] + [(r, o) for r in ROYALTY for o in ("suicide-chess", "capture-all", "last-piece-standing")] \
  + [(o, v1) for o in ("suicide-chess", "capture-all")
     for v1 in ("last-piece-standing", "capture-to-win", "king-heals")]


@pytest.mark.parametrize("a,b", EXPECTED_INCOMPATIBLE)
def test_incompatibilities_declared_and_enforced(a, b):
    assert b in incompatibilities()[a] and a in incompatibilities()[b]
    extra = ["piece-hp"] if "king-heals" in (a, b) else []
    with pytest.raises(IncompatiblePresetsError, match=f"{a}|{b}"):
        load(*extra, a, b)
    with pytest.raises(IncompatiblePresetsError):
        load(*extra, b, a)


@pytest.mark.parametrize("pair", [("coregal", "dual-king"), ("extinction-chess", "capture-all"),
                                  ("extinction-chess", "coregal"), ("first-promotion-wins",
                                                                    "suicide-chess"),
                                  ("coregal", "piece-hp"), ("capture-all", "piece-hp"),
                                  ("first-promotion-wins", "extinction-chess")])
def test_compatible_pairs_build_and_play(pair):
    rs = load(*pair)
    g = Game(ruleset=rs)
    assert g.perft(2) > 0


def test_extinction_config_is_validated():
    assert load("extinction-chess", config={"extinction-chess": {"target_type": "rook"}})
    for bad in ({"target_type": "dragon"}, {"target_type": 3}, {"target": "pawn"}):
        with pytest.raises(PresetConfigError, match="extinction-chess"):
            load("extinction-chess", config={"extinction-chess": bad})
    for pid in MINE:
        if pid != "extinction-chess":
            with pytest.raises(PresetConfigError):
                load(pid, config={pid: {"scope": "white"}})


def test_layouts_match_the_spec():
    """DECISIONS.md "Layouts": dual-classic, knightmate, monster, pawns-only."""
    assert set(LAYOUTS) >= {"standard", "dual-classic", "knightmate", "monster", "pawns-only"}
    assert get_layout("standard").fen == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    assert get_layout("dual-classic").fen.split()[:3] == [
        "rnbkkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR", "w", "KQkq"]
    assert get_layout("knightmate").fen.split()[0] == "rnbnkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBNKBNR"
    assert get_layout("monster").fen.split()[0] == "rnbqkbnr/pppppppp/8/8/8/8/2PPPP2/4K3"
    assert get_layout("pawns-only").fen.split()[0] == "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3"
    for layout in LAYOUTS.values():
        assert Game(layout.fen).fen() == layout.fen


# ------------------------------------------------------------ the CLI


@pytest.mark.parametrize("pid", MINE)
def test_cli_moves_perft_explain_outcome(pid, capsys):
    layout = get(pid).preferred_layout or "standard"
    fen = get_layout(layout).fen
    if pid == "suicide-chess":
        fen = fen.replace(" KQkq ", " - ")
    g = Game(fen, presets=[pid])
    assert main(["moves", "--preset", pid, "--layout", layout]) == 0
    assert capsys.readouterr().out.split() == g.legal_uci()
    assert main(["perft", "2", "--preset", pid, "--layout", layout]) == 0
    assert str(g.perft(2)) in capsys.readouterr().out
    assert main(["explain", "--preset", pid, "--layout", layout, "e2e4"]) == 0
    assert "legal" in capsys.readouterr().out
    assert main(["outcome", "--preset", pid, "--layout", layout]) == 0
    assert "ongoing" in capsys.readouterr().out


def test_cli_verdicts(capsys):
    assert main(["outcome", "--preset", "extinction-chess", "--config",
                 "extinction-chess.target_type=knight", "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1"]) == 0
    assert "white wins by no knight left" in capsys.readouterr().out
    assert main(["explain", "--preset", "suicide-chess",
                 "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4e5"]) == 0
    assert "suicide-chess.compulsory-capture" in capsys.readouterr().out
    assert main(["outcome", "--preset", "weak-dual-king",
                 "3kk3/8/8/8/8/8/PPn2nPP/KN4NK w - - 0 1"]) == 0
    assert "black wins by checkmate" in capsys.readouterr().out
    assert main(["moves", "--preset", "knightmate-rules", "--preset", "coregal",
                 "--layout", "knightmate"]) == 2
    assert "incompatible" in capsys.readouterr().err


# ------------------------------------------------------------ the Game API


def test_weak_dual_king_mate_is_explained_and_undone():
    g = Game("3kk3/8/8/8/8/8/PPn2nPP/KN4NK w - - 0 1", presets=["weak-dual-king"])
    ex = g.explain("a2a3")
    assert not ex.legal and ex.rule == "weak-dual-king.mate-filter"
    assert "every king" in ex.reason
    g2 = Game("3kk3/8/8/8/8/8/8/r2KK3 b - - 0 1", presets=["weak-dual-king"])
    before = g2.fen()
    g2.push("a1d1")
    assert g2.outcome() is None and g2.is_check()
    g2.push("e1d1")                       # the survivor takes back
    assert g2.outcome() is None and g2.fen().startswith("3kk3/8/8/8/8/8/8/3K4 b")
    g2.pop()
    g2.pop()
    assert g2.fen() == before and g2.outcome() is None


def test_first_promotion_result_survives_undo_redo():
    g = Game("4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1", presets=["first-promotion-wins"])
    g.push("b7b8q")
    assert g.outcome().winner == "white" and g.legal_moves() == []
    g.pop()
    assert g.outcome() is None and "b7b8q" in g.legal_uci()
    g.push("e1d1")
    g.push("g2g1n")
    assert g.outcome().winner == "black"


def test_suicide_fen_round_trip_and_promotion_to_king_san():
    g = Game("8/1P6/8/8/8/8/8/7k w - - 0 1", presets=["suicide-chess"])
    assert g.san("b7b8k") == "b8=K"
    g.push_san("b8=K")
    assert Game(g.fen(), presets=["suicide-chess"]).fen() == g.fen()


@pytest.mark.parametrize("target", ["pawn", "knight", "bishop", "rook", "queen"])
def test_extinction_each_target(target):
    from chess_rules.squares import PIECE_LETTER
    letter = PIECE_LETTER[target]
    # the white rook takes Black's only target piece (on d8, or the pawn on a2)
    fen = f"3{letter.lower()}k3/8/8/8/8/8/8/R2{letter}K3 w - - 0 1" if target != "pawn" \
        else "4k3/8/8/8/8/8/p7/R3K2P w - - 0 1"
    g = Game(fen, presets=["extinction-chess"], config={"extinction-chess": {"target_type": target}})
    victim = "a2" if target == "pawn" else "d8"
    if target == "pawn":
        g.push("a1a2")
    else:
        assert g.outcome() is None
        g.push("a1a8")
        g.push("e8e7")
        g.push("a8" + victim)
    out = g.outcome()
    assert out is not None and out.winner == "white" and out.reason == f"no {target} left"


def test_preferred_layout_is_the_first_presets_own():
    from presets.layouts import LAYOUTS, preferred_layout
    assert preferred_layout([]) is LAYOUTS["standard"]
    assert preferred_layout(["piece-hp"]) is LAYOUTS["standard"]
    assert preferred_layout(["piece-hp", "knightmate-rules"]) is LAYOUTS["knightmate"]
    assert preferred_layout(["monster-rules", "dual-king"]) is LAYOUTS["monster"]
