"""``houserules modifiers schema|list|check FILE``: the custom modifier
descriptors on the command line."""
from __future__ import annotations

import json
from pathlib import Path

from presets.modifiers import (ModifierError, count_nodes, descriptor_schema, load_descriptor,
                               modifier_table)

__all__ = ["add_commands"]


def add_commands(sub) -> None:
    """``houserules modifiers schema|list|check FILE``."""
    import sys

    def cmd(args) -> int:
        if args.modifiers_command == "schema":
            print(json.dumps(descriptor_schema(), indent=2))
        elif args.modifiers_command == "list":
            rows = modifier_table()
            if args.json:
                print(json.dumps(rows, indent=2))
            else:
                for r in rows:
                    req = f" [requires {', '.join(r['requires'])}]" if r["requires"] else ""
                    print(f"{r['id']:22} {r['description']}{req}")
        elif args.modifiers_command == "check":
            bad = 0
            for f in args.files:
                try:
                    d = load_descriptor(Path(f))
                except ModifierError as e:
                    print(f"houserules: error: {e}", file=sys.stderr)
                    bad += 1
                    continue
                count, depth = count_nodes(d.primitives)
                print(f"{f}: ok ({d.id}: {count} nodes, depth {depth})")
            return 2 if bad else 0
        else:  # pragma: no cover
            sys.exit(2)
        return 0

    m = sub.add_parser("modifiers", help="custom modifier descriptors: schema, list, check")
    msub = m.add_subparsers(dest="modifiers_command", metavar="SUBCOMMAND")
    msub.required = True
    msub.add_parser("schema", help="the JSON Schema of a descriptor (version 1)").set_defaults(func=cmd)
    ls = msub.add_parser("list", help="the gallery of ready recipes")
    ls.add_argument("--json", action="store_true", help="the recipes as JSON")
    ls.set_defaults(func=cmd)
    ck = msub.add_parser("check", help="validate descriptor files")
    ck.add_argument("files", nargs="+", help="descriptor files (JSON)")
    ck.set_defaults(func=cmd)
