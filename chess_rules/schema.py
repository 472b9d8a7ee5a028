"""The chess vocabulary of working memory: templates and the turn's stages.

A position is a set of facts:

``piece``     one per piece: ``type``, ``color``, ``square``, ``moved`` (has it
              moved: pawns' double step, castling), and any slots presets add
              (``hp``...). Its fact id is the piece's identity.
``game``      side to move, the clocks, and the half-move within a multi-move turn.
``castling``  one per castling right: colour, side, the king's and rook's squares
              and where they go.
``ep``        one per en-passant target: the skipped square, the pawn that may be
              taken there, and the colour that made it.
``royal``     one per royal piece type and colour (rule-set data: kings in FIDE).
``check``     a royal piece of the side to move that stands attacked.
``result``    the game's result once decided.

Requests and events, asserted by the game driver for one run:

``movegen``   generate the legal moves of ``color`` (generate and filter stages).
``move``      the move being played (apply, post-move, turn-end and result stages).
``status``    judge the position for a result (result stage).

:data:`SLOT_VALUES` lists the values each symbolic slot can hold; a rule that
compares one with anything else is refused when it compiles, with a "did you
mean" (:func:`slot_values` is the engine's hook). ``docs/facts.md`` is this
module written out for a rule author (``python -m chess_rules.schema``).
"""
from __future__ import annotations

from rete import Template

from .squares import COLOURS, PIECE_TYPES

STAGES = ("generate", "filter", "apply", "post-move", "turn-end", "result")

TEMPLATES = (
    Template("piece", ("type", "color", "square", "moved"), {"moved": False}),
    Template("game", ("turn", "halfmove", "fullmove", "half"), {"half": 0}),
    Template("castling", ("color", "side", "king-from", "king-to", "rook-from", "rook-to")),
    Template("ep", ("square", "pawn", "by")),
    Template("royal", ("type", "color")),
    Template("check", ("color", "square", "attackers")),
    Template("result", ("winner", "reason")),
    Template("movegen", ("color",)),
    Template("move", ("from", "to", "promo", "color", "kind", "piece", "capture",
                      "victim", "rook-from", "rook-to", "ep-square", "uci"),
             {"promo": None, "kind": "normal", "capture": False, "victim": None,
              "rook-from": None, "rook-to": None, "ep-square": None}),
    Template("status", ("color", "moves", "check")),
)

#: The values a symbolic slot can hold (None: the slot may be empty): what a
#: condition or an action may compare or write there. Slots not named here
#: take any value (squares are numbers, checked by the square-name reader).
SLOT_VALUES: dict[tuple[str, str], tuple] = {
    ("piece", "type"): PIECE_TYPES,
    ("piece", "color"): COLOURS,
    ("game", "turn"): COLOURS,
    ("castling", "color"): COLOURS,
    ("castling", "side"): ("king", "queen"),
    ("ep", "by"): COLOURS,
    ("royal", "type"): PIECE_TYPES,
    ("royal", "color"): COLOURS,
    ("check", "color"): COLOURS,
    ("result", "winner"): COLOURS + ("draw",),
    ("movegen", "color"): COLOURS,
    ("move", "color"): COLOURS,
    ("move", "piece"): PIECE_TYPES,
    ("move", "promo"): PIECE_TYPES + (None,),
    ("status", "color"): COLOURS,
}


#: The slots that hold a piece type: a rule set's own piece types (fairy
#: pieces, :meth:`RuleSet.add_piece <chess_rules.ruleset.RuleSet.add_piece>`)
#: are values there beside FIDE's six.
PIECE_TYPE_SLOTS = frozenset({("piece", "type"), ("royal", "type"), ("move", "piece"),
                              ("move", "promo")})


def slot_values(template: str, slot: str, piece_types=()) -> tuple | None:
    """The values ``template``'s ``slot`` can hold, or None for any: the hook a
    chess session gives the engine (:attr:`rete.Session.slot_values`), with
    ``piece_types``, the rule set's own piece types, where a type is held."""
    values = SLOT_VALUES.get((template, slot))
    if values is not None and piece_types and (template, slot) in PIECE_TYPE_SLOTS:
        values = values + tuple(piece_types)
    return values


#: What each slot of each template holds, for a rule author (docs/facts.md).
SLOT_DOCS: dict[str, dict[str, str]] = {
    "piece": {"type": "the piece's type", "color": "its colour",
              "square": "the square it stands on (a1 = 0 .. h8 = 63; a square's "
                        "name in rule text)",
              "moved": "true once it has moved (pawns' double step, castling)"},
    "game": {"turn": "the side to move", "halfmove": "plies since the last capture "
             "or pawn move (the fifty-move rule)", "fullmove": "the move number",
             "half": "the half-move within a multi-move turn (0 for the first)"},
    "castling": {"color": "whose right it is", "side": "which side",
                 "king-from": "the king's square", "king-to": "where the king goes",
                 "rook-from": "the rook's square", "rook-to": "where the rook goes"},
    "ep": {"square": "the square a double step skipped", "pawn": "the square of the "
           "pawn that may be taken there", "by": "the colour that made the double step"},
    "royal": {"type": "a royal piece type", "color": "of this colour"},
    "check": {"color": "the side in check", "square": "the attacked royal piece's "
              "square", "attackers": "the squares attacking it"},
    "result": {"winner": "who won, or draw", "reason": "why, in words (checkmate, "
               "stalemate ...)"},
    "movegen": {"color": "the side whose moves are being generated"},
    "move": {"from": "the square moved from", "to": "the square moved to",
             "promo": "the type promoted to, or nil", "color": "the side moving",
             "kind": "normal, double-push, en-passant or castle (presets add others)",
             "piece": "the moving piece's type", "capture": "true for a capture",
             "victim": "the square of the piece taken, or nil",
             "rook-from": "a castling rook's square, or nil",
             "rook-to": "where a castling rook goes, or nil",
             "ep-square": "the square a double push skips, or nil",
             "uci": "the move in UCI (e2e4, e7e8q)"},
    "status": {"color": "the side to move", "moves": "how many legal moves it has",
               "check": "true if it is in check"},
}


def facts_page() -> str:
    """``docs/facts.md``: every template and slot a rule can match, with the
    values a symbolic slot takes, written out from :data:`TEMPLATES`."""
    out = ["# The facts a rule can match", "",
           "Generated from `chess_rules/schema.py` by `python -m chess_rules.schema "
           "> docs/facts.md`; a test compares the two, so this page cannot drift.",
           "", "A position is a set of facts; a request or an event is a fact the "
           "game asserts for one run. A rule's conditions match them by template and "
           "slot: `piece(type: knight, color: ?c)`. A symbolic slot holds one of the "
           "values listed: a rule that names any other value (a typo such as "
           "`kniht`) is refused when it loads, with a \"did you mean\". `nil` is an "
           "empty slot. Presets add slots to `piece` (`hp`, ...) and templates of "
           "their own.", ""]
    from .square_symbols import SQUARE_SLOTS
    for t in TEMPLATES:
        out += [f"## `{t.name}`", "", "| slot | holds | values | default |",
                "| --- | --- | --- | --- |"]
        for slot in t.slots:
            values = SLOT_VALUES.get((t.name, slot))
            shown = ", ".join("nil" if v is None else f"`{v}`" for v in values) if values \
                else "a square: `a1` .. `h8`" if slot in SQUARE_SLOTS.get(t.name, ()) else "any"
            default = t.defaults.get(slot, "") if slot in t.defaults else ""
            default = "nil" if slot in t.defaults and default is None else \
                (f"`{str(default).lower() if isinstance(default, bool) else default}`"
                 if slot in t.defaults else "")
            out.append(f"| `{slot}` | {SLOT_DOCS[t.name][slot]} | {shown} | {default} |")
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    print(facts_page(), end="")
