"""The presets as the chess layer's rule source (:mod:`chess_rules.rule_source`):
what ``Game(presets=[...])``, a PGN's ``Variant`` and ``VariantConfig`` tags and
the extended-FEN key hint read. ``pyproject.toml`` declares :data:`SOURCE` in
the entry-point group ``houserules.rule_sources``."""
from __future__ import annotations

from typing import Iterable, Mapping

from chess_rules.errors import ChessError
from chess_rules.ruleset import RuleSet

from .base import PresetConfigError

__all__ = ["PresetSource", "SOURCE"]


class PresetSource:
    """The presets of :mod:`presets.registry`, behind the methods of
    :class:`chess_rules.rule_source.RuleSource`."""

    def load(self, presets: str | Iterable[str], config: Mapping | None) -> RuleSet:
        from .registry import id_list, load
        # (config for no preset is refused there)
        return load(*id_list(presets), config=config)

    def known_ids(self) -> frozenset[str]:
        from .registry import all_presets
        return frozenset(m.id for m in all_presets())

    def config_text(self, ruleset: RuleSet) -> str | None:
        from .text import config_text
        return config_text(ruleset)

    def parse_config_text(self, text: str) -> dict[str, dict]:
        from .text import parse_config_text
        return parse_config_text(text)

    def is_config_error(self, error: ChessError) -> bool:
        return isinstance(error, PresetConfigError)

    def position_key_owners(self, key: str) -> list[str]:
        from .registry import position_keys
        return list(position_keys().get(key, ()))

    def __repr__(self) -> str:
        return "presets.source.SOURCE"


#: The rule source the presets package provides
SOURCE = PresetSource()
