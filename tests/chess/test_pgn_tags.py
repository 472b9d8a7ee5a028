"""The PGN writer and reader agree on tags: ``Game.pgn`` writes every tag name
the reader reads (``White-Elo``, ``Time:Control``, as python-chess reads them)
and refuses, with an ArgumentError, every name it would not; what it writes
reads back as the value given (on one line: a run of spaces is one space)."""
from __future__ import annotations

import io
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chess_rules.errors import ArgumentError, PgnError
from chess_rules.game import Game
from chess_rules.pgn import read_games

#: tags the writer fills in itself, whatever the headers say
OWN = {"Result", "SetUp", "FEN"}


def _game() -> Game:
    g = Game()
    for u in ("e2e4", "e7e5", "g1f3"):
        g.push(u)
    return g


GAME = _game()


def reader_reads_as_a_name(name: str) -> bool:
    """The reader's own word, from a tag pair written by hand."""
    try:
        games = read_games(f'[{name} "v"]\n\n*\n')
    except PgnError:
        return False
    return len(games) == 1 and games[0].tags == {name: "v"}


# names near the reader's: its characters, and ones it refuses, in any order
NAMES = st.text(alphabet=string.ascii_letters[:6] + string.digits[:3] + "_-+#=:" + ' "[]{};%.é\n',
                min_size=0, max_size=8)
VALUES = st.text(max_size=24)


@settings(max_examples=300, deadline=None)
@given(name=NAMES, value=VALUES)
def test_the_writer_takes_a_tag_name_exactly_when_the_reader_reads_it(name, value):
    if not reader_reads_as_a_name(name):
        with pytest.raises(ArgumentError, match="not a PGN tag name"):
            GAME.pgn({name: value})
        return
    (pg,) = read_games(GAME.pgn({name: value}))
    if name not in OWN:
        assert pg.tags[name] == " ".join(value.split())
    assert [m.san for m in pg.moves] == ["e4", "e5", "Nf3"]


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(st.from_regex(r"[A-Za-z0-9_][A-Za-z0-9_+#=:-]{0,6}", fullmatch=True)
                       .filter(lambda n: n not in OWN), VALUES, max_size=5))
def test_tags_round_trip(headers):
    (pg,) = read_games(GAME.pgn(headers))
    assert {n: pg.tags[n] for n in headers} == {n: " ".join(v.split()) for n, v in headers.items()}
    assert list(pg.tags)[:7] == ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
    # the text read writes the same text again
    assert GAME.pgn(pg.tags) == GAME.pgn(headers)


@pytest.mark.parametrize("name", ["White-Elo", "Time:Control", "A+B", "Mate#", "a=b", "1-0"])
def test_names_python_chess_reads_are_written(name):
    # (a name opening with _ is read and written, as before; python-chess drops it)
    chess_pgn = pytest.importorskip("chess.pgn")
    text = GAME.pgn({name: "x"})
    assert f'[{name} "x"]' in text.splitlines()
    assert read_games(text)[0].tags[name] == "x"
    assert chess_pgn.read_game(io.StringIO(text)).headers[name] == "x"


@pytest.mark.parametrize("headers, message", [
    ({"Bad Tag": "x"}, "not a PGN tag name: 'Bad Tag'"),
    ({"-x": "x"}, "not a PGN tag name: '-x'"),
    ({"": "x"}, "not a PGN tag name: ''"),
    ({3: "x"}, "not a PGN tag name: 3"),
    ({"Round": 3}, "tag Round: a PGN tag value is a str, not int"),
    ({"Annotator": None}, "tag Annotator: a PGN tag value is a str, not NoneType"),
    ([("White", "Ann")], "a mapping of tag names to values, not list"),
])
def test_headers_the_reader_would_not_give_back_are_refused(headers, message):
    before = GAME.fen(), [m.uci() for m in GAME.move_stack]
    with pytest.raises(ArgumentError, match=message.replace("(", r"\(")):
        GAME.pgn(headers)
    assert (GAME.fen(), [m.uci() for m in GAME.move_stack]) == before
