"""Loading rule text into a session: templates, stages, functions and
productions, all or nothing, with compile errors placed at the line and column
of the name they are about.
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TypeVar

from .errors import (ActionFunctionError, CollectedFactsError, CompileError,
                     DuplicateProductionError,
                     MatchError, ReteError, UnboundVariableError, UnknownFunctionError, UnknownProductionError,
                     UnknownSlotError, UnknownSlotValueError, UnknownStageError,
                     UnknownTemplateError)
from .model import Modify, Pattern, Production, Template
from .parsing import parse_rules
from .transformer import RuleFile, RuleLocation

__all__ = ["load_rules", "error_position"]



def read_text_file(path, what: str = "file") -> str:
    """A UTF-8 text file's contents; a file that cannot be read, or is not UTF-8,
    raises :class:`OSError` naming it (``what``: "rule file", "scenario file")."""
    try:
        return Path(path).read_text(encoding="utf-8-sig")   # a byte-order mark is no text
    except UnicodeDecodeError as e:
        raise OSError(f"cannot read {what} {str(path)!r}: not UTF-8 text "
                      f"(byte {e.start}: {e.reason})") from None
    except OSError as e:
        raise OSError(f"cannot read {what} {str(path)!r}: {e.strerror or e}") from None


def _read(text_or_path, source) -> tuple[str, str]:
    if isinstance(source, os.PathLike):
        source = os.fspath(source)
    if isinstance(text_or_path, os.PathLike):
        p = Path(text_or_path)
        return read_text_file(p, "rule file"), source or str(p)
    if isinstance(text_or_path, str) and "\n" not in text_or_path and \
            text_or_path.strip() and os.path.isfile(text_or_path):
        return read_text_file(text_or_path, "rule file"), source or text_or_path
    return text_or_path, source or "<string>"


_E = TypeVar("_E", bound=ReteError)


def _located(e: _E, source: str, line: int, column: int) -> _E:
    """Same exception, its message prefixed with ``source:line:column: ``."""
    e.args = (f"{source}:{line}:{column}: {e}",) + tuple(e.args[1:])
    e.line, e.column, e.source = line, column, source
    return e


def error_position(e: BaseException, loc: RuleLocation, templates,
                   functions) -> tuple[int, int]:
    """Where in one rule's text (``loc``, from :attr:`RuleFile.rule_locs`) a compile
    error points, given the templates and functions it was compiled against: the
    unknown template, slot, function, stage or unbound variable itself, a clashing
    rule's name, else the rule."""
    def first(kind, pred):
        for k, key, line, col in loc.refs:
            if k == kind and pred(key):
                return (line, col)
        return None

    # the name the error is about, when the compiler gave it (the compiler meets
    # names in its own order, not the text's: the first unknown one in the text
    # may not be the one reported)
    name = getattr(e, "name", None)
    hit = None
    if isinstance(e, UnknownTemplateError):
        hit = first("template", lambda t: t == name if name is not None else t not in templates)
    elif isinstance(e, UnknownSlotError):
        hit = first("slot", lambda ts: tuple(ts) == name if name is not None else
                    ts[0] in templates and not _has_slot(templates[ts[0]], ts[1]))
        if hit is None:
            hit = first("mslot", lambda vs: name is None or vs[1] == name[1])
    elif isinstance(e, UnknownSlotValueError):
        template, slot = e.name
        hit = first("slot", lambda ts: tuple(ts) == (template, slot)) or \
            first("mslot", lambda vs: vs[1] == slot)
    elif isinstance(e, UnknownFunctionError):
        hit = first("function", lambda f: f == name if name is not None else f not in functions)
    elif isinstance(e, ActionFunctionError):
        hit = first("call", lambda f: f == e.function) or \
            first("function", lambda f: f == e.function)
    elif isinstance(e, UnboundVariableError):
        m = re.search(r"\?([A-Za-z_][A-Za-z0-9_-]*)", str(e))
        if m:
            hit = _outside_scopes(loc.refs, m.group(1)) or first("var", lambda v: v == m.group(1))
    elif isinstance(e, CollectedFactsError):
        if e.target:            # the fact a retract or modify names
            hit = first("target", lambda v: v == e.variable)
        else:
            # the first use after the collect (refs come in text order, a collect's
            # own pattern before it): a condition's, as valid uses are in actions
            at = next((i for i, r in enumerate(loc.refs)
                       if r[0] == "collect" and r[1] == e.variable), -1)
            hit = next(((line, col) for k, key, line, col in loc.refs[at + 1:]
                        if k == "var" and key == e.variable), None)
    elif isinstance(e, UnknownStageError):
        hit = loc.stage
    elif isinstance(e, CompileError) and \
            (m := re.search(r"\?(\S+) holds a slot value, not a fact", str(e))):
        # the retract's or modify's target that names a slot's value
        hit = first("target", lambda v: v == m.group(1))
    elif isinstance(e, DuplicateProductionError):
        hit = loc.name
    elif isinstance(e, CompileError) and e.action is not None and e.action < len(loc.actions):
        # the action at fault; for a slot it gives twice, the second one (the
        # action's slots in order)
        hit = start = loc.actions[e.action]
        end = loc.actions[e.action + 1] if e.action + 1 < len(loc.actions) else (1 << 62, 0)
        slots = [(line, col) for k, _, line, col in loc.refs
                 if k in ("slot", "mslot") and start <= (line, col) < end]
        if e.slot_index is not None and e.slot_index < len(slots):
            hit = slots[e.slot_index]
    return hit or (loc.line, loc.column)


def _outside_scopes(refs, var: str) -> tuple[int, int] | None:
    """The first use of ``?var`` outside every ``not``, ``exists`` and ``collect``
    (whose variables are their own): where a variable bound only in one is used
    out of it."""
    scopes = [((line, col), key) for k, key, line, col in refs if k == "scope"]
    for k, key, line, col in refs:
        if k == "var" and key == var and \
                not any(start <= (line, col) < end for start, end in scopes):
            return (line, col)
    return None


def _has_slot(t: Template, slot: str) -> bool:
    resolve = getattr(t, "resolve", None)      # dash/underscore spellings, where supported
    return slot in t.slots or (resolve is not None and resolve(slot) is not None)


def _check_modify_slots(session, prod: Production, loc: RuleLocation) -> None:
    """Slots of ``modify ?p (...)`` must exist in the template of the fact bound to ?p."""
    bound = {c.bind: c.template for c in prod.conditions
             if isinstance(c, Pattern) and c.bind}
    for a in prod.actions:
        if isinstance(a, Modify) and a.var in bound:
            t = session.templates.get(bound[a.var])
            if t is None:
                continue
            for s, _ in a.slots:
                if not _has_slot(t, s):
                    err = UnknownSlotError(
                        f"modify ?{a.var}: template {t.name!r} has no slot {s!r} "
                        f"(slots: {', '.join(t.slots)})", prod.name)
                    hit = None
                    for k, key, line, col in loc.refs:
                        if k == "mslot" and key == (a.var, s):
                            hit = (line, col)
                            break
                    raise _located(err, prod.source, *(hit or (loc.line, loc.column)))


def load_rules(session, text_or_path, source: str | None = None, *,
               replace: bool = False) -> RuleFile:
    """Declare a rule text's templates and stages in ``session`` and add its productions.

    ``text_or_path`` is rule text, a :class:`~pathlib.Path`, or a string naming an
    existing file. Every function the text ``uses`` must already be registered.
    ``rule NAME replaces`` (or every rule, with ``replace=True``) takes the place
    of the production of that name as the text has it so far; ``remove NAME``
    takes one out. All or nothing: the text's productions are compiled beside
    the ones they replace, and the removals and replacements are made only once
    every production has compiled, so on any error the session is exactly as it
    was (no production, template or stage from this text; the replaced and
    removed productions with their fired matches and the facts they support).
    The error is re-raised with ``source:line:column: `` in front of its message
    and ``line``/``column``/``source`` attributes.
    """
    text, src = _read(text_or_path, source)
    rf = parse_rules(text, src)
    saved_templates = dict(session.templates)
    saved_stage_after = list(session._stage_after)
    saved_stages = list(session.stages)
    staged: list = []                   # compiled, not yet in session.productions
    names = set(session.productions)    # the production names as the text goes on
    try:
        for name, (line, col) in zip(rf.removals, rf.removal_lines):
            if name not in names:
                raise _located(UnknownProductionError(
                    f"'remove {name}': no production named {name!r}"), src, line, col)
            names.discard(name)
        for t, (line, col) in zip(rf.templates, rf.template_lines):
            try:
                session.deftemplate(t)
            except ReteError as e:
                raise _located(e, src, line, col)
        for stages, (line, col) in zip(rf.stages, rf.stage_lines):
            try:
                session.define_stages(stages)
            except ReteError as e:
                raise _located(e, src, line, col)
        for name, (line, col) in zip(rf.functions, rf.function_lines):
            if name not in session.functions:
                raise _located(UnknownFunctionError(
                    f"function {name!r} is declared by 'uses' but not registered in the "
                    f"session (register it with Session.register_function)"), src, line, col)
        with session.adding(rf.productions):
            for prod, loc, replacing in zip(rf.productions, rf.rule_locs, rf.replacing):
                _check_modify_slots(session, prod, loc)
                if replacing and prod.name not in names:
                    raise _located(UnknownProductionError(
                        f"rule {prod.name!r} replaces a production that does not exist"),
                        src, loc.line, loc.column)
                if prod.name in names and not (replace or replacing):
                    raise _located(DuplicateProductionError(
                        f"production {prod.name!r} already exists"), src, *loc.name)
                try:
                    staged.append(session._compile_beside(prod))
                except MatchError as e:
                    if e.line is None:      # no use of the failing function found
                        raise _located(e, src, loc.line, loc.column)
                    raise
                except ReteError as e:
                    raise _located(e, src, *error_position(e, loc, session.templates,
                                                           session.functions))
                names.add(prod.name)
    except BaseException:
        for pnode in reversed(staged):
            session._remove_pnode(pnode)
        session.templates.clear()
        session.templates.update(saved_templates)
        if session._stage_after != saved_stage_after or session.stages != saved_stages:
            session._stage_after[:] = saved_stage_after
            session._relayout_stages()
        raise
    # everything compiled: now the removals and replacements (nothing here raises)
    for name in rf.removals:
        session.remove_production(name)
    for pnode in staged:
        name = pnode.production.name
        old = session.productions.get(name)
        if old is not None:
            session._remove_pnode(old)
        session.productions[name] = pnode
    session._reactive = None
    session._below = {}
    return rf
