"""Games on boards other than 8x8: FIDE's pieces and rules on the rule set's
board (``fide_rules(board_shape(w, h))``), checked against Fairy-Stockfish.

pyffish loads small variants.ini sections that put FIDE's army on the same
boards (castling to the i-file on 10x8, as Capablanca chess; double steps
from the second rank of each side and promotion on the last, which a section
over ``chess`` must say on a board of other than eight ranks); along seeded
random playouts both must agree on the legal moves at every ply and on
perft(2) at sampled plies. The rest reads and writes the game on its board:
FEN, ``str``, square names, SAN and PGN back and forth, ``explain``'s words,
and the typed errors for a position or a move of another board.
"""
from __future__ import annotations

import random

import pytest

from chess_rules.errors import ArgumentError, FenError, IllegalMoveError
from chess_rules.fide import fide_rules
from chess_rules.game import Game, castling_squares
from chess_rules.shape import board_shape

sf = pytest.importorskip("pyffish")

INI = """
[hrshape-10x8:chess]
maxFile = j
castlingKingsideFile = i
castlingQueensideFile = c
startFen = rnbqkbnrrr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKBNRRR w KQkq - 0 1

[hrshape-8x10:chess]
maxRank = 10
doubleStepRegionBlack = *9
promotionRegionWhite = *10
startFen = rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1

[hrshape-5x5:chess]
maxFile = e
maxRank = 5
castling = false
doubleStepRegionBlack = *4
promotionRegionWhite = *5
startFen = rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1
"""
sf.load_variant_config(INI)

CAPA_CASTLE = "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1"

CASES = [
    # (pyffish variant, width, height, start, king files)
    ("hrshape-10x8", 10, 8, "rnbqkbnrrr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKBNRRR w KQkq - 0 1",
     (8, 2)),
    ("hrshape-10x8", 10, 8, CAPA_CASTLE, (8, 2)),
    ("hrshape-8x10", 8, 10, "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", None),
    ("hrshape-5x5", 5, 5, "rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1", None),
]


def rules_on(width, height, king_files=None):
    rules = fide_rules(board_shape(width, height))
    if king_files is not None:
        rules.config["castling-king-files"] = king_files
    return rules


@pytest.mark.parametrize("variant,width,height,fen,files", CASES)
def test_legal_moves_and_perft_agree_with_fairy_stockfish(variant, width, height, fen, files):
    rules = rules_on(width, height, files)
    rng = random.Random(f"{variant} {fen}")
    for _ in range(3):
        game = Game(fen, ruleset=rules)
        played: list[str] = []
        for ply in range(50):
            ours = sorted(game.legal_uci())
            assert ours == sorted(sf.legal_moves(variant, fen, played)), (played, ply)
            if ply % 17 == 5:
                assert game.perft(2) == _fsf_perft(variant, fen, played, 2), played
            if not ours:
                break
            # the FEN we write is the one Fairy-Stockfish writes
            assert game.fen().split(" ")[:3] == sf.get_fen(variant, fen, played).split(" ")[:3]
            move = rng.choice(ours)
            game.push(move)
            played.append(move)


def test_perft_counts_agree_from_the_start():
    for variant, width, height, fen, files in CASES:
        game = Game(fen, ruleset=rules_on(width, height, files))
        # pyffish has no perft: count its tree by its legal moves
        assert game.perft(2) == _fsf_perft(variant, fen, [], 2), variant


def _fsf_perft(variant, fen, played, depth):
    moves = sf.legal_moves(variant, fen, played)
    if depth == 1:
        return len(moves)
    return sum(_fsf_perft(variant, fen, played + [m], depth - 1) for m in moves)


def test_castling_on_ten_files_goes_to_the_i_file():
    game = Game(CAPA_CASTLE, ruleset=rules_on(10, 8, (8, 2)))
    assert "f1i1" in game.legal_uci() and "f1c1" in game.legal_uci()
    assert game.san("f1i1") == "O-O"
    game.push_san("O-O")
    assert game.fen().startswith("r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R6RK1 b kq")
    game.push("f8c8")
    assert game.piece_at("d8").values["type"] == "rook"
    assert castling_squares("q", 95, board_shape(10, 10)) == ("black", "queen", 95, 92, 90, 93)


def test_board_reads_and_writes_on_its_own_squares():
    rules = rules_on(8, 10)
    game = Game(CASES[2][3], ruleset=rules)
    game.push("e2e4")
    assert game.fen() == "rnbqkbnr/pppppppp/8/8/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert game.piece_at("e10").values["type"] == "king"
    assert game.piece_at(76).values["square"] == 76     # e10 = 4 + 8 * 9
    assert str(game).splitlines()[0] == "r n b q k b n r"
    assert len(str(game).splitlines()) == 10
    game.push("e9e7")
    assert game.fen(en_passant="all").split(" ")[3] == "e8"     # a target on rank 8
    assert Game(game.fen(en_passant="all"), ruleset=rules).ep_squares() == [60]
    assert game.san("d1h5") == "Qh5"
    with pytest.raises(ArgumentError, match=r"0\.\.79"):
        game.piece_at(80)


def test_san_and_pgn_round_trip_on_a_ten_rank_board():
    rules = rules_on(8, 10)
    fen = "4k3/P7/8/8/8/8/8/8/8/4K3 w - - 0 1"
    game = Game(fen, ruleset=rules)
    assert game.san("a9a10q") == "a10=Q+"
    game.push_san("a10=Q+")
    pgn = game.pgn()
    assert "1. a10=Q+" in pgn and '[FEN "4k3/P7' not in pgn.split("\n")[-2]
    back = Game.from_pgn(pgn, ruleset=rules)
    assert back.fen() == game.fen() == "Q3k3/8/8/8/8/8/8/8/8/4K3 b - - 0 1"


def test_explain_names_the_boards_squares():
    game = Game(CASES[0][3], ruleset=rules_on(10, 8, (8, 2)))
    ex = game.explain("j1j3")
    assert not ex.legal and "j1" in ex.reason and "j2" in ex.reason, ex.reason
    assert game.explain("i2i4").legal
    with pytest.raises(IllegalMoveError, match="i1"):
        game.push("i1i5")


def test_is_legal_reads_moves_on_the_rule_sets_board():
    for name in ("capablanca", "grand", "gardner"):
        game = Game.from_variant(name)
        legal = game.legal_uci()
        assert all(game.is_legal(u) for u in legal)
        # a move on the board no rule makes, and one off the board
        assert not game.is_legal(legal[0][:2] + legal[0][:2])
        assert not game.is_legal("a1m1")


def test_a_position_of_another_board_is_refused():
    rules = rules_on(10, 8)
    with pytest.raises(FenError):
        Game("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", ruleset=rules)
    with pytest.raises(ArgumentError, match="10x8 board has no start position"):
        Game(ruleset=rules)


def test_a_standard_rule_set_is_unchanged():
    assert fide_rules().shape is board_shape(8, 8)
    assert fide_rules(board_shape(8, 8)).topology is fide_rules().topology


def test_a_refused_pgn_move_on_ten_files_names_its_squares():
    from chess_rules.errors import PgnMoveError
    from chess_rules.variants import load_variant
    rules = load_variant("capablanca")
    start = rules.config["start-fen"]
    with pytest.raises(PgnMoveError, match=r"2\. Cj5 \(h1j5\): no rule moves the chancellor on h1"):
        Game.from_pgn(f'[FEN "{start}"]\n[SetUp "1"]\n\n1. Ab3 a6 2. Cj5 *', ruleset=rules)
    with pytest.raises(PgnMoveError, match=r"\(j2j5\): no rule moves the pawn on j2 to j5"):
        Game.from_pgn(f'[FEN "{start}"]\n[SetUp "1"]\n\n1. j5 *', ruleset=rules)
    game = Game(ruleset=rules)
    for san in ("Ab3", "a6", "Ci3"):
        game.push_san(san)
    assert Game.from_pgn(game.pgn(), ruleset=rules).fen() == game.fen()


def test_a_catalogue_variants_pgn_names_it_and_reads_back_alone(tmp_path):
    from houserules.cli import main
    game = Game.from_variant("grand")
    for uci in ("a3a5", "b8b6", "b2c4"):
        game.push(uci)
    text = game.pgn()
    assert '[Variant "grand"]' in text
    back = Game.from_pgn(text)
    assert back.fen() == game.fen() and back.ruleset.shape is board_shape(10, 10)
    path = tmp_path / "grand.pgn"
    path.write_text(text, encoding="utf-8")
    assert main(["replay", str(path)]) == 0


HILL = '''rule "capa.hill" stage result salience 70
  "A king on j5 wins at once."
when
  game()
  piece(type: king, color: ?c, square: ?t & member(j5))
  not result()
then
  assert result(winner: ?c, reason: "hill")
end
'''


def test_a_rule_file_names_the_squares_of_the_rule_sets_board():
    from chess_rules.rule_files import load_rule_text
    from chess_rules.variants import load_variant
    rules = load_rule_text(load_variant("capablanca"), HILL)
    won = Game("5k4/10/10/9K/10/10/10/10 b - - 0 1", ruleset=rules).outcome()
    assert won is not None and won.reason == "hill" and won.winner == "white"
    beside = Game("5k4/10/10/8K1/10/10/10/10 b - - 0 1", ruleset=rules).outcome()
    assert beside is None or beside.reason != "hill"
    # on 8x8, j5 is no square: the file is refused where it names it
    with pytest.raises(Exception, match=r"'j5' is none \(write a square's name, a1 \.\. h8"):
        load_rule_text(fide_rules(), HILL)
