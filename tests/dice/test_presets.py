"""Dice Chess over every preset (``dice_rules(presets.load(...))``): the state a
preset adds travels in the DFEN's ``key:value`` tokens, so the text API
(``apply_move``, ``end_turn``) and a game played move by move stay the same game.

On random playouts under each preset, at every micro-move: the DFEN read back is
the same position (same text, same legal micro-moves); the tree's first level
is ``legal_uci_moves``; the chosen path replays through ``apply_move`` on text
to the DFEN the game reaches; ``end_turn`` on text agrees with the game's.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from dice import apply_move, end_turn, legal_uci_moves
from dice.dfen import parse_dfen
from dice.game import DiceGame
from dice.errors import DfenError, EndTurnError
from dice.rules import dice_rules
from dice.turns import _tree_of
from presets import all_presets, load
from presets.layouts import get_layout

PRESETS = [m.id for m in all_presets()]


def _rules(pid):
    meta = {m.id: m for m in all_presets()}[pid]
    return meta, dice_rules(load(pid, *meta.requires))


def _start(meta) -> str:
    fen = get_layout(meta.preferred_layout or "standard").fen
    return " ".join(fen.split()[:6]) + " -"


def play(pid: str, seed: int, turns: int) -> int:
    meta, rs = _rules(pid)
    rng = random.Random(seed)
    g = DiceGame(_start(meta), rs)
    steps = 0
    for _ in range(turns):
        g.roll(rng)
        d = g.dfen()
        game_at_roll = DiceGame(d, rs)
        tree = _tree_of(game_at_roll, d).to_dict()
        # the first micro-moves of the legal turns are micro-moves of the rule set
        # (the Maximum Micro-moves Rule only drops some), and the text API agrees
        assert set(tree) <= set(game_at_roll.legal_uci())
        assert sorted(tree) == legal_uci_moves(d, rs)
        path, t = [], tree
        while t:
            u = rng.choice(sorted(t))
            path.append(u)
            t = t[u]
        text = d
        for u in path:
            text = apply_move(text, u, rs)
            g.push(u)
            assert g.dfen() == text
            back = DiceGame(text, rs)
            assert back.dfen() == text
            assert back.legal_uci() == g.legal_uci()
            steps += 1
        if g.is_game_over():
            break
        after = end_turn(text, rs)
        g.run_end_turn()
        assert g.dfen() == after
    return steps


@pytest.mark.parametrize("pid", PRESETS)
def test_dice_over_preset(pid):
    assert play(pid, seed=1, turns=4) > 0


@pytest.mark.slow
@pytest.mark.parametrize("pid", PRESETS)
def test_dice_over_preset_long(pid):
    for seed in range(2, 8):
        play(pid, seed=seed, turns=25)


def test_preset_state_is_written_and_read():
    _, rs = _rules("piece-hp")
    d = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 PK hp:e2=1"
    g = DiceGame(d, rs)
    assert g.dfen() == d
    assert g.pieces()[0].values.get("hp") is not None
    with pytest.raises(DfenError) as e:          # plain Dice Chess knows no hp
        parse_dfen(d)
    assert e.value.field == "extended" and "hp" in str(e.value)


def test_targets_of_berolina_pawns():
    # a Berolina double step from e2 lands on c4 or g4 and leaves its target on
    # d3 or f3: not in front of the pawn, as the FIDE reading of a DFEN wants
    _, rs = _rules("berolina-pawns")
    g = DiceGame("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 PP", rs)
    g.push("e2c4")
    assert g.dfen() == "4k3/8/8/8/2P5/8/8/4K3 w - d3 0 1 P"
    assert DiceGame(g.dfen(), rs).legal_uci() == g.legal_uci()
    with pytest.raises(DfenError):
        parse_dfen(g.dfen())                     # FIDE: no pawn on d4


def test_with_dice_keeps_the_tokens():
    from dice import with_dice
    _, rs = _rules("piece-hp")
    d = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 - hp:e2=1"
    assert with_dice(d, [1, 6], rs) == "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 PK hp:e2=1"


def test_winner_token_when_the_board_does_not_show_it():
    # coregal: the queen is royal too; taking it ends the game with the king on
    # the board, so the DFEN says who won
    _, rs = _rules("coregal")
    g = DiceGame("3qk3/8/8/8/8/8/8/3RK3 w - - 0 1 R", rs)
    g.push("d1d8")
    assert g.is_game_over() and g.winner() == "white"
    assert g.dfen() == "3Rk3/8/8/8/8/8/8/4K3 w - - 0 1 - winner:white"
    back = DiceGame(g.dfen(), rs)
    assert back.is_game_over() and back.winner() == "white" and back.legal_uci() == []
    with pytest.raises(DfenError) as e:
        DiceGame("3Rk3/8/8/8/8/8/8/4K3 w - - 0 1 - winner:grey", rs)
    assert e.value.field == "extended"


# ---------------------------------------------------------------- custom modifiers

GALLERY = sorted((Path(__file__).parents[2] / "presets" / "modifiers" / "gallery").glob("*.json"))
TURN_HOOKS = ("on-turn-end", "on-turn-start")


def _modifier_rules(path):
    from presets.modifiers import attach
    desc = json.loads(path.read_text())
    rs = attach(load(*desc.get("requires", [])), desc)
    return desc, rs, dice_rules(rs)


def _kinds(desc) -> set:
    out = set()

    def walk(prims):
        for p in prims:
            out.add(p["kind"])
            walk(p.get("params", {}).get("primitives", []))
    walk(desc["primitives"])
    return out


MOVE_HOOKED = [p for p in GALLERY if not _kinds(json.loads(p.read_text())) & set(TURN_HOOKS)]
TURN_HOOKED = [p for p in GALLERY if p not in MOVE_HOOKED]


@pytest.mark.parametrize("path", MOVE_HOOKED, ids=[p.stem for p in MOVE_HOOKED])
def test_modifiers_fire_after_every_micro_move(path):
    # a micro-move runs the modifiers' dispatch as a chess move does: the same
    # move from the same position leaves the same board and piece state (the
    # turn hooks aside: a Dice turn ends with end_turn, not with a move)
    from chess_rules.game import Game
    from chess_rules.squares import PIECE_LETTER
    from dice.rules import move_dice
    desc, rs, drs = _modifier_rules(path)
    rng = random.Random(5)
    compared = 0
    for _ in range(6):
        g = Game(None, ruleset=rs)
        for _ in range(10):
            ms = g.legal_moves()
            if not ms or g.outcome() is not None:
                break
            m = rng.choice(ms)
            fields = g.fen(en_passant="all").split()
            dice = "".join(PIECE_LETTER[t] for t in move_dice(g.state.types[m.frm], m.kind))
            d = DiceGame(" ".join(fields[:6] + [dice] + fields[6:]), drs)
            g._play(m)
            if m.uci() not in d.legal_uci():     # check: no such filter in Dice Chess
                continue
            d.push(m.uci())
            a, b = g.fen(en_passant="all").split(), d.dfen().split()
            assert (a[0], a[6:]) == (b[0], b[7:]), (path.stem, a, b)
            compared += 1
    assert compared > 20


def test_turn_hooks_do_not_fire_in_dice_chess():
    # (ours) a Dice turn changes hands at end_turn, which is not a move: decay's
    # "lose 1 hp at every turn end" never fires, neither after a micro-move nor
    # at the end of the turn
    assert {p.stem for p in TURN_HOOKED} >= {"decay", "panic-level", "rearm"}
    _, rs, drs = _modifier_rules(GALLERY[[p.stem for p in GALLERY].index("decay")])
    g = DiceGame("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 P", drs)
    before = {f.values["square"]: f.values["hp"] for f in g.pieces()}
    g.push("e2e4")
    g.run_end_turn()
    after = {f.values["square"]: f.values["hp"] for f in g.pieces()}
    assert after == {(28 if s == 12 else s): hp for s, hp in before.items()}
    from chess_rules.game import Game            # in chess the same move decays
    c = Game("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", ruleset=rs)
    c.push("e2e4")
    assert c.pieces()[0].values["hp"] != after[c.pieces()[0].values["square"]]


class _NoTranspositions:
    """The tree builder's view of a game with every position new (no memo hits)."""

    def __init__(self, game):
        from dice.turns import EngineBackend
        self.b = EngineBackend(game)

    def __getattr__(self, name):
        return getattr(self.b, name)

    def key(self):
        return object()


@pytest.mark.parametrize("pid", ["piece-hp", "knight-immunity", "queen-splits", "coregal"])
def test_transpositions_change_no_tree_over_presets(pid):
    # positions reached by two orders are explored once only when every fact a
    # rule could read agrees (a preset's attributes included)
    from dice.turns import EngineBackend, _plain, build_tree
    meta, rs = _rules(pid)
    assert DiceGame(_start(meta), rs)._full_key
    rng = random.Random(4)
    g = DiceGame(_start(meta), rs)
    for _ in range(5):
        g.roll(rng)
        d = g.dfen()
        memo = _plain(build_tree(EngineBackend(DiceGame(d, rs)))[0])
        plain = _plain(build_tree(_NoTranspositions(DiceGame(d, rs)))[0])
        assert memo == plain, d
        t = memo
        while t:
            u = rng.choice(sorted(t))
            g.push(u)
            t = t[u]
        if g.is_game_over():
            break
        g.run_end_turn()


def test_every_fact_key_tells_attributes_apart():
    _, rs = _rules("piece-hp")
    a = DiceGame("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 P hp:e2=2", rs)
    b = DiceGame("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 P hp:e2=1", rs)
    c = DiceGame("4k3/8/8/8/8/8/4P3/4K3 w - - 7 9 P hp:e2=1", rs)
    assert a.key() != b.key() and b.key() == c.key()      # the clocks aside


# ---------------------------------------------------------------- the text API over a bare preset


def test_with_dice_reads_the_board_as_the_preset_does():
    import dice
    back = load("pawns-move-backward")
    d = "4k3/8/8/8/8/8/8/P3K3 w - - 0 1 -"          # a pawn on rank 1: legal here
    assert dice.with_dice(d, "PPK", back) == "4k3/8/8/8/8/8/8/P3K3 w - - 0 1 PPK"
    assert dice.legal_uci_moves(dice.with_dice(d, "PPK", back), back) == \
        dice.legal_uci_moves(d[:-1] + "PPK", back)
    suicide = load("suicide-chess")
    assert dice.with_dice("8/8/8/8/8/8/1n6/1N6 w - - 0 1 -", [2], suicide) == \
        "8/8/8/8/8/8/1n6/1N6 w - - 0 1 N"


def test_the_winner_token_a_preset_writes_reads_back_under_the_bare_preset():
    import dice
    coregal = load("coregal")
    a = dice.apply_move("3qk3/8/8/8/8/8/8/N2RK3 w - - 0 1 RNN", "d1d8", coregal)
    assert a.endswith(" winner:white")              # the queen taken: the king still stands
    pos = parse_dfen(a, coregal)
    assert pos.tokens["winner"] == ("white", "king captured")
    assert dice.format_dfen(pos) == a
    assert dice.with_dice(a, "", coregal) == a.replace(" NN ", " - ")


@pytest.mark.parametrize("pid, dfen, move", [
    # the blast of Rxe6 takes the king on e7 (no royal piece is the victim)
    ("explosive-rook", "8/4k3/4p3/8/8/8/8/N3R1K1 w - - 0 1 RNN", "e1e6"),
    ("first-promotion-wins", "4k3/P7/8/8/8/8/8/N3K3 w - - 0 1 PNN", "a7a8q"),
])
def test_a_micro_move_that_ends_the_game_ends_the_turn_whatever_its_length(pid, dfen, move):
    import dice
    rs = load(pid)
    tree = dice.legal_turn_tree(dfen, rs)
    assert tree[move] == {}                          # legal first, and nothing follows it
    assert move in dice.legal_uci_moves(dfen, rs)
    after = dice.apply_move(dfen, move, rs)
    assert dice.legal_uci_moves(after, rs) == []
    # played after another micro-move too, as a king capture may be
    first = next(u for u in tree if u != move and not u.startswith(move[:2]))
    assert move in dice.legal_turn_tree(dfen, rs)[first]
    dice.apply_move(dice.apply_move(dfen, first, rs), move, rs)


@pytest.mark.parametrize("pid, dfen, move, reason", [
    ("first-promotion-wins", "4k3/P7/8/8/8/8/8/N3K3 w - - 0 1 PNN", "a7a8q", "first promotion"),
    ("capture-to-win", "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1 PKK", "e4d5", "first capture"),
])
def test_a_presets_ending_keeps_its_reason_through_dfen_text(pid, dfen, move, reason):
    # both kings still stand: the DFEN says who won and why, and reads back so
    import dice
    rs = load(pid)
    g = DiceGame(dfen, rs)
    g.push(move)
    want = g.outcome()
    assert (want.winner, want.reason) == ("white", reason)
    text = dice.apply_move(dfen, move, rs)
    assert text == g.dfen() and text.endswith(" winner:white=" + reason.replace(" ", "_"))
    back = DiceGame(text, rs)
    assert (back.outcome().winner, back.outcome().reason) == ("white", reason)
    assert dice.legal_uci_moves(text, rs) == []
    with pytest.raises(EndTurnError) as e:
        dice.end_turn(text, rs)
    assert f"white won by {reason}" in str(e.value)


@pytest.mark.parametrize("token", ["winner:white=", "winner:white=First", "winner:white=a__b",
                                   "winner:white=a b", "winner:=king_captured"])
def test_a_winner_token_with_a_reason_that_is_no_words_is_refused(token):
    with pytest.raises(DfenError) as e:
        DiceGame("4k3/8/8/8/8/8/8/4K3 w - - 0 1 - " + token, load("first-promotion-wins"))
    assert e.value.field == "extended"


def test_a_presets_own_ending_under_a_fide_name_stays_in_dice_chess():
    # capture-to-win puts its first-capture win in fide.checkmate-win's place:
    # Dice Chess drops FIDE's checkmate, not the preset's ending
    import dice
    rs = load("capture-to-win")
    assert "fide.checkmate-win" in dice_rules(rs).productions
    assert "fide.checkmate-win" not in dice_rules().productions
    d = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1 PKK"
    assert dice.legal_turn_tree(d, rs)["e4d5"] == {}          # it ends the turn
    g = DiceGame(d, rs)
    g.push("e4d5")
    assert g.winner() == "white"


def test_dice_chess_asks_no_stalemate_of_a_presets_kept_result_rules():
    # capture-to-win's result rules stay (its first-capture win), but Dice Chess
    # has no draw for a side without dice or moves
    g = DiceGame("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 -",
                 dice_rules(load("capture-to-win")))
    assert g.outcome() is None and not g.is_game_over()


@pytest.mark.parametrize("pid, dfen, move, winner, reason", [
    # the capture leaves the fifty-move clock at 0: the game fact does not change
    # with it, yet the rules that judge every position must see the micro-move
    ("extinction-chess", "k7/5p2/8/8/8/8/P1K4B/5R2 w - - 0 9 RRB", "f1f7", "white",
     "no pawn left"),
    ("suicide-chess", "8/5r2/8/8/8/8/2K4B/5R2 w - - 0 9 RRB", "f1f7", "black",
     "no pieces left"),
    ("last-piece-standing", "8/5r2/8/8/8/8/2K4B/5R2 w - - 0 9 RRB", "f1f7", "white",
     "annihilation"),
])
def test_an_ending_judged_on_every_position_sees_a_capture_at_clock_zero(
        pid, dfen, move, winner, reason):
    import dice
    rs = load(pid)
    g = DiceGame(dfen, rs)
    g.push(move)
    assert (g.outcome().winner, g.outcome().reason) == (winner, reason)
    assert g.legal_uci() == []
    assert dice.legal_turn_tree(dfen, rs)[move] == {}
    text = dice.apply_move(dfen, move, rs)
    assert text == g.dfen() and text.endswith(f" winner:{winner}={reason.replace(' ', '_')}")


def test_extinction_both_sides_at_once_the_side_that_moved_loses_in_dice_chess():
    # White's rook takes Black's last pawn on c3 and its blast White's on c4:
    # the side that has just moved (White, still to move in its turn) loses, as
    # in a chess game
    rs = load("explosive-rook", "extinction-chess")
    g = DiceGame("k7/8/8/8/2P5/R1p5/8/7K w - - 3 1 RNN", rs)
    g.push("a3c3")
    assert (g.outcome().winner, g.outcome().reason) == ("black", "no pawn left")


@pytest.mark.parametrize("preset", ["suicide-chess", "double-move"])
def test_a_preset_refused_over_dice_chess_says_to_make_dice_chess_of_it(preset):
    # the refusal said "load the presets first and apply your rules over them",
    # advice for rules of a user's own, not for Dice Chess
    import presets
    from dice import dice_rules
    with pytest.raises(presets.ConflictingPresetsError,
                       match=r"dice\.dice_rules\(presets\.load\(\.\.\.\)\)"):
        presets.load(preset, base=dice_rules())
    assert DiceGame("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 PK", presets=[preset]).legal_uci()
@pytest.mark.parametrize("pids, dfen, move", [
    ((), "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1 RP", "e2e8"),                     # the king taken
    (("coregal",), "3qk3/8/8/8/8/8/8/N2RK3 w - - 0 1 RNN", "d1d8"),          # winner:white
    (("first-promotion-wins",), "4k3/P7/8/8/8/8/8/N3K3 w - - 0 1 PNN", "a7a8q"),
    (("capture-to-win",), "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1 PKK", "e4d5"),
    (("suicide-chess",), "8/8/8/3p4/4P3/8/8/8 w - - 0 1 P", "e4d5"),        # Black bare
])
def test_a_finished_game_read_back_from_its_dfen_names_the_rule_that_ended_it(pids, dfen, move):
    rs = load(*pids) if pids else None
    g = DiceGame(dfen, rs)
    g.push(move)
    played = g.outcome()
    assert played.rule is not None
    back = DiceGame(g.dfen(), rs)
    facts = back._every_fact_key()
    assert back.outcome() == played
    # asking changed nothing (the rules were run on the position and taken back)
    assert back._every_fact_key() == facts and not back.session._marks
    assert back.outcome_if_decided() == played


def test_an_ending_no_production_asserts_as_written_keeps_no_rule_when_read_back():
    # explosive-rook's blast is decided in a function, on the move: nothing on
    # the board or in the rules names it again
    rs = load("explosive-rook")
    g = DiceGame("8/4k3/4p3/8/8/8/8/N3R1K1 w - - 0 1 RNN", rs)
    g.push("e1e6")
    back = DiceGame(g.dfen(), rs).outcome()
    assert (back.winner, back.reason) == (g.outcome().winner, g.outcome().reason)
    assert back.rule is None
