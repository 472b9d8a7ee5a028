"""Dual King (strong): every king is royal, and mating either king ends the game.

Royalty (rule-set data): the royal set is every king (``royal_types`` is
``("king",)``, FIDE's own, and every king on the board is royal - the FIDE
productions already handle any number of royal pieces). So no move may leave
*any* of the mover's kings attacked (``fide.check-resolution``), a side to move
with a king attacked is in check (``fide.check-detection``), and a side in check
with no legal move is checkmated (``fide.checkmate-win``): mating either king
wins.

Productions (hybrid): ``fide.insufficient-material`` is replaced (only kings
left: dead); ``dual-king.no-royal-left`` is added (a side with no king loses -
only from a position set up that way).

Preferred layout: ``dual-classic`` (queens replaced by a second king on d1/d8).

Rulings (ours where marked):

* Only the e-file king castles (the castling rights of the FEN name e1/e8), with
  the usual FIDE conditions for that king; the self-check filter then also
  keeps the other king unattacked.
  The d-file king moving does not touch the castling rights.
* A double attack on two kings is answered by a move that leaves both safe, or
  it is checkmate.
* (ours) Dead position: nothing but kings on the board (a royal king can never
  attack an enemy king). King and knight (or bishop) against the kings is *not*
  dead here, unlike FIDE: the defender's second king can block its partner's
  flight square.
* (ours) With one king per side (the standard layout) the preset plays exactly
  as FIDE chess.

Differences from Fairy-Stockfish (a custom variant: every king a pseudo-royal
commoner, ``extinctionPseudoRoyal``; tests/presets/test_v2_differential.py): none
found in legal moves (castling of the e-file king included), perft or results on
positions from seeded random playouts. FSF lets a side capture an enemy king
left en prise in a set-up position (the side not to move in check, which legal
play never produces) and play on with one king; here a royal piece is never
captured (``fide.king-capture-illegal``).
"""
from presets.base import PresetMeta
from presets.royalty import add_no_royal_left, replace_insufficient_material

META = PresetMeta(
    id="dual-king", name="Dual King", category="King Variants",
    description="Two kings per side, all royal: no king may be left attacked, and mating "
                "either king ends the game.",
    mode="hybrid", affects=["fide.check-resolution", "fide.checkmate-win",
                            "fide.insufficient-material"],
    incompatible_with=["knightmate-rules", "weak-dual-king", "suicide-chess", "capture-all",
                       "last-piece-standing"],
    incompatible_because={
        "weak-dual-king": (
            "the strong and the weak reading of two kings contradict each other: "
            "mating either king ends the game, against losing one being survivable"),
        "suicide-chess": (
            "dual-king makes both kings royal, and suicide-chess has no royal piece"),
        "capture-all": (
            "dual-king makes both kings royal, and capture-all has no royal piece"),
        "last-piece-standing": (
            "dual-king makes both kings royal, and last-piece-standing has no royal "
            "piece"),
    },
    preferred_layout="dual-classic", gallery="v2",
)


def apply(rules, config) -> None:
    for c in ("white", "black"):
        if "king" not in rules.royal_types.get(c, ()):
            rules.royal_types[c] = tuple(rules.royal_types.get(c, ())) + ("king",)
    replace_insufficient_material(rules, META.id)
    add_no_royal_left(rules, META.id, "no king left")
