"""Rules by name: the hook through which the chess layer reaches a library of
presets that it does not import.

Imports run one way (``rete`` <- ``chess_rules`` <- ``presets`` <- ``dice`` <-
``houserules``), yet a :class:`~chess_rules.game.Game` takes preset ids
(``Game(fen, presets=[...])``), ``Game.from_pgn`` plays a PGN under the
presets its ``Variant`` tag names, ``Game.pgn`` writes their settings, and an
extended FEN key a preset writes (``hp:``) is refused with a hint naming it.
Each of those asks the *rule source*: an object with the methods of
:class:`RuleSource`. The presets package provides one
(:data:`presets.source.SOURCE`), declared in ``pyproject.toml`` under the
entry-point group :data:`ENTRY_POINT_GROUP`, which this module resolves with
:mod:`importlib.metadata` the first time it is needed: the chess layer names
no module above it, and the installed distribution says what fills the hook.
:func:`set_rule_source` puts another in its place (a program with a library of
its own, a test).

Why an entry point and not an import: the hook is filled by what is installed,
so the chess layer runs (and is tested) without the presets, a program may ship
a library of presets of its own, and no import, not even one inside a
function, runs upward for import-linter to refuse.
"""
from __future__ import annotations

from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Iterable, Mapping, Protocol

from .errors import ChessError

if TYPE_CHECKING:
    from .ruleset import RuleSet

__all__ = ["ENTRY_POINT_GROUP", "NoRuleSourceError", "RuleSource", "rule_source",
           "set_rule_source", "preset_ruleset"]

#: The entry-point group a distribution declares its rule source in (one entry)
ENTRY_POINT_GROUP = "houserules.rule_sources"


class NoRuleSourceError(ChessError):
    """Preset ids were given, and no rule source is installed to read them."""


class RuleSource(Protocol):
    """What the chess layer asks of a library of presets."""

    def load(self, presets: str | Iterable[str], config: Mapping | None) -> RuleSet:
        """FIDE plus the presets (one id, or several), configured by ``config``
        (``{preset id: {key: value}}``); an unknown or incompatible id, or a bad
        setting, raises a :class:`ChessError` naming it."""
        ...

    def known_ids(self) -> frozenset[str]:
        """The id of every preset the source has."""
        ...

    def config_text(self, ruleset: RuleSet) -> str | None:
        """The settings of ``ruleset``'s presets that differ from their
        defaults, as text :meth:`parse_config_text` reads back (a PGN's
        ``VariantConfig`` tag), or None if there is none."""
        ...

    def parse_config_text(self, text: str) -> dict[str, dict]:
        """The ``config`` mapping that :meth:`config_text` wrote as ``text``;
        malformed text raises a :class:`ChessError`."""
        ...

    def is_config_error(self, error: ChessError) -> bool:
        """Whether ``error`` (raised by :meth:`load`) is about a setting, not an id."""
        ...

    def position_key_owners(self, key: str) -> list[str]:
        """The ids of the presets whose positions write the extended FEN key
        ``key`` (piece-hp's ``hp``), for a hint when another rule set meets it."""
        ...


_source: RuleSource | None = None


def set_rule_source(source: RuleSource | None) -> RuleSource | None:
    """Use ``source`` from now on (None: the installed one again, looked up
    when next needed); returns the one set before."""
    global _source
    old, _source = _source, source
    return old


def rule_source() -> RuleSource:
    """The rule source: the one :func:`set_rule_source` set, else the one the
    installed distributions declare (:data:`ENTRY_POINT_GROUP`). None found
    raises :class:`NoRuleSourceError`."""
    global _source
    if _source is None:
        found = sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name)
        if not found:
            raise NoRuleSourceError(
                f"preset ids need a library of presets, and none is installed (no entry "
                f"point in the group {ENTRY_POINT_GROUP!r}): install houserules, or set "
                f"one with chess_rules.rule_source.set_rule_source")
        _source = found[0].load()
    assert _source is not None
    return _source


def preset_ruleset(presets=(), config=None) -> RuleSet:
    """FIDE plus ``presets`` (one id or several) with their ``config``, read by
    the rule source: what ``Game(presets=..., config=...)`` plays."""
    return rule_source().load(presets, config)
