"""One test (or more) per trigger primitive: when it fires, on which piece, with which
event, and when it does not."""
from __future__ import annotations

import pytest

from .helpers import add, attr, cond, desc, game, seed, trig


# ---------------------------------------------------------------- on-turn-start


def test_on_turn_start_fires_for_the_next_side_to_move_only():
    d = desc(trig("on-turn-start", add("Ticks", 1), color="black"))
    g = game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", (d, ["a1"]))
    g.push("a1a2")                       # white's turn ends: black's starts
    assert attr(g, "a2", "ticks") == 1
    g.push("e8d8")                       # white's turn starts: colour black does not match
    assert attr(g, "a2", "ticks") == 1
    g.push("a2a3")
    assert attr(g, "a3", "ticks") == 2


def test_on_turn_start_event_names_the_colour():
    d = desc(trig("on-turn-start", cond({"event": {"color": "white"}}, [add("W", 1)],
                                        [add("B", 1)])))
    g = game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", (d, ["e8"]))
    g.push("a1a2")
    assert (attr(g, "e8", "w"), attr(g, "e8", "b")) == (0, 1)
    g.push("e8d8")
    assert (attr(g, "d8", "w"), attr(g, "d8", "b")) == (1, 1)


# ---------------------------------------------------------------- on-turn-end


@pytest.mark.parametrize("color,after_white,after_black", [
    ("white", 1, 1), ("black", 0, 1), ("both", 1, 2)])
def test_on_turn_end_colour_filter(color, after_white, after_black):
    d = desc(trig("on-turn-end", add("Ends", 1), color=color))
    g = game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", (d, ["a1"]))
    g.push("e1e2")
    assert attr(g, "a1", "ends") == after_white
    g.push("e8d8")
    assert attr(g, "a1", "ends") == after_black


# ---------------------------------------------------------------- on-capture


def test_on_capture_fires_on_the_attacker_only():
    d = desc(trig("on-capture", add("Kills", 1)))
    g = game("4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", (d, ["d1", "d5"]))
    g.push("d1d4")
    assert attr(g, "d4", "kills") == 0
    g.push("e8e7")
    g.push("d4d5")
    assert attr(g, "d5", "kills") == 1


def test_on_capture_counts_en_passant_and_reports_the_defender():
    d = desc(trig("on-capture", add("Kills", 1),
                  cond({"event": {"lethal": True}}, [add("Lethal", 1)])))
    g = game("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", (d, ["e5"]))
    g.push("d7d5")
    g.push("e5d6")
    assert attr(g, "d6", "kills") == 1 and attr(g, "d6", "lethal") == 1


def test_on_capture_target_defender_hits_a_surviving_defender():
    d = desc(trig("on-capture", add("Marked", 1), target="defender"))
    g = game("4k3/8/8/3n4/8/8/8/3QK3 w - - 0 1", (d, ["d1"]), presets=("piece-hp",))
    g.push("d1d5")                       # the knight survives (hp 1) and is pushed to d6
    assert attr(g, "d6", "marked") == 1
    assert attr(g, "d5", "marked") == 0


# ---------------------------------------------------------------- on-damaged


def test_on_damaged_fires_when_hp_falls_with_the_amount():
    d = desc(trig("on-damaged", add("Hurt", 1),
                  cond({"event": {"amount": 1}}, [add("One", 1)])))
    g = game("4k3/8/8/3n4/8/8/8/3QK3 w - - 0 1", (d, ["d5", "d1"]), presets=("piece-hp",))
    g.push("d1d5")
    assert attr(g, "d6", "hurt") == 1 and attr(g, "d6", "one") == 1
    assert attr(g, "d5", "hurt") == 0    # the queen was not damaged


def test_on_damaged_attacker_target_is_the_capturer():
    d = desc(trig("on-damaged", add("Thorns", 1), target="attacker"))
    g = game("4k3/8/8/3n4/8/8/8/3QK3 w - - 0 1", (d, ["d5"]), presets=("piece-hp",))
    g.push("d1d5")
    assert attr(g, "d5", "thorns") == 1


def test_on_damaged_sees_poison():
    d = desc(trig("on-damaged", add("Hurt", 1)))
    g = game("4k3/8/8/8/8/8/8/3RK3 w - - 0 1", (d, ["d1"]),
             presets=("piece-hp", "poisoned-squares"))
    g.push("d1d4")
    assert attr(g, "d4", "hp") == 1 and attr(g, "d4", "hurt") == 1


def test_on_damaged_does_not_see_damage_dealt_by_primitives():
    # RULES.md (ours): the snapshot is per move; hp lost to a primitive during the
    # dispatch (stage 6, after stage 2) is in the next move's snapshot already
    d = desc(trig("on-move", add("Hp", -1)), trig("on-damaged", add("Hurt", 1)))
    g = game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", (d, ["a1"]), presets=("piece-hp",))
    g.push("a1a2")
    assert attr(g, "a2", "hp") == 1 and attr(g, "a2", "hurt") == 0
    g.push("e8d8")
    assert attr(g, "a2", "hurt") == 0


@pytest.mark.parametrize("fen,rook", [("4k2r/8/8/3n4/8/8/8/3QK3 w - - 0 1", "h8"),
                                      ("4k3/8/8/3n4/8/8/r7/3QK3 w - - 0 1", "a2")])
def test_on_damaged_in_one_stage_does_not_see_another_hooks_damage(fen, rook):
    # the knight, hit by the queen, hurts its allied rooks; the rook, hurt so, is not
    # "damaged" for this move's stage 2 whether its square comes after the
    # knight's (h8) or before it (a2)
    d = desc(trig("on-damaged", add("Hurt", 1)),
             trig("on-damaged", add("Hp", -1),
                  target={"relation": "ally", "filter": {"pieceType": "rook"}}))
    g = game(fen, (d, ["d5", rook]), presets=("piece-hp",))
    g.push("d1d5")
    assert attr(g, rook, "hp") == 1
    assert attr(g, rook, "hurt") == 0
    assert attr(g, "d6", "hurt") == 1


# ---------------------------------------------------------------- on-move


def test_on_move_mover_and_castling_rook_not_bystanders():
    d = desc(trig("on-move", add("Steps", 1)))
    g = game("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", (d, ["a1", "e1", "h1"]))
    g.push("e1g1")
    assert attr(g, "g1", "steps") == 1
    assert attr(g, "f1", "steps") == 1
    assert attr(g, "a1", "steps") == 0


def test_on_move_event_from_and_to():
    d = desc(trig("on-move", cond({"event": {"from": 12, "to": 28}}, [add("E2e4", 1)])))
    g = game(None, (d, ["e2"]))
    g.push("e2e4")
    assert attr(g, "e4", "e2e4") == 1


def test_on_move_fires_on_a_piece_pushed_by_piece_hp():
    # stage 6: every piece whose Position changed, the defender piece-hp pushes too
    d = desc(trig("on-move", add("Steps", 1)))
    g = game("4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1", (d, ["d1", "d5"]), presets=("piece-hp",))
    g.push("d1d5")                       # the knight survives with 1 hp, pushed to d6
    assert attr(g, "d5", "steps") == 1
    assert attr(g, "d6", "steps") == 1


def test_on_move_fires_on_the_mover_first_then_by_square():
    # castling short: the king (g1) is the mover, the rook lands on f1, a lower
    # square; each writes its mark on the black king, so the last one to fire wins
    mark = {"squares": [60]}
    king = desc(trig("on-move", seed("Last", 1), target=mark), id="k")
    rook = desc(trig("on-move", seed("Last", 2), target=mark), id="r")
    g = game("4k3/8/8/8/8/8/8/4K2R w K - 0 1", (king, ["e1"]), (rook, ["h1"]))
    g.push("e1g1")
    assert attr(g, "e8", "last") == 2


def test_hooks_of_one_piece_fire_in_seeding_order():
    d = desc(trig("on-move", seed("Last", 1)), trig("on-move", seed("Last", 2)))
    g = game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", (d, ["a1"]))
    g.push("a1a2")
    assert attr(g, "a2", "last") == 2


# ---------------------------------------------------------------- on-promotion


def test_on_promotion_sees_the_new_type():
    d = desc(trig("on-promotion",
                  cond({"pieceType": "queen"}, [add("Queened", 1)], [add("Under", 1)]),
                  cond({"event": {"promotedFrom": "pawn", "promotedTo": "knight"}},
                       [add("Knighted", 1)])))
    g = game("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", (d, ["b7"]))
    g.push("b7b8q")
    assert (attr(g, "b8", "queened"), attr(g, "b8", "under"), attr(g, "b8", "knighted")) == (1, 0, 0)
    g.pop()
    g.push("b7b8n")
    assert (attr(g, "b8", "queened"), attr(g, "b8", "under"), attr(g, "b8", "knighted")) == (0, 1, 1)


def test_on_promotion_not_on_a_plain_pawn_move():
    d = desc(trig("on-promotion", add("P", 1)))
    g = game("4k3/8/1P6/8/8/8/8/4K3 w - - 0 1", (d, ["b6"]))
    g.push("b6b7")
    assert attr(g, "b7", "p") == 0


def test_on_promotion_not_on_a_type_a_primitive_changed():
    # a pawn that an earlier stage (on-capture, stage 3) turns into a knight has
    # not promoted: on-promotion is the move's promotion, whichever stage a
    # primitive acted in (one in stage 12 was never seen as a promotion either)
    d = desc(trig("on-capture", seed("PieceType", "knight")),
             trig("on-promotion", add("Promos", 1)))
    g = game("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", (d, ["e4"]))
    g.push("e4d5")
    assert g.piece_at("d5").values["type"] == "knight"
    assert attr(g, "d5", "promos") == 0


def test_on_promotion_names_what_the_move_made_of_the_pawn():
    # the capturing promotion to a queen fires on-promotion (promotedTo queen)
    # though the on-capture hook (stage 3) has made a rook of it by then
    d = desc(trig("on-capture", seed("PieceType", "rook")),
             trig("on-promotion", cond({"event": {"promotedTo": "queen"}}, [add("Q", 1)],
                                       [add("Other", 1)])))
    g = game("3rk3/4P3/8/8/8/8/8/4K3 w - - 0 1", (d, ["e7"]))
    g.push("e7d8q")
    assert g.piece_at("d8").values["type"] == "rook"
    assert (attr(g, "d8", "q"), attr(g, "d8", "other")) == (1, 0)


# ---------------------------------------------------------------- on-check-received


def test_on_check_received_is_edge_triggered_and_names_attackers():
    d = desc(trig("on-check-received", add("Checks", 1)),
             trig("on-check-received", add("Spotted", 1), target="attacker"))
    g = game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", (d, ["e8"]))
    g.push("a1a8")
    assert attr(g, "e8", "checks") == 1
    assert attr(g, "a8", "spotted") == 1
    g.push("e8e7")
    g.push("a8a7")                       # check again after it was broken: fires again
    assert attr(g, "e7", "checks") == 2


def test_on_check_received_not_while_the_check_persists():
    # king-heals lets a king with 3 hp stay attacked: no new edge
    d = desc(trig("on-check-received", add("Checks", 1)))
    g = game("4k3/8/8/8/8/8/8/K3R3 w - - 0 1 hp:e8=3", (d, ["e8"]),
             presets=("piece-hp", "king-heals"))
    g.push("a1b1")
    assert attr(g, "e8", "checks") == 0


def test_on_check_received_only_royal_pieces():
    d = desc(trig("on-check-received", add("Checks", 1)))
    g = game("4k3/8/8/n7/7R/8/8/4K3 w - - 0 1", (d, ["a5"]))
    g.push("h4h5")
    assert attr(g, "a5", "checks") == 0


def test_on_check_received_is_judged_for_every_royal_before_any_hook_runs():
    # coregal: Nc7 forks the queen (a8) and the king (e8). The queen's hook, first
    # in square order, turns the checking knight into a pawn, which no longer
    # attacks e8: the king was checked by the move all the same
    d = desc(trig("on-check-received", add("Checks", 1)),
             trig("on-check-received", seed("PieceType", "pawn"), target="attacker"))
    g = game("q3k3/8/8/1N6/8/8/8/4K3 w - - 0 1", (d, ["a8", "e8"]), presets=("coregal",))
    g.push("b5c7")
    assert g.piece_at("c7").values["type"] == "pawn"
    assert attr(g, "a8", "checks") == 1
    assert attr(g, "e8", "checks") == 1


# ---------------------------------------------------------------- on-check-delivered


def test_on_check_delivered_discovered_goes_to_the_slider():
    d = desc(trig("on-check-delivered", add("Given", 1),
                  cond({"event": {"discovered": True}}, [add("Disc", 1)])))
    g = game("7k/8/8/8/8/2N5/1B6/4K3 w - - 0 1", (d, ["b2", "c3"]))
    g.push("c3e4")
    assert attr(g, "b2", "given") == 1 and attr(g, "b2", "disc") == 1
    assert attr(g, "e4", "given") == 0


def test_on_check_delivered_double_check_fires_on_both():
    d = desc(trig("on-check-delivered", add("Given", 1)))
    g = game("4k3/8/8/8/4N3/8/8/K3R3 w - - 0 1", (d, ["e4", "e1"]))
    g.push("e4d6")
    assert attr(g, "d6", "given") == 1 and attr(g, "e1", "given") == 1


def test_on_check_delivered_target_defender_is_the_royal():
    d = desc(trig("on-check-delivered", add("Stun", 1), target="defender"))
    g = game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", (d, ["a1"]))
    g.push("a1a8")
    assert attr(g, "e8", "stun") == 1


def test_on_check_delivered_and_received_agree_on_a_royal_piece_born_attacked():
    # coregal with king-heals: the promoted queen is royal, keeps the pawn's 2 hp,
    # and so may be left attacked. The black queen attacked the pawn on e7 as well,
    # but a pawn is not royal: both edges of this check are new, and both fire.
    d = desc(trig("on-check-received", add("Rec", 1)),
             trig("on-check-delivered", add("Del", 1)))
    g = game("5q1k/4P3/8/8/8/8/8/4K3 w - - 0 1", (d, ["e7", "f8"]),
             presets=("coregal", "piece-hp", "king-heals"))
    g.push("e7e8q")
    assert g.is_check()
    assert attr(g, "e8", "rec") == 1
    assert attr(g, "f8", "del") == 1


# ---------------------------------------------------------------- on-moved-onto-square


@pytest.mark.parametrize("flt,hits", [
    ({"kind": "squares", "squares": [20]}, {"e3": 1, "e4": 0}),
    ({"kind": "predicate", "file": 4}, {"e3": 1, "e4": 1}),
    ({"kind": "predicate", "rank": 3}, {"e3": 0, "e4": 1}),
    ({"kind": "predicate", "file": 4, "rank": 3}, {"e3": 0, "e4": 1}),
])
def test_on_moved_onto_square_filters(flt, hits):
    d = desc(trig("on-moved-onto-square", add("Hit", 1), filter=flt))
    for to, want in hits.items():
        g = game(None, (d, ["e2"]))
        g.push("e2" + to)
        assert attr(g, to, "hit") == want, (flt, to)


def test_on_moved_onto_square_castling_and_en_passant_qualify():
    d = desc(trig("on-moved-onto-square", add("Hit", 1),
                  filter={"kind": "squares", "squares": [5, 6, 43]}))    # f1 g1 d6
    g = game("4k3/8/8/8/8/8/8/4K2R w K - 0 1", (d, ["e1", "h1"]))
    g.push("e1g1")
    assert attr(g, "g1", "hit") == 1 and attr(g, "f1", "hit") == 1
    g = game("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", (d, ["e5"]))
    g.push("d7d5")
    g.push("e5d6")
    assert attr(g, "d6", "hit") == 1


# ---------------------------------------------------------------- on-captured


def test_on_captured_sees_the_defender_before_it_is_gone():
    # the dying piece's own values (type, colour, attributes) drive the conditional
    d = desc(seed("Bounty", 3),
             trig("on-captured",
                  cond({"pieceType": "knight", "attr": "Bounty", "op": ">=", "value": 3},
                       [add("Loot", 1)]),
                  target="attacker"))
    g = game("4k3/8/8/3n4/8/8/8/3QK3 w - - 0 1", (d, ["d5"]))
    g.push("d1d5")
    assert attr(g, "d5", "loot") == 1


def test_on_captured_fires_only_on_a_lethal_capture():
    d = desc(trig("on-captured", add("Avenged", 1), target={"relation": "ally"}))
    g = game("4k3/8/8/3n4/8/8/8/3QK3 w - - 0 1", (d, ["d5"]), presets=("piece-hp",))
    g.push("d1d5")                       # survives with 1 hp
    assert attr(g, "e8", "avenged") == 0
    g.push("e8e7")
    g.push("d5d6")                       # now lethal
    assert attr(g, "e7", "avenged") == 1


def test_on_captured_targets_squares_and_enemy_relation():
    d = desc(trig("on-captured", add("A", 1), target={"squares": [0, 63]}),
             trig("on-captured", add("B", 1),
                  target={"relation": "enemy", "filter": {"pieceType": "king"}}))
    g = game("7r/8/8/3n4/8/8/8/R2QK3 w - - 0 1", (d, ["d5"]))
    g.push("d1d5")
    assert attr(g, "a1", "a") == 1 and attr(g, "h8", "a") == 1
    assert attr(g, "e1", "b") == 1 and attr(g, "d5", "b") == 0


# ---------------------------------------------------------------- conditional (stage 10)


def test_top_level_conditional_runs_after_every_move():
    d = desc(cond({"sideToMove": "white"}, [add("WhiteToMove", 1)]))
    g = game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", (d, ["a1"]))
    g.push("e1e2")
    assert attr(g, "a1", "white-to-move") == 0
    g.push("e8d8")
    assert attr(g, "a1", "white-to-move") == 1


def test_add_aura_follows_its_source():
    d = desc({"kind": "add-aura", "params": {"radius": 1, "targetAttr": "Guard", "delta": 2}})
    g = game("4k3/8/8/8/8/8/1P6/R3K3 w - - 0 1", (d, ["a1"]))
    assert attr(g, "b2", "guard") == 2 and attr(g, "a1", "guard") == 0
    g.push("a1a4")
    assert attr(g, "b2", "guard") == 0


# ---------------------------------------------------------------- multi-move turns


def test_turn_hooks_wait_for_the_whole_turn_under_double_move():
    d = desc(trig("on-turn-end", add("Ends", 1)), trig("on-turn-start", add("Starts", 1)))
    g = game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", (d, ["a1"]), presets=("double-move",))
    g.push("a1a2")
    assert g.turn == "white"              # the turn goes on: no turn ended
    assert (attr(g, "a2", "ends"), attr(g, "a2", "starts")) == (0, 0)
    g.push("a2a3")
    assert g.turn == "black"
    assert (attr(g, "a3", "ends"), attr(g, "a3", "starts")) == (1, 1)
