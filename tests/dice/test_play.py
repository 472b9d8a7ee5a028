"""The game driver and its bots."""
from __future__ import annotations

import random

from rich.console import Console

from dice import legal_turn_tree
from dice.engine import DiceGame
from dice.play import choose_turn, play_game


def _paths(tree, prefix=()):
    if not tree:
        yield prefix
        return
    for u, sub in tree.items():
        yield from _paths(sub, prefix + (u,))


def test_bots_pick_legal_turns_and_greedy_takes_the_king():
    d = "4k3/8/8/8/8/8/PP2R3/4K3 w - - 0 1 RPP"
    legal = set(_paths(legal_turn_tree(d)))
    for bot in ("random", "greedy", "odds"):
        assert choose_turn(d, bot, random.Random(1)) in legal
    assert choose_turn(d, "greedy", random.Random(1))[-1] == "e2e8"
    assert choose_turn(d, "odds", random.Random(2))[-1] == "e2e8"


def test_greedy_takes_the_most_material():
    # knight die: take the queen on c3, not the pawn on d2
    d = "4k3/8/8/8/8/2q5/3p4/1N2K3 w - - 0 1 N"
    assert choose_turn(d, "greedy", random.Random(0)) == ("b1c3",)


def test_odds_bot_keeps_its_queen_out_of_reach():
    # a queen die and nothing to take: the black rook on a5 covers the a-file and
    # the fifth rank. Greedy sees equal material everywhere; the odds bot weighs
    # the one-in-(1 - (5/6)^3) chance that Black rolls a rook and keeps clear.
    d = "7k/8/8/r7/8/8/8/3QK3 w - - 0 1 Q"
    tree = legal_turn_tree(d)
    attacked = {u for u in tree if u[2] == "a" or u[3] == "5"}
    assert attacked                          # there are squares to avoid
    for seed in range(5):
        (u,) = choose_turn(d, "odds", random.Random(seed))
        assert u not in attacked
    greedy = {choose_turn(d, "greedy", random.Random(s))[0] for s in range(40)}
    assert greedy & attacked                 # greedy does not see the danger


def test_a_whole_game_ends_in_a_king_capture_or_the_cap():
    rec = play_game(seed=11, white="greedy", black="random", max_turns=400, quiet=True)
    assert rec.winner in ("white", "black")
    color, faces, played = rec.turns[-1]
    assert color == rec.winner and len(faces) == 3 and played


def test_human_walks_the_tree():
    answers = iter(["zz", "quit"])
    console = Console(record=True, width=100)
    rec = play_game(seed=1, human="white", console=console,
                    inputs=lambda prompt: next(answers))
    text = console.export_text()
    assert "micro-moves:" in text and "playable dice:" in text
    assert rec.turns == []


def test_a_game_over_a_preset_follows_the_preset():
    # knightmate: the knight is royal and the game starts from the preset's own
    # layout; every turn played is a complete legal turn under the preset (found
    # on its tree), and replaying the turns on text reaches the same result
    from dice import apply_move, end_turn, turn_tree, with_dice
    from presets import get, load
    from presets.layouts import get_layout
    rs = load("knightmate-rules")
    rec = play_game(seed=3, white="greedy", black="greedy", max_turns=300, quiet=True, ruleset=rs)
    assert rec.winner in ("white", "black")
    layout = get_layout(get("knightmate-rules").preferred_layout).fen
    dfen = " ".join(layout.split()[:6]) + " -"
    for i, (color, faces, played) in enumerate(rec.turns):
        dfen = with_dice(dfen, faces, rs)
        node = turn_tree(dfen, rs).nodes
        for u in played:
            assert u in node, (dfen, played)
            node = node[u][1]
            dfen = apply_move(dfen, u, rs)
        assert node == {}                     # a complete turn
        if i < len(rec.turns) - 1:
            dfen = end_turn(dfen, rs)
    assert dfen == rec.final
    assert DiceGame(dfen, rs).winner() == rec.winner


def test_end_of_input_ends_a_human_game_quietly(monkeypatch):
    # Ctrl-D (or a closed pipe) at the prompt reads as 'quit': no EOFError
    import io
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    console = Console(record=True, width=100, file=io.StringIO())
    rec = play_game(seed=1, human="white", console=console)
    assert rec.turns == [] and rec.winner is None
    assert "your micro-move" in console.export_text()
