"""Reading PGN (chess_rules.pgn, chess_rules.replay): each syntax feature of the
standard as real files have it, and each error with its line and column."""
from __future__ import annotations

import io
import pickle
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chess_rules.errors import (ArgumentError, ChessError, IllegalMoveError, PgnError,
                                PgnMoveError, PgnSyntaxError)
from chess_rules.game import Game
from chess_rules.pgn import MAX_VARIATION_DEPTH, read_games

def sans(text):
    return [[m.san for m in g.moves] for g in read_games(text)]


def where(text, word, nth=0):
    """(line, column) of the nth occurrence of word in text, 1-based."""
    pos = -1
    for _ in range(nth + 1):
        pos = text.index(word, pos + 1)
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


def word_at(text, word):
    """(line, column) of ``word`` standing alone in text (the first time)."""
    pos = re.search(rf"(?<!\S){re.escape(word)}(?!\S)", text).start()
    return text.count("\n", 0, pos) + 1, pos - (text.rfind("\n", 0, pos) + 1) + 1


# ---------------------------------------------------------------- tags


def test_tags_in_order_with_escaped_quotes_and_backslashes():
    text = ('[Event "F/S Return Match"]\n[White "Fischer, \\"Bobby\\""]\n'
            '[Black "back\\\\slash"]\n[Odd "a\\x"]\n\n1. e4 *\n')
    (g,) = read_games(text)
    assert list(g.tags) == ["Event", "White", "Black", "Odd"]
    assert g.tags["White"] == 'Fischer, "Bobby"'
    assert g.tags["Black"] == "back\\slash"
    assert g.tags["Odd"] == "a\\x"           # not an escape PGN has: kept as written
    assert g.tag_positions["White"] == where(text, '"Fischer')


def test_tags_on_one_line_and_spaced_inside_brackets():
    (g,) = read_games('[Event "a"][Site "b"]  [ Round  "3" ]\n1. d4 *')
    assert g.tags == {"Event": "a", "Site": "b", "Round": "3"}


def test_tag_names_with_the_punctuation_python_chess_reads():
    # python-chess (the differential's oracle) reads names with - + # = : in them,
    # as some databases write them; they were refused as "expected a tag value"
    text = '[White-Elo "2100"]\n[Time:Control "300+2"]\n[_Ours "x"]\n\n1. e4 *'
    (g,) = read_games(text)
    assert g.tags == {"White-Elo": "2100", "Time:Control": "300+2", "_Ours": "x"}
    import chess.pgn
    assert dict(chess.pgn.read_game(io.StringIO(text)).headers)["Time:Control"] == "300+2"


def test_an_exported_game_reads_back_with_its_tags():
    g = Game()
    for u in ["e2e4", "e7e5", "g1f3"]:
        g.push(u)
    (pg,) = read_games(g.pgn({"White": 'Ann "A"', "Annotator": "me"}))
    assert pg.tags["White"] == 'Ann "A"' and pg.tags["Annotator"] == "me"
    assert pg.tags["Date"] == "????.??.??" and pg.result == "*"
    assert [m.san for m in pg.moves] == ["e4", "e5", "Nf3"]


# ---------------------------------------------------------------- movetext


def test_move_numbers_in_every_form():
    assert sans("1. e4 e5 2. Nf3 2... Nc6 3.Bb5 3...a6 4 . Ba4 12. O-O *") == \
        [["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "O-O"]]
    assert sans("e4 e5 Nf3 *") == [["e4", "e5", "Nf3"]]          # numbers are optional


def test_san_forms():
    text = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O 0-0-0+ 6. Ng1f3 e8=Q# *"
    assert sans(text) == [["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O",
                           "0-0-0+", "Ng1f3", "e8=Q#"]]


def test_castling_with_zeros_and_en_passant_suffix_are_played():
    text = ("1. e4 Nf6 2. e5 d5 3. exd6 e.p. e6 4. Nf3 Be7 5. Bc4 0-0 6. 0-0 b6 7. d4 Bb7 "
            "8. d5 c5 9. dxc6e.p. *")
    g = Game.from_pgn(text)
    ucis = [m.uci() for m in g.move_stack]
    assert ucis[4] == "e5d6" and ucis[9] == "e8g8" and ucis[10] == "e1g1"
    assert ucis[-1] == "d5c6" and g.move_stack[-1].kind == "en-passant"


def test_annotation_glyphs_and_nags_go_to_the_move_before_them():
    (g,) = read_games("1. e4! e5? 2. Nf3!! Nc6?? 3. Bb5!? a6?! 4. Ba4 $14 $1 Nf6 ! *")
    nags = [(m.san, m.nags) for m in g.moves]
    assert nags == [("e4", (1,)), ("e5", (2,)), ("Nf3", (3,)), ("Nc6", (4,)), ("Bb5", (5,)),
                    ("a6", (6,)), ("Ba4", (14, 1)), ("Nf6", (1,))]
    assert Game.from_pgn("1. e4! e5? 2. Nf3!! Nc6?? 3. Bb5!? a6?! 4. Ba4 $14 *").fen() == \
        "r1bqkbnr/1ppp1ppp/p1n5/4p3/B3P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 1 4"


def test_comments_braces_across_lines_semicolons_and_escape_lines():
    text = ("% an escape line [Event \"not a tag\"]\n"
            "[Event \"E\"]\n"
            "{before the first move} 1. e4 {a comment\nover two lines} e5 ; to the end 2. f4\n"
            "%2. d4 hidden\n"
            "2. Nf3 {x (not a variation) ; not a line comment} Nc6 *\n")
    (g,) = read_games(text)
    assert g.tags == {"Event": "E"} and g.comments == ("before the first move",)
    assert [m.san for m in g.moves] == ["e4", "e5", "Nf3", "Nc6"]
    assert g.moves[0].comments == ("a comment over two lines",)
    assert g.moves[2].comments == ("x (not a variation) ; not a line comment",)


def test_variations_are_kept_and_not_played():
    text = "1. e4 e5 (1... c5 2. Nf3 (2. Nc3 Nc6) d6) (1... e6) 2. Nf3 (2. Qh5?! Nc6 *) Nc6 1-0"
    (g,) = read_games(text)
    assert [m.san for m in g.moves] == ["e4", "e5", "Nf3", "Nc6"]
    e5 = g.moves[1]
    assert [[m.san for m in v] for v in e5.variations] == [["c5", "Nf3", "d6"], ["e6"]]
    assert [m.san for m in e5.variations[0][1].variations[0]] == ["Nc3", "Nc6"]
    assert g.moves[2].variations[0][0].nags == (6,)
    assert g.result == "1-0"
    assert Game.from_pgn(text).fen() == \
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"


def test_variations_nest_deeply_without_recursion():
    deep = "1. e4 " + "(1. d4 " * MAX_VARIATION_DEPTH + ")" * MAX_VARIATION_DEPTH + " *"
    (g,) = read_games(deep)
    v, depth = g.moves[0], 0
    while v.variations:
        v, depth = v.variations[0][0], depth + 1
    assert depth == MAX_VARIATION_DEPTH
    too_deep = "1. e4 " + "(1. d4 " * 5000 + ")" * 5000 + " *"
    with pytest.raises(PgnSyntaxError, match="nest more than") as ei:
        read_games(too_deep)
    assert ei.value.line == 1


@pytest.mark.parametrize("result", ["1-0", "0-1", "1/2-1/2", "*"])
def test_results(result):
    (g,) = read_games(f'[Result "{result}"]\n\n1. e4 {result}\n')
    assert g.result == result


def test_result_from_the_tag_when_the_movetext_has_none():
    (g,) = read_games('[Result "0-1"]\n\n1. e4 e5')
    assert g.result == "0-1" and len(g.moves) == 2
    (g,) = read_games("1. e4 e5")
    assert g.result == "*"


def test_several_games_with_and_without_tags_and_results():
    text = ('[Event "one"]\n\n1. e4 e5 1-0\n\n'
            '[Event "two"]\n\n1. d4 d5\n\n'            # no result: ends at the next tags
            '[Event "three"]\n\n*\n\n'                 # no moves
            '1. c4 0-1\n1. Nf3 1/2-1/2\n')             # no tags
    games = read_games(text)
    assert [g.tags.get("Event") for g in games] == ["one", "two", "three", None, None]
    assert [[m.san for m in g.moves] for g in games] == [["e4", "e5"], ["d4", "d5"], [],
                                                         ["c4"], ["Nf3"]]
    assert [g.result for g in games] == ["1-0", "*", "*", "0-1", "1/2-1/2"]
    assert [(g.line, g.column) for g in games] == [(1, 1), (5, 1), (9, 1), (13, 1), (14, 1)]


def test_empty_text_comments_alone_and_a_bom_hold_no_game():
    assert read_games("") == [] and read_games("  \n\n") == []
    assert read_games("{generated by a tool}\n; nothing else\n% really\n") == []
    assert sans("\ufeff[Event \"x\"]\n1. e4 *") == [["e4"]]


def test_windows_line_ends():
    text = '[Event "x"]\r\n\r\n1. e4 e5\r\n2. Nf3 *\r\n'
    (g,) = read_games(text)
    assert [(m.san, m.line) for m in g.moves] == [("e4", 3), ("e5", 3), ("Nf3", 4)]


def test_move_positions_are_line_and_column():
    text = '[Event "x"]\n\n1. e4 e5\n  2. Nf3 {c} Nc6 *'
    (g,) = read_games(text)
    assert [(m.line, m.column) for m in g.moves] == [
        where(text, "e4"), where(text, "e5"), where(text, "Nf3"), where(text, "Nc6")]


# ---------------------------------------------------------------- rules from the tags


def test_fen_tag_is_the_start():
    fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 30"
    g = Game.from_pgn(f'[SetUp "1"]\n[FEN "{fen}"]\n\n30... Kd7 31. e4 *')
    assert g.fen() == "8/3k4/8/8/4P3/8/8/4K3 b - - 0 31"
    # a FEN tag without SetUp is read too, as python-chess reads it
    assert Game.from_pgn(f'[FEN "{fen}"]\n\n30... Kd7 *').move_stack[0].uci() == "e8d7"


def test_variant_tag_names_the_presets():
    g = Game.from_pgn('[Variant "piece-hp, king-heals"]\n\n1. e4 e5 *')
    assert g.ruleset.presets == ["piece-hp", "king-heals"]
    for name in ("Standard", "chess", "From Position"):
        assert Game.from_pgn(f'[Variant "{name}"]\n\n1. e4 *').ruleset.presets == []


def test_given_presets_or_rule_set_win_over_the_variant_tag():
    text = '[Variant "double-move"]\n\n1. e4 e5 *'
    assert Game.from_pgn(text, presets=[]).ruleset.presets == []
    assert Game.from_pgn(text, presets=["piece-hp"]).ruleset.presets == ["piece-hp"]
    from chess_rules.fide import fide_rules
    assert Game.from_pgn(text, ruleset=fide_rules()).ruleset.presets == []
    with pytest.raises(PgnMoveError, match=r"^3:7: move 1\.\.\. d4 "):
        Game.from_pgn(text.replace("1. e4 e5", "1. e4 d4 e5"), presets=[])


def test_config_configures_the_variant_presets():
    text = '[Variant "monster-rules"]\n\n1. e4 1... e5 d5 2. Nf3 2... Nf6 Nc6 *'
    with pytest.raises(PgnMoveError):
        Game.from_pgn(text)                  # white plays twice by default
    g = Game.from_pgn(text, config={"monster-rules": {"scope": "black"}})
    assert [m.uci() for m in g.move_stack] == ["e2e4", "e7e5", "d7d5", "g1f3", "g8f6", "b8c6"]


@pytest.mark.parametrize("variant", ["chess960", "atomic", "piece-hp, atomic"])
def test_an_unknown_variant_is_refused_naming_it(variant):
    text = f'[Event "x"]\n[Variant "{variant}"]\n\n1. e4 *'
    with pytest.raises(PgnError) as ei:
        Game.from_pgn(text)
    bad = variant.split(", ")[-1]
    assert f"Variant {bad!r} is not a preset" in str(ei.value)
    assert (ei.value.line, ei.value.column) == where(text, f'"{variant}"')
    assert str(ei.value).startswith(f"{ei.value.line}:{ei.value.column}: ")


def test_a_variant_whose_presets_do_not_compose_is_refused_at_the_tag():
    text = '[Variant "dual-king, weak-dual-king"]\n\n1. e4 *'
    with pytest.raises(PgnError, match=r"^1:10: Variant 'dual-king, weak-dual-king': ") as ei:
        Game.from_pgn(text)
    assert isinstance(ei.value.__cause__, ChessError)


def test_a_bad_fen_tag_is_refused_at_the_tag():
    text = '[Event "x"]\n[FEN "8/8/8 w - - 0 1"]\n\n1. e4 *'
    with pytest.raises(PgnError, match=r"^2:6: FEN tag: bad FEN \(placement\)"):
        Game.from_pgn(text)


def test_from_pgn_reads_one_game():
    with pytest.raises(PgnError, match=r"^3:1: the text holds 2 games"):
        Game.from_pgn("1. e4 *\n\n1. d4 *\n")
    with pytest.raises(PgnError, match="holds no game;"):
        Game.from_pgn("{just a comment}")


def test_a_subclass_gets_its_own_class():
    class Mine(Game):
        pass
    assert type(Mine.from_pgn("1. e4 *")) is Mine


# ---------------------------------------------------------------- move errors


MOVE_ERRORS = [
    # text, the bad move, its number, uci asked, rule, reason (a part of it)
    ("1. e4 e5 2. Nf3 Nf6 3. O-O *", "O-O", "3.", "e1g1", "fide.castling", "f1 is not empty"),
    # after the game has ended, by the rule that ended it (not "leaves the king
    # on e1 attacked", which does not say the game was over)
    ("1. f3 e5 2. g4 Qh4# 3. a3 *", "a3", "3.", None, "fide.checkmate-win",
     "the game is already over: 0-1 black wins by checkmate"),
    ("1. e4 e5 2. Ke3 *", "Ke3", "2.", "e1e3", None, "no rule moves the king on e1 to e3"),
    ("1. e4 e5\n2. Nf3 Nc6\n3. Bb5 Bg4 *", "Bg4", "3...", "c8g4", None,
     "cannot pass the pawn on d7"),
    ("1. e4 e5 2. Qg3 *", "Qg3", "2.", "d1g3", None, "no rule moves the queen"),
    ("1. e4 e5 2. Rb1 Rb8 3. Rb4 *", "Rb1", "2.", "a1b1", None, "b1 holds white's own knight"),
    ("1. Bd3 *", "Bd3", "1.", "f1d3", None, "cannot pass the pawn on e2"),
    ("1. Nd2 *", "Nd2", "1.", "b1d2", None, "d2 holds white's own pawn"),
    ("1. exd5 *", "exd5", "1.", "e2d5", None, "no rule moves the pawn"),
    ("1. Kd2 *", "Kd2", "1.", "e1d2", None, "d2 holds white's own pawn"),
    ("[FEN \"4k3/P7/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. a8 *", "a8", "1.", "a7a8",
     "fide.pawn-single-push", "must promote"),
    # (a black pawn: two bare kings are a draw before any move)
    ("[FEN \"4k3/p7/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. Nf3 *", "Nf3", "1.", None, None,
     "white has no knight"),
    ("[FEN \"4k3/p7/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. d4 *", "d4", "1.", None, None,
     "white has no pawn on the d-file"),
    ("[FEN \"4k3/8/8/8/8/8/8/R1N1K2R w KQ - 0 1\"]\n\n1. O-O-O *", "O-O-O", "1.", "e1c1",
     "fide.castling", "c1 is not empty"),
    ("[FEN \"k7/8/8/8/8/8/8/N1N1K3 w - - 0 1\"]\n\n1. Nb3 *", "Nb3", "1.", None, None,
     "ambiguous: matches a1b3, c1b3"),
    ("1. e4 e5 2. -- *", "--", "2.", None, None, "a null move passes the turn"),
    ("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# Ke7 1-0", "Ke7", "4...", None,
     "fide.checkmate-win", "over: 1-0 white wins by checkmate"),
]


@pytest.mark.parametrize("text,san,number,uci,rule,reason", MOVE_ERRORS,
                         ids=[m[1] + "-" + str(i) for i, m in enumerate(MOVE_ERRORS)])
def test_an_illegal_move_says_where_which_and_why(text, san, number, uci, rule, reason):
    with pytest.raises(PgnMoveError) as ei:
        Game.from_pgn(text, source="g.pgn")
    e = ei.value
    assert isinstance(e, IllegalMoveError) and isinstance(e, PgnError)
    assert (e.san, e.number, e.uci, e.rule) == (san, number, uci, rule)
    assert (e.line, e.column) == word_at(text, san)
    assert reason in e.reason
    assert str(e).startswith(f"g.pgn:{e.line}:{e.column}: move {number} {san}")
    if rule:
        assert f"refused by {rule} - " in str(e)
    assert pickle.loads(pickle.dumps(e)).args == e.args


def test_the_rules_are_the_presets_rules():
    # a pawn's backward step is a move only under pawns-move-backward
    text = '[FEN "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1"]\n\n1. e3 *'
    with pytest.raises(PgnMoveError, match="no rule moves the pawn on e4 to e3"):
        Game.from_pgn(text)
    g = Game.from_pgn(text, presets=["pawns-move-backward"])
    assert g.move_stack[0].rule == "preset.pawn-backward-push"


def test_a_move_after_the_game_is_decided_is_refused_by_the_rules():
    text = "1. f3 e5 2. g4 Qh4# 3. Kf2 0-1"
    with pytest.raises(PgnMoveError) as ei:
        Game.from_pgn(text)
    assert ei.value.number == "3." and ei.value.rule == "fide.checkmate-win"
    assert ei.value.reason == "the game is already over: 0-1 black wins by checkmate"


@pytest.mark.parametrize("start, moves", [
    # two bare kings, drawn from the start
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", ["e1d2", "e8e7"]),
    # drawn once the queen is taken
    ("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1", ["e1d2", "e8e7", "d2e3"]),
    # threefold at the start position, then a pawn moves: ongoing again
    (None, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 e2e4".split()),
], ids=["bare-kings", "material-gone", "threefold"])
def test_a_game_played_on_from_a_draw_by_rule_reads_back(start, moves):
    # a draw by rule leaves the moves and Game.push plays on from it, so the PGN
    # such a game writes reads back; from_pgn refused the first move after the
    # draw, "refused by" a rule that refuses none (explain called it legal)
    g = Game(start)
    drawn = []
    for u in moves:
        drawn.append(g.outcome() is not None)
        assert g.explain(u).legal
        g.push(u)
    assert any(drawn)
    back = Game.from_pgn(g.pgn())
    assert [m.uci() for m in back.move_stack] == moves and back.fen() == g.fen()
    assert back.outcome() == g.outcome()


# ---------------------------------------------------------------- syntax errors


SYNTAX_ERRORS = [
    # text, message (a part of it), the text where the error points
    ('[Event "x"\n1. e4 *', "expected ']' but found '1.'", "1."),
    ('[Event "x\n\n1. e4 *', "tag value not closed", '"x'),
    ('[Event "x"]\n[Site', "tag pair not closed", "[Site"),
    ('[Event "x"]\n["y"]', "expected a tag name but found '\"y\"'", '"y"'),
    ('[Event x]', "expected a tag value (a quoted string) but found 'x'", "x]"),
    ('[Event "a"]\n[Event "b"]\n1. e4', "tag 'Event' is given twice (first at 1:2)", "Event \"b"),
    ("1. e4 {never closed\n2. d4", "comment not closed", "{never"),
    ("1. e4 (1. d4 d5\n2. c4", "variation not closed", "(1."),
    ("1. e4 (1. d4 (1. c4) d5\n", "variation not closed", "(1. d4"),
    ("1. e4 e5 ) 2. Nf3", "')' closes no variation", ")"),
    ("1. e4 e5\n2. zf3 *", "not a move: 'zf3'", "zf3"),
    ("1. e4 e5\n2.zf3 *", "not a move: 'zf3'", "zf3"),
    ("1. e4 e5x *", "not a move: 'e5x'", "e5x"),
    ("1. e4 m4 *", "not a move: 'm4'", "m4"),      # (e9 is a square of a taller board)
    ("1. e4 &", "not a move: '&'", "&"),
    ("1. e4 \"x\" *", "not a move: '\"x\"'", '"x"'),
    # comments do not nest: the first '}' ends one, the next closes nothing (the
    # error was at the word after the comment, 'c', or at that '}')
    ("1. e4 {a {b} c} e5 *", "'}' closes no comment (comments do not nest: the '{' at 1:10 "
     "is text of the comment opened at 1:7, which the first '}' after it, at 1:12, ended)",
     "} e5"),
    ("1. e4 {a {b} e5} *", "'}' closes no comment (comments do not nest", "} *"),
    ("1. e4 {a\n{b} c} *", "the '{' at 2:1 is text of the comment opened at 1:7", "} *"),
    ("1. e4 {a } b} e5 *", "'}' closes no comment (the comment opened at 1:7 ended at the "
     "first '}' after it, 1:10)", "} e5"),
    ("1. e4 } e5 *", "'}' closes no comment", "} e5"),
    ("[Event \"{x}\"]\n1. e4 ; {y}\n e5 } *", "'}' closes no comment", "} *"),
    # a '}' left out after a comment holding a '{'
    ("1. e4 {a {b} c e5 *", "not a move: 'c' after a comment (comments do not nest: the '{' "
     "at 1:10", "c e5"),
]


@pytest.mark.parametrize("text,message,at", SYNTAX_ERRORS,
                         ids=[str(i) for i in range(len(SYNTAX_ERRORS))])
def test_syntax_errors_say_what_and_where(text, message, at):
    with pytest.raises(PgnSyntaxError) as ei:
        read_games(text, source="f.pgn")
    e = ei.value
    assert message in e.reason, e.reason
    assert (e.line, e.column) == where(text, at), str(e)
    assert str(e) == f"f.pgn:{e.line}:{e.column}: {e.reason}"
    assert isinstance(e, ChessError) and isinstance(e, ValueError)
    with pytest.raises(PgnSyntaxError):
        Game.from_pgn(text)
    assert pickle.loads(pickle.dumps(e)).args == e.args


def test_not_text():
    with pytest.raises(ArgumentError, match="PGN text is a str, not bytes"):
        read_games(b"1. e4 *")
    with pytest.raises(ArgumentError):
        Game.from_pgn(None)


# ---------------------------------------------------------------- any text


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet='[]"{}();%$!?.-+#=*/\\ \n\t0123456789abcdefghNBRQKOxZep', max_size=60))
def test_any_text_reads_or_raises_a_located_pgn_error(text):
    try:
        games = read_games(text)
    except PgnSyntaxError as e:
        lines = text.split("\n")
        assert 1 <= e.line <= len(lines) and 1 <= e.column <= len(lines[e.line - 1]) + 1, e
        return
    for g in games:
        for m in g.moves:
            assert text.split("\n")[m.line - 1][m.column - 1:].startswith(m.san[:2])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Nf6", "O-O", "d4",
                                 "exd4", "Qh5", "Ke2", "Bc4", "Nxe5", "{c}", "$1", "(1. d4)"]),
                max_size=8))
def test_any_movetext_plays_or_raises_at_a_move(words):
    text = " ".join(words) + " *"
    try:
        g = Game.from_pgn(text)
    except PgnMoveError as e:
        assert text.split("\n")[e.line - 1][e.column - 1:].startswith(e.san)
        assert e.reason
        return
    ours = [w for w in words if w[0] not in "{$("]
    assert len(g.move_stack) == len(ours)
