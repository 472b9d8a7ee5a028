"""DFEN in and out: round trips, several en-passant targets, typed errors."""
from __future__ import annotations

import pytest

from chess_rules.errors import ChessError, FenError
from dice import DfenError, format_dfen, parse_dfen, with_dice

CANONICAL = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 -",
    "8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1 NPP",
    "4k3/8/8/8/2pPPp2/8/8/4K3 b - d3e3 0 1 PP",
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w Kq - 12 40 KRP",
    "4R3/8/8/8/8/8/PP6/4K3 w - - 0 1 PP",        # Black's king taken: a finished game
]


@pytest.mark.parametrize("text", CANONICAL)
def test_round_trip(text):
    assert format_dfen(parse_dfen(text)) == text


def test_dice_any_order_and_case_kept_in_order_upper_case():
    pos = parse_dfen("8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1 pNp")
    assert pos.dice == ("P", "N", "P")
    assert pos.faces == [1, 1, 2]
    assert format_dfen(pos).endswith(" PNP")


def test_plain_fen_reads_as_no_dice():
    assert parse_dfen("8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1").dice == ()
    assert format_dfen(parse_dfen("8/8/8/2k5/8/1N6/2P5/K7 w - -")) == \
        "8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1 -"


def test_several_targets_written_in_square_order():
    pos = parse_dfen("4k3/8/8/8/2pPPp2/8/8/4K3 b - e3d3 0 1 -")
    assert format_dfen(pos).split()[3] == "d3e3"


def test_both_colours_targets_at_once():
    # White made e3 this turn; Black's c6 is still there for White to take
    text = "4k3/8/8/2pP4/4P3/8/8/4K3 w - c6e3 0 1 P"
    assert format_dfen(parse_dfen(text)).split()[3] == "e3c6"     # a1..h8 order
    from dice import apply_move, legal_uci_moves
    assert "d5c6" in legal_uci_moves(text)
    assert apply_move(text, "d5c6") == "4k3/8/2P5/8/4P3/8/8/4K3 w - e3 0 1 -"


@pytest.mark.parametrize("text, field, words", [
    ("8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1 NPP extra", "field_count", "8 fields"),
    ("8/8/8/2k5/8/1N6/2P5/K7 w - - 0", "field_count", "5 fields"),
    ("8/8/8/2k5/8/1N6/2P5/K6 w - - 0 1 -", "placement", ""),
    ("8/8/8/8/8/8/8/8 w - - 0 1 -", "placement", "king"),
    ("P7/8/8/2k5/8/1N6/8/K7 w - - 0 1 -", "placement", "a8"),
    ("8/8/8/2k5/8/1N6/2P5/K7 x - - 0 1 -", "side", ""),
    ("8/8/8/2k5/8/1N6/2P5/K7 w Z - 0 1 -", "castling", ""),
    ("8/8/8/2k5/8/1N6/2P5/K7 w - e4 0 1 -", "en_passant", "rank 3 or 6"),
    ("8/8/8/2k5/8/1N6/2P5/K7 w - c3 0 1 -", "en_passant", "c4"),
    ("8/8/8/2k5/8/1N6/2P5/K7 w - c3x 0 1 -", "en_passant", ""),
    ("8/8/8/2k5/8/1N6/2P5/K7 w - - -1 1 -", "halfmove", ""),
    ("8/8/8/2k5/8/1N6/2P5/K7 w - - 0 0 -", "fullmove", ""),
    ("8/8/8/2k5/8/1N6/2P5/K7 w - - 0 " + "1" * 5000 + " -", "fullmove", "5000 digits: too many"),
    ("8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1 NX", "dice", "'X'"),
    ("8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1 NNNN", "dice", "4 dice"),
    ("8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1 7", "dice", "'7'"),
    # an ep-pawn: token cannot move a target off its rank, or give it another pawn
    ("4k3/8/8/3p4/8/2P5/8/4K3 w - d4 0 1 PPP ep-pawn:d4=d5", "en_passant", "rank 3 or 6"),
    ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1 P ep-pawn:d6=e5", "extended", "the pawn that made it, on d5"),
    # a winner: token that the board contradicts
    ("8/8/8/8/8/8/8/4K3 w - - 0 1 - winner:black", "extended", "the board shows white won"),
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 PPP winner:black", "extended", "white's king stands on e1"),
])
def test_typed_errors_name_the_field(text, field, words):
    with pytest.raises(DfenError) as e:
        parse_dfen(text)
    err = e.value
    assert isinstance(err, FenError) and isinstance(err, ChessError)
    assert err.field == field
    assert str(err).startswith(f"bad DFEN ({field}):")
    assert words in str(err)


def test_not_text():
    with pytest.raises(DfenError):
        parse_dfen(None)


def test_with_dice():
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 -"
    assert with_dice(start, [1, 6, 2]).endswith(" PKN")
    assert with_dice(start, "qrn").endswith(" QRN")
    assert with_dice(with_dice(start, [1]), []).endswith(" -")
    with pytest.raises(DfenError):
        with_dice(start, [0])
    with pytest.raises(DfenError):
        with_dice(start, [1, 1, 1, 1])


def test_tokens_the_board_agrees_with_are_read():
    assert parse_dfen("8/8/8/8/8/8/8/4K3 w - - 0 1 - winner:white").tokens == \
        {"winner": ("white", "king captured")}
    assert parse_dfen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1 P ep-pawn:d6=d5").ep_pawns == {43: 35}


@pytest.mark.parametrize("faces", [None, ["PP"], [""], ["-"], 3])
def test_with_dice_refuses_what_is_not_dice(faces):
    with pytest.raises(DfenError):
        with_dice("4k3/8/8/8/8/8/8/4K3 w - - 0 1 -", faces)


@pytest.mark.parametrize("dice", [[7], [None], [True], ["zz"], "KNIGHT", [1, 2, 3, 4], 5])
def test_format_dfen_refuses_what_is_not_dice(dice):
    pos = parse_dfen("4k3/8/8/8/8/8/8/4K3 w - - 0 1 NPP")
    with pytest.raises(DfenError) as ei:
        format_dfen(pos, dice)
    assert ei.value.field == "dice"


def test_format_dfen_takes_faces_types_and_letters_and_a_parsed_position():
    pos = parse_dfen("4k3/8/8/8/8/8/8/4K3 w - - 0 1 -")
    assert format_dfen(pos, [2, "pawn", "q"]).endswith(" NPQ")
    assert format_dfen(pos, "npq").endswith(" NPQ")
    with pytest.raises(TypeError, match="parsed position"):
        format_dfen("4k3/8/8/8/8/8/8/4K3 w - - 0 1 -")


def test_key_value_tokens_round_trip():
    # moved:e2 changes the moves (no double step): the pair must not drop it
    import dice
    text = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 KPP moved:e2"
    assert format_dfen(parse_dfen(text)) == text
    assert "e2e4" not in dice.legal_uci_moves(format_dfen(parse_dfen(text)))
    assert with_dice(text, "P") == "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 P moved:e2"


def test_a_ruleset_that_is_not_one_is_a_type_error():
    import dice
    with pytest.raises(TypeError, match=r"RuleSet or None, not str \(load a preset"):
        dice.legal_uci_moves("4k3/8/8/8/8/8/8/4K3 w - - 0 1 K", "wrap-board")
    with pytest.raises(TypeError, match="RuleSet or None, not int"):
        parse_dfen("4k3/8/8/8/8/8/8/4K3 w - - 0 1 K", 5)


@pytest.mark.parametrize("call", [
    lambda: parse_dfen("4k3/8/8/8/8/8/8/4K3 w - - 0 1 K", "wrap-board"),
    lambda: format_dfen("4k3/8/8/8/8/8/8/4K3 w - - 0 1 -"),
    lambda: __import__("dice").DiceGame("4k3/8/8/8/8/8/8/4K3 w - - 0 1 K", ruleset=5),
])
def test_an_argument_of_the_wrong_kind_is_a_chess_error_as_the_api_promises(call):
    # dice's docstring: bad input raises a typed error deriving from ChessError
    from chess_rules.errors import ArgumentError, ChessError
    with pytest.raises(ChessError) as e:
        call()
    assert isinstance(e.value, ArgumentError) and isinstance(e.value, TypeError)


def test_dice_chess_over_a_users_own_rules_reads_back_what_it_writes():
    # a DFEN over rules of a user's own was read as plain Dice Chess over FIDE:
    # King of the Hill's win (both kings standing) was written and then refused,
    # and Horde's pawns on the first rank could not be set up at all
    import dice
    from chess_rules.rule_files import load_rule_text
    from chess_rules.fide import fide_rules
    koth = load_rule_text(fide_rules(), '''
rule "koth.hill" stage result salience 70
when
  game()
  piece(type: king, color: ?c, square: ?t & member(27, 28, 35, 36))
  not result()
then
  assert result(winner: ?c, reason: "king of the hill")
end
''', "koth.hr")
    won = dice.apply_move("4k3/8/8/8/8/4K3/8/8 w - - 0 1 KK", "e3e4", ruleset=koth)
    assert won.endswith(" winner:white=king_of_the_hill")
    assert dice.legal_uci_moves(won, ruleset=koth) == []
    back = fide_rules()
    back.royal_types["white"] = ()          # no white king: a pawn may stand on a1
    assert "a1a2" in dice.legal_uci_moves("4k3/8/8/8/8/8/8/P7 w - - 0 1 P", ruleset=back)
    # over FIDE as it comes, Dice Chess's checks stand
    for rs in (None, fide_rules()):
        with pytest.raises(DfenError, match="a pawn stands on a1"):
            parse_dfen("4k3/8/8/8/8/8/8/P3K3 w - - 0 1 P", rs)
        with pytest.raises(DfenError, match="king stands on e8"):
            parse_dfen("4k3/8/8/8/4K3/8/8/8 w - - 1 1 K winner:white", rs)
