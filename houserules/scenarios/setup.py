"""A scenario's setup: the rule set and starting position it describes, and
where to point when the setup is refused."""
from __future__ import annotations

import re
from pathlib import Path

from chess_rules.errors import ChessError

from rete.errors import ReteError

from .model import Scenario, ScenarioError, scenario_error

#: What a refused setup raises: the chess layer's errors (presets, FEN, modifiers),
#: the engine's (a rule file that does not compile), bad values, unreadable files.
REFUSALS = (ChessError, ReteError, ValueError, OSError)


def _base_dir(sc: Scenario) -> Path:
    return Path(sc.file).resolve().parent if sc.file and not sc.file.startswith("<") else Path.cwd()


def build_ruleset(sc: Scenario, base=None):
    """The rule set a scenario's setup describes, over ``base`` (FIDE when None;
    typed errors propagate). ``base`` itself is never changed."""
    s = sc.setup
    if s.variant is not None:
        if base is not None:
            raise scenario_error("this scenario names its variant ('variant'); "
                                 "run_scenario(ruleset=...) cannot stand in for it", s.variant)
        from chess_rules.variants import load_variant
        base = load_variant(s.variant.text)
    if s.ruleset is not None:
        if base is not None:
            raise scenario_error("this scenario names its own rule set ('ruleset'); "
                                 "run_scenario(ruleset=...) cannot stand in for it", s.ruleset)
        from chess_rules.ruleset_spec import load_ruleset_spec
        base = load_ruleset_spec(s.ruleset.text, base_dir=_base_dir(sc))
    ids = [a.text for a in s.presets]
    if ids or s.config:
        from presets.registry import load
        rs = load(*ids, config=s.config or None, base=base)
    elif base is not None:
        rs = base.copy()
    else:
        from chess_rules.fide import fide_rules
        rs = fide_rules()
    base = _base_dir(sc)
    for arg in s.rules:
        try:
            from chess_rules.rule_files import load_rule_file
        except ImportError as e:
            raise scenario_error(f"'rules' needs chess_rules.rule_files.load_rule_file, which is not "
                                 f"available ({e})", arg) from None
        path = Path(arg.text)
        if not path.is_absolute():
            path = base / path
        rs = load_rule_file(rs, str(path))
    for arg, squares in s.modifiers:
        try:
            from presets.modifiers import attach
        except ImportError as e:
            raise scenario_error(f"'modifier' needs presets.modifiers.attach, which is not available ({e})",
                                 arg) from None
        rs = attach(rs, arg.text, squares=list(squares) if squares else None,
                    base_dir=str(base))
    return rs


def start_text(sc: Scenario, edits: bool = True, ruleset=None) -> str:
    """The starting FEN (or extended position) after fen/layout, place and remove
    (without ``edits``: before place and remove); with neither fen nor layout,
    where ``ruleset`` starts (its ``start-fen``, else the standard position)."""
    s = sc.setup
    if s.fen is not None:
        text = s.fen.text
    elif s.layout is not None:
        from presets.layouts import get_layout
        text = get_layout(s.layout.text).fen
    else:
        from chess_rules.game import start_fen
        text = start_fen(ruleset)
    if edits and (s.place or s.remove):
        text = _edit_board(text, s.place, s.remove)
    return text


def blame_edits(sc: Scenario, e: Exception, ruleset) -> None:
    """Mark a refused start position (``e``, a ``FenError``) as the edits' doing
    when the position before ``place`` and ``remove`` is accepted: the error is
    then located at the last of them (:func:`locate_setup_error`)."""
    if not sc.setup.edits:
        return
    from chess_rules.game import Game
    try:
        # the whole set-up, the rule set's setup hooks included (a preset's
        # token such as hp:e1=0 is refused there, not by the reader)
        Game(start_text(sc, edits=False, ruleset=ruleset), ruleset=ruleset)
    except Exception:
        return                              # the fen's (or layout's) own error
    # several edits may contribute: the last (a mark on the exception for
    # locate_setup_error, which reads it with getattr)
    e.scenario_at = sc.setup.edits[-1]      # type: ignore[attr-defined]


def _edit_board(text: str, place, remove) -> str:
    """``text`` with the ``place`` and ``remove`` edits made in the order written,
    on a board of any size (its ranks and files read from the text: runs of
    empty squares of one or two digits). A board whose ranks differ in length,
    or an edit off it, leaves the text as it is: reading the position refuses
    it (a ``FenError`` naming the field, which ``expect refused FenError``
    expects)."""
    fields = text.split()
    rows = fields[0].split("/") if fields else []
    board: list[str | None] = []
    width = 0
    for i, row in enumerate(reversed(rows)):          # rank 1 first
        cells: list[str | None] = []
        for empty, letter in re.findall(r"(\d+)|(\D)", row):
            cells += [None] * int(empty) if empty else [letter]
        width = width if i else len(cells)
        if len(cells) != width or not width:
            return text
        board += cells
    height = len(rows)
    if not height:
        return text
    edits = [(loc.line, loc.column, sq, None) for sq, loc in remove] + \
        [(loc.line, loc.column, sq, letter) for letter, sq, loc in place]
    for _, _, sq, letter in sorted(edits, key=lambda e: (e[0], e[1])):
        file, rank = ord(sq[0]) - ord("a"), int(sq[1:]) - 1
        if not (0 <= file < width and 0 <= rank < height):
            return text
        board[file + width * rank] = letter
    out = []
    for rank in range(height - 1, -1, -1):
        row, empty = "", 0
        for f in range(width):
            c = board[rank * width + f]
            if c is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += c
        out.append(row + (str(empty) if empty else ""))
    fields[0] = "/".join(out)
    return " ".join(fields)


def locate_setup_error(sc: Scenario, e: Exception) -> ScenarioError:
    """Point a refused setup at the statement (and word) responsible."""
    s = sc.setup
    name = type(e).__name__
    msg = f"{name}: {e}"
    names = {c.__name__ for c in type(e).__mro__}
    if "UnknownPresetError" in names:
        try:
            from presets.registry import all_presets
            known = {m.id for m in all_presets()}
        except Exception:  # pragma: no cover - registry itself broken
            known = set()
        for a in s.presets:
            if a.text not in known:
                return scenario_error(msg, a)
    if "UnknownLayoutError" in names and s.layout is not None:
        return scenario_error(msg, s.layout)
    if "PresetConfigError" in names and s.config_loc is not None:
        text = str(e)
        for a in s.config_args:             # the word of the preset the error names
            pid = a.text.split(".", 1)[0]
            if f"'{pid}'" in text or f'"{pid}"' in text:
                return scenario_error(msg, a)
        return scenario_error(msg, s.config_loc)
    if names & {"FenError", "DfenError"}:
        at = getattr(e, "scenario_at", None)        # see blame_edits
        if at is not None:
            return scenario_error(msg, at)
        src = s.dfen or s.fen or s.layout
        if src is not None:
            return scenario_error(msg, src)
    if "RuleSetSpecError" in names and s.ruleset is not None:
        return scenario_error(msg, s.ruleset)
    if "PresetError" in names and s.presets:
        return scenario_error(msg, s.presets[0])
    for arg in s.rules:
        if arg.text in str(e) or Path(arg.text).name in str(e):
            return scenario_error(msg, arg)
    for arg, _ in s.modifiers:
        if arg.text in str(e):
            return scenario_error(msg, arg)
    if s.rules and "Rule" in name:
        return scenario_error(msg, s.rules[0])
    if s.modifiers and ("Modifier" in name or "Descriptor" in name):
        return scenario_error(msg, s.modifiers[0][0])
    return scenario_error(msg, sc.loc)
