"""UCI, SAN and PGN: SAN output and parsing against python-chess on random
positions, and PGN that python-chess reads back."""

from __future__ import annotations

import io
import random

import chess
import chess.pgn
import pytest

from chess_rules.errors import ChessError, MoveParseError
from chess_rules.notation import (
    MoveInfo, format_uci, game_to_pgn, move_to_san, parse_san, parse_uci, san_to_uci,
)
from chess_rules.squares import parse_square

TYPE_NAMES = {chess.PAWN: "pawn", chess.KNIGHT: "knight", chess.BISHOP: "bishop",
              chess.ROOK: "rook", chess.QUEEN: "queen", chess.KING: "king"}


def playout_boards(seed: int, games: int, max_plies: int):
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        board = chess.Board()
        for _ in range(rng.randrange(max_plies)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            if rng.random() < 0.12:
                out.append(board.copy(stack=False))
    return out


def crowded_boards(seed: int, count: int):
    """Random legal placements with many same-type pieces (disambiguation) and pawns
    about to promote."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board = chess.Board(None)
        free = list(range(64))
        rng.shuffle(free)
        board.set_piece_at(free.pop(), chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(free.pop(), chess.Piece(chess.KING, chess.BLACK))
        for _ in range(rng.randrange(4, 12)):
            sq = free.pop()
            kind = rng.choice([chess.KNIGHT, chess.ROOK, chess.QUEEN, chess.BISHOP, chess.PAWN])
            colour = rng.choice([chess.WHITE, chess.BLACK])
            if kind == chess.PAWN:
                rank = 6 if colour == chess.WHITE else 1
                sq = chess.square(chess.square_file(sq), rank)
                if board.piece_at(sq):
                    continue
            board.set_piece_at(sq, chess.Piece(kind, colour))
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if board.is_valid() and any(board.legal_moves):
            out.append(board)
    return out


BOARDS = playout_boards(4242, 40, 150) + crowded_boards(99, 100)


def info(board: chess.Board, move: chess.Move, with_suffix: bool) -> MoveInfo:
    check = mate = False
    if with_suffix:
        check = board.gives_check(move)
        if check:
            board.push(move)
            mate = board.is_checkmate()
            board.pop()
    return MoveInfo(
        move.from_square, move.to_square,
        TYPE_NAMES[move.promotion] if move.promotion else None,
        TYPE_NAMES[board.piece_type_at(move.from_square)],
        board.is_capture(move), board.is_castling(move), check, mate,
    )


def test_uci_parse_and_format():
    assert parse_uci("e2e4") == (12, 28, None)
    assert parse_uci("e7e8q") == (52, 60, "queen")
    assert parse_uci("a2a1k") == (8, 0, "king")
    assert parse_uci("e7e8N") == (52, 60, "knight")
    assert format_uci(52, 60, "queen") == "e7e8q"
    assert format_uci(12, 28) == "e2e4"
    for bad in ("e2e9", "e2", "e2e4x", "0000", "e2e2", " e2e4", "E2E4", "e7e8p", ""):
        with pytest.raises(MoveParseError) as e:
            parse_uci(bad)
        assert isinstance(e.value, ChessError) and e.value.text == bad


def test_san_matches_python_chess():
    assert len(BOARDS) > 200
    count = 0
    for board in BOARDS:
        moves = list(board.legal_moves)
        legal = [info(board, m, False) for m in moves]
        for m in moves:
            mi = info(board, m, True)
            san = board.san(m)
            assert move_to_san(mi, legal) == san, (board.fen(), m.uci())
            count += 1
    assert count > 3000


def test_san_parse_round_trips():
    kinds = set()
    for board in BOARDS:
        moves = list(board.legal_moves)
        legal = [info(board, m, False) for m in moves]
        for m in moves:
            san = board.san(m)
            assert san_to_uci(san, legal) == m.uci(), (board.fen(), san)
            bare = san.rstrip("+#")
            assert parse_san(bare, legal).uci == m.uci()
            if "=" in bare:
                kinds.add("promotion")
                assert san_to_uci(bare.replace("=", ""), legal) == m.uci()
                assert san_to_uci(bare[:-1] + bare[-1].lower(), legal) == m.uci()  # a8=q
            if bare.startswith("O-O"):
                kinds.add("castling")
                assert san_to_uci(bare.replace("O", "0"), legal) == m.uci()
            if len(bare) > 3 and bare[0] in "NBRQK" and bare[1] in "abcdefgh12345678" and bare[2] not in "x":
                kinds.add("disambiguated")
            # A fully specified origin is always accepted.
            long_form = chess.square_name(m.from_square) + chess.square_name(m.to_square)
            if m.promotion:
                long_form += "=" + chess.piece_symbol(m.promotion).upper()
            assert san_to_uci(long_form, legal) == m.uci()
    assert kinds == {"promotion", "castling", "disambiguated"}


def test_bare_tuples_with_piece_type_at():
    board = chess.Board("r3k2r/8/8/8/8/2N5/8/R3K1NR w KQkq - 0 1")
    legal = [(m.from_square, m.to_square, None) for m in board.legal_moves]

    def piece_type_at(sq):
        return TYPE_NAMES[board.piece_type_at(sq)]

    move = chess.Move.from_uci("c3e2")
    mi = MoveInfo(move.from_square, move.to_square, None, "knight")
    assert move_to_san(mi, legal, piece_type_at) == board.san(move) == "Nce2"
    assert san_to_uci("Nge2", legal, piece_type_at) == "g1e2"
    assert san_to_uci("O-O-O", legal, piece_type_at) == "e1c1"  # castling inferred
    with pytest.raises(TypeError):
        move_to_san(mi, legal)


def test_castling_inferred_or_given():
    king = parse_square("e1")
    assert move_to_san(MoveInfo(king, parse_square("g1"), None, "king"), []) == "O-O"
    assert move_to_san(MoveInfo(king, parse_square("c1"), None, "king", gives_check=True), []) == "O-O-O+"
    # The caller can say a king move is not castling (e.g. a variant's two-square king move).
    assert move_to_san(MoveInfo(king, parse_square("g1"), None, "king", is_castling=False), []) == "Kg1"
    e8 = parse_square("e8")
    assert move_to_san(MoveInfo(e8, parse_square("c8"), None, "king", gives_mate=True, gives_check=True), []) == "O-O-O#"


def test_san_errors():
    board = chess.Board("4k3/8/8/8/8/5N2/P7/1N2K3 w - - 0 1")
    legal = [info(board, m, False) for m in board.legal_moves]
    with pytest.raises(MoveParseError) as e:
        parse_san("Nd2", legal)
    assert "ambiguous" in e.value.reason and "b1d2" in e.value.reason and "f3d2" in e.value.reason
    with pytest.raises(MoveParseError) as e:
        parse_san("Nd4x", legal)
    assert e.value.reason == "not SAN"
    for text in ("Qd1", "O-O", "axb3", "a5", "Nb5"):
        with pytest.raises(MoveParseError) as e:
            parse_san(text, legal)
        assert "no legal move matches" in e.value.reason
    promo = chess.Board("4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    legal = [info(promo, m, False) for m in promo.legal_moves]
    with pytest.raises(MoveParseError) as e:
        parse_san("a8", legal)
    assert "promotion piece is missing" in e.value.reason
    assert san_to_uci("a8=N", legal) == "a7a8n"
    assert san_to_uci("a8Q+!", legal) == "a7a8q"


def play_game(seed):
    rng = random.Random(seed)
    board = chess.Board()
    sans = []
    for _ in range(rng.randrange(20, 200)):
        moves = list(board.legal_moves)
        if not moves:
            break
        m = rng.choice(moves)
        sans.append(board.san(m))
        board.push(m)
    return board, sans


@pytest.mark.parametrize("seed", range(8))
def test_pgn_reads_back(seed):
    board, sans = play_game(seed)
    result = board.result() if board.is_game_over() else "*"
    headers = {"White": "Ann", "Black": "Bob", "Event": "Test",
               "Variant": "Standard", "Annotator": "houserules"}
    text = game_to_pgn(headers, sans, result, None)
    assert all(len(line) <= 80 for line in text.splitlines())
    game = chess.pgn.read_game(io.StringIO(text))
    assert not game.errors
    assert list(game.headers.keys())[:7] == ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
    assert game.headers["White"] == "Ann" and game.headers["Black"] == "Bob"
    assert game.headers["Result"] == result and game.headers["Annotator"] == "houserules"
    replay = chess.Board()
    assert [replay.san_and_push(m) for m in game.mainline_moves()] == sans
    assert text.rstrip().endswith(result)


def test_pgn_from_a_position_with_black_to_move():
    start = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 12"
    sans = ["e5", "Nf3", "Nc6", "Bb5"]
    text = game_to_pgn({"Event": "E"}, sans, "*", start)
    assert "12... e5 13. Nf3 Nc6 14. Bb5 *" in text
    assert '[SetUp "1"]' in text and f'[FEN "{start}"]' in text
    lines = text.splitlines()
    assert lines.index('[Result "*"]') < lines.index('[SetUp "1"]') < lines.index(f'[FEN "{start}"]')
    game = chess.pgn.read_game(io.StringIO(text))
    assert not game.errors
    assert game.board().fen() == start
    assert [m.uci() for m in game.mainline_moves()] == ["e7e5", "g1f3", "b8c6", "f1b5"]


def test_pgn_tag_values_are_escaped():
    # PGN standard: backslash-escape quotes and backslashes; one line per tag.
    text = game_to_pgn({"White": 'Ann "the rook"', "Black": "Bob\\Z", "Site": "a\nb"}, [], "*", None)
    assert '[White "Ann \\"the rook\\""]' in text
    assert '[Black "Bob\\\\Z"]' in text
    assert '[Site "a b"]' in text
    with pytest.raises(ValueError):
        game_to_pgn({"Bad Tag": "x"}, [], "*", None)


def test_pgn_empty_game_and_bad_result():
    text = game_to_pgn({}, [], "1/2-1/2", None)
    assert text.endswith("\n\n1/2-1/2\n")
    assert '[Date "????.??.??"]' in text
    with pytest.raises(ValueError):
        game_to_pgn({}, [], "2-0", None)
