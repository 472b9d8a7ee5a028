"""Rules composed in Python (RuleSet.add / replace / remove with the builder API),
with the move helpers a rule file has (chess_rules.helpers)."""
from pathlib import Path

import pytest

import presets
from chess_rules.custom import load_rule_file
from chess_rules.fide import fide_rules
from chess_rules.game import Game
from chess_rules.ruleset import RuleSetError
from rete import Call, Collect, P, Rule, V

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "rules"

# a rook that also steps one square diagonally, as in examples/rules/
ROOK_STEP = "custom.rook-diagonal-step"


def rook_step(spec="NE NW SE SW", fn="gen-leap"):
    return (Rule(ROOK_STEP, stage="generate", doc="A rook may also step diagonally.")
            .when(P("movegen", color=V.c), P("piece", type="rook", color=V.c).as_("p"))
            .then(Call(fn, V.p, spec)))


def test_a_python_rule_with_a_move_helper_moves_and_attacks():
    fen = "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"
    rs = fide_rules()
    rs.add(rook_step())
    g = Game(fen, ruleset=rs)
    assert set(g.legal_uci()) - set(Game(fen).legal_uci()) == {"a1b2"}
    assert g.explain("a1b2").rule == ROOK_STEP
    # the step attacks, so it checks, and a king may not step into it
    assert Game("8/8/8/8/8/8/1k6/R3K3 b - - 0 1", ruleset=rs).is_check()
    near = Game("8/8/8/8/8/8/2k5/R3K3 b - - 0 1", ruleset=rs)
    assert "c2b2" not in near.legal_uci()
    assert near.explain("c2b2").rule == "fide.check-resolution"


def test_a_quiet_helper_moves_but_does_not_attack():
    rs = fide_rules()
    rs.add(rook_step(fn="gen-leap-quiet"))
    assert "a1b2" in Game("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", ruleset=rs).legal_uci()
    assert not Game("8/8/8/8/8/8/1k6/R3K3 b - - 0 1", ruleset=rs).is_check()


def test_the_same_rule_from_python_and_from_the_example_rule_file_agree():
    from_file = load_rule_file(fide_rules(), EXAMPLES / "rook_steps_diagonally.hr")
    from_python = fide_rules()
    from_python.add(rook_step())
    for fen in ("8/8/8/8/8/8/1k6/R3K3 b - - 0 1", "8/8/8/8/8/8/2k5/R3K3 b - - 0 1",
                "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"):
        a, b = Game(fen, ruleset=from_file), Game(fen, ruleset=from_python)
        assert a.legal_uci() == b.legal_uci() and a.is_check() == b.is_check()
        assert a.perft(2) == b.perft(2)


@pytest.mark.parametrize("spec, fn, words", [
    ("0,x", "gen-leap", "bad offset '0,x'"),
    ("NE UP", "gen-slide", "bad slide direction"),
    ("", "gen-leap-quiet", "no offsets given"),
])
def test_a_bad_helper_argument_is_refused_when_added_and_nothing_changes(spec, fn, words):
    rs = fide_rules()
    before = dict(rs.productions)
    with pytest.raises(RuleSetError, match=words) as e:
        rs.add(rook_step(spec, fn))
    assert ROOK_STEP in str(e.value)
    assert rs.productions == before


def slide_without_directions(name):
    return (Rule(name, stage="generate")
            .when(P("movegen", color=V.c), P("piece", type="rook", color=V.c).as_("p"))
            .then(Call("gen-slide", V.p)))


def test_a_helper_with_the_wrong_argument_count_is_refused_by_add_and_replace():
    rs = fide_rules()
    rook_move = rs.productions["fide.rook-move"]
    with pytest.raises(RuleSetError, match="gen-slide takes 2 arguments"):
        rs.add(slide_without_directions("custom.bad"))
    with pytest.raises(RuleSetError, match="gen-slide takes 2 arguments"):
        rs.replace(slide_without_directions("fide.rook-move"))
    assert "custom.bad" not in rs.productions
    assert rs.productions["fide.rook-move"] is rook_move


def test_a_function_of_the_rule_sets_own_under_a_helper_name_is_not_judged():
    rs = fide_rules()
    rs.function("gen-leap", lambda ctx, *args: None)
    rs.add(rook_step("not an offset"))          # its own gen-leap: any arguments
    assert ROOK_STEP in rs.productions
    # ... and it implies no attacks: the game builds, and the rook does not step
    g = Game("8/8/8/8/8/8/1k6/R3K3 b - - 0 1", ruleset=rs)
    assert not g.is_check()


# The helper's attacks follow the board the rule set has when it is built:
# on wrap-board a rook on a4 steps NW to h5 (files wrap) and checks a king there.
WRAP_FEN = "8/8/8/7k/R7/8/8/K7 b - - 0 1"


def test_attacks_follow_the_topology_when_the_rule_is_added_after_wrap_board():
    rs = presets.load("wrap-board")
    rs.add(rook_step())
    assert Game(WRAP_FEN, ruleset=rs).is_check()


def test_attacks_follow_the_topology_when_wrap_board_comes_after_the_rule():
    base = fide_rules()
    base.add(rook_step())
    assert not Game(WRAP_FEN, ruleset=base).is_check()
    rs = presets.load("wrap-board", base=base)
    g = Game(WRAP_FEN, ruleset=rs)
    assert g.is_check()
    # ... and the moves wrap too (the helper reads the topology as it runs)
    white = Game("7k/8/8/8/R7/8/8/K7 w - - 0 1", ruleset=rs)
    assert {"a4h5", "a4h3"} <= set(white.legal_uci())


def test_a_python_rule_composes_with_dice_chess():
    import dice
    rs = fide_rules()
    rs.add(rook_step())
    dfen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 RRR"
    assert "a1b2" in dice.legal_uci_moves(dfen, ruleset=rs)
    assert "a1b2" not in dice.legal_uci_moves(dfen)


def test_a_removed_castling_rule_is_named_as_the_reason_not_the_right():
    rs = fide_rules()
    rs.remove("fide.castling")
    g = Game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", ruleset=rs)
    assert "e1g1" not in g.legal_uci()
    why = g.explain("e1g1").text
    assert "no production of this rule set generates castling" in why
    assert "no castling right" not in why
    # without the right, the right is the reason (with or without the rule)
    for ruleset in (rs, fide_rules()):
        g = Game("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1", ruleset=ruleset)
        assert "there is no castling right for that side" in g.explain("e1g1").text


def test_each_fide_rules_call_is_a_copy_of_its_own():
    a = fide_rules()
    a.remove("fide.castling")
    a.add(rook_step())
    a.function("house.fn", lambda ctx: None)
    a.royal_types["white"] = ("queen",)
    a.config["house"] = {"x": 1}
    a.add_stage("house-stage", after=("result",))
    b = fide_rules()
    assert "fide.castling" in b.productions and ROOK_STEP not in b.productions
    assert "house.fn" not in b.functions
    assert b.royal_types["white"] == ("king",)
    assert "house" not in b.config and not b.extra_stages
    assert len(b.history) == len(b.productions) == 31
    assert Game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", ruleset=b).is_legal("e1g1")


# ---------------------------------------------------------------- scenarios on a Python rule set

SCENARIOS = '''
scenario "the step, and its check"
  fen 8/8/8/8/3k4/8/8/R3K3 w - - 0 1
  expect legal a1b2
  move a1b2
  expect illegal d4c3 by fide.check-resolution

scenario "a preset on top of the rule set"
  presets wrap-board
  fen 7k/8/8/8/R7/8/8/K7 w - - 0 1
  expect legal a4h5 a4h3

scenario "Dice Chess over the rule set"
  dfen 4k3/8/8/8/8/8/8/R3K3 w - - 0 1 RR
  expect legal a1b2
'''


def test_scenarios_run_on_a_python_rule_set_and_leave_it_as_it_was():
    from houserules.scenarios import ScenarioFailure, parse_text, run_scenario
    rs = fide_rules()
    rs.add(rook_step())
    before = (dict(rs.productions), rs.presets[:], rs.topology)
    for sc in parse_text(SCENARIOS):
        run_scenario(sc, ruleset=rs)
        with pytest.raises(ScenarioFailure):
            run_scenario(sc)            # FIDE has no such step
    assert (dict(rs.productions), rs.presets, rs.topology) == before


def side_capture_rules():
    """A pawn that may also capture the enemy piece beside it: a mover of its own
    (a registered function) declaring its attacks, as in docs/rulesets.md."""
    from chess_rules.moves import Move
    rs = fide_rules()
    beside = rs.topology.leap_table(((1, 0), (-1, 0)))

    def gen(ctx, p):
        st = ctx.session.chess
        sq, color = p.values["square"], p.values["color"]
        for to in beside[sq]:
            if st.colors[to] not in (None, color):
                st.add(Move(sq, to, piece="pawn", victim=to, rule=ctx.pnode.production.name))

    def attacks(colors, types, target, by):
        return any(colors[s] == by and types[s] == "pawn" for s in beside[target])

    rs.function("house.pawn-side-capture", gen)
    rs.add(Rule("house.pawn-side-capture", stage="generate", attacks=attacks)
           .when(P("movegen", color=V.c), P("piece", type="pawn", color=V.c).as_("p"))
           .then(Call("house.pawn-side-capture", V.p)))
    return rs


def test_a_mover_of_its_own_moves_attacks_and_counts_in_perft():
    rs = side_capture_rules()
    fen = "4k3/8/8/8/3nP3/8/8/4K3 w - - 0 1"
    g = Game(fen, ruleset=rs)
    assert set(g.legal_uci()) - set(Game(fen).legal_uci()) == {"e4d4"}
    # perft differs by exactly what the new captures add (checked by hand on a
    # board where only the side capture is new at depth 1)
    assert g.perft(1) == Game(fen).perft(1) + 1
    assert Game("8/8/8/8/4Pk2/8/8/4K3 b - - 0 1", ruleset=rs).is_check()


def test_a_mover_of_its_own_is_gated_by_its_die_in_dice_chess():
    import dice
    rs = side_capture_rules()
    d = "4k3/8/8/8/3nP3/8/8/4K3 w - - 0 1"
    assert "e4d4" in dice.legal_uci_moves(d + " P", ruleset=rs)
    assert "e4d4" not in dice.legal_uci_moves(d + " K", ruleset=rs)
    assert "no pawn die" in dice.explain_move(d + " K", "e4d4", ruleset=rs).text


def test_a_helper_given_the_request_instead_of_the_piece_is_refused_by_add():
    rs = fide_rules()
    before = dict(rs.productions)
    bad = (Rule("custom.bad", stage="generate")
           .when(P("movegen", color=V.c).as_("m"), P("piece", type="rook", color=V.c).as_("p"))
           .then(Call("gen-leap", V.m, "N")))
    with pytest.raises(RuleSetError, match=r"\?m is a movegen fact"):
        rs.add(bad)
    assert rs.productions == before


def test_a_helper_given_a_slot_value_instead_of_the_piece_is_refused_by_add():
    rs = fide_rules()
    bad = (Rule("custom.bad", stage="generate")
           .when(P("movegen", color=V.c), P("piece", type="rook", color=V.c, square=V.s))
           .then(Call("gen-leap", V.s, "N")))
    with pytest.raises(RuleSetError, match=r"\?s is a slot value, not a fact"):
        rs.add(bad)
    assert "custom.bad" not in rs.productions


def _knight_rule(stage="generate", first=V.p, spec="1,2 2,1 -1,2 -2,1 1,-2 2,-1 -1,-2 -2,-1",
                 fn="gen-leap"):
    return (Rule("fide.knight-move", stage=stage)
            .when(P("movegen", color=V.c), P("piece", type="knight", color=V.c).as_("p"))
            .then(Call(fn, first, spec)))


@pytest.mark.parametrize("rule, words", [
    # a mover outside generate: its moves would come after the check filter
    (_knight_rule(stage="filter"), "belongs in the generate stage, not 'filter'"),
    (_knight_rule(stage="apply"), "belongs in the generate stage, not 'apply'"),
    (_knight_rule(first="knight"), "its first argument is 'knight'"),
    (_knight_rule(spec=5), "its offsets are text"),
    (_knight_rule(fn="gen-slide", spec=("N", "E")), "its directions are text"),
])
def test_a_helper_in_the_wrong_stage_or_with_arguments_it_cannot_read_is_refused(rule, words):
    rs = fide_rules()
    before = dict(rs.productions)
    with pytest.raises(RuleSetError, match=words):
        rs.replace(rule)
    assert rs.productions == before


@pytest.mark.parametrize("args, stage, words", [
    ((V.c,), "filter", "drop-promotions takes 2 or 3 arguments"),
    ((V.c, "queen", "x", "y"), "filter", "drop-promotions takes 2 or 3 arguments"),
    ((V.c, "queen"), "apply", "drop-promotions runs in the filter stage"),
    # in generate it would run before the pawn movers (by salience) and drop nothing
    ((V.c, "queen"), "generate", "drop-promotions runs in the filter stage"),
    ((V.c, "Queen"), "filter", "no piece type 'Queen'"),
    (("green", "queen"), "filter", "the colour is white or black"),
])
def test_drop_promotions_is_checked_when_added(args, stage, words):
    rs = fide_rules()
    with pytest.raises(RuleSetError, match=words):
        rs.add(Rule("custom.no-queens", stage=stage).when(P("movegen", color=V.c))
               .then(Call("drop-promotions", *args)))
    assert "custom.no-queens" not in rs.productions


def test_a_stage_is_ordered_only_against_stages_the_rule_set_has():
    rs = fide_rules()
    with pytest.raises(RuleSetError, match="'nope', which is no stage"):
        rs.add_stage("mine", after=("nope",))
    with pytest.raises(RuleSetError, match="stage 'apply' already exists"):
        rs.add_stage("apply", after=("generate",))
    assert rs.extra_stages == []


def test_a_stage_named_as_text_is_that_stage_not_its_letters():
    # after="apply" was read letter by letter: "ordered against 'a'"
    rs = fide_rules()
    rs.add_stage("house.mine", after="apply", before="post-move")
    assert rs.extra_stages == [("house.mine", ("apply",), ("post-move",))]
    order = rs.stage_order()
    assert order[order.index("apply") + 1] == "house.mine"


def test_a_stage_that_would_close_a_cycle_is_refused_when_declared():
    # it was accepted, and every game made from the rule set then failed
    rs = fide_rules()
    with pytest.raises(RuleSetError, match="stage order has a cycle: .*result -> loop"):
        rs.add_stage("loop", after=("result",), before=("generate",))
    assert rs.extra_stages == []
    assert Game(ruleset=rs).legal_moves()


def _camel():
    return (Rule("fide.knight-move", stage="generate")
            .when(P("movegen", color=V.c), P("piece", type="knight", color=V.c).as_("p"))
            .then(Call("gen-leap", V.p, "1,3 3,1 -1,3 -3,1 1,-3 3,-1 -1,-3 -3,-1")))


def test_a_preset_that_would_undo_the_bases_own_rewrite_is_refused():
    # it used to overwrite the camel silently (and call 'custom' a preset when
    # the base had removed the production)
    import presets
    from presets.base import ConflictingPresetsError
    pid = "wrap-board"
    rs = fide_rules()
    rs.replace(_camel())
    with pytest.raises(ConflictingPresetsError, match="the base rule set's own rules"):
        presets.load(pid, base=rs)
    again = fide_rules()                 # removed, then written anew: the same
    again.remove("fide.knight-move")
    again.add(_camel())
    with pytest.raises(ConflictingPresetsError, match="the base rule set's own rules"):
        presets.load(pid, base=again)
    gone = fide_rules()
    gone.remove("fide.knight-move")
    with pytest.raises(ConflictingPresetsError, match=r"own rules \(custom\) removed"):
        presets.load(pid, base=gone)
    # the other order composes: the camel over the preset
    over = presets.load(pid)
    over.replace(_camel())
    assert "a1b4" in Game("4k3/8/8/8/8/8/8/N3K3 w - - 0 1", ruleset=over).legal_uci()


def test_knights_leap_twice_builds_on_the_bases_knight_and_its_attacks():
    # the preset keeps the base's knight (a camel here) and adds its double
    # leap; the camel's one-leap attacks stay (they used to become a knight's)
    import presets
    rs = fide_rules()
    rs.replace(_camel())
    both = presets.load("knights-leap-twice", base=rs)
    g = Game("4k3/8/8/8/8/8/8/N3K3 w - - 0 1", ruleset=both)
    assert {"a1b4", "a1d2"} <= set(g.legal_uci())             # camel leaps
    assert not {"a1b3", "a1c2"} & set(g.legal_uci())           # no knight leaps
    assert Game("8/8/8/8/1k6/8/8/N3K3 b - - 0 1", ruleset=both).is_check()      # camel: b4
    assert not Game("8/8/8/8/8/1k6/8/N3K3 b - - 0 1", ruleset=both).is_check()  # knight: b3


def test_a_pawn_a_helper_moves_to_the_last_rank_promotes():
    # a rule that lets a white pawn also capture straight ahead: on b8 it
    # promotes, as a FIDE pawn move does (it used to stay a pawn on rank 8)
    rs = fide_rules()
    rs.add(Rule("house.pawn-forward-capture", stage="generate")
           .when(P("movegen", color="white"),
                 Collect(P("piece", type="pawn", color="white")).as_("ps"))
           .then(Call("gen-leap", V.ps, "N")))
    g = Game.from_fen("1r2k3/1P6/8/8/8/8/8/4K3 w - - 0 1", ruleset=rs)
    legal = g.legal_uci()
    assert "b7b8" not in legal
    assert {"b7b8q", "b7b8r", "b7b8b", "b7b8n"} <= set(legal)
    assert g.explain("b7b8q").rule == "house.pawn-forward-capture"
    g.push("b7b8n")
    assert g.fen().startswith("1N2k3/")
    # the rule set's promotion types hold for the helper's moves too
    rs.config["promotion-types"] = ("queen",)
    g = Game.from_fen("1r2k3/1P6/8/8/8/8/8/4K3 w - - 0 1", ruleset=rs)
    assert [u for u in g.legal_uci() if u.startswith("b7b8")] == ["b7b8q"]


@pytest.mark.parametrize("color, types, words", [
    ("white", "king", r"not 'king' \(write \('king',\) for one\)"),
    ("black", None, "not None"),
    ("black", ("king", 1), r"not \('king', 1\)"),
    ("White", ("king",), "keyed by 'white' and 'black', not 'White'"),
])
def test_royalty_that_is_not_a_tuple_of_types_is_refused(color, types, words):
    # ("king") is the text 'king': its letters were made the royal types, and
    # a king left attacked was no longer in check
    rs = fide_rules()
    rs.royal_types[color] = types
    with pytest.raises(RuleSetError, match=words):
        Game("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", ruleset=rs)
    rs.royal_types.pop(color)
    rs.royal_types[color.lower()] = ("king",)
    assert Game("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", ruleset=rs).is_check()


def test_a_stage_declared_only_after_another_runs_right_after_it():
    # it sorted after 'result', outside the stages a move runs: its rules
    # never fired
    from rete import ModifyFact
    rs = fide_rules()
    rs.add_stage("house.after-apply", after=("apply",))
    rs.add(Rule("house.crown", stage="house.after-apply")
           .when(P("move", piece="pawn", to=V.t),
                 P("piece", type="pawn", square=V.t).as_("p"))
           .then(ModifyFact("p", type="queen")))
    g = Game(ruleset=rs)
    g.push("e2e4")
    assert g.piece_at("e4").values["type"] == "queen"
    order = rs.stage_order()
    assert order.index("house.after-apply") == order.index("apply") + 1
    rs.add_stage("house.last", after=("result",))
    assert rs.stage_order()[-1] == "house.last"


@pytest.mark.parametrize("what, words", [
    ("rule \"x\" stage generate when movegen() then end", r"not str \(rule text is loaded"),
    (None, "not NoneType"),
    (Rule, "not type"),
])
def test_add_and_replace_take_a_rule_and_say_so(what, words):
    # a bare AttributeError ("'str' object has no attribute 'meta'") reached the user
    rs = fide_rules()
    before = dict(rs.productions), list(rs.history)
    for edit in (rs.add, rs.replace):
        with pytest.raises(RuleSetError, match=words):
            edit(what)
    assert (rs.productions, rs.history) == before


@pytest.mark.parametrize("name, words", [
    (5, r"named by text, not 5 \(int\)"),
    (("house", "rule"), r"named by text, not \('house', 'rule'\) \(tuple\)"),
    ("  ", "name is empty"),
])
def test_a_rule_not_named_by_text_is_refused_by_add_and_replace(name, words):
    # Rule(5) was taken, and the number surfaced later as a rule no one could name
    rs = fide_rules()
    before = dict(rs.productions), list(rs.history)
    rule = Rule(name, stage="generate").when(P("movegen", color=V.c))
    for edit in (rs.add, rs.replace):
        with pytest.raises(RuleSetError, match=words):
            edit(rule)
    assert (rs.productions, rs.history) == before


def test_a_function_that_cannot_be_called_is_refused_when_registered():
    # it was accepted, and the first rule to call it failed in the middle of a move
    rs = fide_rules()
    with pytest.raises(RuleSetError, match="'house.f': 5 is not callable"):
        rs.function("house.f", 5)
    with pytest.raises(RuleSetError, match="under its name"):
        rs.function(print)
    assert "house.f" not in rs.functions

    @rs.function("house.g")
    def g(ctx):
        return None
    assert rs.functions["house.g"] is g


def _in_stage(name, stage):
    return lambda rs: rs.replace(rs.productions[name].replace(stage=stage))


def _filter_on_the_move(rs):
    rs.function("house.noop", lambda ctx, c: None)
    rs.add(Rule("house.after-move", stage="filter")
           .when(P("move", color=V.c)).then(Call("house.noop", V.c)))


@pytest.mark.parametrize("edit, words", [
    (_in_stage("fide.knight-move", "post-move"),
     "'movegen' request, which stands only while moves are generated .*'post-move'"),
    (_filter_on_the_move, "'move' request, which stands only while a move is played"),
    (_in_stage("fide.stalemate-draw", "post-move"),
     "'status' request, which stands only while the result is asked"),
])
def test_a_rule_in_a_stage_where_its_request_never_stands_is_refused(edit, words):
    # a mover moved to post-move was compiled and never fired: the knights
    # stopped moving, and explain said "no rule moves the knight"
    from rete.errors import CompileError
    rs = fide_rules()
    edit(rs)
    with pytest.raises(CompileError, match=words):
        Game(ruleset=rs)


def _slot(name):
    def edit(rs):
        rs.templates["piece"] = rs.templates["piece"].extended(name, defaults={name: 0})
    return edit


def _token(name):
    def edit(rs):
        rs.config.setdefault("position-tokens", {})[name] = (lambda v, pos: v, lambda g: "1")
    return edit


@pytest.mark.parametrize("edits, words", [
    ([_slot("half")], "piece attribute 'half' would be written as 'half:...'.* its own"),
    ([_token("moved")], "position token 'moved' .* its own"),
    ([_slot("charge"), _token("charge")], "position token 'charge' .* the piece attribute's"),
])
def test_a_key_the_extended_fen_reads_as_another_is_refused(edits, words):
    # the game wrote 'half:e4=1', then refused its own FEN ("this rule set plays
    # one move per turn")
    rs = fide_rules()
    for edit in edits:
        edit(rs)
    with pytest.raises(RuleSetError, match=words):
        Game(ruleset=rs)


def test_a_piece_attribute_of_its_own_reads_back_from_the_fen():
    from rete import ModifyFact
    rs = fide_rules()
    _slot("charge")(rs)
    rs.add(Rule("house.charge", stage="post-move")
           .when(P("move", to=V.t), P("piece", square=V.t, charge=0).as_("p"))
           .then(ModifyFact("p", charge=1)))
    g = Game(ruleset=rs)
    g.push("e2e4")
    assert g.fen().endswith(" charge:e4=1")
    assert Game(g.fen(), ruleset=rs).fen() == g.fen()


def test_a_setup_hook_gets_the_game_and_the_position_before_the_rules_run():
    # as RuleSet.setup_hooks and docs/rulesets.md describe it: fn(game, pos), and
    # what it asserts is there when the rules first run (a result rule sees it)
    from rete import Assert, Not, Template
    rs = fide_rules()
    rs.templates["flag"] = Template("flag", ("color",))
    calls = []

    def hook(game, pos):
        calls.append((game.ruleset is rs, pos.turn))
        game.session.assert_fact("flag", color=pos.turn)
    rs.setup_hooks.append(hook)
    rs.add(Rule("house.flag-wins", stage="result")
           .when(P("game"), P("flag", color=V.c), Not(P("result")))
           .then(Assert("result", winner=V.c, reason="flag")))
    g = Game("4k3/8/8/8/8/8/8/4K3 b - - 0 1", ruleset=rs)
    assert calls == [(False, "black")]          # the game's own copy of the rule set
    assert g.outcome().reason == "flag" and g.outcome().winner == "black"
