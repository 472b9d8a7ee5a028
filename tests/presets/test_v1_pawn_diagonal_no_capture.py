"""pawn-diagonal-no-capture on the Game API."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _v1 import game, kind_at, moves_from, refused_by

P = "pawn-diagonal-no-capture"


def test_scenarios():
    assert moves_from(game("4k3/8/8/8/4P3/8/8/K7 w - - 0 1", P), "e4") == {"e4d5", "e4e5", "e4f5"}
    g = game("4k3/8/8/3n4/4P3/8/8/K7 w - - 0 1", P)
    assert g.explain("e4d5").generated_by[0] == "fide.pawn-capture"
    g = game("4k3/8/8/3N4/4P3/8/8/K7 w - - 0 1", P)
    assert refused_by(g, "e4d5") == "preset.pawn-diagonal-quiet"


def test_edges():
    g = game("4k3/8/8/8/5p2/8/3P4/K7 w - - 0 1", P)
    g.push("d2e3")
    assert g.ep_squares() == []
    g = game("6nk/7p/5P2/8/8/8/K7/B7 w - - 0 1", P)
    g.push("f6g7")
    assert g.outcome().reason == "checkmate"
    g = game("4k3/8/8/8/3p4/8/4P3/K7 w - - 0 1", P)
    g.push("e2e4"); g.push("d4e3")
    assert kind_at(g, "e4") is None


# A pawn on f4 beside a white pawn that has just double-stepped, with the black
# king and a white rook on the same rank: taking en passant would clear the
# rank, so the capture is illegal; the quiet slant onto the empty e3 is not.
PINNED_EP = "8/8/8/8/R3Pp1k/8/8/4K3 b - e3 0 1"


def test_slant_stands_where_the_en_passant_capture_would_expose_the_king():
    g = game(PINNED_EP, P)
    assert moves_from(g, "f4") == {"f4e3", "f4f3", "f4g3"}
    ex = g.explain("f4e3")
    assert ex.legal and ex.rule == "preset.pawn-diagonal-quiet"
    assert "fide.en-passant" in ex.reason and "fide.check-resolution" in ex.reason
    m = g.push("f4e3")
    assert m.kind == "normal" and kind_at(g, "e4") == "P" and kind_at(g, "e3") == "p"
    g.pop()
    assert g.fen() == "8/8/8/8/R3Pp1k/8/8/4K3 b - - 0 1"    # no legal capture: no target shown


def test_pinned_en_passant_position_has_the_moves_of_its_own_fen():
    g = game("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", P)
    g.push("e2e4")
    again = game(g.fen(), P)
    assert g.legal_uci() == again.legal_uci()
    assert "f4e3" in g.legal_uci()


def test_capture_still_wins_the_squares_when_it_is_legal():
    g = game("8/8/8/8/4Pp1k/8/8/4K3 b - e3 0 1", P)
    ex = g.explain("f4e3")
    assert ex.rule == "fide.en-passant" and ex.reason == ""
    assert g.push("f4e3").kind == "en-passant"
    assert kind_at(g, "e4") is None
