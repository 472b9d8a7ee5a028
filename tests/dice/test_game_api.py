"""DiceGame takes what Game takes, and says so when a Game method has no
Dice Chess meaning."""
import pytest

import presets
from chess_rules.errors import ChessError
from dice import DiceGame

DFEN = "4k3/8/8/8/8/8/8/4K3 w - - 0 1 KKK"


def test_dice_game_takes_presets_by_id_as_game_does():
    g = DiceGame(DFEN, presets=["piece-hp"])
    assert g.ruleset.presets == ["piece-hp"]
    assert "dice.die-filter" in g.ruleset.productions
    assert DiceGame(DFEN, presets="piece-hp").ruleset.presets == ["piece-hp"]
    cfg = {"berolina-pawns": {"scope": "white"}}
    assert DiceGame(DFEN, presets=["berolina-pawns"], config=cfg).ruleset.presets == \
        ["berolina-pawns"]


def test_dice_game_from_fen_is_a_dice_game():
    g = DiceGame.from_fen(DFEN)
    assert isinstance(g, DiceGame) and g.dfen() == DFEN
    g = DiceGame.from_fen(DFEN, presets=["piece-hp"])
    assert g.ruleset.presets == ["piece-hp"]
    g = DiceGame.from_fen(DFEN, ruleset=presets.load("wrap-board"))
    assert "e1d1" in g.legal_uci()


def test_presets_and_a_ruleset_together_are_refused_as_by_game():
    with pytest.raises(ChessError, match="presets .* or a ruleset, not both"):
        DiceGame(DFEN, ruleset=presets.load("piece-hp"), presets=["wrap-board"])
    with pytest.raises(presets.UnknownPresetError, match="did you mean 'piece-hp'"):
        DiceGame(DFEN, presets=["piece-hq"])


def test_dice_game_rolls_with_a_seed_or_none_as_dice_roll_does():
    import dice
    fresh = "4k3/8/8/8/8/8/8/4K3 w - - 0 1 -"
    g = DiceGame(fresh)
    g.roll(7)
    assert g.dfen() == dice.roll(fresh, 7)
    g = DiceGame(fresh)
    g.roll()
    assert len(g.dice()) == 3
    g = DiceGame(fresh)
    with pytest.raises(dice.RollError, match="random.Random, a seed"):
        g.roll("seven")
    assert g.dfen() == fresh


@pytest.mark.parametrize("call, words", [
    (lambda g: g.repetitions(), "no repetition history"),
    (lambda g: g.pgn(), "no PGN form"),
    (lambda g: type(g).from_pgn("1. e4 *"), "no PGN form"),
])
def test_game_records_dice_chess_lacks_are_refused_saying_so(call, words):
    import dice
    g = DiceGame(DFEN)
    g.push("e1e2")
    with pytest.raises(dice.DiceError, match=words):
        call(g)
    assert g.dfen() == "4k3/8/8/8/8/8/4K3/8 w - - 1 1 KK"


def test_a_side_with_no_micro_move_is_not_stalemated():
    # Dice Chess has no stalemate: a roll no piece can use passes the turn
    g = DiceGame("4k3/8/8/8/8/8/8/4K3 w - - 0 1 Q")
    assert g.legal_moves() == []
    assert not g.is_stalemate() and not g.is_checkmate()
    assert g.outcome() is None and not g.is_game_over()
    assert not DiceGame("4k3/8/8/8/8/8/8/4K3 w - - 0 1 -").is_stalemate()


@pytest.mark.parametrize("call", [
    lambda: DiceGame(DFEN, "piece-hp"),
    lambda: __import__("dice").legal_uci_moves(DFEN, ["piece-hp"]),
    lambda: __import__("dice").apply_move(DFEN, "e1e2", "piece-hp"),
    lambda: __import__("chess_rules.game").game.Game(None, ["piece-hp"]),
])
def test_a_ruleset_that_is_not_one_is_the_same_chess_error_everywhere(call):
    # Dice Chess raised a bare TypeError, outside the ChessError family its
    # docstring promises, where Game raised an ArgumentError
    from chess_rules.errors import ArgumentError, NotARuleSetError
    with pytest.raises(NotARuleSetError, match=r"not (str|list) \(load a preset") as ei:
        call()
    assert isinstance(ei.value, ArgumentError) and isinstance(ei.value, TypeError)


@pytest.mark.parametrize("make", [
    lambda p: DiceGame(presets=p),
    lambda p: __import__("chess_rules.game").game.Game(presets=p),
    lambda p: __import__("chess_rules.game").game.Game.from_fen(
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1", p),
])
@pytest.mark.parametrize("given, words", [
    ("rule set", r"not RuleSet: a loaded rule set is given as ruleset="),
    (5, "not int"),
])
def test_presets_that_are_not_ids_are_a_preset_error_everywhere(make, given, words):
    # a rule set passed where the ids go (Game.from_fen's second argument is
    # presets, Game's is ruleset) fell over with a TypeError from unpacking it
    from presets import load
    from presets.base import UnknownPresetError
    if given == "rule set":
        given = load("wrap-board")
    with pytest.raises(UnknownPresetError, match=r"presets are given by id.*" + words):
        make(given)


def test_dice_game_ends_a_turn_only_as_dice_end_turn_does():
    # DiceGame had only run_end_turn, which checks nothing: a turn with its
    # dice still playable, or a finished game, was handed over
    import dice
    g = DiceGame(DFEN)
    with pytest.raises(dice.EndTurnError, match="a legal micro-move is left: e1d1, ") as ei:
        g.end_turn()
    assert ei.value.kind == "moves-left" and g.dfen() == DFEN
    over = DiceGame("4k3/8/8/8/8/8/8/4K2r b - - 0 1 R")
    over.push("h1e1")
    with pytest.raises(dice.EndTurnError, match="game is over") as ei:
        over.end_turn()
    assert ei.value.kind == "game-over"
    g = DiceGame("4k3/8/8/8/8/8/8/4K3 w - - 0 1 Q")
    g.end_turn()
    assert g.dfen() == dice.end_turn("4k3/8/8/8/8/8/8/4K3 w - - 0 1 Q") == \
        "4k3/8/8/8/8/8/8/4K3 b - - 0 1 -"


def test_dice_game_fen_takes_game_fens_argument():
    # fen was dfen itself, so fen(en_passant=...) was a bare TypeError
    from chess_rules.errors import ArgumentError
    g = DiceGame("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 PPK")
    g.push("e2e4")
    assert g.fen() == g.fen(en_passant="all") == g.dfen() == \
        "4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1 PK"
    with pytest.raises(ArgumentError, match="every en-passant target"):
        g.fen(en_passant="legal")


def test_a_plain_game_on_dice_chess_rules_points_at_dice_game():
    # Game read the DFEN's dice as a bad token ("'PPK' is not a key:value
    # token"), and from the start position it had no legal move at all
    from chess_rules.errors import ArgumentError
    from chess_rules.game import Game
    from dice import dice_rules
    for fen in (None, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 PPK"):
        with pytest.raises(ArgumentError, match="played with dice.DiceGame"):
            Game(fen, ruleset=dice_rules())
    assert DiceGame("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 PPK", dice_rules()).legal_uci()


def test_dice_game_push_refuses_with_the_classes_apply_move_uses():
    # push raised a plain IllegalMoveError where apply_move says NoDieError,
    # GameOverError or NotLegalMoveError: a caller had to catch two ways
    import dice
    cases = [("4k3/8/8/8/8/8/8/4K3 w - - 0 1 NNN", "e1e2", dice.NoDieError),
             ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 KKK", "e1e3", dice.NotLegalMoveError)]
    for dfen, u, cls in cases:
        g = DiceGame(dfen)
        with pytest.raises(cls) as ei:
            g.push(u)
        with pytest.raises(cls):
            dice.apply_move(dfen, u)
        assert ei.value.rule == dice.explain_move(dfen, u).rule
        assert g.dfen() == dfen
    g = DiceGame("4k3/8/8/8/8/8/8/4K2r b - - 0 1 RR")
    g.push("h1e1")
    with pytest.raises(dice.GameOverError, match="the game is over"):
        g.push("e8e7")
    with pytest.raises(dice.GameOverError):
        dice.apply_move(g.dfen(), "e8e7")
