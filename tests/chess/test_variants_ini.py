"""variants.ini: the reader's grammar and errors, inheritance, options, the catalogue."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from chess_rules.game import Game
from chess_rules.variants import (SUPPORTED, VariantsIniError, catalogue, load_variant,
                                  parse_ini)


def refused(text, name="v"):
    with pytest.raises(VariantsIniError) as e:
        load_variant(name, text, "my.ini")
    return e.value


@pytest.mark.parametrize("text, line, column, what", [
    ("[v:chess\n", 1, 1, "no section header"),
    ("startFen = x\n", 1, 1, "before any section"),
    ("[v:chess]\nnonsense here\n", 2, 1, "neither a section header"),
    ("[v:chess]\n\n  castling = true\n  castling = false\n", 4, 3, "given twice"),
    ("[v:chess]\n[v:chess]\n", 2, 1, "section 'v' is given twice"),
])
def test_syntax_errors_say_line_and_column(text, line, column, what):
    e = refused(text)
    assert (e.line, e.column) == (line, column) and what in str(e)
    assert str(e).startswith(f"my.ini:{line}:{column}: ")


def test_an_unsupported_option_is_refused_with_its_name_and_line():
    e = refused("[v:chess]\ncastling = true\npieceDrops = true\n")
    assert e.line == 3 and "'pieceDrops' is not supported" in str(e)


def test_an_inherited_unsupported_option_is_refused_at_its_own_line():
    e = refused("[base:chess]\nblastOnCapture = true\n[v:base]\ncastling = false\n")
    assert e.line == 2 and "blastOnCapture" in str(e)


@pytest.mark.parametrize("text, line, what", [
    ("[v:chess]\nmaxRank = 11\n", 2, "5 to 10 ranks"),
    ("[v:chess]\nmaxFile = m\n", 2, "the last file is e to l"),
    ("[v:chess]\nmaxRank = 10\n", 2, "give promotionRegionWhite = *10"),
    ("[v:chess]\nmaxRank = 10\npromotionRegionWhite = *10\nstartFen = 4k3/8/8/8/8/8/8/8/8/4K3 w"
     " - - 0 1\n", 2, "give doubleStepRegionBlack"),
    ("[v:chess]\nmaxRank = 10\npromotionRegionWhite = *10\ndoubleStep = false\n", 2,
     "needs a startFen"),
    ("[v:chess]\nmaxFile = j\nstartFen = 10/10/10/10/10/10/10/4K5 w - - 0 1\n"
     "castlingKingsideFile = j\n", 4, "'j' is no file of the 10x8 board"),
    ("[v:chess]\nmaxFile = j\ncastlingRookKingsideFile = h\n", 3, "only j"),
    ("[v:chess]\npromotionRegionWhite = *7 *8\n", 2, "must mirror"),
    ("[v:chess]\npromotionRegionWhite = *6 *7\npromotionRegionBlack = *2 *3\n", 2,
     "holds the last rank"),
    ("[v:chess]\nmandatoryPawnPromotion = false\n", 2, "with immobilityIllegal = true"),
    ("[v:chess]\npromotionLimit = q:one\n", 2, "not LETTER:COUNT"),
    ("[v:chess]\ncustomPiece1 = s:fN\nimmobilityIllegal = true\n", 3,
     "forward or backward only"),
    ("[v:chess]\ncastling = maybe\n", 2, "not true or false"),
    ("[v:chess]\nstalemateValue = great\n", 2, "not win, loss or draw"),
    ("[v:chess]\ncustomPiece1 = a:BX\n", 2, "'X' is no Betza atom"),
    ("[v:chess]\ncustomPiece1 = aBN\n", 2, "not LETTER:BETZA"),
    ("[v:chess]\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNA w - - 0 1\n", 2,
     "'A' is no piece letter"),
    ("[v:chess]\nqueen = x\n", 2, "the queen is written 'q'"),
    ("[v:chess]\npromotionPieceTypesWhite = q\npromotionPieceTypesBlack = r\n", 3,
     "different promotion pieces"),
    ("[v:chess]\ndoubleStepRegionWhite = *2 *3\n", 2, "mirror"),
    ("[v:chess]\nflagPiece = k\n", 2, "flagRegion names no squares"),
    ("[v:nothere]\n", 1, "no parent 'nothere'"),
])
def test_bad_values_are_refused_at_their_line(text, line, what):
    e = refused(text)
    assert e.line == line and what in str(e)


def test_an_unknown_variant_names_those_there_are():
    e = refused("[a:chess]\n[b:a]\n", name="c")
    assert "no variant 'c'" in str(e) and "a, b" in str(e)


def test_inheritance_takes_the_parents_options_and_overrides_them():
    text = ("[base:chess]\n# a base\ncastling = false\nnMoveRule = 10\n"
            "[child:base]\nnMoveRule = 0\n")
    sections = parse_ini(text)
    assert sections["base"].description == "a base" and sections["child"].parent == "base"
    child = load_variant("child", text)
    assert "fide.castling" not in child.productions
    assert "fide.fifty-move" not in child.productions
    base = load_variant("base", text)
    assert "fide.fifty-move" in base.productions and "fide.castling" not in base.productions


def test_a_users_custom_betza_piece_plays():
    text = ("[wazirchess:chess]\ncustomPiece1 = w:WW\nqueen = -\n"
            "startFen = rnbwkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBWKBNR w KQkq - 0 1\n"
            "promotionPieceTypes = wrbn\n")
    game = Game.from_variant("wazirchess", text)
    game.push("d2d4")
    game.push("e7e5")
    assert "d1d3" in game.legal_uci() and "d1e2" not in game.legal_uci()
    assert game.explain("d1d3").generated_by == ["piece.custom-w-move"]


def test_no_royal_king_means_no_check():
    # the black king stands next to the rook and king: no check, and (captures
    # being compulsory) it must take one of them
    game = Game.from_variant("antichess", fen="8/8/8/8/8/8/4k3/4RK2 b - - 0 1")
    assert not game.is_check()
    assert sorted(game.legal_uci()) == ["e2e1", "e2f1"]


def test_every_supported_option_is_documented_and_the_catalogue_is_twelve_or_more():
    assert len(catalogue()) >= 12
    assert all(SUPPORTED.values())
    for section in catalogue():
        assert section.description
        rules = load_variant(section.name)
        Game(ruleset=rules)     # the start position loads


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="[]:=#ab cqk*18\n", max_size=40))
def test_any_text_reads_or_is_refused(text):
    try:
        sections = parse_ini(text)
    except VariantsIniError as e:
        assert e.line >= 1 and e.column >= 1
        return
    for name in sections:
        try:
            load_variant(name, text)
        except VariantsIniError:
            pass


def test_presets_apply_over_a_variant_where_they_can():
    from presets import load
    from presets.base import ConflictingPresetsError
    almost = load_variant("almost")
    hp = load("piece-hp", base=almost)
    game = Game(ruleset=hp)
    assert "piece.chancellor-move" in hp.productions and "d1d3" not in game.legal_uci()
    sprint = Game(ruleset=load("double-pawn-sprint", base=load_variant("kingofthehill")))
    sprint.push("e2e4")
    sprint.push("a7a6")
    assert "e4e6" in sprint.legal_uci()
    # the chancellor was built on the plain board: a cylinder would not reach it
    with pytest.raises(ConflictingPresetsError, match="piece.chancellor-move"):
        load("wrap-board", base=almost)
