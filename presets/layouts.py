"""Starting layouts as data: an id, a FEN, and a line of description."""
from __future__ import annotations

from dataclasses import dataclass

from chess_rules.errors import quoted

from .base import PresetError


class UnknownLayoutError(PresetError):
    pass


@dataclass(frozen=True)
class Layout:
    id: str
    name: str
    fen: str
    description: str


LAYOUTS: dict[str, Layout] = {l.id: l for l in (
    Layout("standard", "Standard", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
           "The FIDE starting position."),
    Layout("dual-classic", "Dual Classic", "rnbkkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w KQkq - 0 1",
           "Queens replaced by a second king on d1/d8; only the e-file king castles."),
    Layout("knightmate", "Knightmate", "rnbnkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBNKBNR w KQkq - 0 1",
           "The queen replaced by a third (royal, under knightmate-rules) knight."),
    Layout("monster", "Monster", "rnbqkbnr/pppppppp/8/8/8/8/2PPPP2/4K3 w kq - 0 1",
           "White: king e1 and pawns c2-f2; Black: the full army."),
    Layout("pawns-only", "Pawns Only", "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1",
           "Both kings on e1/e8 with all sixteen pawns."),
)}


def get_layout(layout_id: str) -> Layout:
    """The starting layout of that id (``houserules layouts`` lists them); an
    unknown id raises :class:`UnknownLayoutError`."""
    try:
        return LAYOUTS[layout_id]
    except KeyError:
        raise UnknownLayoutError(
            f"unknown layout {quoted(layout_id)} (layouts: {', '.join(LAYOUTS)})") from None


def preferred_layout(preset_ids) -> Layout:
    """The layout a game under ``preset_ids`` starts from: the first preset's
    preferred one, else the standard position."""
    from .registry import get
    for pid in preset_ids:
        layout = get(pid).preferred_layout
        if layout:
            return get_layout(layout)
    return LAYOUTS["standard"]
