"""Variants written as a rule designer writes them, proved against Fairy-Stockfish.

Five variants that are no preset, built with the public API only and shipped
as examples (each one's docstring says how it is made):

=================================================  ===================  ==============================
example                                            FSF variant          what it exercises
=================================================  ===================  ==============================
``examples/rules/king_of_the_hill.hr`` (rule text) ``kingofthehill``    a win judged on every position
``examples/rulesets/three_check.py``               ``3check``           state of its own, a FEN token
``examples/rulesets/racing_kings.py``              ``racingkings``      a layout, a no-check filter,
                                                                        a win that waits for a reply
``examples/rulesets/horde.py``                     ``horde``            no royal piece for one side,
                                                                        a pawn step of its own
``examples/rulesets/atomic.py``                    ``atomic``           a capture effect with its
                                                                        ``simulate`` hook, check rules
=================================================  ===================  ==============================

Along seeded random playouts both must agree at every ply on the legal move
set and the position (board, side to move, castling, clocks; the three-check
count through ``checks:W+B``, FSF's ``N+M`` field of checks still needed), on
whether the position is dead by material, and where no move is left on the
result. Along the way the FEN must read back to the same position and moves,
and ``pop`` must restore the position and its moves. Perft(2) is compared at
the start positions.

Differences from FSF, none found in legal moves, results or positions. The en
passant field is left to the legal-move comparison (FSF writes a target only
where a capture is legal, as we do by default, but its Horde writes none after
a first-rank double step, which leaves no target, as on lichess).
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from chess_rules.custom import load_rule_file
from chess_rules.fide import fide_rules
from chess_rules.game import Game
from chess_rules.pyrules import load_ruleset_spec

sf = pytest.importorskip("pyffish")

ROOT = Path(__file__).resolve().parents[2]
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
RACING = "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1"
HORDE = "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1"


def _python(name):
    return lambda: load_ruleset_spec(str(ROOT / "examples" / "rulesets" / f"{name}.py") + ":build")


def _koth():
    return load_rule_file(fide_rules(), ROOT / "examples" / "rules" / "king_of_the_hill.hr")


# name: (rule set, FSF variant, start positions)
VARIANTS = {
    "king-of-the-hill": (_koth, "kingofthehill",
                         [START, "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
                          "r3k2r/ppp2ppp/8/8/8/8/PPP2PPP/R3K2R w KQkq - 0 1"]),
    "three-check": (_python("three_check"), "3check",
                    [START, "r3k2r/ppp2ppp/8/8/8/8/PPP2PPP/R3K2R w KQkq - 0 1 checks:2+1"]),
    "racing-kings": (_python("racing_kings"), "racingkings",
                     [RACING, "8/8/8/8/8/1k6/8/K1B1R3 w - - 0 1"]),
    "horde": (_python("horde"), "horde",
              [HORDE, "4k3/pppppppp/8/8/8/2p5/PPPPPPPP/PPPPPPPP w - - 0 1"]),
    "atomic": (_python("atomic"), "atomic",
               [START, "r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1",
                "4k3/2p5/8/3pp3/3PP3/8/2P5/R3K2R w KQ - 0 1"]),
}
NAMES = sorted(VARIANTS)
ENDINGS = {"king-of-the-hill": {"king of the hill"}, "three-check": {"three checks"},
           "racing-kings": {"king reached the eighth rank", "both kings home"},
           "horde": {"the horde is destroyed", "checkmate"}, "atomic": {"king exploded"}}
_RULESETS: dict = {}


def ruleset(name):
    if name not in _RULESETS:
        _RULESETS[name] = VARIANTS[name][0]()
    return _RULESETS[name]


def fsf_fen(name, fen):
    """Our FEN as FSF reads it: three-check's ``checks:W+B`` (given) becomes
    FSF's field of checks still needed, before the clocks."""
    if name != "three-check":
        return fen
    f = fen.split()
    w, b = (int(x) for x in (f[6][len("checks:"):] if len(f) > 6 else "0+0").split("+"))
    return " ".join(f[:4] + [f"{3 - w}+{3 - b}"] + f[4:6])


def ours_from_fsf(name, fen):
    f = fen.split()
    if name != "three-check":
        return f[:6]
    w, b = (3 - int(x) for x in f[4].split("+"))
    return f[:4] + f[5:7] + ([f"checks:{w}+{b}"] if w or b else [])


def winner_of(score, turn):
    return None if score == 0 else turn if score > 0 else \
        ("black" if turn == "white" else "white")


def choose(name, g, rng, legal):
    """A random move; in Racing Kings a king move half the time, so that the
    kings get home (the goal rules) within a short playout."""
    if name == "racing-kings" and rng.random() < 0.5:
        kings = [m.uci() for m in g.legal_moves() if m.piece == "king"]
        if kings:
            return rng.choice(kings)
    return rng.choice(legal)


def playout(name, fen, seed, plies, reread_every=5) -> tuple[int, str | None]:
    """Play ``plies`` random moves, comparing with FSF at every ply; the number
    of positions compared and how the game ended (None: still going)."""
    rs = ruleset(name)
    variant = VARIANTS[name][1]
    rng = random.Random(seed)
    g = Game(fen, ruleset=rs)
    sfen = fsf_fen(name, fen)
    moves: list[str] = []
    for ply in range(plies + 1):
        ctx = (name, fen, moves, g.fen())
        ours = g.legal_uci()
        ended, score = sf.is_immediate_game_end(variant, sfen, moves)
        theirs = [] if ended else sf.legal_moves(variant, sfen, moves)
        assert set(ours) == set(theirs), (ctx, "ours only", sorted(set(ours) - set(theirs)),
                                          "FSF only", sorted(set(theirs) - set(ours)))
        mine = [x for i, x in enumerate(g.fen().split()) if i != 3 and x[:6] != "moved:"]
        want = [x for i, x in enumerate(ours_from_fsf(name, sf.get_fen(variant, sfen, moves)))
                if i != 3]
        assert mine == want, (ctx, want)
        out = g.outcome()
        dead = out is not None and out.reason == "insufficient material"
        assert dead == all(sf.has_insufficient_material(variant, sfen, moves)), (ctx, out)
        if not ours:
            if not ended:
                score = sf.game_result(variant, sfen, moves)
            assert out is not None and out.winner == winner_of(score, g.turn), (ctx, out, score)
            return ply + 1, out.reason
        if ply % reread_every == 0:
            again = Game(g.fen(), ruleset=rs)
            assert again.fen() == g.fen() and again.legal_uci() == ours, ctx
        if ply == plies:
            break
        m = choose(name, g, rng, ours)
        before = g.fen()
        g.push(m)
        if rng.random() < 0.25:
            g.pop()
            assert g.fen() == before and g.legal_uci() == ours, (ctx, m)
            g.push(m)
        moves.append(m)
    return plies + 1, None


def fsf_perft(variant, fen, moves, depth):
    ended, _ = sf.is_immediate_game_end(variant, fen, moves)
    legal = [] if ended else sf.legal_moves(variant, fen, moves)
    if depth == 1:
        return len(legal)
    return sum(fsf_perft(variant, fen, moves + [m], depth - 1) for m in legal)


@pytest.mark.parametrize("name", NAMES)
def test_playouts_agree_with_fairy_stockfish(name):
    compared, endings = 0, set()
    for i, fen in enumerate(VARIANTS[name][2]):
        n, how = playout(name, fen, seed=100 * i, plies=45)
        compared += n
        endings.add(how)
    assert compared >= 45


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_long_playouts_agree_with_fairy_stockfish(name):
    endings = {}
    for i, fen in enumerate(VARIANTS[name][2]):
        for seed in range(12):
            _, how = playout(name, fen, seed=1000 * i + seed, plies=200, reread_every=17)
            endings[how] = endings.get(how, 0) + 1
    # the playouts reach the variant's own ending
    assert set(endings) & ENDINGS[name], endings


@pytest.mark.parametrize("name", NAMES)
def test_perft_2_agrees_at_the_start(name):
    fen = VARIANTS[name][2][0]
    g = Game(fen, ruleset=ruleset(name))
    assert g.perft(2) == fsf_perft(VARIANTS[name][1], fsf_fen(name, fen), [], 2)


# ---------------------------------------------------------------- the endings, one by one


def test_king_of_the_hill_is_won_on_the_hill_and_a_setup_on_it_is_over():
    g = Game("4k3/8/8/8/8/4K3/8/8 w - - 0 1", ruleset=ruleset("king-of-the-hill"))
    g.push("e3e4")
    assert g.outcome().winner == "white" and g.legal_uci() == []
    g.pop()
    assert g.outcome() is None and "e3d4" in g.legal_uci()
    # two bare kings race on: FIDE's dead position is no draw here
    assert Game("8/8/8/4k3/8/8/8/4K3 w - - 0 1",
                ruleset=ruleset("king-of-the-hill")).outcome().winner == "black"
    assert sf.is_immediate_game_end("kingofthehill", "8/8/8/4k3/8/8/8/4K3 w - - 0 1", []) == \
        (True, -32000)


def test_three_check_counts_in_the_fen_and_pop_takes_the_count_back():
    rs = ruleset("three-check")
    g = Game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 checks:2+0", ruleset=rs)
    assert g.fen().endswith(" checks:2+0")
    g.push("a1a8")
    assert g.outcome().winner == "white" and g.outcome().reason == "three checks"
    assert g.fen().endswith(" checks:3+0") and g.legal_uci() == []
    g.pop()
    assert g.fen().endswith(" checks:2+0") and g.outcome() is None
    # the count is part of the position: a check given is no repetition
    g = Game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", ruleset=rs)
    for u in ("a1a8", "e8e7", "a8a1", "e7e8"):
        g.push(u)
    assert g.board_fen() == "4k3/8/8/8/8/8/8/R3K3" and g.repetitions() == 1


def test_racing_kings_black_may_still_draw_after_white_arrives():
    rs = ruleset("racing-kings")
    g = Game("8/k1K5/8/8/8/8/8/8 w - - 0 1", ruleset=rs)
    g.push("c7c8")
    assert g.outcome() is None and sorted(g.legal_uci()) == ["a7a6", "a7a8", "a7b6"]
    g.push("a7a8")
    assert g.outcome().winner is None
    g.pop()
    g.push("a7a6")
    assert g.outcome().winner == "white"
    # black, unable to follow, has no move: white has won
    g = Game("8/6K1/8/8/8/8/8/k7 w - - 0 1", ruleset=rs)
    g.push("g7g8")
    assert g.legal_uci() == [] and g.outcome().winner == "white"
    assert g.explain("a1a2").rule == "racing-kings.last-chance"
    # and nobody gives check
    assert Game(RACING, ruleset=rs).explain("g2g8").text == \
        "g2g8: legal - generated by fide.rook-move"
    assert Game("8/8/8/8/8/8/1k6/R2K4 w - - 0 1", ruleset=rs).explain("a1a2").rule == \
        "racing-kings.no-check"


def test_horde_first_rank_double_step_leaves_no_en_passant_target():
    rs = ruleset("horde")
    fen = "4k3/8/8/8/8/2p5/8/1P6 w - - 0 1"
    g = Game(fen, ruleset=rs)
    g.push("b1b3")
    assert "c3b2" not in g.legal_uci()
    assert "c3b2" not in sf.legal_moves("horde", fen, ["b1b3"])
    # a pawn come up from the first rank may double-step from the second
    g = Game("4k3/8/8/8/8/8/8/1P6 w - - 0 1", ruleset=rs)
    for u in ("b1b2", "e8e7"):
        g.push(u)
    assert "b2b4" in g.legal_uci()
    g.push("b2b4")
    assert g.ep_squares() == [17]
    # a lone white knight is no dead position: black may still take it, and
    # the horde destroyed, black wins
    g = Game("4k3/8/8/8/8/8/2n5/N7 b - - 0 1", ruleset=rs)
    assert g.outcome() is None
    g.push("c2a1")
    assert g.outcome().winner == "black" and g.outcome().reason == "the horde is destroyed"
    assert g.legal_uci() == []


def test_atomic_blasts_and_the_touching_kings():
    rs = ruleset("atomic")
    g = Game("4k3/3pq3/8/8/8/8/8/3QK3 w - - 0 1", ruleset=rs)
    g.push("d1d7")              # the pawn taken; the queen, the queen on e7 and the king blown up
    assert g.board_fen() == "8/8/8/8/8/8/8/4K3"
    assert g.outcome().winner == "white" and g.outcome().reason == "king exploded"
    g.pop()
    assert g.board_fen() == "4k3/3pq3/8/8/8/8/8/3QK3"
    # a capture beside one's own king is refused; kings may touch, and then
    # neither is in check
    g = Game("8/8/8/8/8/3r4/3K4/7k w - - 0 1", ruleset=rs)
    assert g.explain("d2d3").rule == "fide.king-move"        # a king never captures
    assert not g.is_legal("d2d3")
    g = Game("8/8/8/8/3k4/8/3K3r/8 w - - 0 1", ruleset=rs)
    assert g.is_check()
    g = Game("8/8/8/8/8/3k4/3K3r/8 w - - 0 1", ruleset=rs)
    assert not g.is_check() and sorted(g.legal_uci()) == \
        sorted(sf.legal_moves("atomic", "8/8/8/8/8/3k4/3K3r/8 w - - 0 1", []))
    # castling through a square attacked but beside the enemy king
    fen = "5r2/8/8/8/8/8/6k1/4K2R w K - 0 1"
    assert Game(fen, ruleset=rs).is_legal("e1g1") and "e1g1" in sf.legal_moves("atomic", fen, [])


# ---------------------------------------------------------------- a variant's own start


@pytest.mark.parametrize("name,start", [("horde", HORDE), ("racing-kings", RACING)])
def test_a_rule_sets_own_start_is_where_its_games_begin(name, start, tmp_path, capsys):
    from houserules.cli import main
    from houserules.scenarios import parse_text, run_scenario
    rs = ruleset(name)
    assert rs.config["start-fen"] == start
    g = Game(ruleset=rs)                      # no position given: the variant's own
    assert g.fen() == start
    assert g.perft(1) == fsf_perft(VARIANTS[name][1], fsf_fen(name, start), [], 1)
    g.push(g.legal_uci()[0])
    assert f'[FEN "{start}"]' in g.pgn()      # a start that is not the standard one
    # a scenario with no fen starts there too
    module = "horde" if name == "horde" else "racing_kings"
    text = (f'scenario "start"\n  ruleset {ROOT}/examples/rulesets/{module}.py:build\n'
            f'  expect fen {start}\n')
    for sc in parse_text(text, str(tmp_path / "t.hrt")):
        run_scenario(sc)
    # and so does the terminal game (bot against bot)
    assert main(["play", "--ruleset", f"{ROOT}/examples/rulesets/{module}.py:build",
                 "--human", "none", "--max-moves", "0"]) == 0
    first_rank = start.split()[0].split("/")[-1]          # (no empty square on it)
    assert "1  " + " ".join(first_rank) in capsys.readouterr().out


def test_without_a_start_of_its_own_a_game_begins_at_the_standard_position():
    assert Game(ruleset=ruleset("atomic")).fen() == START
