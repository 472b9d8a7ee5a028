"""Fairy-Stockfish's variants.ini as a rule source, and a catalogue of variants.

:func:`load_variant` compiles one section of variants.ini text (or of the
built-in catalogue, ``catalogue.ini`` beside this module) into a
:class:`~chess_rules.ruleset.RuleSet` whose ``config['start-fen']`` is the
variant's start; ``Game.from_variant(name, ini=...)`` plays it.

>>> from chess_rules.variants import catalogue, load_variant
>>> [v.name for v in catalogue()][:3]
['almost', 'amazon', 'nightrider']
>>> rules = load_variant("almost")
>>> rules.config["start-fen"]
'rnbckbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBCKBNR w KQkq - 0 1'
>>> load_variant("capablanca").shape
board_shape(10, 8)
>>> load_variant("mini", "[mini:chess]\\nmaxRank = 6\\n")
Traceback (most recent call last):
...
chess_rules.variants.ini.VariantsIniError: <variants.ini>:2:11: maxRank: on a board of 6 ranks give promotionRegionWhite = *6: Fairy-Stockfish's default, *8, is not the last rank there

The options read, option by option, and the differences from Fairy-Stockfish
are in RULES.md ("variants.ini").
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ..ruleset import RuleSet
from .compile import IGNORED, PREDEFINED, SUPPORTED, variant_rules
from .ini import Option, Section, VariantsIniError, parse_ini

__all__ = ["DIFFERENCES", "VariantsIniError", "Section", "Option", "parse_ini", "load_variant", "catalogue",
           "catalogue_text", "CATALOGUE_PATH", "SUPPORTED", "IGNORED", "PREDEFINED"]

CATALOGUE_PATH = Path(__file__).with_name("catalogue.ini")

#: how our reading differs from Fairy-Stockfish's (RULES.md prints it)
DIFFERENCES = """
### Checked against Fairy-Stockfish, and the differences

`tests/chess/test_variants_fsf.py` loads the catalogue into pyffish
(`load_variant_config`) and compares, for every variant, the legal moves at
every ply of seeded random playouts, perft(2) at sampled plies, the end of
the game and its result where ours ends, and positions one move from each end
rule (flag, extinction by type and of every piece, stalemate as a win,
compulsory captures, Horde's last piece); `tests/chess/test_variants_boards_fsf.py`
compares the variants on other boards (capablanca, gothic, embassy, grand,
losalamos, gardner) with Fairy-Stockfish's built-in variants of those names,
perft(3) from the start included. No difference was found in what both read.
By design (ours):

* A repetition (`nFoldRule`) or move-count (`nMoveRule`) draw ends our game at
  once, as FIDE's threefold and fifty-move rules do here; Fairy-Stockfish
  reports them as optional ends a player may claim.
* FIDE's dead positions (king and minor piece against king, ...) end our game
  where every piece moves as in FIDE and a king is royal; Fairy-Stockfish
  leaves them to `has_insufficient_material`. A variant with a fairy piece on
  the board, extinction, a flag or no royal king has no dead positions here.
* Boards from 5x5 to 12x10 (`maxFile`, `maxRank`). On a board of other than 8
  ranks a section must give `promotionRegionWhite` (and, with double steps,
  `doubleStepRegionBlack`): Fairy-Stockfish keeps chess's rank 8 and Black's
  rank 7 there, which are neither the last rank nor the mirror of White's; we
  refuse the section at its `maxRank` line rather than play another game.
* Promotion pieces are one set for both sides, promotion regions and
  double-step ranks the mirror of each other, the rooks in the corners and
  the king castling from its square in the FEN (`castlingKingFile` is read
  on 8x8 only) to `castlingKingsideFile`/`castlingQueensideFile`: other values
  of those options are refused, never approximated.
* `immobilityIllegal = true` is read only where no piece but the pawn moves
  forward or backward only (no `f` or `b` in its Betza), the case where it
  means a pawn may not stay a pawn on the last rank.
* A letter reads as the piece type of the variant that last started a game
  (`chess_rules.pieces`): `customPieceN = x:...` is the type `custom-x`, and
  each variant's custom piece moves by its own Betza.
"""


def catalogue_text() -> str:
    """The built-in catalogue, as variants.ini text."""
    return CATALOGUE_PATH.read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def _catalogue() -> dict[str, Section]:
    return parse_ini(catalogue_text(), "catalogue.ini")


def catalogue() -> list[Section]:
    """The built-in catalogue's sections, in order (``name``, ``description``)."""
    return list(_catalogue().values())


def load_variant(name: str, ini: str | None = None, source: str = "<variants.ini>") -> RuleSet:
    """The rule set of variant ``name``: a section of the variants.ini text
    ``ini``, or of the built-in catalogue when ``ini`` is None. Errors
    (:class:`VariantsIniError`) name the file, line and column."""
    sections = _catalogue() if ini is None else parse_ini(ini, source)
    if not isinstance(name, str) or name not in sections:
        where = "the catalogue" if ini is None else source
        raise VariantsIniError(source if ini is not None else "catalogue.ini", 1, 1,
                               f"no variant {name!r} in {where} (variants: "
                               f"{', '.join(sections) or 'none'})")
    rules = variant_rules(sections, name)
    if ini is None:
        # a game's PGN names it in its Variant tag, and reads back under it
        rules.config["catalogue-variant"] = name
    return rules
