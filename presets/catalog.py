"""The catalogue of presets: which modules hold them, and their metadata by id.

Adding a preset: write its module in ``presets/library/`` (``META`` and
``apply``) and add its name to :data:`PRESET_MODULES`.
"""
from __future__ import annotations

import importlib
from collections import abc
from functools import lru_cache
from types import ModuleType

from chess_rules.errors import quoted
from chess_rules.ruleset import RuleSet
from rete.errors import did_you_mean

from .base import PresetError, PresetMeta, UnknownPresetError

__all__ = ["PRESET_MODULES", "LIBRARY", "PresetImportError", "preset_modules", "all_presets",
           "get", "id_list", "kebab_suggestion", "unknown_message"]

PRESET_MODULES: list[str] = [
    # v1 gallery
    "pawns_move_backward", "double_pawn_sprint", "pawn_diagonal_no_capture",
    "knights_leap_twice", "bishops_ignore_color", "rook_warp", "wrap_board", "queen_splits",
    "king_heals", "explosive_rook", "capture_to_win", "last_piece_standing", "piece_hp",
    "knight_immunity", "poisoned_squares",
    # v2 gallery
    "knightmate_rules", "coregal", "dual_king", "weak_dual_king", "double_move",
    "monster_rules", "first_promotion_wins", "suicide_chess", "capture_all",
    "extinction_chess", "berolina_pawns", "berolina_pawns_2", "bouncing_pieces",
    "bouncing_pieces_2",
]


#: The package the preset modules are in
LIBRARY = "presets.library"


class PresetImportError(PresetError):
    """A preset module of :data:`PRESET_MODULES` failed to import (or has no
    ``META``): the error names it, instead of the preset going missing."""


@lru_cache(maxsize=None)
def preset_modules() -> dict[str, ModuleType]:
    """Each preset's module, by preset id, in the order of :data:`PRESET_MODULES`.
    A module that fails to import raises :class:`PresetImportError` naming it
    (a preset silently missing would read as an unknown id)."""
    out = {}
    for name in PRESET_MODULES:
        try:
            mod = importlib.import_module(f"{LIBRARY}.{name}")
            meta = mod.META
        except Exception as e:
            raise PresetImportError(f"preset module {LIBRARY}.{name} failed to load: "
                                    f"{type(e).__name__}: {e}") from e
        out[meta.id] = mod
    return out


def all_presets() -> list[PresetMeta]:
    """The metadata of every preset, in the registry's order (``PRESET_MODULES``)."""
    return [m.META for m in preset_modules().values()]


def _id_error(i, in_load: bool = False) -> UnknownPresetError:
    hint = (": give each id as an argument of its own, load('piece-hp', 'king-heals'), "
            "or unpack a list, load(*ids)" if in_load and isinstance(i, (list, tuple, set))
            else "")
    return UnknownPresetError(f"a preset is named by its id (a string such as 'piece-hp'), "
                              f"not {i!r}{hint}")


def id_list(ids) -> list[str]:
    """Preset ids as a list: one id, or an iterable of them (each a string)."""
    if isinstance(ids, str):
        ids = [ids]
    elif isinstance(ids, RuleSet) or not isinstance(ids, abc.Iterable):
        hint = (": a loaded rule set is given as ruleset=, e.g. "
                "Game.from_fen(fen, ruleset=rs)" if isinstance(ids, RuleSet) else "")
        raise UnknownPresetError(f"presets are given by id, one ('piece-hp') or several "
                                 f"(['piece-hp', 'king-heals']), not {type(ids).__name__}"
                                 f"{hint}")
    else:
        ids = list(ids)
    for i in ids:
        if not isinstance(i, str):
            raise _id_error(i)
    return ids


def get(preset_id: str) -> PresetMeta:
    """The metadata of one preset; an unknown id raises :class:`UnknownPresetError`
    (with the closest id, when one is close)."""
    if not isinstance(preset_id, str):
        raise _id_error(preset_id)
    mods = preset_modules()
    if preset_id not in mods:
        raise UnknownPresetError(unknown_message([preset_id]))
    return mods[preset_id].META


def kebab_suggestion(name: str, known) -> str:
    """`` (did you mean 'x'?)`` for a misspelt preset id or modifier name: those are
    lower-case kebab-case, so 'PIECE-HP' or 'piece_hp' means 'piece-hp'."""
    return did_you_mean(name.lower().replace("_", "-"), known)


def unknown_message(ids) -> str:
    known = list(preset_modules())
    parts = [quoted(i) + kebab_suggestion(i, known) for i in ids]
    return f"unknown preset {', '.join(parts)}; see 'houserules presets' for the list"
