"""``houserules variants`` and the ``--variants-ini FILE --variant NAME`` options.

``houserules variants`` lists the built-in catalogue of variants (or the
sections of ``--variants-ini FILE``); ``houserules variants NAME`` shows one:
its description, its parent and its options as the file gives them.

Every command that takes rules (``moves``, ``perft``, ``explain``,
``outcome``, ``rules``, ``play``, ``replay``, ``rete graph``) takes
``--variant NAME``: the rules of that variant of the catalogue, or of the
Fairy-Stockfish variants.ini file ``--variants-ini FILE`` (chess_rules.variants
compiles it), instead of FIDE's. Presets, rule files and modifiers given too
apply over it; a command given no FEN starts from the variant's start.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from chess_rules.errors import ChessError
from chess_rules.ruleset import RuleSet
from chess_rules.variants import catalogue, load_variant, parse_ini

__all__ = ["add_commands", "selected"]

#: the commands (and the rete subcommand) that take --variant
_RULE_COMMANDS = ("moves", "perft", "explain", "outcome", "rules", "play", "replay")
_selected: list[RuleSet] = []


def selected() -> RuleSet:
    """The rule set ``--variant`` chose (read by ``--ruleset``'s loader)."""
    return _selected[-1]


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ChessError(f"--variants-ini {path}: not UTF-8 text") from None


def _sections(args):
    if args.variants_ini is None:
        return {s.name: s for s in catalogue()}, "catalogue.ini", None
    text = _read(args.variants_ini)
    return parse_ini(text, args.variants_ini), args.variants_ini, text


def cmd_variants(args) -> int:
    sections, source, text = _sections(args)
    if args.name is None:
        if args.json:
            print(json.dumps([{"name": s.name, "parent": s.parent,
                               "description": s.description} for s in sections.values()],
                             indent=2))
            return 0
        width = max((len(n) for n in sections), default=0)
        for s in sections.values():
            print(f"{s.name:{width}}  {s.description}".rstrip())
        return 0
    rules = load_variant(args.name, text, source) if text is not None else load_variant(args.name)
    s = sections[args.name]
    print(f"{s.name}{'' if s.parent is None else ' (from ' + s.parent + ')'}: {s.description}")
    print(f"start: {rules.config['start-fen']}")
    for opt in s.options.values():
        print(f"  {opt.key} = {opt.value}")
    return 0


def _with_variant(func):
    """The command, with ``--variant`` turned into the rule set it names."""
    def run(args) -> int:
        name, path = getattr(args, "variant", None), getattr(args, "variants_ini", None)
        if name is None:
            if path is not None:
                raise ChessError("--variants-ini FILE needs --variant NAME (the section to play)")
            return func(args)
        if getattr(args, "ruleset", None):
            raise ChessError("give --variant or --ruleset, not both")
        rules = load_variant(name, _read(path), path) if path is not None else load_variant(name)
        _selected.append(rules)
        args.ruleset = f"{__name__}:selected"
        if hasattr(args, "fen") and not args.fen and not getattr(args, "layout", None):
            args.fen = [rules.config["start-fen"]]
        return func(args)
    return run


def _add_variant_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", metavar="NAME",
                        help="the rules of a variant: of the catalogue ('houserules variants'), "
                             "or of --variants-ini FILE")
    parser.add_argument("--variants-ini", metavar="FILE",
                        help="a Fairy-Stockfish variants.ini file to take --variant from")
    parser.set_defaults(func=_with_variant(parser.get_default("func")))


def add_commands(sub) -> None:
    """``houserules variants``, and ``--variant``/``--variants-ini`` on the
    commands that take rules."""
    for name in _RULE_COMMANDS:
        _add_variant_options(sub.choices[name])
    rete = sub.choices["rete"]
    for action in rete._subparsers._group_actions:     # argparse keeps them there only
        if isinstance(action, argparse._SubParsersAction):
            _add_variant_options(action.choices["graph"])
    v = sub.add_parser("variants", help="the catalogue of variants (variants.ini sections)",
                       description="List the built-in catalogue of variants, or the sections "
                                   "of --variants-ini FILE; with NAME, show that variant.")
    v.add_argument("name", nargs="?", metavar="NAME", help="a variant to show")
    v.add_argument("--variants-ini", metavar="FILE",
                   help="a Fairy-Stockfish variants.ini file instead of the catalogue")
    v.add_argument("--json", action="store_true", help="machine-readable list")
    v.set_defaults(func=cmd_variants)
