"""Custom modifiers: JSON descriptors of trigger and effect primitives, attached to
pieces and run after every move by a 12-stage dispatcher.

    from presets.modifiers import attach
    rules = attach(load("piece-hp"), "nomad", squares=["g1"])   # a gallery recipe
    rules = attach(rules, "my-modifier.json")                  # a file; its appliesTo
    houserules moves FEN --preset piece-hp --modifier my-modifier.json
    houserules modifiers schema | list | check FILE.json

In a scenario file: ``modifier NAME-OR-FILE.json on SQUARE ...``.

# Descriptor format (version 1)

A descriptor is a JSON object (JSON Schema: ``houserules modifiers schema``):

    {"version": 1, "id": "berserker", "name": "Berserker",
     "description": "...", "requires": [],
     "appliesTo": {"color": "both", "pieceTypes": ["rook"], "squares": [0, 7]},
     "primitives": [
       {"kind": "on-move", "params": {"primitives": [
         {"kind": "add-to-attribute", "params": {"attr": "AttackBonus", "delta": 1}}]}}]}

``attach(ruleset, descriptor, squares=None, base_dir=None)`` returns a copy of the
rule set. When a game starts, the descriptor's ``primitives`` are applied, in
order, to each piece standing on ``squares`` (an empty square there is a
``ModifierError``), or, without squares, to each piece ``appliesTo`` selects
(colour, piece types, squares; by default every piece). At
the top level an effect primitive acts at once on that piece, a trigger
primitive seeds its ``On*Hooks`` attribute on it, and a ``conditional`` becomes a
standing hook evaluated after every move (dispatch stage 10). ``requires`` names
presets the descriptor needs (an id that is no preset is refused at validation);
a descriptor that reads or writes ``Hp`` or uses
``on-damaged`` needs ``piece-hp`` whether it says so or not.

# Effect primitives

* ``add-to-attribute`` ``{attr, delta}``: attr += delta (whole numbers, -100..100).
* ``seed-attribute`` ``{attr, value}``: attr = value.
* ``add-aura`` ``{radius, targetAttr, delta, affects}``: the piece projects an aura.
  Every piece within ``radius`` (king steps on the board's topology, 1..7: on the
  cylinder the a- and h-files are adjacent (ours); the source excluded) on the
  ``affects`` side (``allies``, the default, ``enemies`` or ``all``) has
  ``targetAttr`` equal to the sum of the auras on it, recomputed at stage 1 and
  whenever an aura is added or its source is destroyed; an aura lives as long
  as its source. An aura attribute is derived: a primitive that writes it (in
  the same modifier or another attached one) is refused at attach (ours; it
  used to be overwritten at the next recompute, and a position read back in
  between differed).
* ``set-capture-flag`` ``{flag: 0|1}``: the piece's CaptureFlag. A piece with
  CaptureFlag 1 may not capture (``modifiers.capture-flag``, filter stage); 0
  re-arms it.
* ``conditional`` ``{if, then, else}``: runs ``then`` when the condition holds, else
  ``else``. A condition's fields must all hold (at least one is given):
  ``attr``/``op``/``value`` (an attribute of the hooked piece; ``op`` one of
  ``== != < <= > >=``), ``pieceType``, ``color``, ``inCheck`` (a royal piece
  attacked now), ``sideToMove``, ``square`` (a square filter), ``event`` (fields of
  ``ctx.event`` equal to these).
* ``set-board-topology`` ``{topology: plain|cylinder}``: top level only; the rule
  set is built on that board (``cylinder`` is the ``wrap-board`` geometry). It is
  refused on top of another topology or of presets that rewrote movement rules
  or built their productions on the plain board (``pawn-diagonal-no-capture``,
  ``explosive-rook``: load ``wrap-board`` with them instead).

# Trigger primitives

Each takes ``{target, primitives}`` (``target`` defaults to ``self``);
``on-turn-start`` and ``on-turn-end`` also ``color`` (``white``, ``black`` or
``both``, the default), ``on-moved-onto-square`` a ``filter``: ``{"kind":
"squares", "squares": [27, 28]}`` or ``{"kind": "predicate", "file": 0..7,
"rank": 0..7}`` with at least one of file and rank. Before each nested primitive
the dispatcher sets ``ctx.event`` and ``ctx.target`` (the hook's target):

| trigger | stage | fires on | ``ctx.event`` |
|---|---|---|---|
| ``on-damaged`` | 2 | a piece whose hp fell | kind damaged, amount, attackerId, defenderId |
| ``on-capture`` | 3 | the attacker of a capture | kind capture, attackerId, defenderId, lethal, square |
| ``on-captured`` | 4 | the lethally captured defender | kind capture, attackerId, defenderId, lethal, square |
| ``on-promotion`` | 5 | a pawn whose type flipped | kind promotion, promotedFrom, promotedTo |
| ``on-move`` | 6 | every piece whose square changed | kind move, from, to, moverId |
| ``on-moved-onto-square`` | 7 | the same, destination in the filter | kind moved-onto-square, from, to |
| ``on-check-received`` | 8 | a royal piece newly in check | kind check-received, attackerIds, defenderId |
| ``on-check-delivered`` | 9 | a piece newly attacking an enemy royal | kind check-delivered, attackerId, defenderId, discovered |
| (top-level ``conditional``) | 10 | every piece holding one | kind after-move, moverId |
| ``on-turn-end`` | 11 | hooks of the mover's colour (or both) | kind turn-end, color |
| ``on-turn-start`` | 12 | hooks of the next side's colour (or both) | kind turn-start, color |

Target resolvers: ``"self"`` (the hooked piece), ``"attacker"`` and ``"defender"``
(``attackerId``/``attackerIds`` and ``defenderId`` of ``ctx.event``),
``{"squares": [..]}`` (the pieces standing there now), ``{"relation":
"ally"|"enemy", "filter": {"pieceType": ..}}`` (allies of the hooked piece, itself
excluded, or its enemies).

# Attributes

Attributes are PascalCase names. ``Hp`` is piece-hp's hit points: hp falling to
0 removes the piece, and a side that loses its last royal piece that way loses.
``PieceType`` is the piece's type (``seed-attribute`` only; never to a king, never
changes a royal piece). ``CaptureFlag`` is 0 or 1. Every other name is a whole
number starting at 0, kept in a piece slot (``AttackBonus`` is ``attack-bonus``)
and written in the extended position (``attack-bonus:e4=2``). ``Color``,
``Position``, ``Square``, ``Moved`` and ``Type`` are read-only; a name whose
key a position reserves (``Half``, ``EpPawn``, ``Mod``, ``Winner``: ``half:``
would read back as the half-move count) is refused at validation, and a name
whose slot another preset already gave the piece is refused at attach. Types
are strict, as in the exported JSON schema: ``"1"``, ``true`` and ``1.0`` are
not whole numbers (ours). A position whose attribute tokens are not whole
numbers (CaptureFlag not 0 or 1) is a FenError.

# Validation

The version must be 1; every ``kind`` one of the 16 kinds; primitives nest at
most MAX_RECURSION_DEPTH = 3 levels (a top-level primitive is level 1, its nested
primitives level 2; a conditional's branches count as a level); at most
MAX_PRIMITIVE_COUNT = 50 nodes per descriptor; parameters follow the schema
(unknown fields are refused). A refusal is a :class:`DescriptorError`
(``DescriptorVersionError``, ``UnknownKindError``, ``RecursionDepthError``,
``PrimitiveCountError``, ``BadParamsError``; all are
:class:`chess_rules.errors.ChessError`) whose ``path`` is a JSON path
(``$.primitives[0].params.delta``) and whose ``reason`` says why. An unknown
gallery name or unreadable file is an ``UnknownModifierError``; a descriptor the
rule set cannot take (Hp without piece-hp, a topology clash) a
``ModifierCompositionError``. ``attach`` works on a copy: a refusal changes nothing.

# Dispatch

After every move (its apply, post-move and turn-end stages done) twelve agenda
stages run, in this order: ``mod.auras``, ``mod.damaged``, ``mod.capture``,
``mod.captured``, ``mod.promotion``, ``mod.move``, ``mod.moved-onto-square``,
``mod.check-received``, ``mod.check-delivered``, ``mod.conditional``,
``mod.turn-end``, ``mod.turn-start``; then the result stage. ``Game.push`` runs
them, as a run of their own, only for a rule set with modifiers attached
(``config['extra-push-stages']``): plain chess does not pay for them. The board
before the move is recorded first thing in the apply stage
(``modifiers.snapshot``).

# Gallery

``houserules modifiers list``; each recipe has a scenario in
``tests/scenarios/modifiers/``: berserker, nomad, decay, rearm, sated,
promotion-feast, stay-as-pawn, panic-mode, panic-level, berserker-king, vampire,
stunner, center-bonus, king-row, kamikaze, martyr, and the cross-reference
recipe ``tpl-pacman-style-cross-ref`` (the a- and h-files adjacent: the modifier
form of ``wrap-board``). ``berserker``'s AttackBonus is read by ``piece-hp``: a
capture deals 1 damage more per point of the capturing piece's bonus (without
piece-hp it is a counter, written in the position).

(ours) The gallery has no recipe that adds nothing. Eight "preset stubs"
(coregal, dual-king, pac-man, early-promotion, god-kings, proletariat,
short-stop, trans-rights) were taken out: the first three were the presets
``coregal``, ``dual-king`` and ``wrap-board`` under another name (use
``--preset``), and the other five change move generation or royalty (a
per-rank promotion, kings that cannot be captured, only pawns may move,
sliders limited to one square, queens that move like kings), which no
primitive can express: each is a preset to write, not a modifier.

# Rulings (ours where marked)

* (ours) The dispatch follows the chess ``turn-end`` stage (poison, king-heals),
  so on-damaged sees poison damage, and precedes ``result``, so a side whose last
  royal piece a primitive destroys has lost at once. The stages run as a run of
  their own: a change a primitive makes never re-fires an earlier stage's
  production (a Stay-As-Pawn pawn on the last rank is not promoted again).
* (ours) When one move's primitives destroy the last royal pieces of both
  sides (decay taking both kings' last hp), the side that moved loses, as
  under explosive-rook's blast and extinction-chess; at a game's start, the
  side not to move (or, mid-turn, the side to move).

* on-turn-end fires for hooks whose colour is the mover's (or both), before any
  on-turn-start, which fires for the next side to move: decay, then heal.
* (ours) Under a multi-move turn (double-move) neither fires until the turn
  passes. The first turn of a game has no turn-start (nothing has moved yet).
* on-capture fires on the attacker of every capture (lethal or not, en passant
  included); on-captured only when the defender is gone after the move. Its
  hooks and values (type, colour, attributes: what a conditional reads) come from
  the pre-move snapshot; effects on ``self`` are then no-ops, so redirect them
  with ``target``.
* on-damaged compares hp with the pre-move snapshot, so damage from the capture,
  poison or anything else in the move counts. (ours) Damage dealt by primitives
  during the dispatch is not seen (the snapshot is per move).
* on-promotion fires after the type flipped; a conditional on ``pieceType`` sees
  the new type. (ours) It is the move's promotion: ``promotedTo`` is the type the
  move's rules left the pawn with, whatever a primitive made of it since; a pawn
  whose type a primitive changes (in any stage) has not promoted.
* on-move fires on every piece whose square changed: the mover, the castling
  rook, the en-passant capturer, and (ours) a piece pushed by piece-hp; the mover
  first, then by square. on-moved-onto-square: the same pieces, filtered by
  destination.
* on-check-received: royal pieces only (the active royalty set), edge-triggered:
  attacked now and not before the move. A double check is one fresh check.
  (ours) A piece that became royal with the move (a pawn promoted to a royal
  type under ``coregal`` or ``knightmate-rules``) was in no check before it.
* on-check-delivered: a piece that attacks an enemy royal piece now and did not
  before the move (every attacker of a piece that became royal with the move is
  new, as for on-check-received). A discovered check is credited to the revealing slider, not
  to the piece that moved (``event.discovered``: the attacker did not move, so
  a castling rook's check is direct); a double check fires on both. The
  attackers are judged each on its own, the others blocking as they do (under
  knight-immunity a bishop's own knight still blocks it).
* Hooks of one piece fire in the order they were seeded; pieces in square order.
  (ours) A stage judges its trigger for every piece before any of its hooks
  runs: what one hook does (damage, a type changed) does not decide whether
  another piece's hook of the same stage fires; later stages see it.
  A trigger applied as an effect seeds its hook on each target (once per piece
  and hook); a hook seeded during one stage fires from the next stage on.
* (ours) A PieceType change never touches a royal piece, and is skipped when it
  would leave the side not to move with a royal piece attacked; a rook (or
  non-royal king) whose type changes loses its castling right, as if it had
  moved; a piece that becomes a pawn off its home rank counts as moved (as a
  position read from text would have it); after a primitive
  changes the board (a type, a piece removed) check is detected again.
* (ours) Hooks belong to piece facts, not squares: they follow the piece and
  survive promotion.
* (ours) A position under attached modifiers is written with a ``mod:`` token
  (``mod:a4=0`` — hook ids on the piece on a4, in seeding order; ``mod:-`` —
  none): the game start is behind it. Read back, such a position is the same
  game — attributes as written, hooks as listed, the top-level primitives not
  applied again (an ``add-to-attribute`` would count twice, a descriptor
  attached on a square would look for its piece there). A position without
  the token is a game start: the descriptors are applied to it. Hook ids index
  the attached descriptors' hooks, so the token is read with the same
  modifiers attached (an id they do not have is a FenError, as is a hook given
  twice on a piece, or an aura, radius 1..7, that no attached modifier has).
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from chess_rules.errors import quoted
from chess_rules.ruleset import checked_ruleset
from chess_rules.shape import STANDARD
from rete.loading import read_text_file

from .engine import (apply_topology, check_composition, ensure_capture_flag_filter,
                     ensure_stage_rules, extend_slots, install)
from .models import (DESCRIPTOR_VERSION, KINDS, MAX_PRIMITIVE_COUNT, MAX_RECURSION_DEPTH,
                     TRIGGER_KINDS, BadParamsError, Descriptor, DescriptorError,
                     DescriptorVersionError, ModifierBoardError, ModifierCompositionError,
                     ModifierError,
                     PrimitiveCountError, RecursionDepthError, UnknownKindError,
                     UnknownModifierError, count_nodes, descriptor_schema, validate_descriptor)
from .registry import DISPATCH_STAGES, STAGE_NAMES, Registry, attr_slot

GALLERY_DIR = Path(__file__).parent / "gallery"

__all__ = [
    "attach", "attach_descriptor_file", "piece_hooks", "load_descriptor", "gallery_names", "gallery",
    "descriptor_schema", "validate_descriptor", "Descriptor", "ModifierError",
    "DescriptorError", "DescriptorVersionError", "UnknownKindError", "RecursionDepthError",
    "PrimitiveCountError", "BadParamsError", "UnknownModifierError",
    "ModifierCompositionError", "ModifierBoardError", "MAX_RECURSION_DEPTH", "MAX_PRIMITIVE_COUNT",
    "DESCRIPTOR_VERSION", "KINDS", "TRIGGER_KINDS", "DISPATCH_STAGES", "STAGE_NAMES",
    "attr_slot", "count_nodes",
]


def gallery_names() -> list[str]:
    return sorted(p.stem for p in GALLERY_DIR.glob("*.json"))


def gallery() -> list[Descriptor]:
    return [load_descriptor(n) for n in gallery_names()]


def _read(path: Path) -> Descriptor:
    try:
        text = read_text_file(path, "modifier file")
    except OSError as e:
        raise UnknownModifierError(str(e)) from None
    return validate_descriptor(text, source=str(path))


def load_descriptor(spec, base_dir=None) -> Descriptor:
    """A descriptor from a :class:`Descriptor`, a dict, a gallery name or a JSON file
    (relative paths are taken from ``base_dir``)."""
    if isinstance(spec, Descriptor):
        return spec
    if isinstance(spec, dict):
        return validate_descriptor(spec)
    if isinstance(spec, Path) or (isinstance(spec, str) and
                                  (spec.endswith(".json") or "/" in spec or "\\" in spec)):
        p = Path(spec)
        if not p.is_absolute() and base_dir is not None:
            p = Path(base_dir) / p
        return _read(p)
    if isinstance(spec, str):
        p = GALLERY_DIR / f"{spec}.json"
        if os.path.isfile(p):       # (Path.is_file raises for a name too long)
            return _read(p)
        from presets.registry import kebab_suggestion     # (gallery names are kebab-case too)
        raise UnknownModifierError(
            f"unknown modifier {quoted(spec)}" + kebab_suggestion(spec, gallery_names())
            + "; see 'houserules modifiers list'")
    raise UnknownModifierError(f"expected a descriptor, a gallery name or a file, got {spec!r}")


def _squares(squares) -> tuple[int, ...]:
    from chess_rules.squares import parse_square
    out = []
    for q in ([squares] if isinstance(squares, (str, int)) else squares):
        if isinstance(q, int) and not isinstance(q, bool) and 0 <= q < 64:
            out.append(q)
        elif isinstance(q, str):
            try:
                out.append(parse_square(q))
            except ValueError:
                raise ModifierError(f"{q!r} is not a square") from None
        else:
            raise ModifierError(f"{q!r} is not a square")
    # a square named twice ('a1' and 0) is one piece: attached once per mention,
    # its top-level effects would count twice while its hooks are seeded once
    return tuple(dict.fromkeys(out))


def attach(ruleset, descriptor, squares=None, base_dir=None):
    """A copy of ``ruleset`` with the modifier attached.

    ``descriptor``: a :class:`Descriptor`, a dict, a gallery name or a JSON file path.
    ``squares``: attach to the pieces standing there when a game starts (names or
    0..63; a square named twice is attached once); None: to the pieces the descriptor's ``appliesTo`` selects. Refusals
    raise a :class:`ModifierError` and leave ``ruleset`` unchanged.
    """
    checked_ruleset(ruleset, required=True)
    d = load_descriptor(descriptor, base_dir)
    if ruleset.shape is not STANDARD:
        # (its squares, auras and topologies are those of the 64-square board)
        raise ModifierBoardError(f"modifier {d.id!r} is written for the 8x8 board, and the "
                                 f"rule set ({ruleset.name}) plays on a {ruleset.shape}")
    sq = None if squares is None else _squares(squares)
    rs = ruleset.copy()
    check_composition(rs, d, rs.config.get("modifiers") or Registry())
    probe = Registry()
    probe.register(d)
    ours = (rs.config["modifiers"].attrs if "modifiers" in rs.config else set()) | {"capture-flag"}
    clash = sorted(a for a in probe.attrs
                   if a in rs.templates["piece"].slots and a not in ours)
    have = rs.config.get("modifiers") or Registry()
    aura_written = sorted((probe.written & (probe.aura_attrs | have.aura_attrs))
                          | (probe.aura_attrs & have.written))
    if aura_written:
        raise ModifierCompositionError(
            f"modifier {d.id!r}: {', '.join(aura_written)} is an aura's attribute (the sum of "
            "the auras on a piece, worked out again at every move) and a primitive writes it "
            "too; give the aura an attribute of its own")
    tokens = sorted(a for a in probe.attrs if a in rs.config.get("position-tokens", {}))
    if tokens:
        raise ModifierCompositionError(
            f"modifier {d.id!r}: {', '.join(tokens)} is the key of a position token the rule "
            "set declares; an attribute of that name would not read back: choose another name")
    if clash:
        raise ModifierCompositionError(
            f"modifier {d.id!r}: attribute slot{'s' if len(clash) > 1 else ''} "
            f"{', '.join(clash)} already belong{'' if len(clash) > 1 else 's'} to the rule set "
            "(another preset's piece attribute); choose another name")
    apply_topology(rs, d)
    reg = install(rs)
    di = reg.register(d)
    reg.attachments.append((di, sq))
    extend_slots(rs, reg)
    ensure_stage_rules(rs, reg)
    if "capture-flag" in reg.attrs:
        ensure_capture_flag_filter(rs)
    rs.name = f"{rs.name}+mod:{d.id}"
    return rs


def attach_descriptor_file(ruleset, path):
    """``--modifier FILE.json`` (or a gallery name, as ``houserules modifiers list``
    shows them): attach to the pieces the descriptor selects. A file that exists
    wins over a gallery name."""
    checked_ruleset(ruleset, required=True)
    if not isinstance(path, (str, os.PathLike)):
        return attach(ruleset, path)        # (which says what a descriptor is)
    p = Path(path)
    return attach(ruleset, p if os.path.isfile(p) else str(path))


def piece_hooks(game, square) -> dict[str, list[str]]:
    """The hooks seeded on the piece on ``square``: ``{"OnMoveHooks":
    ["berserker $.primitives[0]"], ...}`` (its ``On*Hooks`` attributes)."""
    reg = game.ruleset.config.get("modifiers")
    f = game.piece_at(square)
    if reg is None or f is None:
        return {}
    out: dict[str, list[str]] = {}
    for h in sorted(game.session.facts_of("mod-hook"), key=lambda h: h.id):
        v = h.values
        if v["piece"] == f.id:
            di, path, _ = reg.hooks[v["hook"]]
            out.setdefault(v["attr"], []).append(f"{reg.descriptors[di].id} {path}")
    return out


def modifier_table() -> list[dict]:
    """The gallery as rows (``houserules modifiers list --json``)."""
    rows = []
    for n in gallery_names():
        d = load_descriptor(n)
        count, depth = count_nodes(d.primitives)
        rows.append({"id": d.id, "name": d.name, "description": d.description,
                     "requires": list(d.requires),
                     "triggers": sorted({p.kind for p in d.primitives if p.kind in TRIGGER_KINDS}),
                     "nodes": count, "depth": depth})
    return rows
