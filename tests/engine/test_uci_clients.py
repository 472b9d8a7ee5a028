"""The UCI engine driven by real clients: python-chess's ``chess.engine``
(what lichess-bot and many tools are built on) and Debian's Stockfish as an
opponent. Every move of every game is checked legal by our own Game and, in
FIDE games, by python-chess."""
import os
import random
import shutil
import sys

import chess
import chess.engine
import pytest

from chess_rules.game import Game
from presets.layouts import preferred_layout

ENGINE = [sys.executable, "-m", "houserules", "uci"]
STOCKFISH = shutil.which("stockfish") or ("/usr/games/stockfish"
                                          if os.path.exists("/usr/games/stockfish") else None)


def preset_board(variant: str):
    """A python-chess board for a houserules variant: python-chess sends the
    positions and UCI_Variant; legality is our Game's (python-chess knows
    nothing of the presets), so every move the engine names is checked."""

    class PresetBoard(chess.Board):
        uci_variant = variant

        def __init__(self, fen=chess.STARTING_FEN, *, chess960=False):
            super().__init__(fen, chess960=chess960)
            self.game = None

        def is_legal(self, move):
            return self.game.is_legal(move.uci())

        def push(self, move):
            self.game.push(move.uci())
            super().push(move)

        def copy(self, *, stack=True):
            b = super().copy(stack=stack)
            b.game = self.game.copy()
            return b

    fen = preferred_layout([variant]).fen
    board = PresetBoard(fen)
    board.game = Game(fen, presets=[variant])
    return board


@pytest.fixture(scope="module")
def engine():
    e = chess.engine.SimpleEngine.popen_uci(ENGINE, timeout=60)
    yield e
    e.quit()


def _play(engine, board, plies, limit, opponent=None, rng=None):
    """Up to ``plies`` plies on ``board``: the engine, and ``opponent`` (None:
    the engine; 'random': a random legal move). Returns the plies played."""
    game = getattr(board, "game", None)
    for ply in range(plies):
        if game is not None and game.outcome() is not None or \
                game is None and board.is_game_over(claim_draw=True):
            return ply
        engine_turn = opponent is None or ply % 2 == 0
        if engine_turn:
            move = engine.play(board, limit).move
        else:
            legal = game.legal_uci() if game is not None else [m.uci() for m in board.legal_moves]
            move = chess.Move.from_uci(rng.choice(legal))
        if game is None:
            assert move in board.legal_moves, (board.fen(), move)
        else:
            assert game.is_legal(move.uci()), (game.fen(), move)
        board.push(move)
    return plies


def test_python_chess_plays_the_engine_against_itself(engine):
    board = chess.Board()
    _play(engine, board, 12, chess.engine.Limit(depth=1))
    assert len(board.move_stack) == 12 or board.is_game_over(claim_draw=True)


def test_python_chess_plays_the_engine_against_a_random_mover(engine):
    board = chess.Board()
    _play(engine, board, 12, chess.engine.Limit(nodes=60), "random", random.Random(1))
    assert len(board.move_stack) == 12 or board.is_game_over(claim_draw=True)


@pytest.mark.parametrize("variant", ["knightmate-rules", "capture-to-win", "first-promotion-wins"])
def test_python_chess_drives_a_preset_through_uci_variant(engine, variant):
    board = preset_board(variant)
    _play(engine, board, 8, chess.engine.Limit(depth=1), "random", random.Random(2))
    assert engine.options["UCI_Variant"].var and variant in engine.options["UCI_Variant"].var


def test_analysis_reports_scores_and_pvs_python_chess_reads(engine):
    info = engine.analyse(chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"),
                          chess.engine.Limit(depth=2))
    assert info["score"].white() == chess.engine.Mate(1)
    assert info["pv"][0] == chess.Move.from_uci("a1a8")


def _stockfish_game(engine, plies):
    if STOCKFISH is None:
        pytest.skip("stockfish is not installed (make stockfish, or "
                    "apt-get install stockfish): the game against it is not played")
    sf = chess.engine.SimpleEngine.popen_uci(STOCKFISH, timeout=60)
    try:
        sf.configure({"Skill Level": 0, "Threads": 1, "Hash": 16})
        board = chess.Board()
        for ply in range(plies):
            if board.is_game_over(claim_draw=True):
                break
            player, limit = (engine, chess.engine.Limit(nodes=80)) if ply % 2 == 0 else \
                (sf, chess.engine.Limit(depth=1))
            move = player.play(board, limit).move
            assert move in board.legal_moves, (board.fen(), move)
            board.push(move)
        return board
    finally:
        sf.quit()


def test_a_short_game_against_stockfish(engine):
    board = _stockfish_game(engine, 16)
    assert len(board.move_stack) == 16 or board.is_game_over(claim_draw=True)


@pytest.mark.slow
def test_a_whole_game_against_stockfish(engine):
    board = _stockfish_game(engine, 400)
    assert board.is_game_over(claim_draw=True) or len(board.move_stack) == 400


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["knightmate-rules", "capture-all", "extinction-chess",
                                     "suicide-chess", "double-move"])
def test_whole_preset_games_against_a_random_mover(engine, variant):
    board = preset_board(variant)
    n = _play(engine, board, 300, chess.engine.Limit(nodes=150), "random", random.Random(3))
    assert board.game.outcome() is not None or n == 300


@pytest.mark.slow
def test_a_whole_self_play_game(engine):
    board = chess.Board()
    _play(engine, board, 300, chess.engine.Limit(nodes=150))
    assert board.is_game_over(claim_draw=True) or len(board.move_stack) == 300
