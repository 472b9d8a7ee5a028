"""Every fact survives every round trip, under combinations of presets.

Seeded games under random compatible combinations of two or three presets
(requirements added), from the preferred layout and from sparse random
positions (random hit points, mid-turn ``half:``), with moves biased towards
captures and promotions, check at every ply:

* **FEN**: the position read back from ``fen()`` (and from ``fen('all')``) is
  the same game: the same text, legal moves, verdict and check, and the same
  working memory - every fact of every template, piece attributes included
  (a non-pawn's has-moved flag aside: only a pawn's is read, and a pawn's is
  written; en-passant targets as far as the text shows them: ``fen()`` drops
  the ones no pawn can take, as python-chess; a result some rule locked in
  play and a threefold draw are the game's, not the position's);
* **pop**: pushing one to three moves and popping them gives back every fact,
  the repetition history and the verdict;
* **refusals**: random illegal UCI and SAN text raises a ChessError and
  changes nothing;
* **SAN**: every legal move's SAN reads back as that move, and writing it
  changes nothing;
* **copy / PGN**: at the end a copy is the same game and goes on as the game
  does; the PGN read back (``Game.from_pgn``: the presets from its Variant tag,
  the start from its FEN tag) is the same game.

Dice Chess over the same combinations: at every micro-move the DFEN read back
has the same facts (die order aside) and legal micro-moves, a push/pop is net
zero, and at every turn's end a copy is the same game.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from chess_rules.errors import ChessError
from chess_rules.game import Game
from chess_rules.squares import SQUARE_NAMES
from presets import load
from presets.layouts import get_layout

sys.path.insert(0, str(Path(__file__).parent))
from _combinations import METAS, combinations  # noqa: E402


def layout_fen(ids) -> str:
    for i in ids:
        if METAS[i].preferred_layout:
            return get_layout(METAS[i].preferred_layout).fen
    return get_layout("standard").fen


def sparse_fen(rng, ids, rs) -> str | None:
    """A random position with a few pieces (a second king under the dual-king
    presets), random hit points where pieces have them, sometimes mid-turn."""
    for _ in range(200):
        pieces = ["K", "k"] + (["K", "k"] if {"dual-king", "weak-dual-king"} & set(ids) else [])
        pieces += [rng.choice("PPPPpppNnBbRrQq") for _ in range(rng.randint(2, 9))]
        squares = rng.sample(range(64), len(pieces))
        if any(p in "Pp" and s // 8 in (0, 7) for p, s in zip(pieces, squares)):
            continue
        board = dict(zip(squares, pieces))
        rows = []
        for r in range(7, -1, -1):
            row, empty = "", 0
            for f in range(8):
                p = board.get(r * 8 + f)
                if p is None:
                    empty += 1
                    continue
                row += (str(empty) if empty else "") + p
                empty = 0
            rows.append(row + (str(empty) if empty else ""))
        fen = "/".join(rows) + f" {rng.choice('wb')} - - 0 1"
        extra = []
        if "hp" in rs.templates["piece"].slots:
            hp = [f"{SQUARE_NAMES[s]}={rng.randint(1, 3)}" for s in squares if rng.random() < 0.4]
            if hp:
                extra.append("hp:" + ",".join(hp))
        if "turn-structure" in rs.config and rng.random() < 0.4:
            extra.append("half:1")
        if extra:
            fen += " " + " ".join(extra)
        try:
            g = Game(fen, ruleset=rs)
            if g.outcome() is None and g.legal_moves():
                return fen
        except ChessError:
            continue
    return None


def memory(g, ep: bool = True, die_order: bool = True) -> dict:
    """Working memory by template, in comparable form: a non-pawn's has-moved
    flag left out (nothing reads it; it is not written), a modifier's hooks
    and auras by their piece's square (fact ids differ after a reload), the
    hooks of pieces already gone left out (dropped at the next move)."""
    s = g.session
    for t in list(s.templates):
        s.facts_of(t)       # (derived facts, fide.check-detection's, worked out now)
    where = {f.id: f.values["square"] for f in s.facts_of("piece")}
    out = {}
    for t, facts in s.by_template.items():
        if t == "ep" and not ep:
            continue
        rows = []
        for f in facts.values():
            v = dict(f.values)
            if t == "piece" and v["type"] != "pawn":
                v.pop("moved", None)
            if t.startswith("mod-"):
                for k in ("piece", "source"):
                    if k in v:
                        if v[k] not in where:
                            break
                        v[k] = ("square", where[v[k]])
                else:
                    rows.append(repr(sorted(v.items())))
                continue
            if t == "die" and not die_order:
                v.pop("index")
            rows.append(repr(sorted(v.items())))
        if rows:
            out[t] = sorted(rows)
    return out


def snapshot(g) -> dict:
    return {"fen": g.fen(), "legal": g.legal_uci(), "outcome": g.outcome(),
            "check": g.is_check(), "stack": [m.uci() for m in g.move_stack],
            "history": list(g._history), "repetitions": g.repetitions(), "memory": memory(g)}


def pick(rng, moves):
    sharp = [m for m in moves if m.victim is not None or m.promo]
    return rng.choice(sharp if sharp and rng.random() < 0.6 else moves)


def check_reload(g, rs) -> None:
    text = g.fen()
    again = Game(text, ruleset=rs)
    assert again.fen() == text, (rs.presets, text, again.fen())
    every = g.fen("all")
    all_again = Game(every, ruleset=rs)
    assert all_again.fen() == text and all_again.fen("all") == every, (rs.presets, every)
    out = g.outcome()
    if g.outcome_if_decided() is not None or (out and out.reason == "threefold repetition"):
        return      # the game's, not the position's
    assert again.legal_uci() == g.legal_uci(), (rs.presets, text)
    assert again.outcome() == out and again.is_check() == g.is_check(), (rs.presets, text)
    assert memory(again, ep=False) == memory(g, ep=False), (rs.presets, text)
    assert memory(all_again) == memory(g), (rs.presets, every)


def refusals(rng, g):
    legal = set(g.legal_uci())
    for _ in range(4):
        u = rng.choice(SQUARE_NAMES) + rng.choice(SQUARE_NAMES) + rng.choice(["", "", "q", "k"])
        if u not in legal:
            yield g.push, u
    for _ in range(3):
        yield g.push_san, (rng.choice(["", "N", "B", "R", "Q", "K"]) + rng.choice(["", "e", "x"])
                           + rng.choice(SQUARE_NAMES) + rng.choice(["", "=Q", "+"]))
    yield g.push, "0000"
    yield g.push_san, "O-O-O"


def play(ids, seed: int, plies: int) -> int:
    rs = load(*ids)
    rng = random.Random(seed)
    fen = layout_fen(ids) if seed % 2 == 0 else sparse_fen(rng, ids, rs)
    if fen is None:
        return 0
    g = Game(fen, ruleset=rs)
    checked = 0
    for _ in range(plies):
        check_reload(g, rs)
        before = snapshot(g)
        for m in g.legal_moves():
            san = g.san(m)
            assert g.parse_san(san).uci() == m.uci(), (ids, g.fen(), m.uci(), san)
        for fn, text in refusals(rng, g):
            try:
                fn(text)
            except ChessError as e:
                assert str(e)
            else:
                assert fn == g.push_san, (ids, g.fen(), text)    # a random SAN may be legal
                g.pop()
            assert snapshot(g) == before, (ids, before["fen"], text)
        if g.outcome() is not None:
            break
        moves = g.legal_moves()
        pushed = 0
        for _ in range(rng.randint(1, 3)):
            if g.outcome() is not None or not g.legal_moves():
                break
            g.push(pick(rng, g.legal_moves()))
            pushed += 1
        for _ in range(pushed):
            g.pop()
        assert snapshot(g) == before, (ids, before["fen"])
        g.push(pick(rng, moves))
        checked += 1
    c = g.copy()
    assert snapshot(c) == snapshot(g), (ids, fen)
    for _ in range(4):
        if g.outcome() is not None or not g.legal_moves():
            break
        u = rng.choice(g.legal_uci())
        g.push(u)
        c.push(u)
        assert snapshot(c) == snapshot(g), (ids, fen)
    again = Game.from_pgn(g.pgn())        # the presets from its Variant tag
    assert again.ruleset.presets == rs.presets, (ids, g.pgn())
    assert again.move_stack == g.move_stack and again.fen() == g.fen(), (ids, g.pgn())
    return checked


FAST = combinations(10, 20261)
SLOW = combinations(60, 20262)


@pytest.mark.parametrize("ids", FAST, ids=lambda p: "+".join(p))
def test_round_trips_under_combinations(ids):
    assert sum(play(ids, seed, 14) for seed in (0, 1)) > 0


@pytest.mark.slow
@pytest.mark.parametrize("ids", SLOW, ids=lambda p: "+".join(p))
def test_round_trips_under_combinations_long(ids):
    for seed in range(4):
        play(ids, seed, 40)


# ---------------------------------------------------------------- Dice Chess


def play_dice(ids, seed: int, turns: int) -> int:
    from dice import apply_move, end_turn, legal_turn_tree
    from dice.game import DiceGame
    from dice.rules import dice_rules
    rs = dice_rules(load(*ids))
    rng = random.Random(seed)
    g = DiceGame(" ".join(layout_fen(ids).split()[:6]) + " -", rs)
    steps = 0
    for _ in range(turns):
        if g.is_game_over():
            break
        g.roll(rng)
        text = g.dfen()
        tree = legal_turn_tree(text, rs)
        while tree:
            u = rng.choice(sorted(tree))
            tree = tree[u]
            before = (g.dfen(), g.legal_uci(), memory(g))
            g.push(rng.choice(before[1]))
            g.pop()
            assert (g.dfen(), g.legal_uci(), memory(g)) == before, (ids, before[0])
            text = apply_move(text, u, rs)
            g.push(u)
            assert g.dfen() == text
            back = DiceGame(text, rs)
            assert back.dfen() == text and back.legal_uci() == g.legal_uci(), (ids, text)
            assert memory(back, die_order=False) == memory(g, die_order=False), (ids, text)
            steps += 1
        c = g.copy()
        assert c.dfen() == g.dfen() and c.move_stack == g.move_stack, (ids, text)
        if g.is_game_over():
            break
        after = end_turn(text, rs)
        g.run_end_turn()
        assert g.dfen() == after
    return steps


DICE_FAST = combinations(4, 20263)
DICE_SLOW = combinations(30, 20264)


@pytest.mark.parametrize("ids", DICE_FAST, ids=lambda p: "+".join(p))
def test_dice_round_trips_under_combinations(ids):
    play_dice(ids, 1, 5)


@pytest.mark.slow
@pytest.mark.parametrize("ids", DICE_SLOW, ids=lambda p: "+".join(p))
def test_dice_round_trips_under_combinations_long(ids):
    for seed in range(3):
        play_dice(ids, seed, 12)
