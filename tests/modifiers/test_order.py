"""The 12 dispatch stages run in their documented order: one test per stage boundary.

Each test makes one move that fires the hooks of two neighbouring stages. Both
write the ``Order`` attribute of a witness piece: the earlier stage seeds it to 1,
the later one adds 1. In the right order the witness ends at 2; reversed, at 1.
"""
from __future__ import annotations

from presets.modifiers import DISPATCH_STAGES, STAGE_NAMES
from presets.modifiers.engine import install

from chess_rules.fide import fide_rules

from .helpers import add, attr, cond, desc, game, seed, trig

W = 0  # the witness: the white rook on a1 in every position below


def first(kind, **params):
    return desc(trig(kind, seed("Order", 1), target={"squares": [W]}, **params), id="first")


def second(kind, **params):
    return desc(trig(kind, add("Order", 1), target={"squares": [W]}, **params), id="second")


def test_stage_list_is_the_spec_order():
    assert STAGE_NAMES == ("auras", "damaged", "capture", "captured", "promotion", "move",
                           "moved-onto-square", "check-received", "check-delivered",
                           "conditional", "turn-end", "turn-start")
    rs = fide_rules().copy()
    install(rs)
    s = rs.build()
    order = [st for st in s.stages if st in DISPATCH_STAGES]
    assert order == list(DISPATCH_STAGES)
    i = s.stages.index
    assert i("turn-end") < i("mod.auras") and i("mod.turn-start") < i("result")


def test_1_auras_before_2_damaged():
    # the attacker projects a "Curse" aura on enemies; the damaged knight, pushed next
    # to it, sees the curse already recomputed when its on-damaged hook runs
    aura = desc({"kind": "add-aura", "params": {"radius": 1, "targetAttr": "Curse", "delta": 1,
                                                 "affects": "enemies"}}, id="aura")
    hurt = desc(trig("on-damaged", cond({"attr": "Curse", "value": 1}, [add("Felt", 1)])),
                id="hurt")
    g = game("4k3/8/8/3n4/8/8/8/R2QK3 w - - 0 1", (aura, ["d1"]), (hurt, ["d5"]),
             presets=("piece-hp",))
    g.push("d1d5")
    assert attr(g, "d6", "curse") == 1 and attr(g, "d6", "felt") == 1


def test_2_damaged_before_3_capture():
    g = game("4k3/8/8/3n4/8/8/8/R2QK3 w - - 0 1", (first("on-damaged"), ["d5"]),
             (second("on-capture"), ["d1"]), presets=("piece-hp",))
    g.push("d1d5")
    assert attr(g, "a1", "order") == 2


def test_3_capture_before_4_captured():
    g = game("4k3/8/8/3n4/8/8/8/R2QK3 w - - 0 1", (first("on-capture"), ["d1"]),
             (second("on-captured"), ["d5"]))
    g.push("d1d5")
    assert attr(g, "a1", "order") == 2


def test_4_captured_before_5_promotion():
    g = game("n3k3/1P6/8/8/8/8/8/R3K3 w - - 0 1", (first("on-captured"), ["a8"]),
             (second("on-promotion"), ["b7"]))
    g.push("b7a8q")
    assert attr(g, "a1", "order") == 2


def test_5_promotion_before_6_move():
    g = game("4k3/1P6/8/8/8/8/8/R3K3 w - - 0 1", (first("on-promotion"), ["b7"]),
             (second("on-move"), ["b7"]))
    g.push("b7b8q")
    assert attr(g, "a1", "order") == 2


def test_6_move_before_7_moved_onto_square():
    g = game("4k3/8/8/8/8/8/8/R3K1N1 w - - 0 1", (first("on-move"), ["g1"]),
             (second("on-moved-onto-square", filter={"kind": "squares", "squares": [21]}),
              ["g1"]))
    g.push("g1f3")
    assert attr(g, "a1", "order") == 2


def test_7_moved_onto_square_before_8_check_received():
    g = game("4k3/8/8/8/8/8/8/R3K2R w - - 0 1",
             (first("on-moved-onto-square", filter={"kind": "predicate", "file": 7}), ["h1"]),
             (second("on-check-received"), ["e8"]))
    g.push("h1h8")
    assert attr(g, "a1", "order") == 2


def test_8_check_received_before_9_check_delivered():
    g = game("4k3/8/8/8/8/8/8/R3K2R w - - 0 1", (first("on-check-received"), ["e8"]),
             (second("on-check-delivered"), ["h1"]))
    g.push("h1h8")
    assert attr(g, "a1", "order") == 2


def test_9_check_delivered_before_10_conditional():
    standing = desc(cond({"attr": "Order", "value": 1}, [add("Order", 1)]), id="standing")
    g = game("4k3/8/8/8/8/8/8/R3K2R w - - 0 1", (first("on-check-delivered"), ["h1"]),
             (standing, ["a1"]))
    g.push("h1h8")
    assert attr(g, "a1", "order") == 2


def test_10_conditional_before_11_turn_end():
    standing = desc(cond({"attr": "Order", "value": 0}, [seed("Order", 1)]), id="standing")
    g = game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", (standing, ["a1"]),
             (second("on-turn-end"), ["a1"]))
    g.push("e1e2")
    assert attr(g, "a1", "order") == 2


def test_11_turn_end_before_12_turn_start():
    g = game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", (first("on-turn-end", color="white"), ["a1"]),
             (second("on-turn-start", color="black"), ["e8"]))
    g.push("e1e2")
    assert attr(g, "a1", "order") == 2


def test_turn_end_decay_applies_before_turn_start_heal():
    # a 1-hp rook that decays at every turn end and heals at every turn start: the
    # decay comes first, so it dies (heal first would leave it at 1)
    d = desc(trig("on-turn-end", add("Hp", -1)), trig("on-turn-start", add("Hp", 1)))
    g = game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 hp:a1=1", (d, ["a1"]), presets=("piece-hp",))
    g.push("e1e2")
    assert g.piece_at("a1") is None


def test_turn_end_then_turn_start_with_hp_to_spare():
    d = desc(trig("on-turn-end", add("Hp", -1)),
             trig("on-turn-start", cond({"attr": "Hp", "value": 1}, [add("Hp", 5)])))
    g = game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", (d, ["a1"]), presets=("piece-hp",))
    g.push("e1e2")
    assert attr(g, "a1", "hp") == 6


def test_result_stage_sees_dispatch_effects():
    # decay kills the black king (hp 1): its side has lost before the next move
    d = desc(trig("on-turn-end", add("Hp", -1), color="white"))
    g = game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", (d, ["e8"]), presets=("piece-hp",))
    g.push("a1a2")
    out = g.outcome()
    assert out is not None and out.winner == "white"
    assert g.legal_moves() == []
