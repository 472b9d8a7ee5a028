"""``make demo``: chess running as production rules on the Rete engine.

Shows the rule set, a short game with the production behind every move,
explanations of refused moves, perft with a progress display, and a preset.
"""
from __future__ import annotations

import time

from rich.console import Console
from rich.progress import Progress

from chess_rules.game import Game
from houserules.play import render


def main() -> int:
    con = Console()
    con.rule("houserules: chess as production rules on a Rete-II engine")
    t0 = time.perf_counter()
    g = Game()
    build = time.perf_counter() - t0
    stats = g.session.stats()
    con.print(f"FIDE rule set: {len(g.rules())} productions compiled into "
              f"{sum(stats['nodes'].values())} network nodes in {build * 1000:.1f} ms")
    con.rule("a short game (each move names the production that generated it)")
    for u in ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1", "f8c5", "d2d4", "e5d4"]:
        m = g.push(u)
        con.print(f"{len(g.move_stack):2}. {u}  <- {m.rule}")
    con.print(render(g))
    con.print(f"FEN: {g.fen()}")
    con.rule("explanations")
    for u in ["e4e5", "c6e5", "f3e5", "d1h5", "a2a5", "c4f7", "f1e1"]:
        con.print(g.explain(u).text)
    for fen, u in (("r3k2r/8/8/8/8/8/8/R3K1rR w KQkq - 0 1", "e1c1"),
                   ("4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1", "e1g1")):
        con.print(f"[dim]in {fen}:[/dim]")
        con.print(Game(fen).explain(u).text)
    con.rule("perft from the start position")
    start = Game()
    counts = {}
    with Progress(console=con, transient=True) as prog:
        task = prog.add_task("perft 3", total=len(start.legal_moves()))
        t0 = time.perf_counter()
        for m in list(start.legal_moves()):
            start._play(m)
            counts[m.uci()] = start.perft(2)
            start.pop()
            prog.advance(task)
        dt = time.perf_counter() - t0
    con.print(f"perft(3) = {sum(counts.values())} (published: 8902) in {dt:.2f} s")
    con.rule("a preset: Backward-Marching Pawns")
    try:
        p = Game("4k3/8/8/8/4P3/3p4/8/4K3 w - - 0 1", presets=["pawns-move-backward"])
        con.print(render(p))
        con.print("legal: " + " ".join(p.legal_uci()))
        con.print(p.explain("e4e3").text)
        con.print(p.explain("e4d3").text)
    except Exception as e:  # presets are optional for the demo
        con.print(f"(presets unavailable: {e})")
    con.rule("fool's mate")
    f = Game()
    for u in ["f2f3", "e7e5", "g2g4", "d8h4"]:
        f.push(u)
    out = f.outcome()
    assert out is not None      # (checkmate)
    con.print(f"{out.result()} {out.reason}, decided by {out.rule}")
    _variants(con)
    _dice(con)
    return 0


def _variants(con) -> None:
    """A v2 preset on its layout, and a user's own rule file."""
    from presets import load
    from chess_rules.custom import load_rule_text
    con.rule("a variant: Knightmate (the knights are royal)")
    k = Game("rnbnkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBNKBNR w KQkq - 0 1",
             presets=["knightmate-rules"])
    for u in ["e2e4", "d7d5", "f1b5"]:
        k.push(u)
    con.print(render(k))
    con.print(f"The bishop on b5 attacks the king on e8, but only knights are royal "
              f"(royal types for black: {', '.join(sorted(k.state.royal['black']))}), "
              f"so black is in check: {k.is_check()}.")
    con.print(k.explain("c7c6").text)
    con.print(k.explain("e8d7").text)
    con.rule("your own rule, in the rule language")
    text = ('rule "custom.rook-diagonal-step" stage generate\n'
            '  "A rook may also step one square diagonally."\n'
            'when\n  movegen(color: ?c)\n  ?p <- piece(type: rook, color: ?c)\n'
            'then\n  call gen-leap(?p, "NE NW SE SW")\nend\n')
    con.print(text, markup=False, highlight=False)
    rs = load_rule_text(load("pawns-move-backward"), text, "demo.hr")
    g = Game("4k3/8/8/8/4P3/8/8/R3K3 w Q - 0 1", ruleset=rs)
    con.print("legal: " + " ".join(g.legal_uci()))
    con.print(g.explain("a1b2").text)
    con.print(f"perft(3) with the rule and pawns-move-backward: {g.perft(3)} "
              f"(plain FIDE: {Game('4k3/8/8/8/4P3/8/8/R3K3 w Q - 0 1').perft(3)})")


def _dice(con) -> None:
    """One Dice Chess turn: the roll, the legal turn tree, the playable dice."""
    import random

    import dice
    con.rule("Dice Chess: a roll and its legal turn tree")
    dfen = dice.roll(dice.START_DFEN, random.Random(7))
    con.print(f"DFEN after the roll: {dfen}")
    tree = dice.legal_turn_tree(dfen)

    def leaves(t):
        return 1 if not t else sum(leaves(v) for v in t.values())
    con.print(f"{len(tree)} first micro-moves, {leaves(tree)} complete turns; "
              f"playable dice now: {dice.playable_dice(dfen, [])}")
    first = sorted(tree)[0]
    con.print(f"after {first}: playable dice {dice.playable_dice(dfen, [first])}; "
              f"DFEN {dice.apply_move(dfen, first)}")


if __name__ == "__main__":
    raise SystemExit(main())
