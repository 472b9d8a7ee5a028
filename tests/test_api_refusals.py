"""The public API's refusals as a demanding caller meets them: arguments of the
wrong kind given to the functions that compose rule sets, read PGN or roll the
dice are typed errors (a ChessError, with a message that names what was
wrong), never an AttributeError or TypeError from deep inside, and the object
asked is left as it was."""
from __future__ import annotations

import pytest

from chess_rules.errors import ArgumentError, NotARuleSetError
from chess_rules.fide import fide_rules

NOT_RULE_SETS = [None, 5, "piece-hp", ["piece-hp"]]


def _composers():
    import presets
    from chess_rules.rule_files import load_rule_file, load_rule_text
    from presets.modifiers import attach, attach_descriptor_file
    return {
        "load_rule_text": lambda rs: load_rule_text(rs, "remove fide.castling\n"),
        "load_rule_file": lambda rs: load_rule_file(rs, "examples/rules/kings_step_only.hr"),
        "attach": lambda rs: attach(rs, "berserker"),
        "attach_descriptor_file": lambda rs: attach_descriptor_file(rs, "berserker"),
        "presets.load(base=)": lambda rs: presets.load("piece-hp", base=rs),
    }


@pytest.mark.parametrize("name", sorted(_composers()))
@pytest.mark.parametrize("bad", NOT_RULE_SETS, ids=repr)
def test_a_function_that_edits_a_rule_set_refuses_what_is_none(name, bad):
    # Game, DiceGame and the Dice Chess functions say NotARuleSetError; so do
    # the functions that compose a rule set, which went on to call bad.copy()
    if bad is None and name == "presets.load(base=)":
        return      # (None is FIDE there, as for Game(ruleset=None))
    with pytest.raises(NotARuleSetError, match=r"must be a RuleSet.*not " + type(bad).__name__):
        _composers()[name](bad)


def test_the_composers_still_compose_a_rule_set():
    for name, compose in _composers().items():
        rs = fide_rules()
        before = dict(rs.productions)
        out = compose(rs)
        assert out is not rs and rs.productions == before, name


@pytest.mark.parametrize("text", [None, 5, b"remove fide.castling\n"], ids=repr)
def test_rule_text_that_is_no_text_is_refused(text):
    from chess_rules.rule_files import load_rule_text
    with pytest.raises(ArgumentError, match=f"rule text is a str, not {type(text).__name__}"):
        load_rule_text(fide_rules(), text)


@pytest.mark.parametrize("path", [None, 5, ["a.hr"]], ids=repr)
def test_a_rule_file_named_by_no_path_is_refused(path):
    from chess_rules.rule_files import load_rule_file
    with pytest.raises(ArgumentError, match="a rule file is named by its path"):
        load_rule_file(fide_rules(), path)


@pytest.mark.parametrize("spec", [None, 5, b"chess_rules.fide:fide_rules"], ids=repr)
def test_a_ruleset_spec_that_is_no_text_is_refused(spec):
    from chess_rules.ruleset_spec import RuleSetSpecError, load_ruleset_spec
    with pytest.raises(RuleSetSpecError, match="expected MODULE:NAME"):
        load_ruleset_spec(spec)


class _Source:
    """A random source of a caller's own that draws what it is told to."""

    def __init__(self, *faces):
        self.faces = list(faces)

    def randint(self, a, b):
        return self.faces.pop(0)


@pytest.mark.parametrize("face", [7, 0, -1, "3", None, 2.0, True], ids=repr)
def test_a_random_source_that_draws_no_face_is_refused_and_the_game_kept(face):
    # a face out of 1..6 reached the roll production as a KeyError in its action
    # (an ActionError, no ChessError), and 2.0 or True were kept as dice
    import dice
    from dice import DiceGame, RollError
    d = "8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1 -"
    g = DiceGame(d)
    with pytest.raises(RollError, match=rf"the random source drew {face!r}, not a whole "
                                        r"number from 1 to 6"):
        g.roll(_Source(1, face, 1))
    assert (g.dfen(), g.move_stack, g.dice()) == (d, [], [])
    g.roll(_Source(1, 2, 6))
    assert g.dfen() == "8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1 PNK"
    with pytest.raises(RollError, match="the random source drew"):
        dice.roll(d, _Source(face, 1, 1))
    assert dice.roll(d, _Source(3, 4, 5)) == "8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1 BRQ"


@pytest.mark.parametrize("name", [5, None, "", "  ", ("apply",)], ids=repr)
def test_a_stage_is_named_by_text(name):
    # 5, '' and a tuple were declared (and compiled: a stage 5 ran between apply
    # and post-move); None reached networkx, whose ValueError came out
    from chess_rules.ruleset import RuleSetError
    rs = fide_rules()
    with pytest.raises(RuleSetError, match="a stage is named by non-empty text"):
        rs.add_stage(name, after="apply")
    assert rs.stage_order() == fide_rules().stage_order() and rs.extra_stages == []


@pytest.mark.parametrize("order", [dict(after=5), dict(before=[None]), dict(after=["apply", 7])],
                         ids=repr)
def test_a_stage_is_ordered_against_stages_named_by_text(order):
    from chess_rules.ruleset import RuleSetError
    rs = fide_rules()
    with pytest.raises(RuleSetError, match="is ordered against"):
        rs.add_stage("house.stage", **order)
    assert rs.extra_stages == []
    rs.add_stage("house.stage", after="apply")
    assert rs.stage_order().index("house.stage") == rs.stage_order().index("apply") + 1


@pytest.mark.parametrize("name", [["fide.castling"], {"a": 1}], ids=repr)
def test_remove_names_a_production_by_text(name):
    # an unhashable name was a TypeError from the dict lookup
    from chess_rules.ruleset import RuleSetError
    rs = fide_rules()
    with pytest.raises(RuleSetError, match="no production named"):
        rs.remove(name)
    assert "fide.castling" in rs.productions


def test_a_pgn_source_may_be_a_path_and_is_named_in_the_error(tmp_path):
    # read_games(p.read_text(), p): the Path went into the message as
    # source + ':', a TypeError in place of the PGN error it was to report
    from chess_rules.errors import PgnMoveError, PgnSyntaxError
    from chess_rules.game import Game
    from chess_rules.pgn import read_games
    p = tmp_path / "g.pgn"
    with pytest.raises(PgnMoveError, match=r"g\.pgn:1:13: move 2\. Ke3"):
        Game.from_pgn("1. e4 e5 2. Ke3 *", source=p)
    with pytest.raises(PgnSyntaxError, match=r"g\.pgn:1:4: "):
        read_games("1. zf3 *", p)
    assert read_games("1. e4 *", p)[0].source == str(p)


@pytest.mark.parametrize("source", [5, b"g.pgn", ["g.pgn"]], ids=repr)
def test_a_pgn_source_that_names_no_file_is_refused(source):
    from chess_rules.game import Game
    from chess_rules.pgn import read_games
    for read in (lambda: read_games("1. e4 *", source),
                 lambda: Game.from_pgn("1. e4 e5 2. Ke3 *", source=source)):
        with pytest.raises(ArgumentError, match="source is the name of the text's file"):
            read()


def test_a_rule_text_source_may_be_a_path_and_is_named_in_the_error(tmp_path):
    # the same slip for rule text: a Path source became a TypeError as a syntax
    # error was being reported, from the chess layer and from the engine's own
    from rete import ReteError, Session
    from rete.language import load_rules, parse_rules
    from chess_rules.rule_files import load_rule_text
    p = tmp_path / "house.hr"
    for read in (lambda: load_rule_text(fide_rules(), "rule x", p),
                 lambda: parse_rules("rule x", p), lambda: load_rules(Session(), "rule x", p)):
        with pytest.raises(ReteError, match=r"house\.hr:1:7: ") as ei:
            read()
        assert ei.value.source == str(p)
    with pytest.raises(ArgumentError, match="source is the name of the text's file"):
        load_rule_text(fide_rules(), "rule x", 5)


LONG_NAME = "a" * 300       # more than a file name may hold (255 bytes)


def test_a_name_too_long_for_a_file_is_an_unknown_modifier():
    # Path.is_file() raises ENAMETOOLONG (it ignores only "no such file"), so the
    # gallery lookup came out as a raw OSError instead of the modifier's error
    from presets.modifiers import UnknownModifierError, attach, attach_descriptor_file
    for fn in (attach, attach_descriptor_file):
        with pytest.raises(UnknownModifierError, match="unknown modifier|cannot read"):
            fn(fide_rules(), LONG_NAME)


def test_a_ruleset_file_too_long_to_name_is_no_such_file():
    from chess_rules.ruleset_spec import RuleSetSpecError, load_ruleset_spec
    with pytest.raises(RuleSetSpecError, match="no such file"):
        load_ruleset_spec(LONG_NAME + ".py:build")


def test_a_scenario_path_too_long_to_name_is_a_failed_file(capsys):
    # houserules test: reported as a missing file is (one failure, status 1),
    # not as an error that stops the run with the raw [Errno 36]
    from houserules.scenarios import main
    assert main([LONG_NAME]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [f"ERROR {LONG_NAME}: no such file or directory", "0 passed, 1 failed"]


HUGE = 200_000


def _huge_inputs():
    import dice
    import presets
    from chess_rules.game import Game
    fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    dfen = "8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1 NPP"
    return {
        "FEN of many ranks": lambda: Game("8/" * HUGE),
        "FEN of one word": lambda: Game("x" * HUGE),
        "FEN with a long rank": lambda: Game("8" * HUGE + "/8/8/8/8/8/8/8 w - - 0 1"),
        "FEN with a long side": lambda: Game("8/8/8/8/8/8/8/8 " + "w" * HUGE + " - - 0 1"),
        "FEN with a long castling": lambda: Game("8/8/8/8/8/8/8/8 w " + "K" * HUGE + " - 0 1"),
        "FEN with a long en passant": lambda: Game("8/8/8/8/8/8/8/8 w - " + "e3" * HUGE + " 0 1"),
        "FEN with a long clock": lambda: Game("8/8/8/8/8/8/8/8 w - - x" + "0" * HUGE + " 1"),
        "FEN with many fields": lambda: Game(fen + " a:b" * HUGE),
        "FEN with a long token": lambda: Game(fen + " " + "x" * HUGE),
        "FEN with a long key": lambda: Game(fen + " " + "x" * HUGE + ":1"),
        "DFEN of many fields": lambda: dice.legal_uci_moves(dfen + " x" * HUGE),
        "DFEN with long dice": lambda: dice.legal_uci_moves(dfen[:-3] + "P" * HUGE),
        "a move": lambda: Game().push("e" * HUGE),
        "SAN": lambda: Game().push_san("e" * HUGE),
        "a micro-move": lambda: dice.apply_move(dfen, "e" * HUGE),
        "a preset": lambda: presets.load("p" * HUGE),
        "a layout": lambda: presets.get_layout("p" * HUGE),
        "a die of with_dice": lambda: dice.with_dice(dfen, ["x" * HUGE]),
        "a die of format_dfen": lambda: dice.format_dfen(dice.parse_dfen(dfen), ["x" * HUGE]),
        # an int past Python's digit limit has no repr (ValueError), so its
        # quotation was the error, and a raw one
        "a huge die face": lambda: dice.with_dice(dfen, [10 ** 5000]),
        "a huge die of format_dfen": lambda: dice.format_dfen(dice.parse_dfen(dfen), [10 ** 5000]),
        "a huge int as the dice": lambda: dice.format_dfen(dice.parse_dfen(dfen), 10 ** 5000),
        "a huge int as a move": lambda: Game().push(10 ** 5000),
        "a huge int as a micro-move": lambda: dice.apply_move(dfen, 10 ** 5000),
        "a huge draw of a random source": lambda: dice.roll(
            dfen[:-3] + "-", type("Source", (), {"randint": lambda self, a, b: 10 ** 5000})()),
    }


@pytest.mark.parametrize("name", sorted(_huge_inputs()))
def test_a_huge_input_is_refused_with_a_message_of_a_line(name):
    # every refusal quoted the text it was given whole: a megabyte of input
    # made a megabyte of error message (and of stderr on the command line)
    from chess_rules.errors import ChessError, FenError
    with pytest.raises(ChessError) as ei:
        _huge_inputs()[name]()
    text = str(ei.value)
    assert len(text) < 400 and (" characters)" in text or " bits" in text), text[:400]
    if isinstance(ei.value, FenError) and ei.value.fen is not None:
        assert len(ei.value.fen) >= HUGE       # the whole text is kept where it is asked for


def test_a_turn_tree_reads_the_moves_played_as_playable_dice_does():
    # TurnTree (in dice's __all__) walked a string's letters as micro-moves, so
    # tree.playable("c2c4") was None where dice.playable_dice(d, "c2c4") is [2],
    # and None or a number was a TypeError
    import dice
    from chess_rules.errors import MoveParseError
    d = "8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1 NPP"
    t = dice.turn_tree(d)
    assert t.playable("c2c4") == t.playable(["c2c4"]) == dice.playable_dice(d, "c2c4") == [2]
    assert t.node("c2c4 b3c5") == {} and list(t.paths("c2c4")) == [("c2c4", "b3c5")]
    assert t.node(["c2c4", "c4c5"]) is None
    for bad in (None, 5, [5]):
        with pytest.raises(MoveParseError, match="list of UCI strings"):
            t.node(bad)
        with pytest.raises(MoveParseError, match="list of UCI strings"):
            t.playable(bad)
        with pytest.raises(MoveParseError, match="list of UCI strings"):
            list(t.paths(bad))


@pytest.mark.parametrize("make", ["game", "dice"])
def test_a_game_refuses_pickling_saying_what_to_send_and_deep_copies_as_copy(make):
    # pickle.dumps(game) (a process pool's argument) was an AttributeError about
    # "movement_rules.<locals>.<lambda>"; the compiled rules hold functions
    import copy
    import pickle

    from chess_rules.errors import ChessError
    from chess_rules.game import Game
    from dice import DiceGame
    if make == "game":
        g = Game(presets=["piece-hp"])
        g.push("e2e4")
    else:
        g = DiceGame("8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1 -")
        g.roll(3)
    before = (g.fen(), [m.uci() for m in g.move_stack])
    with pytest.raises(ChessError, match=r"does not pickle.*fen\(\)") as ei:
        pickle.dumps(g)
    assert isinstance(ei.value, TypeError)
    d = copy.deepcopy(g)
    assert (d.fen(), [m.uci() for m in d.move_stack]) == before and d.session is not g.session
    if d.legal_moves():
        d.push(d.legal_moves()[0])
    assert (g.fen(), [m.uci() for m in g.move_stack]) == before


@pytest.mark.parametrize("bad", [None, 5, b"scenario \"x\"\n"], ids=repr)
def test_the_scenario_api_refuses_what_is_no_scenario(bad):
    # (docs/scenario-language.md, "From Python"): AttributeError and TypeError
    # from inside, where run_scenario's bad rule set is a NotARuleSetError
    from houserules.scenarios import parse_file, parse_text, run_scenario
    with pytest.raises(ArgumentError, match="scenario text is a str"):
        parse_text(bad)
    with pytest.raises(ArgumentError, match="a scenario file is named by its path"):
        parse_file(bad)
    with pytest.raises(ArgumentError, match=r"runs a Scenario \(parse_file or parse_text"):
        run_scenario(bad)
    with pytest.raises(ArgumentError, match=r"runs a Scenario"):
        run_scenario(parse_text('scenario "a"\n  expect count 20\n'))    # a list of them


@pytest.mark.parametrize("method", ["perft", "perft_divide"])
def test_a_perft_deeper_than_it_counts_is_refused_as_the_command_line_refuses_it(method):
    # Game.perft(1000) went down until Python's recursion gave out, then rebuilt
    # the game's session and raised a RecursionError; houserules perft refuses
    # a DEPTH over 100 before it starts, and so does the API now
    from chess_rules.game import MAX_PERFT_DEPTH, Game
    g = Game()
    g.push("e2e4")
    session = g.session
    with pytest.raises(ArgumentError, match=r"depth 1000 is more than this perft counts "
                                            r"\(at most 100\)"):
        getattr(g, method)(1000)
    assert g.session is session and g.fen().startswith("rnbqkbnr/pppppppp/8/8/4P3")
    assert MAX_PERFT_DEPTH == 100 and getattr(g, method)(1) in (20, {u: 1 for u in g.legal_uci()})
