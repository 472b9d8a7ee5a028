"""Reading PGN written by python-chess: random games with comments, NAGs, nested
variations and several games to a file, in python-chess's own SAN, read by
chess_rules.pgn give python-chess's tags, main line, variations and final FEN."""
from __future__ import annotations

import io
import random

import pytest

chess = pytest.importorskip("chess")
import chess.pgn  # noqa: E402

from chess_rules.pgn import read_games  # noqa: E402

NAMES = ['Ann "the rook"', "Bob\\Z", "Zoë", "de la Cruz, J.", "?"]


def random_line(rng, board, plies):
    moves = []
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal:
            break
        m = rng.choice(legal)
        moves.append(m)
        board.push(m)
    return moves


def decorate(rng, node, depth=0):
    """Comments, NAGs and variations, at random, on the line from ``node`` on."""
    while node.variations:
        child = node.variations[0]
        if rng.random() < 0.15:
            child.comment = rng.choice(["a comment", "two\nlines", "[%clk 0:01:00]",
                                        "brackets ( ) and ; in it"])
        if rng.random() < 0.15:
            child.nags.update(rng.sample([1, 2, 3, 4, 5, 6, 10, 14, 146], rng.randint(1, 2)))
        if depth < 3 and rng.random() < 0.12:
            board = node.board()
            alternatives = [m for m in board.legal_moves if m != child.move]
            if alternatives:
                alt = node.add_variation(rng.choice(alternatives))
                board.push(alt.move)
                sub = alt
                for m in random_line(rng, board, rng.randint(0, 5)):
                    sub = sub.add_main_variation(m)
                decorate(rng, alt, depth + 1)
        node = child


def random_game(rng):
    board = chess.Board()
    if rng.random() < 0.3:          # from a position reached by random moves
        random_line(rng, board, rng.randint(1, 30))
        if board.is_game_over():
            board = chess.Board()
    game = chess.pgn.Game()
    game.headers["White"] = rng.choice(NAMES)
    game.headers["Black"] = rng.choice(NAMES)
    game.headers["Round"] = str(rng.randint(1, 9))
    if board.fen() != chess.STARTING_FEN:
        game.setup(board)
    if rng.random() < 0.2:
        game.comment = "before the first move"
    node = game
    for m in random_line(rng, board.copy(), rng.randint(0, 70)):
        node = node.add_main_variation(m)
    decorate(rng, game)
    end = game.end().board()
    game.headers["Result"] = end.result() if end.is_game_over() else rng.choice(["*", "1-0"])
    return game


def variations_of(node):
    """python-chess's variations along the main line, as our PgnMove keeps them:
    for each main-line move, the SAN of each alternative line."""
    out = []
    while node.variations:
        alts = []
        for alt in node.variations[1:]:
            line, n = [], alt
            while True:
                line.append(n.san())
                if not n.variations:
                    break
                n = n.variations[0]
            alts.append(line)
        out.append(alts)
        node = node.variations[0]
    return out


def ours_variations(moves):
    return [[[v.san for v in var] for var in m.variations] for m in moves]


def check_file(seed: int, games: int) -> int:
    rng = random.Random(seed)
    written = [random_game(rng) for _ in range(games)]
    text = "\n\n".join(str(g) for g in written) + "\n"
    ours = read_games(text)
    assert len(ours) == len(written), text
    plies = 0
    for theirs, mine in zip(written, ours):
        back = chess.pgn.read_game(io.StringIO(str(theirs)))
        assert dict(mine.tags) == dict(back.headers), text
        assert mine.result == theirs.headers["Result"]
        assert [m.san for m in mine.moves] == [n.san() for n in theirs.mainline()]
        assert [m.nags for m in mine.moves] == [tuple(sorted(n.nags)) for n in theirs.mainline()]
        assert [" ".join(m.comments) for m in mine.moves] == \
            [" ".join(n.comment.split()) for n in theirs.mainline()]
        assert ours_variations(mine.moves) == variations_of(theirs)
        g = mine.play()
        assert [m.uci() for m in g.move_stack] == [m.uci() for m in theirs.mainline_moves()]
        assert g.fen() == theirs.end().board().fen(), (seed, str(theirs))
        plies += len(g.move_stack)
    return plies


@pytest.mark.parametrize("seed", range(4))
def test_python_chess_files_read_the_same(seed):
    assert check_file(seed, 3) > 0


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(100, 140))
def test_python_chess_files_read_the_same_long(seed):
    check_file(seed, 6)


def test_python_chess_null_move_is_refused_at_its_place():
    from chess_rules.errors import PgnMoveError
    from chess_rules.game import Game
    game = chess.pgn.Game()
    game.add_line([chess.Move.from_uci("e2e4"), chess.Move.null(), chess.Move.from_uci("d2d4")])
    text = str(game)
    with pytest.raises(PgnMoveError, match=r"move 1\.\.\. --: a null move") as ei:
        Game.from_pgn(text)
    assert text.splitlines()[ei.value.line - 1][ei.value.column - 1:].startswith("--")
