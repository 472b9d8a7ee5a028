"""Custom rule files: a user's own productions composed with FIDE and any presets.

A custom rule file (``.hr``) is written in the engine's rule language
(:mod:`rete.language`) and edits a :class:`~chess_rules.ruleset.RuleSet`:

* ``rule NAME ... end`` adds a production (a name already in the rule set is
  an error: say ``replaces`` to mean it);
* ``rule NAME replaces ... end`` replaces the production of that name;
* ``remove NAME, NAME`` removes productions by name;
* ``template`` declares new facts; ``stages`` declares new stages, each after
  the one listed before it (the first one must already exist).

Rule text never runs Python: actions and tests call functions by name, the
rule set's own (``gen.*``, ``filter-*`` ...) and the move helpers below.

Move helpers (call them from a ``generate``-stage rule; ``?p`` is a piece fact):

``gen-leap(?p, "1,1 -1,1")``
    leaps by (file, rank) offsets, or compass steps (``N NE E SE S SW W NW``),
    to an empty square or onto an enemy piece;
``gen-leap-quiet(?p, ...)``
    the same, to empty squares only (it never captures, so it never attacks);
``gen-slide(?p, "NE SW")`` / ``gen-slide-quiet(?p, ...)``
    slides along compass directions over the board's topology.

A capturing helper makes the production attack the squares it could capture
on, so check, checkmate and castling see the new move like a built-in one.

Filter helpers (call them from a ``filter``-stage rule):

``drop-promotions(?c, queen, "reason")``
    refuses every candidate of colour ``?c`` promoting to that piece type.

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
Errors (syntax, unknown template/slot/function, a name clash, removing a rule
that does not exist, a move helper's offsets or directions that do not parse)
come back as :class:`rete.ReteError` subclasses with
``file:line:column`` in front of the message; the rule set passed in is never
changed.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

from rete import ReteError
from rete.errors import CompileError, DuplicateProductionError, UnknownProductionError
from rete.language import error_position, parse_rules
from rete.model import Call, Pattern

from . import geometry as geo
from .moves import Move
from .ruleset import RuleSet
from .squares import SQUARE_NAMES

__all__ = ["load_rule_file", "load_rule_text", "MOVE_HELPERS"]

_COMPASS = {"N": (0, 1), "NE": (1, 1), "E": (1, 0), "SE": (1, -1),
            "S": (0, -1), "SW": (-1, -1), "W": (-1, 0), "NW": (-1, 1)}


def _offsets(spec: str) -> tuple[tuple[int, int], ...]:
    out = []
    for tok in str(spec).replace(";", " ").split():
        if tok.upper() in _COMPASS:
            out.append(_COMPASS[tok.upper()])
            continue
        try:
            df, dr = (int(x) for x in tok.split(","))
        except ValueError:
            raise ValueError(f"bad offset {tok!r}: write 'file,rank' (e.g. 1,2) or a "
                             f"compass step ({' '.join(_COMPASS)})") from None
        out.append((df, dr))
    if not out:
        raise ValueError("no offsets given")
    return tuple(out)


def _directions(spec: str) -> tuple[str, ...]:
    dirs = tuple(t.upper() for t in str(spec).replace(",", " ").split())
    bad = [d for d in dirs if d not in _COMPASS]
    if bad or not dirs:
        raise ValueError(f"bad slide direction(s) {bad or spec!r}: use {' '.join(_COMPASS)}")
    return dirs


def _emit(st, p, to, capture: bool, rule: str) -> None:
    v = p.values
    sq, c, t = v["square"], v["color"], v["type"]
    oc = st.colors[to]
    if oc is None:
        st.add(Move(sq, to, None, t, "normal", None, rule))
    elif oc != c and capture:
        st.add(Move(sq, to, None, t, "normal", to, rule))
    elif oc != c:
        st.refuse(SQUARE_NAMES[sq] + SQUARE_NAMES[to], rule,
                  f"{SQUARE_NAMES[to]} is occupied and this move never captures")


def _leap_fn(capture: bool):
    tables: dict = {}

    def gen(ctx, p, spec):
        st = ctx.session.chess
        key = (id(st.topology), spec)
        table = tables.get(key)
        if table is None:
            table = tables[key] = st.topology.leap_table(_offsets(spec))
        rule = ctx.pnode.production.name
        for to in table[p.values["square"]]:
            _emit(st, p, to, capture, rule)
    return gen


def _slide_fn(capture: bool):
    def gen(ctx, p, spec):
        st = ctx.session.chess
        v = p.values
        rule = ctx.pnode.production.name
        for to in geo.slide_targets(st.colors, st.topology, v["square"], v["color"],
                                    _directions(spec)):
            _emit(st, p, to, capture, rule)
    return gen


def drop_promotions(ctx, color, piece_type, reason="that promotion is not allowed"):
    st = ctx.session.chess
    rule = ctx.pnode.production.name
    for u, m in list(st.candidates.items()):
        if m.promo == piece_type and st.colors[m.frm] == color:
            st.drop(u, rule, str(reason))


MOVE_HELPERS = {
    "gen-leap": _leap_fn(True), "gen-leap-quiet": _leap_fn(False),
    "gen-slide": _slide_fn(True), "gen-slide-quiet": _slide_fn(False),
    "drop-promotions": drop_promotions,
}


def _attacks_of(prod, topo):
    """The attack function a custom generate rule implies, or None."""
    piece_types = [dict(c.slots).get("type") for c in prod.conditions
                   if isinstance(c, Pattern) and c.template == "piece"]
    fns = []
    for a in prod.actions:
        if not isinstance(a, Call) or a.fn not in ("gen-leap", "gen-slide") or len(a.args) < 2:
            continue
        spec = a.args[1]
        if not isinstance(spec, str):
            continue
        types = tuple(t for t in piece_types if isinstance(t, str))
        if not types:
            continue
        if a.fn == "gen-leap":
            offs = _offsets(spec)
            for t in types:
                fns.append(lambda c, ty, sq, by, t=t, o=offs:
                           geo.attacked_by_leaper(c, ty, topo, sq, by, t, o))
        else:
            dirs = _directions(spec)
            fns.append(lambda c, ty, sq, by, ts=types, d=dirs:
                       geo.attacked_by_slider(c, ty, topo, sq, by, ts, d))
    if not fns:
        return None
    if len(fns) == 1:
        return fns[0]
    return lambda c, ty, sq, by: any(f(c, ty, sq, by) for f in fns)


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


def load_rule_text(ruleset: RuleSet, text: str, source: str = "<rules>") -> RuleSet:
    """Apply rule text to a copy of ``ruleset`` and return the copy (see module doc)."""
    rf = parse_rules(text, source)
    rs = ruleset.copy()
    origin = Path(source).name
    for name, fn in MOVE_HELPERS.items():
        rs.functions.setdefault(name, fn)
    for t, (line, col) in zip(rf.templates, rf.template_lines):
        if t.name in rs.templates:
            raise _located(ReteError(f"template {t.name!r} already exists"), source, line, col)
        rs.templates[t.name] = t
    for stages, (line, col) in zip(rf.stages, rf.stage_lines):
        prev = stages[0]
        if prev not in rs.stages and prev not in [s for s, *_ in rs.extra_stages]:
            raise _located(ReteError(
                f"stage list must start with an existing stage, not {prev!r} "
                f"(stages: {', '.join(rs.stages)})"), source, line, col)
        for s in stages[1:]:
            rs.add_stage(s, after=(prev,))
            prev = s
    for name, (line, col) in zip(rf.removals, rf.removal_lines):
        if name not in rs.productions:
            raise _located(UnknownProductionError(
                f"'remove {name}': no production named {name!r}"), source, line, col)
        rs.remove(name, origin)
    locs = {}
    for prod, loc in zip(rf.productions, rf.rule_locs):
        locs[prod.name] = loc
        _check_helper_calls(prod, loc, rs.functions, source)
        if prod.stage == "generate" and "attacks" not in prod.meta:
            att = _attacks_of(prod, rs.topology)
            if att is not None:
                prod = _with_meta(prod, att)
        if prod.name in rf.replaces:
            if prod.name not in rs.productions:
                raise _located(UnknownProductionError(
                    f"rule {prod.name!r} replaces a production that does not exist"),
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
        loc = locs.get(getattr(e, "rule", None))
        where = (1, 1) if loc is None else error_position(e, loc, rs.templates, rs.functions)
        raise _located(e, source, *where) from None
    return rs


#: what the second argument of each move helper must parse as
_HELPER_SPECS = {"gen-leap": (_offsets, "offsets"), "gen-leap-quiet": (_offsets, "offsets"),
                 "gen-slide": (_directions, "directions"),
                 "gen-slide-quiet": (_directions, "directions")}


def _check_helper_calls(prod, loc, functions, source: str) -> None:
    """A move helper's arguments, checked when the file loads (not at the first
    move generation): a piece and a string of offsets or directions that parse."""
    for a in prod.actions:
        if not isinstance(a, Call) or a.fn not in _HELPER_SPECS \
                or functions.get(a.fn) is not MOVE_HELPERS[a.fn]:
            continue
        parse, what = _HELPER_SPECS[a.fn]
        problem = None
        if len(a.args) != 2:
            problem = (f"{a.fn} takes 2 arguments (a piece and its {what}), "
                       f"{len(a.args)} given")
        elif isinstance(a.args[1], str):
            try:
                parse(a.args[1])
            except ValueError as e:
                problem = f"{a.fn}: {e}"
        if problem is not None:
            where = next(((line, col) for k, key, line, col in loc.refs
                          if k == "function" and key == a.fn), (loc.line, loc.column))
            raise _located(CompileError(problem, prod.name), source, *where)


def _with_meta(prod, attacks):
    meta = dict(prod.meta)
    meta["attacks"] = attacks
    meta["attack-group"] = "custom"
    return dataclasses.replace(prod, meta=meta)


def load_rule_file(ruleset: RuleSet, path) -> RuleSet:
    """Apply the rule file at ``path`` to a copy of ``ruleset`` and return the copy."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise OSError(f"cannot read rule file {str(path)!r}: {e.strerror or e}") from None
    return load_rule_text(ruleset, text, str(p))
