"""User-written rule files composed with FIDE and presets (chess_rules.custom)."""
from pathlib import Path

import pytest

from chess_rules.custom import load_rule_file, load_rule_text
from chess_rules.fide import fide_rules
from chess_rules.game import Game
from rete import ReteError
from rete.errors import (DuplicateProductionError, DuplicateTemplateError, RuleSyntaxError,
                         UnknownProductionError, UnknownStageError)

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "rules"


def game(fen, *files, presets=()):
    if presets:
        from presets import load
        rs = load(*presets)
    else:
        rs = fide_rules()
    for f in files:
        rs = load_rule_file(rs, EXAMPLES / f)
    return Game(fen, ruleset=rs)


def test_rook_diagonal_step_adds_moves_and_attacks():
    fen = "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"
    plain = set(Game(fen).legal_uci())
    custom = set(game(fen, "rook_steps_diagonally.hr").legal_uci())
    assert custom - plain == {"a1b2"}
    assert game(fen, "rook_steps_diagonally.hr").explain("a1b2").rule == "custom.rook-diagonal-step"
    # the new move attacks: a king diagonally next to the rook is in check
    check_fen = "8/8/8/8/8/8/1k6/R3K3 b - - 0 1"
    assert not Game(check_fen).is_check()
    g = game(check_fen, "rook_steps_diagonally.hr")
    assert g.is_check()
    # ... and a king may not step onto a square the rook now guards diagonally
    near = "8/8/8/8/8/8/2k5/R3K3 b - - 0 1"
    assert "c2b2" in Game(near).legal_uci()
    ex = game(near, "rook_steps_diagonally.hr").explain("c2b2")
    assert not ex.legal and "attacked" in ex.text


def test_rook_diagonal_step_changes_perft():
    fen = "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"
    assert game(fen, "rook_steps_diagonally.hr").perft(2) != Game(fen).perft(2)


def test_no_queen_promotion_is_refused_with_the_rule_named():
    fen = "k7/4P3/8/8/8/8/8/4K3 w - - 0 1"
    g = game(fen, "no_queen_promotion.hr")
    moves = set(g.legal_uci())
    assert {"e7e8r", "e7e8b", "e7e8n"} <= moves and "e7e8q" not in moves
    ex = g.explain("e7e8q")
    assert not ex.legal and ex.rule == "custom.no-queen-promotion"
    assert "never promote to queens" in ex.text


def test_remove_and_replace_by_name():
    fen = "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"
    g = game(fen, "kings_step_only.hr")
    assert "fide.castling" not in {r["name"] for r in g.rules()}
    assert "e1c1" not in g.legal_uci()
    king = {u for u in g.legal_uci() if u.startswith("e1")}
    assert king == {"e1d1", "e1d2", "e1e2", "e1f1", "e1f2"}
    assert g.explain("e1e2").rule == "fide.king-move"


def test_custom_rules_compose_with_presets():
    fen = "4k3/8/8/8/4P3/8/8/R3K3 w Q - 0 1"
    g = game(fen, "rook_steps_diagonally.hr", presets=["pawns-move-backward"])
    moves = set(g.legal_uci())
    assert {"a1b2", "e4e3"} <= moves


BAD = [
    ('rule x stage generate when ?p <- piece(typo: rook) then halt end', "no slot 'typo'"),
    ('rule fide.knight-move stage generate when movegen(color: ?c) then halt end',
     "already exists"),
    ('remove fide.nope', "no production named 'fide.nope'"),
    ('rule x stage generate when movegen(color: ?c) then call nofn(?c) end', "nofn"),
    ('rule x stage nowhere when movegen(color: ?c) then halt end', "nowhere"),
    ('rule x replaces stage generate when movegen(color: ?c) then halt end', "does not exist"),
    ('rule x stage generate when movegen(color: ?c then halt end', ""),
]


@pytest.mark.parametrize("text,needle", BAD)
def test_bad_rule_text_is_refused_and_nothing_changes(text, needle):
    rs = fide_rules()
    before = dict(rs.productions)
    with pytest.raises(ReteError) as ei:
        load_rule_text(rs, text, "bad.hr")
    assert needle in str(ei.value)
    assert str(ei.value).startswith("bad.hr:")
    assert rs.productions == before


def test_error_kinds():
    rs = fide_rules()
    with pytest.raises(DuplicateProductionError):
        load_rule_text(rs, 'rule fide.king-move stage generate when movegen(color: ?c) then halt end')
    with pytest.raises(UnknownProductionError):
        load_rule_text(rs, 'remove fide.nothing')
    with pytest.raises(RuleSyntaxError) as ei:
        load_rule_text(rs, 'rule x\n  when movegen(color: ?c\nthen halt end', "f.hr")
    assert ei.value.line == 3


def test_declaration_errors_are_the_engines_kinds():
    # as load_rules on a session says them: a template declared twice, a stage
    # list that starts at no stage
    rs = fide_rules()
    with pytest.raises(DuplicateTemplateError) as ei:
        load_rule_text(rs, "template piece (a)\n", "t.hr")
    assert (ei.value.line, ei.value.column) == (1, 10)
    with pytest.raises(UnknownStageError) as es:
        load_rule_text(rs, "stages nope, mine\n", "t.hr")
    assert (es.value.line, es.value.column) == (1, 8)
    assert "'nope'" in str(es.value)
    assert "piece" in rs.templates and "mine" not in rs.stages


def test_a_file_that_is_not_utf8_is_an_os_error_naming_it(tmp_path):
    bad = tmp_path / "bad.hr"
    bad.write_bytes(b"rule \xff")
    with pytest.raises(OSError, match=f"cannot read rule file '{bad}': not UTF-8 text"):
        load_rule_file(fide_rules(), bad)


def test_missing_file_is_an_os_error():
    with pytest.raises(OSError, match="cannot read rule file"):
        load_rule_file(fide_rules(), "/nonexistent/rules.hr")


def test_cli_accepts_rules(capsys):
    from houserules.cli import main
    rc = main(["moves", "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "--rules",
               str(EXAMPLES / "rook_steps_diagonally.hr")])
    out = capsys.readouterr().out.split()
    assert rc == 0 and "a1b2" in out and out == sorted(out)
    rc = main(["moves", "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "--rules", "/nonexistent.hr"])
    err = capsys.readouterr().err
    assert rc != 0 and "cannot read rule file" in err


def test_cli_run_time_error_of_a_rule_file_names_the_action(capsys, tmp_path):
    hr = tmp_path / "crash.hr"
    hr.write_text('rule "house.crash" stage generate\nwhen\n  movegen(color: ?c)\n'
                  '  ?p <- piece(type: king, color: ?c)\nthen\n'
                  '  call gen-leap(?p, mod(1, 0))\nend\n')
    from houserules.cli import main
    rc = main(["moves", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "--rules", str(hr)])
    err = capsys.readouterr().err
    assert rc != 0
    assert f"{hr}:6:3: rule 'house.crash' failed in its action: ZeroDivisionError" in err


_RULE = 'rule "x" stage {stage}\nwhen\n  movegen(color: ?c)\n  ?p <- piece(type: rook, {slot}: ?c)\nthen\n  call {fn}({var}, "NE")\nend\n'
_OK = dict(stage="generate", slot="color", fn="gen-leap", var="?p")


@pytest.mark.parametrize("change,line,column,kind", [
    ({"slot": "colour"}, 4, 27, "UnknownSlotError"),
    ({"stage": "generat"}, 1, 16, "UnknownStageError"),
    ({"fn": "no-such-fn"}, 6, 8, "UnknownFunctionError"),
    ({"var": "?q"}, 6, 17, "UnboundVariableError"),
])
def test_compile_errors_point_at_the_word(change, line, column, kind):
    # not at the rule's first line: at the slot, stage, function or variable
    text = _RULE.format(**{**_OK, **change})
    with pytest.raises(ReteError) as ei:
        load_rule_text(fide_rules(), text, "r.hr")
    e = ei.value
    assert type(e).__name__ == kind
    assert (e.line, e.column) == (line, column)
    assert str(e).startswith(f"r.hr:{line}:{column}: ")
    assert text.splitlines()[line - 1][column - 1:].startswith(
        {"UnknownSlotError": "colour", "UnknownStageError": "generat",
         "UnknownFunctionError": "no-such-fn", "UnboundVariableError": "?q"}[kind])


def test_name_clash_points_at_the_name():
    text = 'rule x stage generate when movegen(color: ?c) then halt end\n' \
           'rule fide.king-move stage generate when movegen(color: ?c) then halt end'
    with pytest.raises(DuplicateProductionError) as ei:
        load_rule_text(fide_rules(), text, "r.hr")
    assert (ei.value.line, ei.value.column) == (2, 6)


def test_good_rule_text_loads():
    rs = load_rule_text(fide_rules(), _RULE.format(**_OK), "r.hr")
    assert "x" in rs.productions


HELPERS = """\
rule "custom.knight-slide" stage generate
when
  movegen(color: ?c)
  ?p <- piece(type: knight, color: ?c)
then
  call gen-slide(?p, "NE NW")
end
rule "custom.bishop-jump" stage generate
when
  movegen(color: ?c)
  ?p <- piece(type: bishop, color: ?c)
then
  call gen-leap-quiet(?p, "0,2 0,-2")
end
"""


def test_slide_and_quiet_leap_helpers():
    rs = load_rule_text(fide_rules(), HELPERS, "helpers.hr")
    g = Game("4k3/8/8/8/8/3p4/8/1N1BK3 w - - 0 1", ruleset=rs)
    moves = set(g.legal_uci())
    plain = set(Game("4k3/8/8/8/8/3p4/8/1N1BK3 w - - 0 1").legal_uci())
    # the knight slides north-east up to the pawn it takes, and north-west to a2
    assert moves - plain == {"b1c2", "b1d3", "b1a2"}
    assert g.explain("b1d3").rule == "custom.knight-slide"
    # the quiet leap (file, rank offsets) never captures, and says so
    ex = g.explain("d1d3")
    assert not ex.legal and ex.rule == "custom.bishop-jump"
    assert ex.reason == "d3 is occupied and this move never captures"
    assert "d1d3" not in moves
    # a capturing slide attacks: the knight on b1 guards h7 along the diagonal
    k = Game("7k/8/8/8/8/8/8/1N2K3 b - - 0 1", ruleset=rs)
    assert k.legal_uci() == ["h8g7", "h8g8"]
    assert Game("8/7k/8/8/8/8/8/1N2K3 b - - 0 1", ruleset=rs).is_check()


@pytest.mark.parametrize("old,new,message,column", [
    ('"NE NW"', '"NE UP"', "gen-slide: bad slide direction(s) ['UP']", 8),
    ('"0,2 0,-2"', '"0,2 x"', "gen-leap-quiet: bad offset 'x'", 8),
    ('"0,2 0,-2"', '""', "gen-leap-quiet: no offsets given", 8),
    ('(?p, "0,2 0,-2")', '(?p)', "gen-leap-quiet takes 2 arguments (a piece and its offsets), "
                                 "1 given", 8),
])
def test_move_helper_arguments_are_checked_when_the_file_loads(old, new, message, column):
    text = HELPERS.replace(old, new)
    line = next(i for i, t in enumerate(text.splitlines(), 1) if new in t)
    rs = fide_rules()
    before = sorted(rs.productions)
    with pytest.raises(ReteError) as ei:
        load_rule_text(rs, text, "helpers.hr")
    assert str(ei.value).startswith(f"helpers.hr:{line}:{column}: rule 'custom.")
    assert message in str(ei.value)
    assert sorted(rs.productions) == before


KN_V_K = "8/8/4k3/8/8/3K4/8/5N2 w - - 0 50"
KB_V_K = "8/8/4k3/8/8/3K4/8/5B2 w - - 0 50"


def _dead(fen, ruleset):
    out = Game(fen, ruleset=ruleset).outcome()
    return out is not None and out.reason == "insufficient material"


def test_insufficient_material_only_for_minor_pieces_that_move_as_in_fide():
    from presets import load
    assert _dead(KN_V_K, fide_rules()) and _dead(KB_V_K, fide_rules())
    # a knight that also slides (a rule file) or leaps twice (a preset) might mate
    assert not _dead(KN_V_K, load_rule_text(fide_rules(), HELPERS, "helpers.hr"))
    assert not _dead(KN_V_K, load("knights-leap-twice"))
    assert _dead(KB_V_K, load("knights-leap-twice"))        # its bishops are FIDE's
    # a bishop that never captures a knight moves nowhere FIDE's would not
    assert _dead(KB_V_K, load("knight-immunity"))
    # on another board FIDE's table does not hold
    assert not _dead(KN_V_K, load("wrap-board")) and not _dead(KB_V_K, load("wrap-board"))
    # a bouncing board changes the bishop only
    assert _dead(KN_V_K, load("bouncing-pieces")) and not _dead(KB_V_K, load("bouncing-pieces"))
    assert not _dead(KB_V_K, load("bouncing-pieces", "knight-immunity"))


def test_a_helper_given_a_fact_that_is_not_a_piece_is_refused_when_the_file_loads():
    text = HELPERS.replace('  movegen(color: ?c)\n  ?p <- piece(type: knight',
                           '  ?m <- movegen(color: ?c)\n  ?p <- piece(type: knight')
    text = text.replace('call gen-slide(?p, "NE NW")', 'call gen-slide(?m, "NE NW")')
    with pytest.raises(ReteError) as ei:
        load_rule_text(fide_rules(), text, "helpers.hr")
    assert str(ei.value).startswith("helpers.hr:6:8: rule 'custom.knight-slide'")
    assert "?m is a movegen fact; it takes the piece that moves" in str(ei.value)


def test_helpers_move_the_pieces_a_collect_binds():
    # the same rules over collected pieces: one firing moves every knight
    text = HELPERS.replace("?p <- piece(type: knight", "?ps <- collect piece(type: knight") \
        .replace('call gen-slide(?p, "NE NW")', 'call gen-slide(?ps, "NE NW")')
    fen = "4k3/8/8/8/8/3p4/8/1N1BK1N1 w - - 0 1"
    collected = Game(fen, ruleset=load_rule_text(fide_rules(), text, "helpers.hr"))
    per_piece = Game(fen, ruleset=load_rule_text(fide_rules(), HELPERS, "helpers.hr"))
    assert collected.legal_uci() == per_piece.legal_uci()
    assert {"b1c2", "b1d3", "g1h2", "g1f2"} <= set(collected.legal_uci())
    assert collected.explain("g1h2").rule == "custom.knight-slide"
    # and its attacks are implied as for one piece: a knight that slides to h2 gives check
    checked = "8/8/8/8/8/8/7k/4K1N1 b - - 0 1"
    assert Game(checked, ruleset=load_rule_text(fide_rules(), text, "h.hr")).is_check()
    assert not Game(checked).is_check()


def test_a_helper_given_collected_facts_that_are_not_pieces_is_refused():
    text = HELPERS.replace("?p <- piece(type: knight, color: ?c)", "?es <- collect ep(by: ?c)") \
        .replace('call gen-slide(?p, "NE NW")', 'call gen-slide(?es, "NE NW")')
    with pytest.raises(ReteError) as ei:
        load_rule_text(fide_rules(), text, "helpers.hr")
    assert "?es is the ep facts a collect binds; it takes the piece that moves" in str(ei.value)


def test_fide_movers_fire_once_per_request_whatever_the_number_of_pieces():
    g = Game()
    s = g.session
    s.trace_enabled = True
    g.legal_moves()
    fired = [f.rule for f in s.trace if f.stage == "generate"]
    # one firing per mover (16 pieces, 8 productions), and castling once per right
    movers = ["fide.pawn-single-push", "fide.pawn-double-push", "fide.pawn-capture",
              "fide.knight-move", "fide.bishop-move", "fide.rook-move", "fide.queen-move",
              "fide.king-move"]
    assert sorted(r for r in fired if r != "fide.castling") == sorted(movers)
    assert fired.count("fide.castling") == 2


def test_fide_generators_take_one_piece_too():
    # a rule file may call FIDE's own generator per piece, as before movers collected
    text = """
rule "fide.knight-move" replaces stage generate
when
  movegen(color: ?c)
  ?p <- piece(type: knight, color: ?c)
then
  call gen.knight.plain(?p)
end
"""
    g = Game(ruleset=load_rule_text(fide_rules(), text, "k.hr"))
    assert g.legal_uci() == Game().legal_uci() and g.perft(2) == 400


def test_a_collect_that_only_gates_adds_no_attacker():
    # the rooks are collected as a gate (no action takes them): the bishop's jump
    # attacks like a knight's, the rook on a1 does not
    text = """
rule "custom.bishop-jump" stage generate
when
  movegen(color: ?c)
  ?p <- piece(type: bishop, color: ?c)
  ?rs <- collect piece(type: rook, color: ?c)
then
  call gen-leap(?p, "1,2")
end
"""
    rs = load_rule_text(fide_rules(), text, "g.hr")
    assert not Game("8/8/8/8/8/1k6/8/R3K1B1 b - - 0 1", ruleset=rs).is_check()
    assert Game("8/8/8/8/8/7k/8/R3K1B1 b - - 0 1", ruleset=rs).is_check()     # g1-h3


def test_replaces_belongs_to_the_rule_that_says_it():
    # a plain rule of FIDE's name is refused even when a later rule of that
    # name says replaces (the flag is the rule's, not the name's)
    km = ('rule fide.king-move stage generate\nwhen\n  movegen(color: ?c)\n'
          '  ?p <- piece(type: king, color: ?c)\nthen\n  call gen-leap(?p, "N")\nend\n')
    with pytest.raises(DuplicateProductionError) as ei:
        load_rule_text(fide_rules(), km + km.replace("stage generate", "replaces stage generate"),
                       "h.hr")
    assert (ei.value.line, ei.value.column) == (1, 6)
    rs = load_rule_text(fide_rules(), km.replace("stage generate", "replaces stage generate"))
    assert rs.productions["fide.king-move"].actions[0].args[1] == "N"


# ---------------------------------------------------------------- implied attacks

def test_a_gate_pattern_adds_no_attacker_to_a_rules_implied_attacks():
    # a rook leaps as a knight while its side has a bishop: the bishop gates,
    # it does not leap (it used to be counted as a knight-leaper too)
    from rete import Call, P, Rule, V
    rs = fide_rules()
    rs.add(Rule("custom.rook-knight", stage="generate")
           .when(P("movegen", color=V.c), P("piece", type="rook", color=V.c).as_("p"),
                 P("piece", type="bishop", color=V.c))
           .then(Call("gen-leap", V.p, "1,2 2,1 -1,2 -2,1 1,-2 2,-1 -1,-2 -2,-1")))
    assert not Game("8/8/8/3k4/8/2B5/8/R3K3 b - - 0 1", ruleset=rs).is_check()
    assert "c5d5" in Game("8/8/8/2k5/8/2B5/8/R3K3 b - - 0 1", ruleset=rs).legal_uci()
    assert Game("8/8/8/8/8/1k6/8/R3K1B1 b - - 0 1", ruleset=rs).is_check()   # the rook's leap


def test_a_rule_for_one_colour_attacks_for_that_colour_only():
    # kings_step_only.hr: Black's king steps S, SE, E, W, SW only, so it does
    # not attack f6 from e5 (it used to, as a king of either colour stepping anywhere)
    g = game("8/8/8/4k1K1/8/8/8/8 w - - 0 1", "kings_step_only.hr")
    assert g.explain("g5f6").legal
    assert game("8/8/8/4k1K1/8/8/8/8 w - - 0 1", "kings_step_only.hr").explain("g5f5").rule \
        == "fide.check-resolution"                  # f5 is east of e5: attacked


def test_a_rule_whose_piece_pattern_names_no_type_attacks_with_every_type(tmp_path):
    f = tmp_path / "north.hr"
    f.write_text("rule custom.step-north stage generate\nwhen\n  movegen(color: ?c)\n"
                 "  ?p <- piece(color: ?c)\nthen\n  call gen-leap(?p, \"N\")\nend\n")
    rs = load_rule_file(fide_rules(), f)
    assert Game("8/8/8/8/8/8/1k6/1B2K3 b - - 0 1", ruleset=rs).is_check()     # Bb1 steps north
    assert "c2b2" not in Game("8/8/8/8/8/8/2k5/1B2K3 b - - 0 1", ruleset=rs).legal_uci()


def test_a_stage_declared_in_rule_text_runs_with_every_move(tmp_path):
    # 'stages post-move, house-effects': the new stage runs after post-move and
    # before turn-end (it used to sort after result, and never ran on a move)
    f = tmp_path / "queen.hr"
    f.write_text("stages post-move, house-effects\n"
                 "rule custom.pawn-to-queen stage house-effects\nwhen\n"
                 "  move(piece: pawn, to: ?to, color: ?c)\n"
                 "  ?p <- piece(type: pawn, square: ?to, color: ?c)\n"
                 "then\n  modify ?p (type: queen)\nend\n")
    rs = load_rule_file(fide_rules(), f)
    g = Game(ruleset=rs)
    order = g.session.stages
    assert order.index("post-move") < order.index("house-effects") < order.index("turn-end")
    g.push("e2e4")
    assert g.piece_at("e4").values["type"] == "queen"
    g.pop()
    assert g.fen() == Game().fen()


def test_a_move_helper_in_a_filter_rule_is_refused_at_its_call(tmp_path):
    f = tmp_path / "late.hr"
    f.write_text("rule fide.knight-move replaces stage filter\nwhen\n  movegen(color: ?c)\n"
                 "  ?p <- piece(type: knight, color: ?c)\nthen\n"
                 "  call gen-leap(?p, \"1,2 2,1\")\nend\n")
    with pytest.raises(ReteError) as e:
        load_rule_file(fide_rules(), f)
    assert str(e.value).startswith(f"{f}:6:8: ") and "belongs in the generate stage" in str(e.value)


def test_rules_and_removals_apply_in_the_order_written():
    text = ("rule custom.step stage generate\nwhen\n  movegen(color: ?c)\n"
            "  ?p <- piece(type: rook, color: ?c)\nthen\n  call gen-leap(?p, \"NE\")\nend\n"
            "remove custom.step\n")
    rs = load_rule_text(fide_rules(), text, "o.hr")
    assert "custom.step" not in rs.productions


def test_a_broken_base_is_not_blamed_on_the_rule_file():
    # the base rule set has a rule with an unknown slot: the error names that
    # rule, not line 1 of a file that never wrote it
    from rete import Call, P, Rule, V
    base = fide_rules()
    base.add(Rule("house.typo", stage="generate")
             .when(P("movegen", color=V.c), P("piece", colour=V.c).as_("p"))
             .then(Call("gen-leap", V.p, "N")))
    with pytest.raises(ReteError) as e:
        load_rule_file(base, EXAMPLES / "no_queen_promotion.hr")
    assert "house.typo" in str(e.value) and "no_queen_promotion.hr" not in str(e.value)


@pytest.mark.parametrize("decl, words", [
    ("stages filter, late", "a stage after 'filter' would run with no move"),
    ("stages result, after-all", "a stage after 'result' would run with no move"),
    ("stages post-move, turn-end", "stage 'turn-end' already exists"),
])
def test_a_stage_that_would_never_run_or_exists_is_refused_where_declared(decl, words):
    with pytest.raises(ReteError) as e:
        load_rule_text(fide_rules(), decl + "\n", "s.hr")
    assert str(e.value).startswith("s.hr:1:8: ") and words in str(e.value)


_MOVER = ('rule "x" stage generate{meta}\nwhen\n  movegen(color: ?c)\n'
          '  ?p <- {tmpl}(type: rook, color: ?c)\nthen\n  call gen-leap(?p, "NE")\nend\n')


@pytest.mark.parametrize("text, kind, line, column, words", [
    # a misspelt template is reported as such, not as a helper given the wrong fact
    (_MOVER.format(meta="", tmpl="peice"), "UnknownTemplateError", 4, 9, "unknown template 'peice'"),
    # the chess layer calls these: a constant used to crash the first game, blamed on FIDE
    (_MOVER.format(meta=" meta(attacks: true)", tmpl="piece"), "CompileError", 1, 25,
     "meta 'attacks' is a function"),
    (_MOVER.format(meta=" meta(simulate: 3)", tmpl="piece"), "CompileError", 1, 25,
     "meta 'simulate' is a function"),
    # 'uses' names functions the rule set must have
    ("uses nosuchfn\n", "UnknownFunctionError", 1, 6, "'nosuchfn' is declared by 'uses'"),
    # a rule with no stage is told so (it used to be about a stage 'default')
    ('rule "x"\nwhen\n  movegen(color: ?c)\nthen\n  halt\nend\n', "UnknownStageError", 1, 6,
     "rule 'x' names no stage"),
    # drop-promotions in generate would run before some movers and drop nothing
    ('rule "x" stage generate\nwhen\n  movegen(color: ?c)\nthen\n'
     '  call drop-promotions(?c, queen)\nend\n', "CompileError", 5, 8,
     "drop-promotions runs in the filter stage"),
    ('rule "x" stage filter\nwhen\n  movegen(color: ?c)\nthen\n'
     '  call drop-promotions(?c, Queen)\nend\n', "CompileError", 5, 8, "no piece type 'Queen'"),
])
def test_rule_text_mistakes_are_refused_at_their_place(text, kind, line, column, words):
    rs = fide_rules()
    before = dict(rs.productions)
    with pytest.raises(ReteError) as ei:
        load_rule_text(rs, text, "r.hr")
    e = ei.value
    assert type(e).__name__ == kind and words in str(e)
    assert (e.line, e.column) == (line, column), str(e)
    assert rs.productions == before


def test_uses_of_an_engine_builtin_is_accepted():
    rs = load_rule_text(fide_rules(), "uses add\nuses print\n", "u.hr")
    assert rs.productions.keys() == fide_rules().productions.keys()


def test_callable_metadata_is_checked_from_python_too():
    from chess_rules.ruleset import RuleSetError
    from rete import Call, P, Rule, V
    rs = fide_rules()
    rule = Rule("x", stage="generate", attacks=True).when(
        P("movegen", color=V.c), P("piece", type="rook", color=V.c).as_("p")).then(
        Call("gen-leap", V.p, "NE"))
    with pytest.raises(RuleSetError, match="meta 'attacks' is a function"):
        rs.add(rule)
    assert "x" not in rs.productions


def test_facts_of_a_rule_files_own_templates_count_for_repetition():
    # the marks differ between the start and its first return (none, then
    # four): that is no repetition; the position repeats from there on
    rs = load_rule_text(fide_rules(), '''template house.mark (square)

rule "house.mark-destination" stage post-move
  "Every square a piece lands on is marked (once)."
when
  move(to: ?to)
  not house.mark(square: ?to)
then
  assert house.mark(square: ?to)
end
''', "marks.hr")
    g = Game(ruleset=rs)
    seen = []
    for _ in range(3):
        for u in ("g1f3", "g8f6", "f3g1", "f6g8"):
            g.push(u)
        seen.append((g.repetitions(), g.outcome() and g.outcome().reason))
    assert seen == [(1, None), (2, None), (3, "threefold repetition")]
    plain = Game()
    for u in ("g1f3", "g8f6", "f3g1", "f6g8") * 2:
        plain.push(u)
    assert plain.outcome().reason == "threefold repetition"     # FIDE: two returns


def test_a_rule_that_never_settles_is_stopped_and_the_move_refused_whole():
    # it used to hang the game (and the CLI) for ever
    from rete import RunawayError
    rs = load_rule_text(fide_rules(), '''template house.counter (n)

rule "house.count-forever" stage turn-end
  "Counts, and counts again: its own modify matches it anew."
when
  ?k <- house.counter(n: ?n)
then
  modify ?k (n: add(?n, 1))
end
''', "loop.hr")
    rs.config["max-firings"] = 500
    g = Game("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", ruleset=rs)
    assert g.max_firings == 500
    g.session.assert_fact("house.counter", n=0)
    fen = g.fen()
    with pytest.raises(RunawayError, match="'house.count-forever' still to fire"):
        g.push("a1a8")
    assert g.fen() == fen and g.move_stack == []
    assert [f["n"] for f in g.session.facts_of("house.counter")] == [0]


@pytest.mark.parametrize("action,problem", [
    ('modify ?p (square: true)', "a piece's square is a square number 0..63"),
    ("modify ?p (square: 64)", "a piece's square is a square number 0..63"),
    ("modify ?p (square: -1)", "not -1"),          # used to land on h8's mirror square
    ("modify ?p (square: 20.0)", "not 20.0"),
    ("modify ?p (type: unicorn)", "a piece's type is one of pawn"),
    ("modify ?p (color: purple)", "a piece's color is white or black, not 'purple'"),
    ("assert piece(type: queen, color: white)", "not None"),
    ("assert royal(color: purple, type: king)", "a royal fact's color is white or black"),
])
def test_a_rule_that_writes_a_piece_off_the_board_is_an_action_error(action, problem):
    # a piece fact the board cannot hold (a square that is no square, an unknown
    # type or colour) is refused as it is written: the move is an ActionError and
    # the game stays as it was (it used to be a TypeError, IndexError or KeyError
    # out of the undo, leaving the game half undone, or a pawn mirrored onto h8)
    from rete import ActionError
    rs = load_rule_text(fide_rules(), f'''rule "house.off-board" stage post-move
when
  move(to: ?to)
  ?p <- piece(square: ?to)
then
  {action}
end
''', "off.hr")
    g = Game(ruleset=rs)
    fen, legal = g.fen(), g.legal_uci()
    with pytest.raises(ActionError, match="off.hr:6:3: rule 'house.off-board' failed") as ei:
        g.push("e2e4")
    assert problem in str(ei.value)
    assert g.fen() == fen and g.move_stack == [] and g.legal_uci() == legal
    assert str(g).splitlines()[0] == "r n b q k b n r"


@pytest.mark.parametrize("action,problem", [
    ("modify ?g (turn: purple)", "SlotValueError(\"the game fact's turn is white or black"),
    ("assert ep(square: 99, pawn: 12, by: white)", "an ep fact's square is a square number"),
    ('assert ep(square: 20.5, pawn: 12, by: white)', "not 20.5"),
    ("assert ep(square: 20, pawn: 28, by: nil)", "an ep fact's by is white or black"),
    ("assert castling(color: white, side: middle, king-from: 4, king-to: 6, rook-from: 7, "
     "rook-to: 5)", "a castling fact's side is king or queen, not 'middle'"),
    ("assert castling(color: white, side: king)", "a castling fact's king-from is a square"),
    ("retract ?g", "the rules left 0 game facts"),
    ("assert game(turn: black, halfmove: 0, fullmove: 7, half: 0)", "the rules left 2 game facts"),
])
def test_a_rule_that_breaks_the_game_state_refuses_the_move(action, problem):
    # the facts the game reads besides pieces (the game fact, en-passant targets,
    # castling rights) are checked too: a move whose rules break them is refused
    # whole, with a typed error (it used to be a StopIteration, IndexError,
    # KeyError or TypeError out of push() or fen(), the move half made)
    from chess_rules.errors import ChessError
    rs = load_rule_text(fide_rules(), f'''rule "house.breaker" stage turn-end
when
  move(from: 12)
  ?g <- game(fullmove: 1)
then
  {action}
end
''', "breaker.hr")
    g = Game(ruleset=rs)
    fen, legal = g.fen(), g.legal_uci()
    with pytest.raises((ReteError, ChessError)) as ei:
        g.push("e2e4")
    assert problem in str(ei.value)
    assert g.fen() == fen and g.move_stack == [] and g.legal_uci() == legal
    g.push("d2d4")
    g.pop()
    assert g.fen() == fen and g.repetitions() == 1


def test_a_rule_file_written_back_keeps_the_order_of_its_rules_and_removals():
    # a chess rule file applies rules and removals in the order written: the
    # writer keeps that order (it used to put every removal first, so the text
    # written back removed custom.a before it existed)
    from rete.language import format_rule_file, parse_rules
    text = '''remove fide.castling
rule "custom.a" stage generate when movegen(color: ?c) then halt end
remove custom.a, fide.king-move
rule fide.king-move stage generate when movegen(color: ?c) then halt end
'''
    out = format_rule_file(parse_rules(text))
    assert out.index("remove custom.a") > out.index("rule custom.a")
    first = load_rule_text(fide_rules(), text, "a.hr")
    again = load_rule_text(fide_rules(), out, "b.hr")
    assert sorted(first.productions) == sorted(again.productions)
    assert "custom.a" not in again.productions and "fide.castling" not in again.productions
    assert format_rule_file(parse_rules(out)) == out


@pytest.mark.parametrize("action, verb", [
    ("retract ?g", "retracts"),
    ("modify ?g (king-to: 6)", "modifies"),
    ("assert ep(square: 20, by: white)", "asserts"),
])
def test_a_generation_rule_that_changes_the_position_is_refused(action, verb):
    # legal_moves() would change the game: a castling right gone each time the
    # moves are listed
    text = ("rule custom.meddle stage generate\nwhen\n  movegen(color: ?c)\n"
            f"  ?g <- castling(color: ?c)\nthen\n  {action}\nend\n")
    rs = fide_rules()
    before = dict(rs.productions)
    with pytest.raises(ReteError, match=f"move generation.*{verb} a fact") as e:
        load_rule_text(rs, text, "meddle.hr")
    assert (e.value.line, e.value.column) == (6, 3), str(e.value)   # at the action
    assert rs.productions == before


def test_a_generation_rule_from_python_is_refused_when_compiled():
    from rete import P, RetractFact, Rule, V
    rs = fide_rules()
    rs.add(Rule("house.meddle", stage="filter")
           .when(P("movegen", color=V.c), P("castling", color=V.c).as_("g"))
           .then(RetractFact(V.g)))
    with pytest.raises(ReteError, match="house.meddle.*move generation"):
        Game(ruleset=rs)


def test_a_logical_fact_for_generation_goes_with_the_request():
    text = ("template seen (color)\nrule custom.note stage generate\nwhen\n"
            "  movegen(color: ?c)\nthen\n  assert logical seen(color: ?c)\nend\n")
    g = Game(ruleset=load_rule_text(fide_rules(), text, "note.hr"))
    start = g.fen()
    assert len(g.legal_moves()) == 20
    g.push("e2e4")
    g.legal_moves()
    g.pop()
    assert g.fen() == start and len(g.legal_moves()) == 20
    assert list(g.session.facts_of("seen")) == []


def _dice_game(rs):
    from dice.engine import DiceGame
    return DiceGame("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PPN", rs)


def _with_modifier(name):
    def base():
        from presets import load
        from presets.modifiers import attach
        return attach(load("piece-hp"), name, squares=["e2"])
    return base


@pytest.mark.parametrize("stage", ["apply", "post-move"])
@pytest.mark.parametrize("base, make", [
    (fide_rules, _dice_game),                               # dice-clock reads it
    (_with_modifier("nomad"), lambda rs: Game(ruleset=rs)),     # turn-start dispatch
    (_with_modifier("decay"), lambda rs: Game(ruleset=rs)),     # turn-end dispatch
], ids=["dice", "modifier-turn-start", "modifier-turn-end"])
def test_a_rule_that_takes_the_game_fact_away_is_refused_as_such_everywhere(stage, base, make):
    # Dice Chess and the modifiers' dispatch read the game fact in their own
    # actions: with it gone they must leave the refusal to the move (a ChessError
    # naming the game fact), not fail as 'fide.turn-advance' or
    # 'modifiers.turn-start' with a bare StopIteration
    from chess_rules.errors import ChessError
    rs = load_rule_text(base(), f'''rule "house.breaker" stage {stage}
when
  move(from: 12)
  ?g <- game(fullmove: 1)
then
  retract ?g
end
''', "breaker.hr")
    g = make(rs)
    fen = g.fen()
    with pytest.raises(ChessError, match="the rules left 0 game facts"):
        g.push("e2e4")
    assert g.fen() == fen and g.move_stack == []


def test_a_generation_rule_whose_logical_fact_outlives_the_request_is_refused():
    # 'assert logical' in generation is allowed for a fact that goes with the
    # movegen request; one its conditions keep without the request (here the
    # game fact) stayed once the moves were listed: a queen appeared on d5 at
    # legal_moves(), the FEN changed by listing the moves
    text = ("rule custom.ghost stage generate\nwhen\n  game(turn: black)\nthen\n"
            "  assert logical piece(type: queen, color: black, square: 35)\nend\n")
    rs = fide_rules()
    before = dict(rs.productions)
    with pytest.raises(ReteError, match="custom.ghost.*logical 'piece' fact.*without the "
                                        "movegen request") as e:
        load_rule_text(rs, text, "ghost.hr")
    assert (e.value.line, e.value.column) == (5, 3), str(e.value)   # at the assert
    assert rs.productions == before


@pytest.mark.parametrize("action, what", [
    ("assert piece(type: queen, color: black, square: 35)", "asserts"),
    ("modify ?g (fullmove: 2)", "modifies"),
    ("retract ?g", "retracts"),
])
def test_a_generation_rule_that_changes_the_position_is_refused_at_its_action(action, what):
    text = ("rule custom.writer stage generate\nwhen\n  movegen(color: ?c)\n"
            f"  ?g <- game(turn: ?c)\nthen\n  halt\n  {action}\nend\n")
    rs = fide_rules()
    with pytest.raises(ReteError, match=f"yet {what} a fact") as e:
        load_rule_text(rs, text, "w.hr")
    assert (e.value.line, e.value.column) == (7, 3), str(e.value)
    assert "custom.writer" not in rs.productions


def test_a_chain_of_logical_facts_rooted_in_the_request_is_allowed():
    # a stage of one's own between generate and filter, fed by a logical fact of
    # generate: the chain goes with the request; a fact asserted for good (in
    # apply) roots no such chain
    text = """template seen (color)
template noted (color)
stages generate, mid
rule custom.see stage generate
when
  movegen(color: ?c)
then
  assert logical seen(color: ?c)
end
rule custom.note stage mid
when
  seen(color: ?c)
then
  assert logical noted(color: ?c)
end
"""
    g = Game(ruleset=load_rule_text(fide_rules(), text, "chain.hr"))
    start = g.fen()
    assert len(g.legal_moves()) == 20
    assert g.fen() == start
    assert list(g.session.facts_of("seen")) == list(g.session.facts_of("noted")) == []
    kept = text + """rule custom.keep stage apply
when
  move(color: ?c)
then
  assert seen(color: ?c)
end
"""
    with pytest.raises(ReteError, match="custom.note.*logical 'noted' fact"):
        load_rule_text(fide_rules(), kept, "chain.hr")


def test_a_logical_fact_supported_by_exists_movegen_goes_with_the_request():
    text = ("template seen (n)\nrule custom.note stage generate\nwhen\n"
            "  exists movegen(color: white)\nthen\n  assert logical seen(n: 1)\nend\n")
    g = Game(ruleset=load_rule_text(fide_rules(), text, "note.hr"))
    assert len(g.legal_moves()) == 20
    assert list(g.session.facts_of("seen")) == []


@pytest.mark.parametrize("stage", ["apply", "post-move"])
def test_a_modifier_type_change_leaves_a_game_without_its_game_fact_to_the_refusal(stage):
    # stay-as-pawn's type change reads the side to move from the game fact: with a
    # rule taking it away, the promotion is refused as such (no bare StopIteration
    # blamed on the modifier's dispatch)
    from chess_rules.errors import ChessError
    from presets.modifiers import attach
    rs = attach(fide_rules(), "stay-as-pawn", squares=["a7"])
    rs = load_rule_text(rs, f'''rule "house.breaker" stage {stage}
when
  move(from: 48)
  ?g <- game()
then
  retract ?g
end
''', "breaker.hr")
    g = Game("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", ruleset=rs)
    fen = g.fen()
    with pytest.raises(ChessError, match="the rules left 0 game facts"):
        g.push("a7a8q")
    assert g.fen() == fen and g.move_stack == []


def test_a_pawn_of_a_rule_files_own_that_stepped_back_home_makes_a_new_position():
    # the pawn back on e2 has moved: it has lost its double step, so the
    # position differs from the start (as under the preset pawns-move-backward);
    # repetition used to read the extended state only under presets, and
    # counted a threefold here with two returns
    rs = load_rule_text(fide_rules(), '''
rule "house.pawn-back" stage generate
  "A white pawn may step one square back."
when
  movegen(color: white)
  ?p <- piece(type: pawn, color: white)
then
  call gen-leap-quiet(?p, "0,-1")
end
''', "back.hr")
    g = Game(ruleset=rs)
    for u in "e2e3 g8f6 e3e2 f6g8 g1f3 g8f6 f3g1 f6g8".split():
        g.push(u)
    assert g.fen().endswith(" moved:e2") and "e2e4" not in g.legal_uci()
    assert g.repetitions() == 2 and g.outcome() is None
    for u in "g1f3 g8f6 f3g1 f6g8".split():
        g.push(u)
    assert g.outcome().reason == "threefold repetition"


def test_a_misspelt_production_name_is_answered_with_the_closest_one():
    with pytest.raises(UnknownProductionError, match=r"did you mean 'fide.castling'\?"):
        load_rule_text(fide_rules(), "remove fide.castlng\n")
    with pytest.raises(UnknownProductionError, match=r"did you mean 'fide.castling'\?"):
        load_rule_text(fide_rules(), "rule fide.castlin replaces stage generate\nwhen\n"
                                     "  movegen(color: ?c)\nthen\nend\n")
    from chess_rules.ruleset import RuleSetError
    with pytest.raises(RuleSetError, match=r"did you mean 'fide.knight-move'\?"):
        fide_rules().remove("fide.knight-mve")
