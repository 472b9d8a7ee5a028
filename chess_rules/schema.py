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
"""
from __future__ import annotations

from rete import Template

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
