"""RULES.md, assembled from the code that implements the rules.

Each rule's authoritative text lives next to its productions: the FIDE module
and each production's doc string, each preset module's docstring (its rulings),
the extended position format, custom rules, modifiers and Dice Chess. This
module stitches them into one document so the description cannot drift from
the implementation; ``tests/test_rules_doc.py`` fails when RULES.md is stale.

    python -m houserules.rulesdoc > RULES.md       # regenerate
    python -m houserules.rulesdoc --check          # exit 1 if RULES.md is stale
"""
from __future__ import annotations

import inspect
import re
import sys
from pathlib import Path

INTRO = """\
# houserules: the rules as implemented

This document is generated from the code (`python -m houserules.rulesdoc > RULES.md`);
every section below is the docstring of the module that implements it, so what
you read here is what runs. Each section states every ruling it follows in its
own words: this document is the whole of the rules, and cites no other.

## Conventions

- Squares are a1..h8 (internally a1 = 0 .. h8 = 63). North is toward rank 8 for
  both colours; "clockwise from N" is N, NE, E, SE, S, SW, W, NW as White sees it.
- Moves are UCI: `e2e4`, `e7e8q`, castling as the king's move (`e1g1`). A move
  reaching one square by several paths is one move. Where two different moves
  share a UCI (an en-passant capture and a slanting pawn's quiet step), the
  first generated is the move, and the other is legal only if the filters
  refuse the first (a production may also add its move as one that yields).
- SAN (human-facing) is python-chess's for FIDE moves. (ours) Under presets a
  pawn that leaves its file without capturing names its file (`ab3`: Berolina
  and slanting pawns), and two pawns of one file that reach one square name
  their square (`d6d5` beside `d4d5`, backward steps); SAN reads back as the move.
- A turn runs through agenda stages: `generate` (candidate moves) -> `filter`
  (refusals, e.g. self-check) -> `apply` (the board changes) -> `post-move`
  (clocks, rights, en-passant targets, check) -> `turn-end` -> `result`
  (checkmate, draws, a preset's win condition). Presets hook into any stage.
- Game over means no moves: once a position is decided under the active rule set
  (checkmate, stalemate, a preset's end rule), it has no legal moves, and perft
  stops there. Draws by rule (fifty moves, repetition, insufficient material)
  are reported by `outcome()` but leave the moves, as in python-chess.
"""


def _doc(obj) -> str:
    return inspect.cleandoc(obj.__doc__ or "").strip()


def _demote(text: str, levels: int = 2) -> str:
    """Docstrings may use markdown headings; nest them under ours."""
    out = []
    for line in text.splitlines():
        if line.startswith("#"):
            line = "#" * levels + line
        out.append(line)
    return "\n".join(out)


def _fide_section() -> str:
    from chess_rules import fide
    from chess_rules.fide import fide_rules
    rows = ["| production | stage | salience | what it does |", "|---|---|---|---|"]
    for r in fide_rules().describe():
        rows.append(f"| `{r['name']}` | {r['stage']} | {r['salience']} | {r['doc']} |")
    return "## Standard chess (FIDE)\n\n```\n" + _doc(fide) + "\n```\n\n" + "\n".join(rows) + \
        "\n\n" + FIDE_RULINGS


FIDE_RULINGS = """\
Rulings for standard chess:

- `fide.check-detection` fires on demand: its activation waits, pending, until
  a rule or a caller reads `check` (a rule with a partial match that reaches a
  `check` condition, `is_check()`, `outcome()`, SAN); then it judges the
  position as it stands. A move made and taken back unread never runs it; a
  rule that reads `check` while a move is played (three-check's count) sees it
  judged in its turn, as before.
- Draws are automatic, not claimed: the fifty-move rule applies when the half-move
  clock reaches 100, threefold repetition when a position (pieces, side to move,
  castling rights and the en-passant targets that can really be taken) occurs the
  third time. Checkmate on the move that reaches either takes precedence.
  `outcome()` and `is_game_over()` report these draws (and insufficient
  material) as soon as the position has them, but unlike checkmate and
  stalemate they do not take the moves away: the legal moves and perft are
  python-chess's, which ignores draws there too. A move played on from a drawn
  position makes a new position, judged afresh (the threefold draw goes once
  the position no longer repeats; the fifty-move draw stays).
- Insufficient material: K v K, K + one minor piece v K, and kings with bishops
  all on squares of one colour. Other positions play on.
- FEN output writes an en-passant square only when a pawn can legally take there
  (python-chess's default); input accepts any square on the right rank behind a
  pawn that could have just double-stepped (the target and the square it came
  from empty). Of the extended tokens a FIDE position may carry `moved:` (a
  pawn on its home square that has moved: it has no double step); `half:` and
  an `ep-pawn:` naming any pawn but the one beyond the target are refused, as
  no FIDE game reaches them.
- An illegal move is refused with the rule that refused it and why, and the game
  is left exactly as it was.
"""


def _section(title: str, module) -> str:
    text = _doc(module)
    if not text:
        return ""
    return f"## {title}\n\n{_demote(text)}\n"


def _preset_table(metas) -> str:
    rows = ["| id | name | category | mode | requires | incompatible with | scope | preferred layout |",
            "|---|---|---|---|---|---|---|---|"]
    from presets.registry import incompatibilities
    inc = incompatibilities()
    for m in metas:
        rows.append("| `{}` | {} | {} | {} | {} | {} | {} | {} |".format(
            m.id, m.name, m.category, m.mode, ", ".join(m.requires) or "-",
            ", ".join(sorted(inc.get(m.id, ()))) or "-",
            "yes" if m.scope_aware else "-", m.preferred_layout or "standard"))
    return "\n".join(rows)


def _presets_section() -> str:
    from presets import registry
    metas = registry.all_presets()
    mods = registry.preset_modules()
    parts = ["## Presets\n",
             f"{len(metas)} presets. A preset is one module in `presets/library/`: its metadata on "
             "top, its productions below. `additive` presets only add productions, "
             "`override` presets only remove or replace named FIDE productions, `hybrid` "
             "presets do both; the mode is checked when the preset is applied. Loading "
             "checks the composition first (unknown ids, missing requirements, "
             "incompatible pairs in either direction (the refusal says why: "
             "`PresetMeta.incompatible_because`), requirement cycles, two presets "
             "replacing the same production) and builds nothing on a refusal. Board "
             "geometry is applied first, so the other presets build their moves on its "
             "board; a geometry that changes the board's steps or leaps (`wrap-board`), "
             "loaded over a base whose presets built on the plain one (their moves, "
             "attacks or reach: e.g. `pawn-diagonal-no-capture`, `explosive-rook`), is "
             "refused: load them together.\n",
             _preset_table(metas), ""]
    by_id = {m.id: m for m in metas}
    for mod in mods.values():
        m = mod.META
        if m.id not in by_id:
            continue
        head = f"### {m.name} (`{m.id}`)\n"
        facts = [f"*{m.category}; {m.mode}*"]
        if m.affects:
            facts.append("affects " + ", ".join(f"`{a}`" for a in m.affects))
        if m.requires:
            facts.append("requires " + ", ".join(f"`{a}`" for a in m.requires))
        if m.configurable:
            fields = ", ".join(f"`{k}`" for k in m.config_model.model_fields)
            facts.append(f"config: {fields}")
        parts.append(head + "\n" + "; ".join(facts) + ".\n\n" + m.description + "\n\n"
                     + _demote(_doc(mod), 3) + "\n")
    return "\n".join(parts)


def _layouts_section() -> str:
    from presets.layouts import LAYOUTS
    rows = ["## Layouts\n", "| id | FEN | description |", "|---|---|---|"]
    for l in LAYOUTS.values():
        rows.append(f"| `{l.id}` | `{l.fen}` | {l.description} |")
    return "\n".join(rows) + "\n"


def _variants_section() -> str:
    from chess_rules import variants
    from chess_rules.variants import compile as variant_compile
    rows = ["## variants.ini\n", _demote(_doc(variants)), "", _demote(_doc(variant_compile)), "",
            "### Options read\n", "| option | read as |", "|---|---|"]
    for k, v in variants.SUPPORTED.items():
        if k.startswith("customPiece"):
            if k == "customPiece1":
                rows.append(f"| `customPiece1` .. `customPiece25` | {v} |")
            continue
        rows.append(f"| `{k}` | {v} |")
    rows += ["", "Accepted and without effect on the rules (XBoard/GUI and engine "
             "tuning): " + ", ".join(f"`{k}`" for k in variants.IGNORED) + ". Any other "
             "option is refused with its name and line.", "",
             "### The catalogue (`houserules variants`)\n", "| variant | what it is |", "|---|---|"]
    rows += [f"| `{s.name}` | {s.description} |" for s in variants.catalogue()]
    rows += ["", variants.DIFFERENCES.strip()]
    return "\n".join(rows) + "\n"


def render() -> str:
    # (the modules are imported here, by name: import-linter sees what this
    # generator of the whole project's rules reads)
    import dice
    from chess_rules import betza, move_helpers, movement, pieces, position, rule_files
    from presets import modifiers
    parts = [INTRO, _fide_section(),
             _section("Positions: FEN and the extended form", position),
             _presets_section(), _layouts_section(),
             _section("Custom rule files", rule_files),
             _section("Move helpers", move_helpers),
             _section("Movement legs", movement),
             _section("Fairy pieces: Betza notation", betza),
             _section("Piece types", pieces),
             _variants_section(),
             _section("Custom modifiers", modifiers),
             _section("Dice Chess", dice)]
    return as_markdown("\n".join(p.rstrip() + "\n" for p in parts if p))


_ROLE = re.compile(r":[a-z]+:`(~?)([^`\n]+)`")
_DOUBLE = re.compile(r"(?<!`)``((?:[^`\n]|\n(?!\n))+?)``(?!`)")
_LITERAL = re.compile(r"([^\s:])::$", re.M)


def as_markdown(text: str) -> str:
    """The docstrings' reStructuredText turned Markdown: a role
    (``:class:`~a.b.C```) becomes the code span of its name (``C``, the whole
    path without the ``~``), a double-backquoted literal a single-quoted one,
    and a literal block's ``::`` a colon (its indented block is Markdown code)."""
    text = _ROLE.sub(lambda m: "`" + (m.group(2).rsplit(".", 1)[-1] if m.group(1)
                                      else m.group(2)) + "`", text)
    text = _DOUBLE.sub(r"`\1`", text)
    return _LITERAL.sub(r"\1:", text)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    text = render()
    if "--check" in argv:
        path = Path(__file__).resolve().parents[1] / "RULES.md"
        current = path.read_text(encoding="utf-8") if path.exists() else ""
        if current != text:
            print("RULES.md is stale: run `python -m houserules.rulesdoc > RULES.md`",
                  file=sys.stderr)
            return 1
        return 0
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
