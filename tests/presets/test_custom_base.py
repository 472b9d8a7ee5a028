"""Presets over a base rule set whose own rules replaced the production they change.

A preset that builds on the production (``PresetRules.build_on``) keeps its
behaviour: berolina-pawns for the side out of its scope, knight-immunity's pawn
capture less its veto, knights-leap-twice's single leap. Their generators get
all the arguments the base's call gives, whether the mover matches one pawn at
a time (``?p <- piece(...)``) or collects them, and the attacks the base's move
helpers imply stay. A preset that reads the production only to rewrite what it
does (rook-warp, ``PresetRules.get``), or berolina-pawns with scope both (no
side keeps it), is refused over it, as wrap-board is.
"""
from __future__ import annotations

import pytest

import presets
from chess_rules.rule_files import load_rule_text
from chess_rules.fide import fide_rules
from chess_rules.game import Game
from presets.base import ConflictingPresetsError, PresetMeta, PresetRules
from rete import Call, Collect, P, Rule, Test, V

KNIGHT = "1,2 2,1 -1,2 -2,1 1,-2 2,-1 -1,-2 -2,-1"


def _piece(ptype):
    return P("piece", type=ptype, color=V.c).as_("p")


def _collected(ptype):
    return Collect(P("piece", type=ptype, color=V.c)).as_("ps")


def _mover(name, ptype, collect, fn, *args):
    first = V.ps if collect else V.p
    return (Rule(name, stage="generate")
            .when(P("movegen", color=V.c), _collected(ptype) if collect else _piece(ptype))
            .then(Call(fn, first, *args)))


def _sideways_pawns(collect):
    """Pawns step one square east instead of forward (a helper with its offsets)."""
    rs = fide_rules()
    rs.replace(_mover("fide.pawn-single-push", "pawn", collect, "gen-leap-quiet", "E"))
    return rs


def _diagonal_capture(collect):
    """Pawns move and capture one square along any diagonal (they attack there)."""
    rs = fide_rules()
    rs.replace(_mover("fide.pawn-capture", "pawn", collect, "gen-leap", "NE NW SE SW"))
    return rs


def _berolina(base, scope):
    return presets.load("berolina-pawns", config={"berolina-pawns": {"scope": scope}},
                        base=base)


# ---------------------------------------------------------------- bug A: all the arguments


@pytest.mark.parametrize("collect", [False, True], ids=["per-piece", "collected"])
def test_berolina_keeps_a_mover_with_arguments_for_the_side_out_of_scope(collect):
    rs = _berolina(_sideways_pawns(collect), "white")
    black = Game("4k3/8/8/3p4/8/8/3P4/4K3 b - - 0 1", ruleset=rs)
    assert "d5e5" in black.legal_uci() and "d5d4" not in black.legal_uci()
    white = Game("4k3/8/8/3p4/8/8/3P4/4K3 w - - 0 1", ruleset=rs)
    assert {"d2c3", "d2e3", "d2b4", "d2f4"} <= set(white.legal_uci())     # Berolina
    assert not {"d2e2", "d2d3"} & set(white.legal_uci())
    other = _berolina(_sideways_pawns(collect), "black")
    white = Game("4k3/8/8/3p4/8/8/3P4/4K3 w - - 0 1", ruleset=other)
    assert {"d2e2", "d2d4"} <= set(white.legal_uci()) and "d2d3" not in white.legal_uci()
    black = Game("4k3/8/8/3p4/8/8/3P4/4K3 b - - 0 1", ruleset=other)
    assert {"d5c4", "d5e4"} <= set(black.legal_uci()) and "d5e5" not in black.legal_uci()


@pytest.mark.parametrize("collect", [False, True], ids=["per-piece", "collected"])
def test_berolina_keeps_a_capture_with_arguments_and_its_attacks(collect):
    rs = _berolina(_diagonal_capture(collect), "black")
    white = Game("4k3/8/8/8/8/2n5/3P4/4K3 w - - 0 1", ruleset=rs)
    assert {"d2c3", "d2e3", "d2c1"} <= set(white.legal_uci())      # white: the base's pawn
    # its attacks, which its helper implies, still give check (SW of d2: c1)
    assert Game("8/8/8/8/8/8/3P4/2k1K3 b - - 0 1", ruleset=rs).is_check()
    black = Game("4k3/8/8/8/3p4/3N4/8/4K3 b - - 0 1", ruleset=rs)
    assert "d4d3" in black.legal_uci()                              # black: Berolina
    assert Game("4k3/8/8/8/3p4/3K4/8/8 w - - 0 1", ruleset=rs).is_check()


@pytest.mark.parametrize("collect", [False, True], ids=["per-piece", "collected"])
def test_knight_immunity_wraps_a_pawn_capture_with_arguments(collect):
    base = _diagonal_capture(collect)
    rs = presets.load("knight-immunity", base=base)
    g = Game("4k3/8/8/3p4/2N5/8/3P4/4K3 b - - 0 1", ruleset=rs)
    assert {"d5c4", "d5c6", "d5e6", "d5e4"} <= set(g.legal_uci())
    # the helper's attacks stay though the production now calls the wrapper
    assert Game("8/8/8/8/8/8/3P4/2k1K3 b - - 0 1", ruleset=rs).is_check()


@pytest.mark.parametrize("collect", [False, True], ids=["per-piece", "collected"])
def test_knight_immunity_vetoes_through_a_generator_with_arguments(collect):
    # the base's capture calls FIDE's generator, with a note it takes as well
    rs = fide_rules()
    fide_gen = rs.functions["gen.pawn-capture.plain"]
    if collect:
        rs.function("house.capture", lambda ctx, ps, note: fide_gen(ctx, ps))
    else:
        rs.function("house.capture", lambda ctx, p, note: fide_gen(ctx, (p,)))
    rs.replace(_mover("fide.pawn-capture", "pawn", collect, "house.capture", "a note"))
    g = Game("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", ruleset=presets.load("knight-immunity", base=rs))
    assert {"a7b8q", "a7b8n", "a7b8r"} <= set(g.legal_uci())
    assert "a7b8b" not in g.legal_uci()
    assert "never captures a knight" in g.explain("a7b8b").text


def test_berolina_keeps_an_en_passant_with_arguments_for_the_side_out_of_scope():
    rs = fide_rules()
    fide_ep = rs.functions["gen.en-passant.plain"]
    rs.function("house.ep", lambda ctx, e, c, note: fide_ep(ctx, e, c))
    rs.replace(Rule("fide.en-passant", stage="generate")
               .when(P("movegen", color=V.c), P("ep", by=V.o).as_("e"), Test("ne", V.o, V.c))
               .then(Call("house.ep", V.e, V.c, "a note")))
    rs = _berolina(rs, "white")
    # White's Berolina double step e2-c4 passed d3: Black's FIDE pawn takes it
    # diagonally, by the base's rule
    g = Game("4k3/8/8/8/2P1p3/8/8/4K3 b - d3 0 1", ruleset=rs)
    assert g.explain("e4d3").text.startswith("e4d3: legal - generated by fide.en-passant")
    g.push("e4d3")
    assert g.fen().startswith("4k3/8/8/8/8/3p4/8/4K3 w")


def test_berolina_over_a_mover_it_cannot_split_by_side_is_refused():
    # the call's first argument is the side, not the pawns: which pawns it
    # moves for the side out of scope cannot be told
    rs = fide_rules()
    rs.function("house.single", lambda ctx, c: None)
    rs.replace(Rule("fide.pawn-single-push", stage="generate")
               .when(P("movegen", color=V.c)).then(Call("house.single", V.c)))
    before = dict(rs.productions)
    with pytest.raises(ConflictingPresetsError, match="pawns of the two sides cannot be told"):
        _berolina(rs, "white")
    assert rs.productions == before


# ---------------------------------------------------------------- bug B: refused, or kept


QUIET_ROOK = '''rule fide.rook-move replaces stage generate
  "A rook slides but never captures."
when
  movegen(color: ?c)
  ?ps <- collect piece(type: rook, color: ?c)
then
  call gen-slide-quiet(?ps, "N E S W")
end
'''

QUIET_KNIGHT = f'''rule fide.knight-move replaces stage generate
  "A knight leaps but never captures."
when
  movegen(color: ?c)
  ?ps <- collect piece(type: knight, color: ?c)
then
  call gen-leap-quiet(?ps, "{KNIGHT}")
end
'''


@pytest.mark.parametrize("text", [QUIET_ROOK, QUIET_ROOK.replace("-quiet", "")],
                         ids=["quiet", "capturing"])
def test_rook_warp_over_the_bases_own_rook_is_refused(text):
    rq = load_rule_text(fide_rules(), text, "rq.hr")
    with pytest.raises(ConflictingPresetsError,
                       match=r"'rook-warp' rewrites 'fide.rook-move', which the base rule "
                             r"set's own rules \(rq.hr\).*does not keep what it does"):
        presets.load("rook-warp", base=rq)
    assert rq.presets == [] and rq.origin["fide.rook-move"] == "rq.hr"
    # the other order composes: the rook over the preset
    over = load_rule_text(presets.load("rook-warp"), text, "rq.hr")
    assert "rook-warp" in over.presets


def test_knights_leap_twice_keeps_a_knight_that_never_captures():
    kq = load_rule_text(fide_rules(), QUIET_KNIGHT, "kq.hr")
    rs = presets.load("knights-leap-twice", base=kq)
    # the single leap attacks nothing, as in the base (no FIDE knight's attacks)
    assert not Game("8/8/8/8/8/1k6/8/N3K3 b - - 0 1", ruleset=rs).is_check()
    # the double leap moves to empty squares, never captures, attacks nothing
    assert "a1c5" in Game("4k3/8/8/8/8/8/8/N3K3 w - - 0 1", ruleset=rs).legal_uci()
    g = Game("4k3/8/8/2r5/8/8/8/N3K3 w - - 0 1", ruleset=rs)
    assert "a1c5" not in g.legal_uci()
    assert "never captures" in g.explain("a1c5").text
    assert not Game("8/8/8/2k5/8/8/8/N3K3 b - - 0 1", ruleset=rs).is_check()
    # on FIDE's knight both leaps capture and attack
    fide = presets.load("knights-leap-twice")
    assert "a1c5" in Game("4k3/8/8/2r5/8/8/8/N3K3 w - - 0 1", ruleset=fide).legal_uci()
    assert Game("8/8/8/2k5/8/8/8/N3K3 b - - 0 1", ruleset=fide).is_check()


def test_berolina_with_scope_both_over_the_bases_own_pawn_is_refused():
    with pytest.raises(ConflictingPresetsError,
                       match="does not keep what it does: berolina-pawns keeps it only for "
                             "the side out of its scope, and its scope is both"):
        presets.load("berolina-pawns", base=_diagonal_capture(False))
    with pytest.raises(ConflictingPresetsError, match="scope is both"):
        presets.load("berolina-pawns-2", base=_sideways_pawns(True))


def test_reading_a_production_is_not_building_on_it():
    meta = PresetMeta(id="x", name="x", category="c", description="d", mode="override")
    rules = PresetRules(fide_rules(), meta)
    rules.get("fide.rook-move")
    rules.build_on("fide.knight-move")
    assert rules.read == ["fide.rook-move", "fide.knight-move"]
    assert rules.built_on == ["fide.knight-move"]
