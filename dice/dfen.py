"""DFEN: FEN with a seventh field, the dice left.

``8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1 NPP``

* Fields 1-6 are FEN, except that the fourth may hold several en-passant
  targets, concatenated (``c3e3``). Each target is on rank 3 (made by White) or
  rank 6 (made by Black), with the pawn that made it on the square beyond.
* Field 7 lists the dice left as piece letters (``P N B R Q K`` = faces 1..6), in
  any order and either case on input, ``-`` when none; at most three. A plain
  FEN (6 fields, or 4 without the clocks) reads as a position with no dice.
* ``key:value`` tokens may follow: a preset's state (``hp:e2=1``...), read for
  the rule set the position is played under (:func:`parse_dfen`).

:func:`format_dfen` writes the canonical form: castling in ``KQkq`` order, the
en-passant targets in square order (a1..h8), the dice upper-case in the order
given, less those spent, then the ``key:value`` tokens as they were read.
``format_dfen(parse_dfen(t)) == t`` for canonical ``t``.
"""
from __future__ import annotations

from dataclasses import dataclass

from chess_rules.errors import FenError, quoted
from chess_rules.fen import FenPosition, parse_fen
from chess_rules.position import read_extended
from chess_rules.ruleset import checked_ruleset
from chess_rules.squares import BLACK, KING, PAWN, PIECE_LETTER, SQUARE_NAMES, WHITE, opposite

from .errors import DfenError, DiceArgumentError

__all__ = ["DfenPosition", "parse_dfen", "format_dfen", "FACE_TYPE", "TYPE_FACE",
           "LETTER_TYPE", "MAX_DICE", "START_DFEN"]

#: Die face -> piece type: 1 pawn, 2 knight, 3 bishop, 4 rook, 5 queen, 6 king.
FACE_TYPE = {1: "pawn", 2: "knight", 3: "bishop", 4: "rook", 5: "queen", 6: "king"}
TYPE_FACE = {t: f for f, t in FACE_TYPE.items()}
LETTER_TYPE = {PIECE_LETTER[t]: t for t in FACE_TYPE.values()}
MAX_DICE = 3
START_DFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 -"


@dataclass
class DfenPosition(FenPosition):
    """A parsed DFEN: a :class:`FenPosition` plus ``dice``, the dice left as
    upper-case piece letters in the order given, and ``key_values``, the
    ``key:value`` tokens as given (what :func:`format_dfen` writes back)."""

    dice: tuple[str, ...] = ()
    key_values: tuple[str, ...] = ()

    @property
    def dice_types(self) -> tuple[str, ...]:
        return tuple(LETTER_TYPE[c] for c in self.dice)

    @property
    def faces(self) -> list[int]:
        """The dice left as faces, ascending."""
        return sorted(TYPE_FACE[t] for t in self.dice_types)

    def kings(self, color: str) -> int:
        """How many kings ``color`` has on the board."""
        return sum(1 for t, c in self.placement.values() if t == KING and c == color)

    def to_dfen(self) -> str:
        """The position as canonical DFEN text (:func:`format_dfen`)."""
        return format_dfen(self)


def parse_dfen(text: str, ruleset=None) -> DfenPosition:
    """Parse a DFEN (or a plain FEN, read as having no dice).

    ``key:value`` tokens may follow, as in an extended position
    (:mod:`chess_rules.position`): the state of a preset's rule set that FEN
    cannot carry (``hp:e1=3``, ``ep-pawn:e5=e6``, ...), read for ``ruleset`` (Dice
    Chess over FIDE when None). A rule set that infers the pawn behind an
    en-passant target its own way (``config['ep-pawn-infer']``: Berolina pawns,
    sprints) checks its targets when the position is loaded; otherwise each target
    is on rank 3 or 6 with the pawn that made it beyond (an ``ep-pawn:`` token may
    name only that pawn).

    Raises :class:`~dice.errors.DfenError` naming the field at fault.
    """
    if not isinstance(text, str):
        raise DfenError("field_count", f"expected DFEN text, got {type(text).__name__}")
    ruleset = checked_ruleset(ruleset)
    fields, tokens = split_tokens(text)
    if len(fields) == 5 or len(fields) > 7 or len(fields) < 4:
        raise DfenError("field_count",
                        f"{quoted(text)} has {len(fields)} fields, expected 7 (FEN and dice), "
                        "or 6 / 4 for a FEN without dice", text)
    try:
        pos = parse_fen(" ".join(fields[:6]), strict_en_passant=False)
        if tokens:
            # the tokens of Dice Chess over this rule set (``winner:`` among them)
            from .game import as_dice_rules
            ruleset = as_dice_rules(ruleset)
        read_extended(pos, tokens, ruleset)
    except FenError as e:
        raise DfenError(e.field, e.reason, text) from None
    placement = pos.placement
    # Dice Chess over FIDE reads a DFEN by Dice Chess's own checks; over a preset or
    # rules of a user's own, as that rule set reads a FEN: pawns may stand on
    # rank 1 or 8, kings may be gone, a game may be won with both kings standing
    fide = plain_fide(ruleset)
    for sq, (ptype, _) in placement.items():
        if fide and ptype == PAWN and sq // 8 in (0, 7):
            raise DfenError("placement", f"a pawn stands on {SQUARE_NAMES[sq]} (rank 1 or 8)", text)
    if ruleset is None or "ep-pawn-infer" not in ruleset.config:
        for ep in pos.ep_squares:
            _check_target(ep, placement, text, pos.ep_pawns.get(ep))
    decided = pos.tokens.get("winner")
    if decided is not None:
        _check_winner(decided[0], placement, ruleset, fide, text)
    dice_text = fields[6] if len(fields) == 7 else "-"
    dice = parse_dice_field(dice_text, text)
    out = DfenPosition(placement=dict(placement), turn=pos.turn, castling=pos.castling,
                       ep_squares=tuple(sorted(pos.ep_squares)), halfmove=pos.halfmove,
                       fullmove=pos.fullmove, extra=(), dice=dice, key_values=tuple(tokens))
    for attr in EXTENDED:
        setattr(out, attr, getattr(pos, attr))
    if fide and out.kings(WHITE) == 0 and out.kings(BLACK) == 0:
        raise DfenError("placement", "neither side has a king", text)
    return out


def split_tokens(text: str) -> tuple[list[str], list[str]]:
    """The DFEN's fields, and the ``key:value`` tokens that follow them."""
    fields = text.split()
    core = 0
    while core < len(fields) and ":" not in fields[core]:
        core += 1
    return fields[:core], fields[core:]


#: What the ``key:value`` tokens fill in (see :func:`chess_rules.position.read_extended`).
EXTENDED = ("moved", "attrs", "half", "ep_pawns", "tokens")


def _check_target(ep: int, placement: dict, text: str, named: int | None = None) -> None:
    """FIDE: a target on rank 3 (made by White) or 6 (Black), its pawn beyond it
    (``named``: the pawn an ``ep-pawn:`` token gives, which must be that one: a
    pawn that moves on takes its target with it)."""
    rank = ep // 8
    if rank == 2:
        maker, pawn_sq = WHITE, ep + 8
    elif rank == 5:
        maker, pawn_sq = BLACK, ep - 8
    else:
        raise DfenError("en_passant", f"{SQUARE_NAMES[ep]!r} is not on rank 3 or 6", text)
    if placement.get(pawn_sq) != (PAWN, maker):
        raise DfenError("en_passant",
                        f"{SQUARE_NAMES[ep]!r} has no {maker} pawn on {SQUARE_NAMES[pawn_sq]} "
                        "that could have made it", text)
    if named is not None and named != pawn_sq:
        raise DfenError("extended",
                        f"ep-pawn:{SQUARE_NAMES[ep]}={SQUARE_NAMES[named]}: the target "
                        f"{SQUARE_NAMES[ep]} captures the pawn that made it, on {SQUARE_NAMES[pawn_sq]}",
                        text)


def plain_fide(ruleset) -> bool:
    """Whether ``ruleset`` is Dice Chess over FIDE as it comes (None, or a rule
    set no preset and no rule of a user's own changed, its kings royal), whose
    DFEN Dice Chess's own checks hold for. A user's own rule set (``--ruleset``,
    ``--rules``: Horde's pawns on the first rank, King of the Hill's win with
    both kings standing) is read as it reads a FEN, as a preset's is."""
    if ruleset is None:
        return True
    return (not ruleset.presets
            and all(o in ("fide", "dice") for _, _, o in ruleset.history)
            and all(tuple(ruleset.royal_types.get(c, ())) == (KING,) for c in (WHITE, BLACK)))


def _check_winner(winner: str, placement: dict, ruleset, fide: bool, text: str) -> None:
    """``winner:C`` must not contradict the board: C keeps a royal piece where
    the loser has none, and over FIDE (one king a side) the loser's king is gone."""
    loser = opposite(winner)
    royal = ruleset.royal_types

    def royals(color):
        return [sq for sq, (t, c) in placement.items() if c == color and t in royal.get(color, ())]

    standing = royals(loser)
    if royal.get(winner) and not royals(winner) and standing:
        raise DfenError("extended", f"winner:{winner}, but {winner} has no royal piece left "
                                    f"and {loser} has: the board shows {loser} won", text)
    if fide and standing:
        raise DfenError("extended", f"winner:{winner}, but {loser}'s king stands on "
                                    f"{SQUARE_NAMES[standing[0]]}: a king taken leaves the board",
                        text)


def parse_dice_field(text: str, whole: str) -> tuple[str, ...]:
    if text == "-":
        return ()
    letters = []
    for ch in text:
        up = ch.upper()
        if up not in LETTER_TYPE:
            raise DfenError("dice", f"{ch!r} in {quoted(text)} is not a die (P N B R Q K, or '-' for none)",
                            whole)
        letters.append(up)
    if len(letters) > MAX_DICE:
        raise DfenError("dice", f"{quoted(text)} holds {len(letters)} dice, at most {MAX_DICE}", whole)
    return tuple(letters)


def format_dfen(pos: FenPosition, dice=None) -> str:
    """The canonical DFEN text of a position (``dice`` overrides ``pos.dice``:
    letters, piece types or faces 1..6, at most three), with its ``key:value``
    tokens. Dice that are not dice raise :class:`DfenError`."""
    if not isinstance(pos, FenPosition):
        raise DiceArgumentError(f"format_dfen takes a parsed position (parse_dfen), "
                                f"not {type(pos).__name__}")
    if dice is None:
        dice = getattr(pos, "dice", ())
    if isinstance(dice, str):
        dice = list(dice)               # "NPP": one letter a die
    elif isinstance(dice, int) or not hasattr(dice, "__iter__"):
        raise DfenError("dice", f"expected the dice as a sequence of letters, piece types "
                                f"or faces, not {quoted(dice)}")
    letters = [_letter(d) for d in dice]
    if len(letters) > MAX_DICE:
        raise DfenError("dice", f"{len(letters)} dice given, at most {MAX_DICE}")
    eps = "".join(SQUARE_NAMES[s] for s in sorted(pos.ep_squares)) or "-"
    text = (f"{pos.board_fen()} {'w' if pos.turn == WHITE else 'b'} {pos.castling_fen()} "
            f"{eps} {pos.halfmove} {pos.fullmove} {''.join(letters) or '-'}")
    return " ".join((text,) + tuple(getattr(pos, "key_values", ())))


def _letter(d) -> str:
    """One die as its letter: a face 1..6, a piece type, or a letter (either case)."""
    if isinstance(d, int) and not isinstance(d, bool) and d in FACE_TYPE:
        return PIECE_LETTER[FACE_TYPE[d]]
    if isinstance(d, str):
        if d in PIECE_LETTER and d in TYPE_FACE:
            return PIECE_LETTER[d]
        if d.upper() in LETTER_TYPE:
            return d.upper()
    raise DfenError("dice", f"{quoted(d)} is not a die (a face 1..6, a piece type or one of "
                            f"P N B R Q K)")
