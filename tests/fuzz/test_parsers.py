"""Every parser a user reaches, fed generated input: a FEN and an extended
FEN, a DFEN, UCI and SAN moves, rule text, scenario text, modifier JSON and
PGN. Each input must end in a typed error of the project's (or a result that
is right by an independent check), never another exception, a hang, or a
changed state (a refused move leaves the game as it was, a refused rule file
or modifier the rule set it was given).

The inputs are text hypothesis writes, and valid inputs with characters
inserted, deleted and replaced (most random text fails at the first
character; a mutated valid input reaches the parser's corners). The fast
suite runs a few hundred inputs per parser; ``make fuzz`` runs
HOUSERULES_FUZZ_EXAMPLES (100,000 by default) per parser and prints the count
of each (what was accepted, what was refused).
"""
from __future__ import annotations

import json
import os
import signal
from collections import Counter
from contextlib import contextmanager

import chess
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import presets
from chess_rules.errors import ChessError
from chess_rules.fide import fide_rules
from chess_rules.game import Game
from chess_rules.pgn import read_games
from chess_rules.position import parse_position
from chess_rules.rule_files import load_rule_text
from houserules.scenarios.model import ScenarioError
from houserules.scenarios.parser import parse_text
from dice.dfen import format_dfen, parse_dfen
from presets.modifiers import attach
from presets.modifiers.models import validate_descriptor
from rete import ReteError

EXAMPLES = int(os.environ.get("HOUSERULES_FUZZ_EXAMPLES", "200"))
#: seconds one input may take before it counts as a hang
HANG = 20
#: what a parser may raise: the project's typed errors
TYPED = (ChessError, ReteError, ScenarioError)
#: per parser: inputs tried, accepted, refused (printed by make fuzz)
COUNTS: dict[str, Counter] = {}

#: in a long run each hypothesis example is a batch of inputs made from the
#: random source it draws (hypothesis's own bookkeeping per example would
#: otherwise cost more than most parsers take); a short run draws each input
#: as a strategy of its own, which hypothesis can shrink
BATCH = 100 if EXAMPLES >= 5000 else 1
FUZZ = settings(max_examples=max(1, EXAMPLES // BATCH), deadline=None, database=None,
                suppress_health_check=list(HealthCheck))


class Hang(Exception):
    pass


@contextmanager
def no_hang(what: str):
    def on_alarm(signum, frame):
        raise Hang(f"{what} took more than {HANG} s")
    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(HANG)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def parsed(parser: str, fn, *args, new_input: bool = True):
    """``fn(*args)``: its result, or None for a typed error; any other
    exception (or a hang) fails the test. ``new_input``: false for the same
    input given again (a move pushed on another position)."""
    count = COUNTS.setdefault(parser, Counter())
    count["inputs"] += new_input
    if new_input and count["inputs"] % 10000 == 0:
        _write_report()         # (a long run's counts so far, should it be stopped)
    try:
        with no_hang(f"{parser} on {args[0]!r}"[:300]):
            out = fn(*args)
    except TYPED:
        count["refused"] += 1
        return None
    count["accepted"] += 1
    return out


def mutated(seeds, alphabet: str):
    """A seed with a few characters inserted, deleted or replaced."""
    edit = st.tuples(st.sampled_from("idr"), st.integers(0, 400),
                     st.sampled_from(alphabet) | st.characters())

    def apply(seed_edits):
        text, edits = seed_edits
        for op, at, ch in edits:
            at = at % (len(text) + 1)
            if op == "i":
                text = text[:at] + ch + text[at:]
            elif op == "d":
                text = text[:at] + text[at + 1:]
            else:
                text = text[:at] + ch + text[at + 1:]
        return text
    return st.tuples(st.sampled_from(seeds), st.lists(edit, min_size=0, max_size=4)).map(apply)


def inputs(seeds, alphabet: str):
    return st.one_of(st.sampled_from(seeds), mutated(seeds, alphabet),
                     st.text(alphabet, max_size=120), st.text(max_size=60))


def _char(rnd, alphabet: str) -> str:
    if rnd.random() < 0.8:
        return rnd.choice(alphabet)
    return chr(rnd.choice((rnd.randrange(0, 0x20), rnd.randrange(0x20, 0x250),
                           rnd.randrange(0x250, 0x30000))))


def _made(rnd, seeds, alphabet: str) -> str:
    """One input from ``rnd``: as :func:`inputs` makes them, without hypothesis's
    per-input bookkeeping."""
    kind = rnd.random()
    if kind < 0.1:
        return rnd.choice(seeds)
    if kind < 0.75:
        text = rnd.choice(seeds)
        for _ in range(rnd.randint(1, 4)):
            at, op = rnd.randint(0, len(text)), rnd.choice("idr")
            if op == "i":
                text = text[:at] + _char(rnd, alphabet) + text[at:]
            elif op == "d":
                text = text[:at] + text[at + 1:]
            else:
                text = text[:at] + _char(rnd, alphabet) + text[at + 1:]
        return text
    if kind < 0.95:
        return "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 120)))
    return "".join(chr(rnd.randrange(1, 0x30000))
                   for _ in range(rnd.randint(0, 60)))


def fuzz(seeds, alphabet: str):
    """The test of one parser: ``check(text)`` for every input generated."""
    if BATCH == 1:
        batches = st.lists(inputs(seeds, alphabet), min_size=1, max_size=1)
    else:
        batches = st.randoms(use_true_random=False).map(
            lambda rnd: [_made(rnd, seeds, alphabet) for _ in range(BATCH)])

    def wrap(check):
        @given(batches)
        @FUZZ
        def test(texts):
            for text in texts:
                check(text)
        test.__name__ = test.__qualname__ = check.__name__
        test.__doc__ = check.__doc__
        return test
    return wrap


@pytest.fixture(autouse=True)
def report():
    """After each parser's run: its counts on stdout (``make fuzz`` shows them),
    and every count so far in HOUSERULES_FUZZ_REPORT when it names a file."""
    done = set(COUNTS)
    yield
    for parser in sorted(set(COUNTS) - done):
        c = COUNTS[parser]
        print(f"\nfuzz {parser}: {c['inputs']} inputs, {c['accepted']} accepted, "
              f"{c['refused']} refused")
    _write_report()


def _write_report() -> None:
    """Every count so far into HOUSERULES_FUZZ_REPORT, when it names a file."""
    if os.environ.get("HOUSERULES_FUZZ_REPORT"):
        with open(os.environ["HOUSERULES_FUZZ_REPORT"], "w", encoding="utf-8") as out:
            json.dump(COUNTS, out, indent=1, sort_keys=True)


FIDE = fide_rules()
HP = presets.load("piece-hp")

FENS = ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "4k3/P7/8/8/8/8/8/4K3 w - - 12 60"]
FEN_CHARS = "pnbrqkPNBRQK12345678/ wb-KQkqacdefgh0"


def _game(text, ruleset):
    """The game at ``text``: the position parsed first (most inputs end there,
    cheaply), then loaded into a game, which checks what the rules need."""
    parse_position(text, ruleset)
    return Game(text, ruleset=ruleset)


@fuzz(FENS, FEN_CHARS)
def test_fen(text):
    g = parsed("fen", _game, text, FIDE)
    if g is not None:
        # the position it read is the one it writes back
        again = Game(g.fen(), ruleset=FIDE)
        assert again.fen() == g.fen()


EXTENDED = [f + " hp:e1=1,d8=2" for f in FENS[:2]] + [FENS[0] + " hp:a1=2"]


@fuzz(EXTENDED, FEN_CHARS + "hp:=,")
def test_extended_fen(text):
    g = parsed("extended-fen", _game, text, HP)
    if g is not None:
        assert Game(g.fen(), ruleset=HP).fen() == g.fen()


DFENS = ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 NPP",
         "8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1 NPP",
         "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 KQ",
         "8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1 - winner:white"]


@fuzz(DFENS, FEN_CHARS + "NBRQKP-winer:")
def test_dfen(text):
    pos = parsed("dfen", parse_dfen, text)
    if pos is not None:
        written = format_dfen(pos, pos.dice)
        assert format_dfen(parse_dfen(written), pos.dice) == written


GAMES = [Game(f, ruleset=FIDE) for f in FENS]
BOARDS = [chess.Board(f) for f in FENS]
UCIS = ["e2e4", "g1f3", "e1g1", "e5f6", "a7a8q", "a7a8n", "b5b6", "e1c1", "0000"]


def _move_checked(parser: str, push, text: str):
    """Push ``text`` on each test position: a refusal leaves the game as it
    was; an accepted move is legal by python-chess, and pop undoes it."""
    for i, (g, board) in enumerate(zip(GAMES, BOARDS)):
        before = (g.fen(), len(g.move_stack))
        move = parsed(parser, push(g), text, new_input=i == 0)
        if move is None:
            assert (g.fen(), len(g.move_stack)) == before
            continue
        assert board.is_legal(chess.Move.from_uci(move.uci())), (g.fen(), text)
        g.pop()
        assert (g.fen(), len(g.move_stack)) == before


@fuzz(UCIS, "abcdefgh12345678qrbnk0")
def test_uci_move(text):
    _move_checked("uci", lambda g: g.push, text)


SANS = ["e4", "Nf3", "O-O", "O-O-O", "exf6", "a8=Q", "a8=N+", "Nxe5", "Kb4", "Rh1#", "0-0"]


@fuzz(SANS, "abcdefgh12345678NBRQKx=+#O-0")
def test_san_move(text):
    _move_checked("san", lambda g: g.push_san, text)


RULES = ['rule "house.knight-step" stage generate\n  "A knight may also step."\nwhen\n'
         '  movegen(color: ?c)\n  ?p <- piece(type: knight, color: ?c)\nthen\n'
         '  call gen-leap(?p, "N E S W")\nend\n',
         "remove fide.castling\n",
         'rule fide.king-move replaces stage generate\nwhen\n  movegen(color: ?c)\n'
         '  ?p <- piece(type: king, color: ?c, square: != e1)\nthen\n'
         '  call gen-leap(?p, "N NE E W NW")\nend\n',
         'template counter (n)\nrule "c.count" stage post-move\nwhen\n  move(color: white)\n'
         '  ?c <- counter(n: ?n)\nthen\n  modify ?c (n: (+ ?n 1))\nend\n']
RULE_CHARS = "rule stagewhnd()?:<-\"\n pieckgmov,&!=0123456789"


@fuzz(RULES, RULE_CHARS)
def test_rule_text(text):
    before = dict(FIDE.productions)
    rs = parsed("rule-text", load_rule_text, FIDE, text, "fuzz.hr")
    assert FIDE.productions == before        # the rule set given is never changed
    if rs is not None:
        assert rs is not FIDE


SCENARIOS = ['scenario "a knight move"\n  fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n'
             '  play g1f3\n  expect legal b8c6\n',
             'scenario "mate"\n  preset piece-hp\n  play e2e4 e7e5\n  expect result none\n',
             '# comment\nscenario "x"\n  modifier berserker on a1\n  expect piece a1 R\n']


@fuzz(SCENARIOS, "scenario fenplayexpctlg\"\n #12345678/")
def test_scenario_text(text):
    parsed("scenario-text", parse_text, text, "fuzz.hrt")


MODIFIERS = [json.dumps(json.loads(open(p, encoding="utf-8").read()))
             for p in sorted((presets.modifiers.GALLERY_DIR).glob("*.json"))[:8]]


def _attached(text):
    d = validate_descriptor(text)
    before = dict(FIDE.productions)
    try:
        return attach(FIDE, d, squares=["e1"])
    finally:
        assert FIDE.productions == before


@fuzz(MODIFIERS, '{}[]":,0123456789-abcdefghiklmnoprstuvy')
def test_modifier_json(text):
    parsed("modifier-json", _attached, text)


PGNS = ['[Event "x"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n',
        '[FEN "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"]\n\n1. a8=Q+ Kd7 {a comment} 2. Qb7+ (2. Qa4+) *\n',
        '1. e4 e5 2. Ke2 Ke7 1/2-1/2\n',
        '[Variant "double-move"]\n\n1. e4 d4 1... e5 d5 *']


def _pgn_game(text):
    """The game a PGN records: the text read first (most inputs end there),
    then its moves played through the rules."""
    read_games(text)
    return Game.from_pgn(text)


@fuzz(PGNS, '[]"{}()1234567890. eNBRQKxabcdefgh+#=*/-\n;$')
def test_pgn(text):
    g = parsed("pgn", _pgn_game, text)
    if g is not None:
        again = Game.from_pgn(g.pgn())
        assert [m.uci() for m in again.move_stack] == [m.uci() for m in g.move_stack]
        assert again.fen() == g.fen()
