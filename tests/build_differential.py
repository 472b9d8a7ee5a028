"""The compiled and the pure build must play the same chess: the witness.

    python tests/build_differential.py emit [--seed S] [--plies N] > build.json
    python tests/build_differential.py compare pure.json compiled.json

``emit`` plays seeded random playouts under FIDE, under every preset (with
its requirements, from its preferred layout) and under Dice Chess, and
prints, as JSON, at every ply the legal moves, the FEN (DFEN) and the outcome,
and for Dice Chess every turn tree. The moves are picked by a
``random.Random(seed)``, so two builds that agree on every list pick the
same moves. ``compare`` checks that two such files come from different builds
and agree on everything else; it names the first difference and exits 1.
``make test-compiled`` runs ``emit`` in both venvs and ``compare`` on the two.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys

# run as a script, its folder (tests/, whose rete/ and dice/ hold tests) comes
# first on sys.path and would hide the packages of the build under test
if sys.path and os.path.abspath(sys.path[0]) == os.path.dirname(os.path.abspath(__file__)):
    del sys.path[0]


def _outcome(o) -> list | None:
    return None if o is None else [o.winner, o.reason, o.rule]


def chess_playout(name: str, fen: str, ruleset, seed: int, plies: int) -> dict:
    """The legal moves, FEN and outcome at every ply of one random game."""
    from chess_rules.game import Game
    rng = random.Random(f"{seed}:{name}")
    game = Game(fen, ruleset=ruleset)
    steps = []
    for _ in range(plies):
        moves = game.legal_uci()
        steps.append({"fen": game.fen(), "moves": moves, "outcome": _outcome(game.outcome())})
        if not moves or game.outcome() is not None:
            break
        game.push(rng.choice(moves))
    # taking every move back again reaches the start: unmake is part of the witness
    while game.move_stack:
        game.pop()
    return {"steps": steps, "undone": game.fen()}


def dice_playout(seed: int, turns: int, ruleset=None) -> dict:
    """The turn tree, DFEN and outcome at every turn of one random Dice Chess game."""
    import dice
    from dice.game import DiceGame
    rng = random.Random(f"{seed}:dice")
    dfen = dice.START_DFEN
    steps = []
    for _ in range(turns):
        dfen = dice.roll(dfen, rng, ruleset)
        tree = dice.legal_turn_tree(dfen, ruleset)
        outcome = _outcome(DiceGame(dfen, ruleset).outcome())
        steps.append({"dfen": dfen, "tree": tree, "outcome": outcome})
        if outcome is not None:
            break
        node = tree
        while node:
            move = rng.choice(sorted(node))
            dfen = dice.apply_move(dfen, move, ruleset)
            node = node[move]
        try:
            dfen = dice.end_turn(dfen, ruleset)
        except dice.DiceError:      # the game ended within the turn
            steps.append({"dfen": dfen, "outcome": _outcome(DiceGame(dfen, ruleset).outcome())})
            break
    return {"steps": steps}


def emit(seed: int = 1, plies: int = 40, games: int = 2) -> dict:
    """Every playout of one seed, with the build that played them."""
    import rete
    from chess_rules.fide import fide_rules
    from presets import registry
    from presets.layouts import get_layout
    out: dict = {"build": rete.build_kind(), "chess": {}, "dice": []}
    start = get_layout("standard").fen
    for g in range(games):
        out["chess"][f"fide/{g}"] = chess_playout(f"fide/{g}", start, fide_rules(),
                                                 seed + g, plies)
    for meta in registry.all_presets():
        ids = registry.with_requirements([meta.id])
        fen = get_layout(meta.preferred_layout or "standard").fen
        for g in range(games):
            name = f"{meta.id}/{g}"
            out["chess"][name] = chess_playout(name, fen, registry.load(*ids), seed + g, plies)
    for g in range(games):
        out["dice"].append(dice_playout(seed + g, plies // 2))
    return out


def differences(a: dict, b: dict, path: str = "") -> list[str]:
    """Where two emitted documents differ (the ``build`` key aside)."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(set(a) | set(b), key=str):
            if path == "" and k == "build":
                continue
            if k not in a or k not in b:
                out.append(f"{path}/{k}: only in {'the second' if k in b else 'the first'}")
            else:
                out += differences(a[k], b[k], f"{path}/{k}")
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in differences(x, y, f"{path}[{i}]")]
    return [] if a == b else [f"{path}: {json.dumps(a)[:200]} != {json.dumps(b)[:200]}"]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    e = sub.add_parser("emit", help="play the seeded playouts, print JSON")
    e.add_argument("--seed", type=int, default=1)
    e.add_argument("--plies", type=int, default=40)
    e.add_argument("--games", type=int, default=2)
    c = sub.add_parser("compare", help="compare two emitted files of different builds")
    c.add_argument("first")
    c.add_argument("second")
    a = ap.parse_args(argv)
    if a.command == "emit":
        json.dump(emit(a.seed, a.plies, a.games), sys.stdout, sort_keys=True)
        print()
        return 0
    docs = [json.load(open(p, encoding="utf-8")) for p in (a.first, a.second)]
    builds = sorted(d["build"] for d in docs)
    if builds != ["compiled", "pure"]:
        print(f"expected one compiled and one pure build, got {builds}", file=sys.stderr)
        return 1
    diff = differences(*docs)
    for d in diff[:20]:
        print(d, file=sys.stderr)
    plies = sum(len(p["steps"]) for p in docs[0]["chess"].values())
    trees = sum(len(p["steps"]) for p in docs[0]["dice"])
    print(f"{'DIFFERENT' if diff else 'identical'}: {len(docs[0]['chess'])} chess playouts "
          f"({plies} positions), {len(docs[0]['dice'])} Dice Chess games ({trees} turns)")
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
