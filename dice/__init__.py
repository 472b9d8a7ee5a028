"""Dice Chess on the houserules engine.

Dice Chess is the FIDE rule set with check switched off and the dice as facts
(:mod:`dice.rules`): the micro-move generator is the rule set's own generate and
filter stages, ``dice.die-filter`` keeps the moves a die allows,
``dice.spend-die`` spends it in the apply stage, and rolling and ending a turn
are the ``roll`` and ``end-turn`` agenda stages. The legal turns are a prefix
tree of micro-moves built on that generator (:mod:`dice.turns`).

Public API (every function takes and returns DFEN text; inputs are never
changed; bad input raises a typed error deriving from
:class:`chess_rules.errors.ChessError`):

``parse_dfen(text)`` / ``format_dfen(pos)``   DFEN in and out (:class:`DfenError`)
``roll(dfen, rng)``                 three dice from a seedable random source
``with_dice(dfen, faces)``          the position with these dice (a fixed roll)
``legal_turn_tree(dfen)``           every legal turn, a prefix tree of UCI micro-moves
``legal_uci_moves(dfen)``           the legal first micro-moves (judged afresh)
``apply_move(dfen, uci)``           one micro-move: the die spent, the colour kept
``explain_move(dfen, uci)``         why a micro-move is legal (the production, the dice) or not
``end_turn(dfen)``                  the turn handed over
``playable_dice(dfen_at_roll, played)``  the die faces a legal turn can still spend

Rulings (Dice Chess)
--------------------

DFEN.  A FEN with a seventh field, the dice left as piece letters: P pawn (1),
N knight (2), B bishop (3), R rook (4), Q queen (5), K king (6); ``-`` when none;
at most three. Input takes any order and either case; output writes them
upper-case in the order given, less the dice spent. A plain FEN (6 fields, or 4)
reads as a position with no dice. The fourth field may hold several en-passant
targets concatenated (``c3e3``), written in square order (a1..h8); each must be
on rank 3 with a white pawn on rank 4 beyond it (made by White) or on rank 6
with a black pawn on rank 5 (made by Black); the target square itself may be
occupied (a piece may stop on it later in the turn). A pawn on rank 1 or 8, a
board with no king at all, or more than three dice is refused. A position in
which one side has no king is a finished game (its opponent captured it).
Errors are :class:`DfenError` (a ``FenError``) with ``field`` naming the part at
fault: ``field_count``, ``placement``, ``side``, ``castling``, ``en_passant``,
``halfmove``, ``fullmove``, ``dice`` or ``extended``.

Dice Chess over a preset.  Every function takes an optional ``ruleset``: a
preset's rule set (``presets.load("piece-hp")``) played as Dice Chess
(:func:`dice_rules`). (ours) The state such a rule set adds and FEN cannot carry
follows the dice field as ``key:value`` tokens, as in an extended position
(``hp:e2=1``, ``ep-pawn:e5=e6``, ``moved:d2``; see "Positions: FEN and the extended
form" in RULES.md), so that
``apply_move`` and ``end_turn`` on text play the same game as a
:class:`DiceGame` played move by move; plain Dice Chess writes none. Over a
preset, a DFEN is read as the preset reads a FEN: pawns may stand on rank 1 or 8
(backward steps, hit points), a board may have no king (suicide-chess), and a
rule set that places en-passant pawns its own way (Berolina pawns, sprints from
any rank) checks the targets itself. Capturing any royal piece ends the game
(coregal: the queen too); when the board does not show it (the king still
stands), the DFEN says so with ``winner:white`` or ``winner:black``. A preset's
own ending (``first-promotion-wins``, ``capture-to-win``, an explosion) is
written with its reason, spaces as ``_`` (``winner:white=first_promotion``), so
that the text reads back with the same result (ours); the token
is refused where the board contradicts it (the winner without a royal piece
while the loser has one; over FIDE, the loser's king still standing). Over
FIDE an ``ep-pawn:`` token may name only the pawn beyond its target. A target
may be occupied under every preset (it lives for the opponent's whole turn).
Custom modifiers (:func:`presets.modifiers.attach`) dispatch after every
micro-move as after a chess move (auras, damage, capture, promotion, move and
square hooks, check hooks, conditionals); their ``on-turn-end`` and
``on-turn-start`` hooks do not fire in Dice Chess: the turn changes hands at
``end_turn``, which is not a move, and the colour never changes between
micro-moves (ours).

Micro-moves.  A micro-move moves one piece of the side to move whose type
matches a die and spends that die (the first such die in roll order). A pawn
move, a promotion included, spends a pawn die; castling spends one king and one
rook die and needs both. Moves are pseudo-legal: no check, no self-check
filter; a king may stand on or move to an attacked square and be captured.
Castling needs the right, empty squares between king and rook, both dice, and
(as on dicechess.net) a king that is not on, passing through or landing on an
attacked square. Castling is written as the king's move (``e1g1``). The same
piece may move several times in a turn; the colour does not change during a
turn. The fifty-move clock counts micro-moves since the last pawn move or
capture but ends nothing: there are no draws by the fifty-move rule,
repetition, insufficient material or stalemate in Dice Chess.

King capture.  Capturing the opponent's king ends the turn and the game at
once: the capturing side wins; no micro-move follows (even with dice left) and
no ``end_turn``, ``roll`` or ``apply_move`` is accepted afterwards.

En passant.  A double push creates a target on the skipped square, one per
double push, so a turn can leave several. The opponent may capture onto it
during its next turn (with pawn dice, several in one turn). A side never
captures en passant onto its own targets. A target is dropped at once if the
pawn that made it moves again in the same turn, or is captured, or (ours) when
another double step passes its square (two Berolina pawns crossing one square:
the target is the last one's; a square holds one target). ``end_turn``
clears the targets the side ending its turn could have captured (the
opponent's) and keeps the ones it made: a target lives for exactly one
opponent turn.

Maximum Micro-moves Rule.  A turn is a sequence of micro-moves that stops when
no die is left, no micro-move is possible, or a king was captured. The legal
turns are those that spend the greatest number of dice among all turns, plus
every turn that ends by capturing the king, whatever its length (ours: under a
preset, any micro-move that ends the game, such as an explosion that takes the
king or a winning promotion, counts as a king capture). Dice are
counted, not moves (castling spends two). A roll with no legal micro-move gives
an empty tree (``{}``): the turn is complete at the roll and ``end_turn`` passes
it. Turns are sequences: the same set of moves in two orders is two turns.

``legal_uci_moves(dfen)`` judges the position in isolation: the first level of
``legal_turn_tree(dfen)`` for its own dice, the rule applied afresh. After a
micro-move it may allow more than the tree of the whole turn did (the
``c2c4`` example); a client following a turn walks the tree.

``apply_move(dfen, uci)`` accepts exactly the moves ``legal_uci_moves`` lists.
Anything else is refused, the error saying why: :class:`NoDieError` (no die for
that piece; castling without a king and a rook die; named only when that die
would make it a micro-move: a move the die would not free, such as a knight's
move onto its own piece, is refused for that reason), :class:`NotLegalMoveError`
(no such micro-move: geometry, an empty square, the opponent's piece...),
:class:`MaxMicroMovesError` (a micro-move that only begins turns spending fewer
dice than the roll allows), :class:`GameOverError` (a king has been captured);
UCI text that cannot be read is a ``MoveParseError``.

``end_turn(dfen)`` toggles the colour, adds one to the full-move number after
Black's turn, clears the en-passant targets as above and sets the dice to
``-``. It refuses (:class:`EndTurnError`) a position that still has a legal
micro-move, and a finished game. ``roll(dfen, rng)`` fills the empty dice field
with three faces drawn with ``rng.randint(1, 6)`` (``rng`` a
``random.Random``, an int seed, None, or any object with a ``randint``); it
refuses (:class:`RollError`) a position that still has dice, a finished game,
and a source of the caller's own that draws no whole number from 1 to 6 (the
position left as it was).

A rule set under which a micro-move spends no die (one that lost
``dice.spend-die``) has turns that never end: building its tree raises
:class:`TurnTreeError` at the first such micro-move.

Playable dice.  ``playable_dice(dfen_at_roll, played)`` takes the position at
the roll and the micro-moves played since (UCI), and returns the faces
(ascending) that some legal turn beginning with ``played`` spends after them,
each repeated as often as the most one such turn spends; ``[]`` after a
complete turn (a king capture included), for a roll with no legal move and for
a position without dice; ``None`` when no legal turn begins with ``played``.
"""
from __future__ import annotations

from .dfen import FACE_TYPE, START_DFEN, TYPE_FACE, DfenPosition, format_dfen, parse_dfen
from .game import DiceGame
from .errors import (DfenError, DiceArgumentError, DiceBoardError, DiceError, DiceMoveError, EndTurnError, GameOverError,
                     MaxMicroMovesError, NoDieError, NotLegalMoveError, RollError, TurnTreeError)
from .rules import dice_rules
from .turns import (TurnTree, apply_move, end_turn, explain_move, legal_turn_tree,
                    legal_uci_moves, playable_dice, roll, turn_tree, with_dice)

__all__ = [
    "parse_dfen", "format_dfen", "DfenPosition", "START_DFEN", "FACE_TYPE", "TYPE_FACE",
    "roll", "with_dice", "legal_turn_tree", "legal_uci_moves", "apply_move", "end_turn",
    "explain_move", "playable_dice", "turn_tree", "TurnTree", "DiceGame", "dice_rules",
    "DfenError", "DiceArgumentError", "DiceBoardError", "DiceError", "DiceMoveError", "NoDieError", "NotLegalMoveError",
    "MaxMicroMovesError", "GameOverError", "EndTurnError", "RollError", "TurnTreeError",
]
