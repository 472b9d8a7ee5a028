"""Custom rule files: a user's own productions composed with FIDE and any presets.

A custom rule file (``.hr``) is written in the engine's rule language
(:mod:`rete.language`) and edits a :class:`~chess_rules.ruleset.RuleSet`:

* ``rule NAME ... end`` adds a production (a name already in the rule set is
  an error: say ``replaces`` to mean it);
* ``rule NAME replaces ... end`` replaces the production of that name;
* ``remove NAME, NAME`` removes productions by name;
* rules and removals apply in the order the text gives them (a rule may be
  removed after it was written, or written again after its removal);
* ``piece NAME LETTER "BETZA"`` (a line of its own) adds a piece type: its
  FEN letter and its movement in Betza notation, moved by the production
  ``piece.NAME-move`` (``piece archbishop a "BN"``; see ``docs/fairy.md``);
* ``template`` declares new facts; ``stages`` declares new stages, each after
  the one listed before it (the first one must already exist), and before the
  stage that followed that one: a stage after ``post-move`` runs with every
  move, before ``turn-end``. New stages go after ``generate`` (they run with
  move generation) or after ``apply``, ``post-move`` or ``turn-end`` (with
  every move); one after ``filter`` or ``result`` would run with no move and is
  refused.
* a rule that runs with move generation (``generate``, ``filter`` and the stages
  between) proposes moves: it may call functions and ``assert logical`` facts
  that go with the ``movegen`` request (its conditions match ``movegen``, or a
  fact of a template of yours that only such logical asserts make), but a plain
  ``assert``, a ``modify``, a ``retract``, or a logical fact the position alone
  supports there is refused, since listing the moves would change the position.

Squares are numbers in working memory (a1 = 0 .. h8 = 63), and a square's
name in a slot that holds a square is that square: ``piece(square: e4)``,
``move(to: ?t & member(d4, e4))``, ``modify ?p (square: e5)``
(:mod:`chess_rules.square_symbols`); a text there that names no square is a
:class:`rete.errors.CompileError` at its place.

Rule text never runs Python: actions and tests call functions by name, the
rule set's own (``gen.*``, ``filter-*`` ...) and the move helpers of
:mod:`chess_rules.move_helpers`: ``gen-leap``, ``gen-leap-quiet``, ``gen-slide`` and
``gen-slide-quiet`` in a ``generate``-stage rule (``?p`` a piece fact), and
``drop-promotions`` in a ``filter``-stage rule. A rule that calls a capturing
helper attacks the squares it could capture on, so check, checkmate and
castling see the new move like a built-in one.

Example, ``examples/rules/rook_steps_diagonally.hr``::

    rule "custom.rook-diagonal-step" stage generate
      "A rook may also step one square diagonally."
    when
      movegen(color: ?c)
      ?p <- piece(type: rook, color: ?c)
    then
      call gen-leap(?p, "NE NW SE SW")
    end

Load it with ``load_rule_file(ruleset, path)`` or ``houserules moves FEN --rules FILE.hr``.
Errors (syntax, unknown template/slot/function/stage, a rule with no stage, a
name clash, removing a rule that does not exist, a move helper's offsets or
directions that do not parse, ``meta(attacks: ...)`` or ``meta(simulate: ...)``,
which only Python can give as the functions they are) come back as
:class:`rete.ReteError` subclasses with ``file:line:column`` in front of the
message; the rule set passed in is never changed. While the game runs, an
action that writes a piece the board cannot hold (a ``square`` that is not a
square number 0..63, a ``type`` not one of the six, a ``color`` not white or
black; a ``royal`` fact of such a colour; a ``game`` fact whose ``turn`` is
neither, an ``ep`` fact whose ``square`` is no square or ``by`` no colour, a
``castling`` fact whose ``side`` is not king or queen or whose squares are not
squares) raises :class:`rete.errors.SlotValueError`: the move is refused with
an :class:`rete.ActionError` at the action, and the game stays as it was. A
move after whose rules there is not exactly one ``game`` fact (one retracted,
or another asserted) is refused with a :class:`~chess_rules.errors.ChessError`.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from rete import ReteError
from rete.errors import (CompileError, DuplicateProductionError, DuplicateTemplateError,
                         UnknownFunctionError,
                         UnknownProductionError, UnknownStageError, did_you_mean)
from rete.functions import BUILTINS
from rete.language import error_position, parse_rules
from rete.loading import read_text_file
from rete.model import Call
from rete.transformer import RuleLocation

from .move_helpers import MOVE_HELPERS, helper_call_problem, meta_problem
from .errors import ArgumentError, ChessError, source_name
from .pieces import PieceType
from .ruleset import RuleSet, RuleSetError, checked_ruleset
from .square_symbols import SquareNameError, with_square_numbers

__all__ = ["load_rule_file", "load_rule_text", "MOVE_HELPERS"]

def _located(e: BaseException, source: str, line: int, column: int) -> ReteError:
    """The same error (a :class:`ReteError`, of the same type where it is one) with
    ``source:line:column: `` in front of its message."""
    msg = f"{source}:{line}:{column}: {e}"
    if isinstance(e, ReteError):
        err = type(e).__new__(type(e))
        err.args = (msg,)
        err.__dict__.update(getattr(e, "__dict__", {}))
    else:
        err = ReteError(msg)
    err.line, err.column, err.source = line, column, source
    return err


_PIECE_LINE = re.compile(r'^([ \t]*)piece[ \t]+([^ \t"(]+)[ \t]+([^ \t"]+)[ \t]+"([^"]*)"[ \t]*(#.*)?$')


def _piece_lines(text: str):
    """The text with its piece definitions (``piece NAME LETTER "BETZA"``, a
    line of its own) blanked, so the rule language never sees them and every
    other line keeps its number, and the definitions with their positions."""
    lines = text.split("\n")
    pieces = []
    for i, line in enumerate(lines):
        m = _PIECE_LINE.match(line)
        if m:
            pieces.append(((i + 1, len(m.group(1)) + 1), m.group(2), m.group(3), m.group(4)))
            lines[i] = ""
    return "\n".join(lines), pieces


def _stage_after(rs: RuleSet, stage: str) -> tuple:
    """The stage that comes next after ``stage`` in the rule set's own order (a
    declared stage: the one it was declared before), as a ``before`` constraint."""
    if stage in rs.stages:
        i = rs.stages.index(stage)
        return (rs.stages[i + 1],) if i + 1 < len(rs.stages) else ()
    return next((before for s, _, before in rs.extra_stages if s == stage), ())


def load_rule_text(ruleset: RuleSet, text: str, source: str = "<rules>") -> RuleSet:
    """Apply rule text to a copy of ``ruleset`` and return the copy (see module doc)."""
    checked_ruleset(ruleset, required=True)
    if not isinstance(text, str):
        raise ArgumentError(f"rule text is a str, not {type(text).__name__}")
    source = source_name(source) or "<rules>"
    text, pieces = _piece_lines(text)
    rf = parse_rules(text, source)
    rs = ruleset.copy()
    for (line, col), name, letter, betza in pieces:
        try:
            rs.add_piece(PieceType(name, letter, betza), Path(source).name)
        except (ChessError, RuleSetError) as e:
            raise _located(ReteError(str(e)), source, line, col) from None
    origin = Path(source).name
    for t, (line, col) in zip(rf.templates, rf.template_lines):
        if t.name in rs.templates:
            raise _located(DuplicateTemplateError(f"template {t.name!r} already exists"),
                           source, line, col)
        rs.templates[t.name] = t
    for stages, (line, col) in zip(rf.stages, rf.stage_lines):
        prev = stages[0]
        if prev not in rs.stages and prev not in [s for s, *_ in rs.extra_stages]:
            raise _located(UnknownStageError(
                f"stage list must start with an existing stage, not {prev!r} "
                f"(stages: {', '.join(rs.stages)})"), source, line, col)
        # each new stage runs right after the one before it: before the stage
        # that followed that one (a stage after post-move runs before turn-end)
        before = _stage_after(rs, prev)
        if before not in (("filter",), ("post-move",), ("turn-end",), ("result",)) or \
                prev.startswith("mod."):
            raise _located(ReteError(
                f"a stage after {prev!r} would run with no move: declare new stages after "
                f"generate (they run with move generation), or after apply, post-move or "
                f"turn-end (they run with every move)"), source, line, col)
        for s in stages[1:]:
            try:
                rs.add_stage(s, after=(prev,), before=before)
            except RuleSetError as e:
                raise _located(ReteError(str(e)), source, line, col) from None
            prev = s
    for name, (line, col) in zip(rf.functions, rf.function_lines):
        if name not in rs.functions and name not in BUILTINS:
            raise _located(UnknownFunctionError(
                f"function {name!r} is declared by 'uses' but the rule set has no such "
                f"function (register it with RuleSet.function)"), source, line, col)
    # removals and rules apply in the order the text gives them: (where, 0, name)
    # for a removal, (where, 1, (production, location, replacing)) for a rule
    edits: list[tuple[tuple[int, int], int, Any]] = [((line, col), 0, name) for name, (line, col) in zip(rf.removals, rf.removal_lines)]
    edits += [((loc.line, loc.column), 1, (prod, loc, replacing))
              for prod, loc, replacing in zip(rf.productions, rf.rule_locs, rf.replacing)]
    edits.sort(key=lambda e: e[0])
    locs: dict[str, RuleLocation] = {}
    for (line, col), kind, what in edits:
        if kind == 0:
            name = what
            if name not in rs.productions:
                raise _located(UnknownProductionError(
                    f"'remove {name}': no production named {name!r}"
                    f"{did_you_mean(name, rs.productions)}"), source, line, col)
            rs.remove(name, origin)
            locs.pop(name, None)
            continue
        prod, loc, replacing = what
        try:
            prod = with_square_numbers(prod, rs.shape)
        except SquareNameError as e:
            kind, key, n = e.ref
            places = [(line, col) for k, kk, line, col in loc.refs if (k, kk) == (kind, key)]
            where = places[n] if n < len(places) else loc.name
            raise _located(CompileError(str(e), prod.name), source, *where) from None
        locs[prod.name] = loc
        _check_stage(prod, loc, rs, source)
        problem = meta_problem(prod)
        if problem is not None:
            raise _located(CompileError(problem, prod.name), source, *(loc.meta or loc.name))
        _check_helper_calls(prod, loc, rs, source)
        if replacing:
            if prod.name not in rs.productions:
                raise _located(UnknownProductionError(
                    f"rule {prod.name!r} replaces a production that does not exist"
                    f"{did_you_mean(prod.name, rs.productions)}"),
                    source, *loc.name)
            rs.replace(prod, origin)
        elif prod.name in rs.productions:
            raise _located(DuplicateProductionError(
                f"rule {prod.name!r} already exists (from {rs.origin[prod.name]}); "
                f"write 'rule {prod.name} replaces' to replace it"), source, *loc.name)
        else:
            rs.add(prod, origin)
    try:
        rs.build()      # compile now, so unknown templates/slots/functions are found here
    except ReteError as e:
        rule = getattr(e, "rule", None)
        loc = locs.get(rule) if rule is not None else None
        if loc is None:
            # not a rule of this text: the rule set it edits was broken already
            raise
        raise _located(e, source, *error_position(e, loc, rs.templates, rs.functions)) from None
    return rs


def _check_stage(prod, loc, rs: RuleSet, source: str) -> None:
    """A rule's stage is one of the rule set's (a rule written without one has
    the engine's ``default`` stage, which a chess rule set does not run)."""
    if rs._known_stage(prod.stage) is not None:
        return
    stages = ", ".join(rs.stages + [s for s, *_ in rs.extra_stages])
    if loc.stage is None:
        raise _located(UnknownStageError(
            f"rule {prod.name!r} names no stage: write 'stage S' after its name "
            f"(stages: {stages})"), source, *loc.name)
    raise _located(UnknownStageError(
        f"stage {prod.stage!r} is not declared (stages: {stages})"), source, *loc.stage)


def _check_helper_calls(prod, loc, rs: RuleSet, source: str) -> None:
    """A move helper's arguments and stage, checked when the file loads (not at
    the first move generation), with the error placed at the call."""
    for a in prod.actions:
        problem = helper_call_problem(a, rs.functions, prod.conditions,
                                      rs._known_stage(prod.stage), rs.templates) \
            if isinstance(a, Call) else None
        if problem is not None:
            where = next(((line, col) for k, key, line, col in loc.refs
                          if k == "function" and key == a.fn), (loc.line, loc.column))
            raise _located(CompileError(problem, prod.name), source, *where)


def load_rule_file(ruleset: RuleSet, path) -> RuleSet:
    """Apply the rule file at ``path`` to a copy of ``ruleset`` and return the copy."""
    checked_ruleset(ruleset, required=True)
    try:
        p = Path(path)
    except TypeError:
        raise ArgumentError(f"a rule file is named by its path (a str or os.PathLike), "
                            f"not {type(path).__name__}") from None
    return load_rule_text(ruleset, read_text_file(p, "rule file"), str(p))
