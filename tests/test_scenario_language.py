"""The scenario language itself: parsing, every expectation kind passing and
failing, error positions, the CLI summary and exit status, the pytest plugin."""
from __future__ import annotations

import subprocess
import sys
import textwrap
import types
from pathlib import Path

import pytest

from houserules.scenarios import (ScenarioError, ScenarioFailure, main, parse_file, parse_text,
                                   run_scenario)

pytest_plugins = ["pytester"]

FILE = "t.hrt"


def scen(body: str, name: str = "s") -> str:
    """A one-scenario file with ``body`` indented under it."""
    return f'scenario "{name}"\n' + textwrap.indent(textwrap.dedent(body).strip("\n"), "  ") + "\n"


def run(text: str, file: str = FILE) -> None:
    for sc in parse_text(text, file):
        run_scenario(sc)


def fails(text: str, file: str = FILE) -> ScenarioFailure:
    with pytest.raises(ScenarioFailure) as ei:
        run(text, file)
    return ei.value


def error(text: str, file: str = FILE) -> ScenarioError:
    with pytest.raises(ScenarioError) as ei:
        run(text, file)
    return ei.value


# ---------------------------------------------------------------- parsing

DOC_EXAMPLE = """\
# Pawns that step backward never capture.
scenario "backward pawn cannot capture"
  presets pawns-move-backward
  fen 4k3/8/8/8/4P3/3p4/8/4K3 w - - 0 1
  expect illegal e4d3 by fide.pawn-capture
  expect legal e4e3
"""


def test_parse_the_documented_example():
    [sc] = parse_text(DOC_EXAMPLE, FILE)
    assert sc.name == "backward pawn cannot capture"
    assert (sc.file, sc.line) == (FILE, 2)
    assert [a.text for a in sc.setup.presets] == ["pawns-move-backward"]
    assert sc.setup.fen.text == "4k3/8/8/8/4P3/3p4/8/4K3 w - - 0 1"
    ill, leg = sc.expectations
    assert (ill.kind, [a.text for a in ill.args], ill.by.text) == ("illegal", ["e4d3"], "fide.pawn-capture")
    assert (ill.line, ill.column) == (5, 3)
    assert ill.args[0].loc.column == 18
    assert (leg.kind, leg.line, leg.by) == ("legal", 6, None)
    assert sc.steps == []


def test_the_documented_example_runs():
    run(DOC_EXAMPLE)


def test_a_runner_runs_without_run_scenario_giving_it_its_where_list():
    # the runner's record of the statements run was set only by run_scenario:
    # a GameRunner (or DiceRunner) run on its own raised AttributeError
    from houserules.scenarios.game_runner import GameRunner
    [sc] = parse_text(DOC_EXAMPLE, FILE)
    runner = GameRunner(sc)
    runner.run()
    assert runner.where == sc.body


def test_several_scenarios_comments_and_blank_lines():
    text = """
# a header comment

scenario "one"   # trailing comment
  # a comment line inside
  move e2e4 e7e5   # two moves

  expect turn white
scenario "two"
  move Nf3 Qxf7#
"""
    one, two = parse_text(text, FILE)
    assert (one.name, one.line, two.name, two.line) == ("one", 4, "two", 9)
    assert [(type(b).__name__, b.kind) for b in one.body] == [("Step", "move"), ("Expectation", "turn")]
    assert [a.text for a in one.steps[0].args] == ["e2e4", "e7e5"]
    # '#' inside a word is SAN's mate sign, not a comment
    assert [a.text for a in two.steps[0].args] == ["Nf3", "Qxf7#"]


def test_setup_statements_are_read_into_the_setup():
    text = scen("""
        presets piece-hp king-heals
        config monster-rules.scope=white extinction-chess.target_type=knight x.n=3 x.flag=true
        layout pawns-only
        place Qd4 ke8
        remove a2 h7
        rules my.hr
        modifier stunner on b2 c3
        modifier rage.json
    """)
    s = parse_text(text, FILE)[0].setup
    assert [a.text for a in s.presets] == ["piece-hp", "king-heals"]
    assert s.config == {"monster-rules": {"scope": "white"},
                        "extinction-chess": {"target_type": "knight"},
                        "x": {"n": 3, "flag": True}}
    assert s.layout.text == "pawns-only"
    assert [(l, q) for l, q, _ in s.place] == [("Q", "d4"), ("k", "e8")]
    assert [q for q, _ in s.remove] == ["a2", "h7"]
    assert [a.text for a in s.rules] == ["my.hr"]
    assert [(a.text, sq) for a, sq in s.modifiers] == [("stunner", ["b2", "c3"]), ("rage.json", [])]


def test_moves_from_accepts_the_colon_attached_or_apart():
    for text in ("expect moves from g1: g1f3 g1h3", "expect moves from g1 : g1f3 g1h3",
                 "expect moves from g1 :g1f3 g1h3"):
        [e] = parse_text(scen(text), FILE)[0].expectations
        assert e.kind == "moves-from" and e.square.text == "g1"
        assert [a.text for a in e.args] == ["g1f3", "g1h3"]
    run(scen("expect moves from g1: g1f3 g1h3"))


def test_place_and_remove_edit_the_position():
    run(scen("""
        layout pawns-only
        place Qd4 ra8
        remove a2 h7
        expect fen r3k3/ppppppp1/8/8/3Q4/8/1PPPPPPP/4K3 w - - 0 1
    """))


def test_the_examples_in_the_documentation_run():
    """Every fenced block of docs/scenario-language.md that holds scenarios parses and passes
    (positions reported as lines of the document)."""
    import re
    doc = Path(__file__).resolve().parents[1] / "docs" / "scenario-language.md"
    text = doc.read_text()
    ran = 0
    for m in re.finditer(r"```\n(.*?)```", text, re.S):
        if re.search(r'^scenario "', m.group(1), re.M):
            offset = text[:m.start(1)].count("\n")
            for sc in parse_text("\n" * offset + m.group(1), str(doc)):
                run_scenario(sc)
                ran += 1
    assert ran >= 6


# ---------------------------------------------------------------- every expectation, both ways

FOOLS_MATE = "move f2f3 e7e5 g2g4 d8h4"
STALEMATE = "fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
CORNER = "fen 6k1/8/8/8/8/8/8/K6R w - - 0 1"

# (name, body that passes, body that fails, fragments the failure report must contain)
KINDS = [
    ("legal", "expect legal e2e4 g1f3", "expect legal e2e4 e2e5",
     ["t.hrt:2:21", "expected: e2e5 is legal", "actual:   e2e5 is illegal",
      "explanation: e2e5: illegal - no rule moves the pawn on e2 to e5"]),
    ("illegal", "expect illegal e2e5 e1e2", "expect illegal e2e4",
     ["expected: e2e4 is illegal", "actual:   e2e4 is legal",
      "explanation: e2e4: legal - generated by fide.pawn-double-push"]),
    ("illegal-by", "fen 4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1\nexpect illegal e1g1 by fide.castling",
     "fen 4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1\nexpect illegal e1g1 by fide.check-resolution",
     ["expected: e1g1 refused by fide.check-resolution", "actual:   e1g1 refused by fide.castling",
      "explanation: e1g1: refused by fide.castling - f1 is attacked"]),
    ("illegal-because", "fen 4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1\n"
     'expect illegal e1g1 by fide.castling "f1 is attacked"',
     "fen 4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1\n"
     'expect illegal e1g1 "f1 is not empty"',
     ['expect illegal e1g1 "f1 is not empty"', 'expected: e1g1 refused with "f1 is not empty"',
      "actual:   e1g1: refused by fide.castling - f1 is attacked"]),
    ("moves", f"{CORNER}\nexpect moves a1a2 a1b1 a1b2 h1h2 h1h3 h1h4 h1h5 h1h6 h1h7 h1h8 "
              "h1g1 h1f1 h1e1 h1d1 h1c1 h1b1",
     f"{CORNER}\nexpect moves a1a2 a1b1 a1b2 a1a3",
     ["missing (illegal): a1a3", "unexpected (legal): h1b1", "explanation: a1a3: illegal"]),
    ("moves-none", f"{STALEMATE}\nexpect moves none", "expect moves none",
     ["expected: legal moves: none", "actual:   legal moves: a2a3"]),
    ("moves-from", "expect moves from g1: g1f3 g1h3", "expect moves from g1: g1f3 g1e2",
     ["expected: legal moves from g1: g1e2 g1f3", "unexpected (legal): g1h3",
      "explanation: g1e2: illegal - e2 holds white's own pawn"]),
    ("count", "expect count 20", "expect count 21", ["expected: 21 legal moves", "actual:   20 legal moves"]),
    ("fen", "move e2e4\nexpect fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
     "move e2e4\nexpect fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1",
     ["actual:   rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "after: e2e4"]),
    ("piece", "expect piece Ke1 qd8 Pe2", "expect piece Ke1 Qd8",
     ["t.hrt:2:20", "expected: Q on d8", "actual:   q on d8"]),
    ("empty", "expect empty e4 d5", "move e2e4\nexpect empty d5 e4",
     ["expected: e4 is empty", "actual:   P on e4"]),
    ("hp", "presets piece-hp\nexpect hp e2 2 \nexpect hp e1 1", "presets piece-hp\nexpect hp e1 2",
     ["expected: 2 hp on e1", "actual:   1 hp on e1"]),
    ("hp-without-preset", "presets piece-hp\nexpect hp d1 2", "expect hp d1 2",
     ["has no hp (is piece-hp active?)"]),
    ("ep", "move e2e4\nexpect ep e3", "move e2e4\nexpect ep none",
     ["expected: en-passant targets: none", "actual:   en-passant targets: e3"]),
    ("ep-none", "expect ep none", "expect ep e3", ["actual:   en-passant targets: none"]),
    ("check", f"{FOOLS_MATE}\nexpect check", "expect check",
     ["expected: white (to move) is in check", "actual:   white is not in check"]),
    ("not-check", "expect not check", f"{FOOLS_MATE}\nexpect not check", ["actual:   white is in check"]),
    ("checkmate", f"{FOOLS_MATE}\nexpect checkmate", f"{STALEMATE}\nexpect checkmate",
     ["expected: checkmate", "actual:   draw by stalemate"]),
    ("stalemate", f"{STALEMATE}\nexpect stalemate", f"{FOOLS_MATE}\nexpect stalemate",
     ["expected: stalemate", "actual:   black wins by checkmate (fide.checkmate-win)"]),
    ("winner", f"{FOOLS_MATE}\nexpect winner black", f"{FOOLS_MATE}\nexpect winner white",
     ["expected: white wins", "actual:   black wins by checkmate"]),
    ("winner-by", f"{FOOLS_MATE}\nexpect winner black by checkmate",
     f"{FOOLS_MATE}\nexpect winner black by resignation",
     ["expected: black wins by resignation", "actual:   black wins by checkmate"]),
    ("draw", f"{STALEMATE}\nexpect draw", "expect draw", ["expected: draw", "actual:   the game is not over"]),
    ("draw-by", f"{STALEMATE}\nexpect draw by stalemate", f"{STALEMATE}\nexpect draw by fifty-move",
     ["expected: draw by fifty-move", "actual:   draw by stalemate"]),
    ("ongoing", "expect ongoing", f"{FOOLS_MATE}\nexpect ongoing",
     ["expected: the game is not over", "actual:   black wins by checkmate"]),
    ("perft", "expect perft 2 400", "expect perft 2 401", ["expected: perft(2) = 401", "actual:   perft(2) = 400"]),
    ("turn", "move e2e4\nexpect turn black", "move e2e4\nexpect turn white",
     ["expected: white to move", "actual:   black to move"]),
    ("refused", "presets no-such-preset\nexpect refused UnknownPresetError",
     "presets pawns-move-backward\nexpect refused UnknownPresetError",
     ["expected: the setup refused with UnknownPresetError", "actual:   the setup was accepted"]),
    ("refused-kind", "fen 8/8/8 w - - 0 1\nexpect refused FenError",
     "fen 8/8/8 w - - 0 1\nexpect refused UnknownPresetError",
     ["actual:   refused with FenError: bad FEN (placement)"]),
]


@pytest.mark.parametrize("name,good,bad,fragments", KINDS, ids=[k[0] for k in KINDS])
def test_expectation_passes_and_fails(name, good, bad, fragments):
    run(scen(good))
    f = fails(scen(bad))
    report = f.report()
    for frag in fragments:
        assert frag in report, f"{frag!r} not in\n{report}"
    assert report.startswith("t.hrt:")


def test_illegal_by_a_rule_the_explanation_names():
    # never generated: no production refused e4d3 by name, the explanation lists the pawn rules
    run(DOC_EXAMPLE)
    f = fails(DOC_EXAMPLE.replace("by fide.pawn-capture", "by fide.castling"))
    assert "the explanation does not name fide.castling" in f.actual
    # a prefix of a rule name is not a name
    f = fails(DOC_EXAMPLE.replace("by fide.pawn-capture", "by fide.pawn"))
    assert "does not name fide.pawn" in f.actual


def test_every_expectation_kind_is_covered():
    """Every kind the grammar knows has a passing and a failing case here (or in the dice tests)."""
    grammar = Path("houserules/scenarios/scenario.lark")
    kinds = {ln.split(":")[0][4:].replace("_", "-")
             for ln in grammar.read_text().splitlines() if ln.startswith("exp_")}
    covered = {k[0].split("-by")[0].split("-because")[0].replace("-none", "").replace("-without-preset", "")
               .replace("-kind", "") for k in KINDS} | {"dice", "tree", "playable"}
    assert kinds <= covered, kinds - covered


def test_refused_setup_matches_a_base_class_name():
    run(scen("presets no-such-preset\nexpect refused PresetError"))
    run(scen("presets no-such-preset\nexpect refused ChessError"))


def test_a_failing_move_step_reports_the_explanation():
    f = fails(scen("move e2e4 e7e5\nmove e1e3"))
    assert str(f.loc) == "t.hrt:3:8"
    assert "expected: e1e3 can be played" in f.report()
    assert "explanation: e1e3: illegal - no rule moves the king on e1 to e3" in f.report()
    assert "after: e2e4, e7e5" in f.report()


def test_scenario_text_may_start_with_a_byte_order_mark():
    # as a file read with parse_file: the mark (kept by open(path).read()) is no
    # text, not an "expected 'scenario \"name\"' before '\ufeffscenario'"
    [sc] = parse_text("\ufeffscenario \"a\"\n  expect count 20\n", "t.hrt")
    assert (sc.name, sc.line, sc.column) == ("a", 1, 1)
    e = error("\ufeffscenario \"a\"\n  expect cont 20\n")
    assert (e.line, e.column) == (2, 10)


def test_a_bad_san_move_fails_at_its_column():
    f = fails(scen("move e4 Nf4"))
    assert (f.loc.line, f.loc.column) == (2, 11)
    assert "no legal move matches" in f.actual


def test_undo_takes_back_and_fails_with_nothing_to_undo():
    run(scen("move e2e4\nundo\nexpect fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"))
    f = fails(scen("undo"))
    assert "no move to take back" in f.actual


def test_expectations_are_checked_where_they_stand():
    # the same expectation passes before a move and fails after it
    f = fails(scen("expect turn white\nmove e2e4\nexpect turn white"))
    assert f.loc.line == 4


# ---------------------------------------------------------------- dice scenarios

START_DFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 -"
KINGS_DFEN = "4k3/8/8/8/8/8/8/4K3 w - - 0 1 K"


def test_dice_steps_and_expectations():
    run(scen(f"""
        dfen {START_DFEN}
        expect dice none
        roll 1 1 2
        expect dice 1 1 2
        expect playable 1 1 2
        expect legal e2e4 g1f3
        expect illegal f1c4 "cannot pass the pawn on e2"
        move e2e4
        expect dice 1 2
        expect illegal f1c4 by dice.die-filter "no bishop die"
        expect playable 1 2
        move d2d4 g1f3
        expect dice none
        expect moves none
        expect playable none
        end turn
        expect turn black
        expect fen rnbqkbnr/pppppppp/8/8/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq d3e3 1 1 -
        undo
        expect turn white
    """))


def test_dice_tree_and_count():
    run(scen(f"""
        dfen {KINGS_DFEN}
        expect tree {{"e1d1": {{}}, "e1d2": {{}}, "e1e2": {{}}, "e1f1": {{}}, "e1f2": {{}}}}
        expect count 5
        expect piece Ke1 ke8
        expect ongoing
    """))


@pytest.mark.parametrize("bad,fragments", [
    ("expect dice 6 6", ["expected: dice left: 6 6", "actual:   dice left: 6"]),
    ('expect tree {"e1d1": {}}', ['expected: {"e1d1": {}}', '"e1f2": {}']),
    ("expect playable 1", ["expected: playable dice: 1", "actual:   playable dice: 6"]),
    ("expect playable null", ["expected: playable dice: null"]),
    ("expect moves e1d1", ["unexpected (legal): e1d2 e1e2 e1f1 e1f2"]),
    ("expect legal e1e3", ["e1e3 is illegal", "explanation: e1e3: "]),
    ("expect illegal e1d1", ["e1d1 is legal"]),
    ("expect fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 Q", ["actual:   4k3/8/8/8/8/8/8/4K3 w - - 0 1 K"]),
    ("end turn", ["expected: the turn can end", "a legal micro-move is left"]),
    ("roll 1 2 3", ["expected: no dice left before the roll"]),
    ("move e1e3", ["expected: e1e3 can be played", "refused:"]),
])
def test_dice_expectations_fail(bad, fragments):
    report = fails(scen(f"dfen {KINGS_DFEN}\n{bad}")).report()
    for frag in fragments:
        assert frag in report, f"{frag!r} not in\n{report}"


def test_dice_scenario_over_presets_and_bad_dfen():
    # Dice Chess over a preset: its state rides in the DFEN's tokens
    run(scen(f"presets piece-hp\ndfen {KINGS_DFEN}\nexpect count 5\nmove e1e2\n"
             "expect fen 4k3/8/8/8/8/8/4K3/8 w - - 1 1 -"))
    run(scen("presets piece-hp\ndfen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 P hp:e2=2\nmove e2e3\n"
             "expect fen 4k3/8/8/8/8/4P3/8/4K3 w - - 0 1 - hp:e3=2"))
    e = error(scen(f"presets no-such-preset\ndfen {KINGS_DFEN}\nexpect count 5"))
    assert (e.line, e.column) == (2, 11) and "no-such-preset" in e.message
    e = error(scen("dfen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 K hp:e1=2\nexpect count 5"))
    assert "hp" in e.message                      # no hp without piece-hp
    e = error(scen("dfen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 KKKK\nexpect count 5"))
    assert (e.line, e.column) == (2, 8) and "DfenError" in e.message
    run(scen("dfen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 KKKK\nexpect refused DfenError"))


def test_rolling_four_dice_is_an_error_at_the_roll():
    e = error(scen("dfen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 -\nroll 1 2 3 4"))
    assert (e.line, e.column) == (3, 3) and "cannot roll 1 2 3 4" in e.message


def test_dice_steps_need_a_dice_scenario():
    e = error(scen("end turn"))
    assert (e.line, e.column) == (2, 3) and "Dice Chess" in e.message
    e = error(scen("roll 1 2 3"))
    assert "give the position with 'dfen'" in e.message
    e = error(scen("expect dice none"))
    assert "cannot be checked in a chess scenario" in e.message


# ---------------------------------------------------------------- error positions

SYNTAX = [
    ('scenario "a"\n  frobnicate e4\n', 2, 3, "unknown statement 'frobnicate'"),
    ('scenario "a"\n  moves e2e4\n', 2, 3, "unknown statement 'moves'"),
    ('scenario "a"\n  expect foo e4\n', 2, 10, "unknown expectation 'expect foo'"),
    ('scenario "a"\n  expect checkmates\n', 2, 10, "unknown expectation 'checkmates'"),
    ('move e2e4\n', 1, 1, "expected 'scenario \"name\"'"),
    ('scenario "a"\n  expect empty e9\n', 2, 16, "bad square 'e9'"),
    ('scenario "a"\n  remove d4 i1\n', 2, 13, "bad square 'i1'"),
    ('scenario "a"\n  expect legal e2e9\n', 2, 16, "bad UCI move 'e2e9'"),
    # a move step reads UCI or SAN: a word that is neither is refused when the
    # file is read, as the documentation says, not failed when the scenario runs
    ('scenario "a"\n  move e2e4 e2e9\n', 2, 13, "bad move 'e2e9'"),
    ('scenario "a"\n  move z9\n', 2, 8, "bad move 'z9'"),
    ('scenario "a"\n  move Nf3 Nf3Q+x\n', 2, 12, "bad move 'Nf3Q+x'"),
    ('scenario "a"\n  place Qd4 Xd4\n', 2, 13, "bad piece placement 'Xd4'"),
    ('scenario "a"\n  place Qd9\n', 2, 10, "bad square 'd9'"),
    ('scenario "a"\n  expect legal\n', 2, 15, "incomplete"),
    ('scenario "a"\n  expect check now\n', 2, 16, "unexpected 'now'"),
    ('scenario "a"\n  expect count many\n', 2, 16, "bad move count 'many'"),
    ('scenario "a"\n  roll 1 7\n', 2, 10, "bad die face '7'"),
    ('scenario "a"\n  expect turn red\n', 2, 15, "bad colour 'red'"),
    ('scenario "a"\n  config scope\n', 2, 10, "bad config 'scope'"),
    ('scenario "a"\n  expect tree {oops\n', 2, 15, "bad JSON"),
    # JSON too deep for the reader: an error at the word, not "cannot read this
    # statement: RecursionError(...)" at the line (the reader's depth is CPython's
    # C recursion limit: about 1000 on 3.11, 1500 on 3.12, 10000 on 3.13)
    ('scenario "a"\n  config a.b=' + "[" * 100000 + "]" * 100000 + '\n', 2, 10,
     "bad config value for a.b: JSON nested too deeply"),
    ('scenario "a"\n  move e2e4\n  fen 8/8/8/8/8/8/8/8 w - - 0 1\n', 3, 3, "'fen' is a setup statement"),
    ('scenario "a"\n  fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1\n  layout standard\n', 3, 3, "either 'fen' or 'layout'"),
    ('scenario "a"\n\nscenario "a"\n', 3, 1, "used twice"),
    ('scenario ""\n', 1, 10, "non-empty name"),
    ('scenario "a"\n  mark very-slow\n', 2, 8, "bad mark 'very-slow'"),
    ('scenario "a\\q"\n', 1, 10, "bad escape"),
]


@pytest.mark.parametrize("text,line,column,fragment", SYNTAX, ids=[s[3] for s in SYNTAX])
def test_syntax_errors_point_at_line_and_column(text, line, column, fragment):
    with pytest.raises(ScenarioError) as ei:
        parse_text(text, "bad.hrt")
    e = ei.value
    assert (e.file, e.line, e.column) == ("bad.hrt", line, column), str(e)
    assert fragment in e.message
    assert str(e).startswith(f"bad.hrt:{line}:{column}: ")


SEMANTIC = [
    ("presets pawns-move-backward no-such-preset\nexpect count 1", 2, 31, "unknown preset 'no-such-preset'"),
    ("fen 8/8/8 w - - 0 1\nexpect count 1", 2, 7, "FenError: bad FEN (placement)"),
    ("fen 4k3/8/8/8/8/8/8/4K3 x - - 0 1\nexpect count 1", 2, 7, "bad FEN"),
    ("layout nope\nexpect count 1", 2, 10, "unknown layout 'nope'"),
    ("presets pawns-move-backward\nconfig pawns-move-backward.bogus=1\nexpect count 1", 3, 10,
     "PresetConfigError"),
    ("presets pawns-move-backward\nconfig pawns-move-backward.scope=white piece-hp.x=1\nexpect count 1",
     3, 42, "PresetConfigError: configuration given for 'piece-hp'"),
    ("expect count 20\nexpect refused FenError", 3, 3, "must be the only statement"),
]


@pytest.mark.parametrize("body,line,column,fragment", SEMANTIC, ids=[s[3] for s in SEMANTIC])
def test_setup_errors_point_at_line_and_column(body, line, column, fragment):
    e = error(scen(body))
    assert (e.file, e.line, e.column) == (FILE, line, column), str(e)
    assert fragment in e.message


def test_parse_file_reports_a_missing_file(tmp_path):
    with pytest.raises(ScenarioError) as ei:
        parse_file(tmp_path / "nope.hrt")
    assert "cannot read scenario file" in str(ei.value)


def test_a_hanging_scenario_times_out_at_its_statement():
    run(scen("expect count 20"))            # imports and caches warm: the setup is quick
    [sc] = parse_text(scen("move e2e4\nexpect perft 6 1"), FILE)
    with pytest.raises(ScenarioError) as ei:
        run_scenario(sc, timeout=3)
    assert (ei.value.line, ei.value.column) == (3, 3)
    assert "timed out" in ei.value.message


# ---------------------------------------------------------------- rules and modifiers (contracts)

def test_rules_and_modifier_call_their_apis(tmp_path, monkeypatch):
    calls = []

    def load_rule_file(ruleset, path):
        calls.append(("rules", Path(path)))
        return ruleset

    def attach(ruleset, name, squares=None, base_dir=None):
        calls.append(("modifier", name, squares, Path(base_dir)))
        return ruleset

    monkeypatch.setitem(sys.modules, "chess_rules.rule_files",
                        types.SimpleNamespace(load_rule_file=load_rule_file))
    monkeypatch.setitem(sys.modules, "presets.modifiers", types.SimpleNamespace(attach=attach))
    f = tmp_path / "sub" / "x.hrt"
    f.parent.mkdir()
    f.write_text(scen("rules my.hr\nmodifier stunner on b2 c3\nmodifier rage.json\nexpect count 20"))
    for sc in parse_file(f):
        run_scenario(sc)
    assert calls == [("rules", f.parent / "my.hr"),
                     ("modifier", "stunner", ["b2", "c3"], f.parent),
                     ("modifier", "rage.json", None, f.parent)]


def test_a_refused_rule_file_points_at_the_rules_statement(tmp_path, monkeypatch):
    class RuleSyntaxError(ValueError):
        pass

    def load_rule_file(ruleset, path):
        raise RuleSyntaxError(f"{Path(path).name}:3:1: unexpected 'when'")

    monkeypatch.setitem(sys.modules, "chess_rules.rule_files",
                        types.SimpleNamespace(load_rule_file=load_rule_file))
    e = error(scen("fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1\nrules broken.hr\nexpect count 1"))
    assert (e.line, e.column) == (3, 9)
    assert "RuleSyntaxError: broken.hr:3:1" in e.message
    run(scen("rules broken.hr\nexpect refused RuleSyntaxError"))


def test_a_real_rule_file_with_a_syntax_error(tmp_path):
    (tmp_path / "bad.hr").write_text("this is not a rule\n")
    f = tmp_path / "r.hrt"
    f.write_text(scen("rules bad.hr\nexpect count 20") + scen("rules bad.hr\nexpect refused RuleSyntaxError", "r")
                 + scen("rules nope.hr\nexpect count 20", "missing"))
    bad, refused, missing = parse_file(f)
    with pytest.raises(ScenarioError) as ei:
        run_scenario(bad)
    assert (ei.value.line, ei.value.column) == (2, 9)
    assert f"RuleSyntaxError: {tmp_path / 'bad.hr'}:1:1" in ei.value.message
    run_scenario(refused)
    with pytest.raises(ScenarioError) as ei:
        run_scenario(missing)
    assert (ei.value.line, ei.value.column) == (8, 9) and "cannot read rule file" in ei.value.message


def test_a_real_modifier_by_gallery_name():
    run(scen("modifier stunner on e1\nexpect count 20"))
    e = error(scen("modifier no-such-recipe on e1\nexpect count 20"))
    assert (e.line, e.column) == (2, 12) and "unknown modifier 'no-such-recipe'" in e.message


# ---------------------------------------------------------------- the CLI

PASSING = scen("expect count 20", "passes") + scen("move e2e4\nexpect turn black", "passes too")
FAILING = scen("expect count 21", "fails")


def test_main_prints_one_line_per_scenario_and_the_summary(tmp_path, capsys):
    (tmp_path / "a.hrt").write_text(PASSING)
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "b.hrt").write_text(FAILING)
    (tmp_path / "d" / "notes.txt").write_text("not a scenario file")
    assert main([tmp_path]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "2 passed, 1 failed"
    assert out[0].startswith(f"ok   {tmp_path / 'a.hrt'}:1 passes")
    assert out[1].startswith(f"ok   {tmp_path / 'a.hrt'}:3 passes too")
    assert out[2] == f"FAIL {tmp_path / 'd' / 'b.hrt'}:1 fails"
    assert any("expected: 21 legal moves" in ln for ln in out)


def test_main_exit_zero_when_all_pass(tmp_path, capsys):
    (tmp_path / "a.hrt").write_text(PASSING)
    assert main([tmp_path / "a.hrt"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "2 passed, 0 failed"


def test_main_counts_an_unreadable_file_as_a_failure(tmp_path, capsys):
    (tmp_path / "bad.hrt").write_text('scenario "x"\n  frobnicate\n')
    assert main([tmp_path / "bad.hrt", tmp_path / "missing.hrt"]) == 1
    out = capsys.readouterr().out
    assert f"ERROR {tmp_path / 'bad.hrt'}:2:3: unknown statement 'frobnicate'" in out
    assert out.splitlines()[-1] == "0 passed, 2 failed"


def test_main_counts_a_file_that_is_not_utf8_as_a_failure_and_runs_the_rest(tmp_path, capsys):
    (tmp_path / "a_bad.hrt").write_bytes(b'scenario "x"\n  fen \xff\n')
    (tmp_path / "b_good.hrt").write_text(PASSING)
    assert main([tmp_path]) == 1
    out = capsys.readouterr().out
    assert f"cannot read scenario file '{tmp_path / 'a_bad.hrt'}': not UTF-8 text" in out
    assert out.splitlines()[-1] == "2 passed, 1 failed"


def test_houserules_test_command(tmp_path):
    (tmp_path / "a.hrt").write_text(PASSING + FAILING)
    exe = Path(sys.executable).with_name("houserules")
    r = subprocess.run([str(exe), "test", str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 1, r.stderr
    assert r.stdout.splitlines()[-1] == "2 passed, 1 failed"
    (tmp_path / "a.hrt").write_text(PASSING)
    r = subprocess.run([str(exe), "test", str(tmp_path / "a.hrt")], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0 and r.stdout.splitlines()[-1] == "2 passed, 0 failed"


# ---------------------------------------------------------------- the pytest plugin

def test_pytest_plugin_makes_each_scenario_an_item(pytester):
    pytester.makefile(".hrt", rules=PASSING + FAILING.replace(
        "expect count 21", "move e2e4 e7e5\n  expect legal e1g1"))
    result = pytester.runpytest("-p", "no:cacheprovider", "-q", "-o", "addopts=")
    result.assert_outcomes(passed=2, failed=1)
    out = result.stdout.str()
    assert "scenario 'fails'" in out
    assert "rules.hrt:8:16: expect legal e1g1" in out and "expect legal e1g1" in out
    assert "expected: e1g1 is legal" in out
    assert "explanation: e1g1: refused by fide.castling - f1 is not empty" in out


def test_pytest_plugin_applies_marks(pytester):
    pytester.makefile(".hrt", marked=scen("mark slow\nexpect count 20", "deep") + scen("expect count 20", "quick"))
    result = pytester.runpytest("-p", "no:cacheprovider", "-q", "-o", "addopts=", "-m", "not slow")
    result.assert_outcomes(passed=1, deselected=1)


def test_pytest_plugin_reports_a_syntax_error_with_its_position(pytester):
    pytester.makefile(".hrt", broken='scenario "x"\n  expect nonsense\n')
    result = pytester.runpytest("-p", "no:cacheprovider", "-q", "-o", "addopts=")
    result.assert_outcomes(errors=1)
    assert "broken.hrt:2:10: unknown expectation 'expect nonsense'" in result.stdout.str()


# ---------------------------------------------------------------- robustness

from hypothesis import given, settings, strategies as st  # noqa: E402

WORDS = ["scenario", '"x"', '"y"', '"\\q"', '"\\"b"', "expect", "legal", "illegal", "by", "moves", "from", "move",
         "e2e4", "e4", "e9", "Qd4", "none", "null", "fen", "dfen", "8/8/8", "#", "# c", ":",
         "end", "turn", "roll", "1", "7", "not", "check", "checkmate", "tree", "{", "}",
         "place", "remove", "presets", "config", "a.b=1", "hp", "perft", "count", "undo", "  "]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(st.sampled_from(WORDS), max_size=6), max_size=6))
def test_any_text_parses_or_raises_a_located_scenario_error(lines):
    text = "\n".join(" ".join(ws) for ws in lines)
    try:
        parse_text(text, "fuzz.hrt")
    except ScenarioError as e:
        assert e.file == "fuzz.hrt" and e.line is not None and e.line >= 1
        assert e.column is not None and e.column >= 1


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from('scenario "x"\n expect legal e2e4 #:{}\t\r\\'), max_size=60))
def test_any_characters_parse_or_raise_a_located_scenario_error(text):
    try:
        parse_text('scenario "s"\n' + text, "fuzz.hrt")
    except ScenarioError as e:
        assert e.file == "fuzz.hrt" and e.line is not None and e.line >= 1


# ---------------------------------------------------------------- found by a bug hunt

def test_illegal_by_a_word_of_the_explanation_that_is_no_rule_fails():
    # "e2e5: illegal - no rule moves the pawn on e2 to e5 (rules for the pawn: ...)"
    for word in ("the", "pawn", "e2e5", "no", "rules", "illegal"):
        f = fails(scen(f"expect illegal e2e5 by {word}"))
        assert f"does not name {word}" in f.actual
    run(scen("expect illegal e2e5 by fide.pawn-double-push"))
    # and in a dice scenario
    d = "dfen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PBR"
    for word in ("pawn", "illegal", "move"):
        fails(scen(f"{d}\nexpect illegal e2e5 by {word}"))
    run(scen(f"{d}\nexpect illegal e2e5 by fide.pawn-capture"))
    run(scen(f"{d}\nexpect illegal c2c3 by dice.maximum-micro-moves"))


def test_dice_winner_by_compares_the_reason():
    body = "dfen 4k3/8/8/8/8/8/4R3/4K3 w - - 0 1 R\nmove e2e8\n"
    run(scen(body + "expect winner white by king-captured"))
    f = fails(scen(body + "expect winner white by stalemate"))
    assert "white wins by king captured" in f.actual
    fails(scen(body + "expect winner black"))


@pytest.mark.parametrize("what", ["check", "not check"])
def test_dice_chess_has_no_check_to_expect(what):
    e = error(scen(f"dfen 4k3/8/8/8/8/8/8/r3K3 w - - 0 1 KPP\nexpect {what}"))
    assert "cannot be checked in a dice scenario" in str(e)


@pytest.mark.parametrize("number", ["²", "٣", "9" * 5000])
def test_a_number_is_ascii_digits_of_a_sane_length(number):
    with pytest.raises(ScenarioError) as ei:
        parse_text(scen(f"expect count {number}"), FILE)
    assert (ei.value.line, ei.value.column) == (2, 16)
    assert "bad move count" in str(ei.value) and len(str(ei.value)) < 200


def test_a_tree_nested_past_the_json_reader_is_a_scenario_error():
    with pytest.raises(ScenarioError, match="bad JSON for 'expect tree'"):
        parse_text(scen(f"dfen {KINGS_DFEN}\nexpect tree {'[' * 100000}{']' * 100000}"), FILE)


def test_a_hash_glued_to_a_word_is_no_comment():
    with pytest.raises(ScenarioError, match="a '#' starts a comment only where a word would"):
        parse_text(scen("move f2f3 e7e5 g2g4 d8h4\nexpect checkmate#typo"), FILE)
    # after a space it is one, after a FEN too
    run(scen("fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 # the kings\nexpect turn white # and so"))


@pytest.mark.parametrize("space, name", [("\u00a0", "NO-BREAK SPACE"), ("\x0b", r"U\+000B")])
def test_a_space_that_is_not_one_is_named(space, name):
    with pytest.raises(ScenarioError, match=name) as ei:
        parse_text(scen(f"move{space}e2e4"), FILE)
    assert ei.value.line == 2


def test_place_and_remove_apply_in_the_order_written():
    run(scen("fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1\nplace Qd4\nremove d4\nexpect empty d4"))
    run(scen("fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1\nremove d4\nplace Qd4\nexpect piece Qd4"))


def test_a_bad_fen_with_place_is_the_fen_error_refused_expects():
    run(scen("fen not-a-fen\nplace Qd4\nexpect refused FenError"))


def test_the_timeout_setting_takes_no_limit_and_tiny_limits(monkeypatch):
    from houserules.scenarios.runner import scenario_timeout
    for raw, want in (("inf", 0.0), ("0", 0.0), ("-3", 0.0), ("nan", 0.0), ("2.5", 2.5)):
        monkeypatch.setenv("HOUSERULES_SCENARIO_TIMEOUT", raw)
        assert scenario_timeout() == want
    [sc] = parse_text(scen("expect count 20"), FILE)
    with pytest.raises(ScenarioError, match="timed out"):
        run_scenario(sc, timeout=1e-6)


def test_a_scenario_name_with_a_lone_surrogate_is_refused():
    with pytest.raises(ScenarioError, match="lone surrogate"):
        parse_text('scenario "a\\ud800"\n  expect count 20\n', FILE)


# ---------------------------------------------------------------- found by a second bug hunt

RAISING_TEST = """\
# a rule whose test raises when it is matched (?c is a colour, not a number)
rule "custom.bad-test" stage generate
when
  movegen(color: ?c)
  test ?c > 3
  ?p <- piece(type: rook, color: ?c)
then
  call gen-leap(?p, "NE")
end
"""

RAISING_ACTION = """\
# a rule whose action raises once a pawn has moved
rule "custom.bad-action" stage post-move
when
  ?p <- piece(type: pawn, square: ?s, moved: true)
then
  modify ?p (square: add(?s, "x"))
end
"""


@pytest.fixture
def raising_rules(tmp_path):
    (tmp_path / "typeerr.hr").write_text(RAISING_TEST, encoding="utf-8")
    (tmp_path / "acterr.hr").write_text(RAISING_ACTION, encoding="utf-8")
    return tmp_path


@pytest.mark.pure_python
def test_a_rule_that_raises_while_a_statement_runs_is_an_error_at_the_statement(raising_rules):
    f = str(raising_rules / "t.hrt")
    e = error(scen("rules typeerr.hr\nfen r3k3/8/8/8/8/8/8/R3K3 w - - 0 1\nexpect count 20",
                   "runtime error in a rule"), f)
    assert (e.file, e.line, e.column) == (f, 4, 3), str(e)
    # the rule's own position stays in the message
    assert e.message.startswith(f"MatchError: {raising_rules / 'typeerr.hr'}:5:11: ")
    # an action that raises, in a move (at the move played) and in an expectation
    e = error(scen("rules acterr.hr\nmove e2e4 e7e5", "in a move"), f)
    assert (e.line, e.column) == (3, 8) and e.message.startswith("ActionError: ")
    assert f"{raising_rules / 'acterr.hr'}:6:3: rule 'custom.bad-action'" in e.message
    e = error(scen("rules acterr.hr\nfen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\nexpect count 6\n"
                   "expect perft 2 20", "in an expectation"), f)
    assert (e.line, e.column) == (5, 3) and e.message.startswith("ActionError: ")
    # in a dice scenario too
    e = error(scen("rules acterr.hr\ndfen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 PKK\nmove e2e3",
                   "in a dice move"), f)
    assert (e.line, e.column) == (4, 8) and "ActionError" in e.message


def test_a_rule_that_raises_is_expected_with_expect_refused(raising_rules):
    f = str(raising_rules / "t.hrt")
    run(scen("rules typeerr.hr\nfen r3k3/8/8/8/8/8/8/R3K3 w - - 0 1\nexpect refused MatchError"), f)
    run(scen("rules typeerr.hr\nexpect refused ReteError"), f)
    report = fails(scen("rules typeerr.hr\nexpect refused FenError"), f).report()
    assert "actual:   refused with MatchError: " in report


@pytest.mark.pure_python
def test_houserules_test_and_pytest_locate_a_raising_rule(raising_rules, capsys, pytester):
    (raising_rules / "t.hrt").write_text(
        scen("rules typeerr.hr\nfen r3k3/8/8/8/8/8/8/R3K3 w - - 0 1\nexpect count 20", "r"))
    assert main([raising_rules / "t.hrt"]) == 1
    out = capsys.readouterr().out
    assert f"    {raising_rules / 't.hrt'}:4:3: MatchError: {raising_rules / 'typeerr.hr'}:5:11" in out
    pytester.makefile(".hrt", t=(raising_rules / "t.hrt").read_text())
    (pytester.path / "typeerr.hr").write_text(RAISING_TEST)
    result = pytester.runpytest("-p", "no:cacheprovider", "-q", "-o", "addopts=")
    result.assert_outcomes(failed=1)
    assert "t.hrt:4:3: MatchError: " in result.stdout.str()
    assert "Traceback" not in result.stdout.str()


def test_illegal_by_a_rule_is_not_matched_inside_a_longer_dotted_name(tmp_path):
    # the explanation names house.step.diag (the rook's rule); house.step, a rule of
    # the rule set too (the king's), is not named by it: a name goes to its last dot
    (tmp_path / "steps.hr").write_text("""\
rule "house.step" stage generate
when
  movegen(color: ?c)
  ?p <- piece(type: king, color: ?c)
then
  call gen-leap(?p, "N")
end
rule "house.step.diag" stage generate
when
  movegen(color: ?c)
  ?p <- piece(type: rook, color: ?c)
then
  call gen-leap(?p, "NE")
end
""", encoding="utf-8")
    f = str(tmp_path / "t.hrt")
    body = "rules steps.hr\nfen 4k3/8/8/8/8/8/8/R3K3 w - - 0 1\n"
    run(scen(body + "expect illegal a1c3 by house.step.diag"), f)
    failure = fails(scen(body + "expect illegal a1c3 by house.step"), f)
    assert "the explanation does not name house.step" in failure.actual
    assert "house.step.diag" in failure.explanation


@pytest.mark.parametrize("body,line,column", [
    ("remove e1\nexpect count 20", 2, 3),                               # the standard start
    ("layout standard\nremove a2\nremove e1\nexpect count 20", 4, 3),   # the last edit
    ("fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1\nplace Qd4\nremove h1\nexpect count 20", 4, 3),
    ("place Qd4\nremove e1 h1\nplace Pa1\nexpect count 20", 4, 3),      # several: the last
    ("fen 4k3/8/8/8/8/8/8/4K3 w K - 0 1\nremove a2\nexpect count 20", 2, 7),   # the FEN's own
])
def test_a_fen_error_the_edits_cause_points_at_the_last_edit(body, line, column):
    e = error(scen(body))
    assert (e.line, e.column) == (line, column), str(e)
    assert e.message.startswith("FenError: bad FEN (castling)")
    run(scen(body.replace("expect count 20", "expect refused FenError")))


def test_a_fen_error_of_the_rule_sets_setup_stays_with_the_fen():
    # the reader takes hp:e1=0; piece-hp's setup hook refuses it: the fen's
    # fault, not the harmless place after it
    body = ("presets piece-hp\nfen 4k3/8/8/8/8/8/8/4K3 w - - 0 1 hp:e1=0\nplace Qd4\n"
            "expect count 20")
    e = error(scen(body))
    assert (e.line, e.column) == (3, 7), str(e)


@pytest.mark.parametrize("text,line,column,fragment", [
    ('scenario "a"\n  expect count 20# twenty\n', 2, 18,
     "'20#': a '#' starts a comment only where a word would (put a space before it)"),
    ('scenario "a"\n  expect turn white# black\n', 2, 20,
     "'white#': a '#' starts a comment only where a word would"),
    ('scenario "a"\n  expect count 20#\n', 2, 16,
     "bad move count '20#' (expected a whole number); a '#' starts a comment only where"),
    ('scenario "a"\n  expect checkmate#typo\n', 2, 19, "a '#' starts a comment only where"),
])
def test_a_hash_glued_to_an_argument_says_so(text, line, column, fragment):
    with pytest.raises(ScenarioError) as ei:
        parse_text(text, "bad.hrt")
    e = ei.value
    assert (e.line, e.column) == (line, column), str(e)
    assert fragment in e.message, e.message


def test_a_hash_in_a_quoted_name_is_text_not_a_glued_comment():
    with pytest.raises(ScenarioError) as ei:
        parse_text('scenario "issue #12 \\q"\n  expect count 20\n', "bad.hrt")
    assert "bad escape" in ei.value.message and "'#'" not in ei.value.message


@pytest.mark.parametrize("raw", ["abc", "60s", "1,5"])
def test_a_timeout_setting_that_is_no_number_is_refused(raw, tmp_path, monkeypatch, capsys):
    from houserules import cli
    from houserules.scenarios.runner import scenario_timeout
    monkeypatch.setenv("HOUSERULES_SCENARIO_TIMEOUT", raw)
    with pytest.raises(ValueError, match=f"HOUSERULES_SCENARIO_TIMEOUT={raw!r} is not a number"):
        scenario_timeout()
    (tmp_path / "a.hrt").write_text(PASSING)
    assert cli.main(["test", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""                                    # nothing ran
    assert f"houserules: error: HOUSERULES_SCENARIO_TIMEOUT={raw!r} is not a number" in err


def test_pytest_refuses_a_timeout_setting_that_is_no_number(pytester, monkeypatch):
    pytester.makefile(".hrt", a=PASSING)
    monkeypatch.setenv("HOUSERULES_SCENARIO_TIMEOUT", "abc")
    result = pytester.runpytest("-p", "no:cacheprovider", "-q", "-o", "addopts=")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "HOUSERULES_SCENARIO_TIMEOUT='abc' is not a number" in result.stderr.str()


def test_no_scenario_found_is_reported_and_not_a_success(tmp_path, capsys):
    from houserules import cli
    (tmp_path / "empty").mkdir()
    assert main([tmp_path / "empty"]) == 5
    out = capsys.readouterr().out.splitlines()
    assert out == [f"no scenario found in {tmp_path / 'empty'}", "0 passed, 0 failed"]
    (tmp_path / "comments.hrt").write_text("# nothing yet\n")
    assert cli.main(["test", str(tmp_path / "comments.hrt"), str(tmp_path / "empty")]) == 5
    assert "no scenario found in" in capsys.readouterr().out
    # a file that cannot be read is a failure, not "nothing found"
    assert main([tmp_path / "missing.hrt"]) == 1


def test_a_refusals_reason_in_dice_and_its_escapes():
    run(scen('dfen 8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1 NPP\n'
             'expect illegal a1b1 by dice.die-filter "no king die"'))
    f = fails(scen('dfen 8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1 NPP\n'
                   'expect illegal a1b1 "no rook die"'))
    assert "no king die for the king on a1" in f.actual
    # JSON escapes, as in a scenario's name
    run(scen('fen 4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1\nexpect illegal e1g1 "f1 is \\u0061ttacked"'))
    e = error(scen('expect illegal e2e5 "bad \\q escape"'))
    assert "bad escape in the reason" in str(e)
