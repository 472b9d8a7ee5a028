"""Move notation: UCI, SAN and PGN.

These functions know no rules. The caller supplies what only a rule set can know
(the legal moves of the position, which piece moves, whether a move captures,
castles, checks or mates) as :class:`MoveInfo` tuples, and gets text back, or the
legal move that a text names.

UCI and SAN take the board's shape (:mod:`chess_rules.shape`) as the keyword
``shape``: 8x8 unless given; on Capablanca's 10x8 board ``parse_uci('a2a4',
shape=board_shape(10, 8))`` is ``(10, 30, None)``, and a ten-rank board's
squares are written ``a10``, as Fairy-Stockfish writes them.
"""

from __future__ import annotations

import re
from typing import Callable, Iterable, Mapping, NamedTuple, Sequence

from .errors import ArgumentError, MoveParseError
from .shape import FILE_LETTERS, STANDARD, BoardShape
from .squares import KING, PAWN, PIECE_LETTER, SQUARE_NAMES

__all__ = [
    "MoveInfo", "parse_uci", "normalize_uci", "format_uci", "PROMOTION_LETTERS",
    "move_to_san", "parse_san", "san_to_uci",
    "game_to_pgn", "SEVEN_TAG_ROSTER", "PGN_RESULTS", "TAG_NAME", "check_tags",
]

#: UCI promotion letter -> piece type ('k' is for suicide chess).
PROMOTION_LETTERS: dict[str, str] = {
    "n": "knight", "b": "bishop", "r": "rook", "q": "queen", "k": "king",
}
# a piece type added by chess_rules.pieces extends PIECE_LETTER and these
# letters: the UCI and SAN readers look letters up as they read
_UCI_RE = re.compile(r"([a-h][1-8])([a-h][1-8])([a-zA-Z]?)")
# on a board other than 8x8: files a-l, ranks 1-10 (the shape checks the range)
_WIDE_SQUARE = r"[a-l](?:10|[1-9])"
_UCI_ANY_RE = re.compile(rf"({_WIDE_SQUARE})({_WIDE_SQUARE})([a-zA-Z]?)")


def _promotion_type(text: str, promo: str) -> str:
    t = PROMOTION_LETTERS.get(promo.lower())
    if t is None:
        raise MoveParseError(text, f"no piece type has the promotion letter {promo!r}")
    return t


def _letter_type(text: str, letter: str) -> str:
    t = next((t for t, lt in PIECE_LETTER.items() if lt == letter), None)
    if t is None:
        raise MoveParseError(text, f"no piece type has the letter {letter!r}")
    return t


class MoveInfo(NamedTuple):
    """What SAN needs to know about one legal move.

    ``is_castling`` may be left None: a king moving two files along its rank from
    the e-file is then taken to castle. ``gives_check`` and ``gives_mate`` matter
    only for the move being written; in a ``legal`` list they are ignored, so the
    caller need not compute them for every move.
    """

    from_sq: int
    to_sq: int
    promotion: str | None = None
    piece_type: str = PAWN
    is_capture: bool = False
    is_castling: bool | None = None
    gives_check: bool = False
    gives_mate: bool = False

    @property
    def uci(self) -> str:
        """The move in UCI (``e7e8q``)."""
        return format_uci(self.from_sq, self.to_sq, self.promotion)


# ---------------------------------------------------------------------------------
# UCI
# ---------------------------------------------------------------------------------


def parse_uci(text: str, *, shape: BoardShape = STANDARD) -> tuple[int, int, str | None]:
    """``'e7e8q' -> (52, 60, 'queen')``; ``'e2e4' -> (12, 28, None)``.

    Promotion letters are n b r q k (k for suicide chess; either case is read).
    Raises :class:`MoveParseError` for anything else, the null move ``0000``
    included. ``shape`` is the board (8x8 unless given): on a ten-rank board
    ``'a9a10'`` is a move, on 8x8 it is refused.
    """
    if not isinstance(text, str):
        raise MoveParseError(text, "UCI text must be a string")
    m = (_UCI_RE if shape is STANDARD else _UCI_ANY_RE).fullmatch(text)
    if m is None:
        raise MoveParseError(text, "not a UCI move (expected e.g. 'e2e4' or 'e7e8q')")
    from_name, to_name, promo = m.groups()
    if from_name == to_name:
        raise MoveParseError(text, "origin and destination are the same square")
    promotion = _promotion_type(text, promo) if promo else None
    if shape is STANDARD:
        return SQUARE_NAMES.index(from_name), SQUARE_NAMES.index(to_name), promotion
    try:
        return shape.parse_square(from_name), shape.parse_square(to_name), promotion
    except ValueError as e:
        raise MoveParseError(text, str(e)) from None


def normalize_uci(text: str, *, shape: BoardShape = STANDARD) -> str:
    """UCI text as the API compares it: stripped, the promotion letter in lower case
    (``' e7e8Q' -> 'e7e8q'``). Raises :class:`MoveParseError` if it is not UCI."""
    u = text.strip() if isinstance(text, str) else text
    _, _, promotion = parse_uci(u, shape=shape)
    return u[:-1] + u[-1].lower() if promotion else u


def format_uci(from_sq: int, to_sq: int, promotion: str | None = None, *,
               shape: BoardShape = STANDARD) -> str:
    """``(52, 60, 'queen') -> 'e7e8q'``; ``shape`` names the squares of another
    board: ``(80, 90)`` on 10x10 is ``'a9a10'``."""
    names = SQUARE_NAMES if shape is STANDARD else shape.square_names
    text = names[from_sq] + names[to_sq]
    if promotion:
        text += PIECE_LETTER[promotion].lower()
    return text


# ---------------------------------------------------------------------------------
# SAN
# ---------------------------------------------------------------------------------


def _castles(m: MoveInfo, shape: BoardShape = STANDARD) -> bool:
    if m.is_castling is not None:
        return m.is_castling
    f, t = m.from_sq, m.to_sq
    if shape is STANDARD:
        return (m.piece_type == KING and f & 7 == 4 and f >> 3 == t >> 3
                and abs((t & 7) - 4) == 2)
    # elsewhere the king's home file varies: two files or more along its rank
    w = shape.width
    return m.piece_type == KING and f // w == t // w and abs(t % w - f % w) >= 2


def _entries(legal: Iterable, piece_type_at: Callable[[int], str] | None) -> list[MoveInfo]:
    """Normalise ``legal`` to MoveInfo: bare (from, to, promo) tuples take their
    piece type from ``piece_type_at``."""
    out = []
    for e in legal:
        if isinstance(e, MoveInfo):
            if piece_type_at is not None:
                e = e._replace(piece_type=piece_type_at(e.from_sq))
            out.append(e)
        else:
            if piece_type_at is None:
                raise TypeError("bare (from, to, promotion) moves need piece_type_at")
            f, t, p = e
            out.append(MoveInfo(f, t, p, piece_type_at(f)))
    return out


def move_to_san(move: MoveInfo, legal: Iterable,
                piece_type_at: Callable[[int], str] | None = None, *,
                shape: BoardShape = STANDARD) -> str:
    """SAN of ``move`` (a :class:`MoveInfo`) in a position whose legal moves are
    ``legal``.

    ``legal`` holds MoveInfo tuples, or bare ``(from, to, promotion)`` tuples when
    ``piece_type_at(square)`` is given to tell the mover's type; only the legal
    moves of the moving piece's type to the same square matter (for
    disambiguation), so a caller may pass just those. The result follows
    python-chess exactly: ``O-O``/``O-O-O`` for castling, file-letter pawn captures,
    ``=Q`` promotions, file, then rank, then square disambiguation, ``+``/``#``.
    Pawns that move as FIDE's never need more; under presets a pawn leaving its
    file without capturing is written with its file (``ab3``) and two pawns of one
    file reaching one square with the origin square (``d6d5``). ``shape`` is the
    board (8x8 unless given); on another board a king moving two files or more
    along its rank is taken to castle unless ``is_castling`` says otherwise.
    """
    w = shape.width
    files, squares = shape.file_names, shape.square_names
    if _castles(move, shape):
        san = "O-O" if (move.to_sq % w) > (move.from_sq % w) else "O-O-O"
    else:
        ptype = move.piece_type
        frm, to = move.from_sq, move.to_sq
        if ptype == PAWN:
            # a capture names its file; so does a pawn that leaves its file without
            # capturing (Berolina pawns, slanting pawns), since a bare "b3" means a
            # pawn of the b-file. A rival pawn of the same file reaching the same
            # square (a backward step under pawns-move-backward) adds the rank.
            rivals = any(e.to_sq == to and e.from_sq != frm and e.piece_type == PAWN
                         and e.promotion == move.promotion and e.from_sq % w == frm % w
                         for e in _entries(legal, piece_type_at))
            san = ""
            if move.is_capture or frm % w != to % w or rivals:
                san = files[frm % w]
            if rivals:
                san += str(frm // w + 1)
            if move.is_capture:
                san += "x"
        else:
            san = PIECE_LETTER[ptype]
            others = set()
            for e in _entries(legal, piece_type_at):
                if e.to_sq == to and e.from_sq != frm and e.piece_type == ptype:
                    others.add(e.from_sq)
            if others:
                # A rival on the same rank forces the file; one on the same file
                # forces the rank; otherwise the file alone suffices.
                column = any(s // w == frm // w for s in others)
                row = any(s % w == frm % w for s in others)
                if not row:
                    column = True
                if column:
                    san += files[frm % w]
                if row:
                    san += str(frm // w + 1)
            if move.is_capture:
                san += "x"
        san += squares[to]
        if move.promotion:
            san += "=" + PIECE_LETTER[move.promotion]
    if move.gives_mate:
        san += "#"
    elif move.gives_check:
        san += "+"
    return san


_SAN_RE = re.compile(r"([A-Z])?([a-h])?([1-8])?[-x]?([a-h][1-8])(=[a-zA-Z]|[A-Z]|[nbrqk])?")
_SAN_ANY_RE = re.compile(
    rf"([A-Z])?([a-l])?(10|[1-9])?[-x]?({_WIDE_SQUARE})(=[a-zA-Z]|[A-Z]|[nbrqk])?")
_CASTLE_RE = re.compile(r"(O-O-O|0-0-0|O-O|0-0)")
_SUFFIX_RE = re.compile(r"[+#]?[!?]*\Z")


def san_readable(text: str) -> bool:
    """Whether :func:`parse_san` can read ``text`` as a move at all (in some
    position): its shape, not its legality."""
    suffix = _SUFFIX_RE.search(text)
    body = text[:suffix.start()] if suffix else text
    return bool(_CASTLE_RE.fullmatch(body) or _SAN_RE.fullmatch(body))


def parse_san(san: str, legal: Iterable,
              piece_type_at: Callable[[int], str] | None = None, *,
              shape: BoardShape = STANDARD) -> MoveInfo:
    """The legal move that ``san`` names, as the matching element of ``legal``
    (MoveInfo tuples; bare tuples with ``piece_type_at`` as in :func:`move_to_san`).

    Accepts SAN with or without ``+``/``#`` (and trailing ``!``/``?``), promotions
    written ``=Q`` or ``Q`` (either case), castling with letter O or zero, optional
    ``x``/``-``, and over-specified origins (``Ng1f3``, ``e2e4``). A pawn move
    without an origin file must stay on its file (``e4``; a capture needs ``exd5``).
    Raises :class:`MoveParseError` saying why: unreadable, no legal move matches, or
    ambiguous (listing the candidates). ``shape`` as in :func:`move_to_san`.
    """
    w = shape.width
    if not isinstance(san, str):
        raise MoveParseError(san, "SAN must be a string")
    text = san.strip()
    suffix = _SUFFIX_RE.search(text)
    body = text[:suffix.start()] if suffix else text
    entries = _entries(legal, piece_type_at)

    castle = _CASTLE_RE.fullmatch(body)
    if castle:
        long = len(castle.group(1)) == 5
        matches = [e for e in entries if _castles(e, shape)
                   and ((e.to_sq % w) < (e.from_sq % w)) == long]
        if not matches:
            raise MoveParseError(
                san, f"no legal move matches: {'queen' if long else 'king'}side castling is not legal",
                kind="no-match")
        if len(matches) > 1:
            raise MoveParseError(san, "ambiguous: matches " + ", ".join(e.uci for e in matches),
                                 kind="ambiguous")
        return matches[0]

    m = (_SAN_RE if shape is STANDARD else _SAN_ANY_RE).fullmatch(body)
    if m is None:
        raise MoveParseError(san, "not SAN")
    letter, from_file, from_rank, to_name, promo = m.groups()
    try:
        to_sq = shape.parse_square(to_name)
    except ValueError as err:
        raise MoveParseError(san, str(err)) from None
    promotion = _promotion_type(san, promo[-1]) if promo else None
    file_idx = FILE_LETTERS.index(from_file) if from_file else None
    rank_idx = int(from_rank) - 1 if from_rank else None
    if letter:
        ptype: str | None = _letter_type(san, letter)
    elif file_idx is not None and rank_idx is not None:
        ptype = None  # a fully specified origin names any piece
    else:
        ptype = PAWN
        if file_idx is None:
            file_idx = to_sq % w

    matches = []
    for e in entries:
        if e.to_sq != to_sq or e.promotion != promotion:
            continue
        if ptype is not None and e.piece_type != ptype:
            continue
        if file_idx is not None and e.from_sq % w != file_idx:
            continue
        if rank_idx is not None and e.from_sq // w != rank_idx:
            continue
        matches.append(e)
    if not matches:
        if promotion is None and any(
                e.to_sq == to_sq and e.promotion and (ptype is None or e.piece_type == ptype)
                and (file_idx is None or e.from_sq % w == file_idx)
                and (rank_idx is None or e.from_sq // w == rank_idx) for e in entries):
            raise MoveParseError(san, "no legal move matches: the promotion piece is missing",
                                 kind="no-match")
        raise MoveParseError(san, "no legal move matches", kind="no-match")
    if len(matches) > 1:
        raise MoveParseError(san, "ambiguous: matches " + ", ".join(e.uci for e in matches),
                             kind="ambiguous")
    return matches[0]


def san_to_uci(san: str, legal: Iterable,
               piece_type_at: Callable[[int], str] | None = None, *,
               shape: BoardShape = STANDARD) -> str:
    """The UCI text of the legal move that ``san`` names (see :func:`parse_san`)."""
    e = parse_san(san, legal, piece_type_at, shape=shape)
    return format_uci(e.from_sq, e.to_sq, e.promotion, shape=shape)


# ---------------------------------------------------------------------------------
# PGN
# ---------------------------------------------------------------------------------

SEVEN_TAG_ROSTER: tuple[tuple[str, str], ...] = (
    ("Event", "?"), ("Site", "?"), ("Date", "????.??.??"), ("Round", "?"),
    ("White", "?"), ("Black", "?"), ("Result", "*"),
)
PGN_RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_LINE_WIDTH = 80


#: A tag name as chess_rules.pgn reads one (pgn.lark's TAG_NAME, python-chess's
#: too): the writer writes no name the reader would refuse, and refuses none it reads
TAG_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_+#=:-]*")


def _tag_value(value) -> str:
    text = " ".join(str(value).split())  # a tag value is one line
    return text.replace("\\", "\\\\").replace('"', '\\"')


def check_tags(headers) -> None:
    """Refuse (:class:`ArgumentError`) PGN headers the reader would not give back:
    a name that is no :data:`TAG_NAME`, a value that is no str."""
    if not isinstance(headers, Mapping):
        raise ArgumentError(f"PGN headers are a mapping of tag names to values, "
                            f"not {type(headers).__name__}")
    for name, value in headers.items():
        if not isinstance(name, str) or not TAG_NAME.fullmatch(name):
            raise ArgumentError(f"not a PGN tag name: {name!r} (a letter, digit or _, "
                                f"then those or - + # = :)")
        if not isinstance(value, str):
            # str() would write a repr the reader gives back as text ('None', '3')
            raise ArgumentError(f"tag {name}: a PGN tag value is a str, not "
                                f"{type(value).__name__} ({value!r})")


def game_to_pgn(headers: dict, san_moves: Sequence[str], result: str = "*",
                start_fen: str | None = None,
                movers: Sequence[str] | None = None) -> str:
    """A PGN game: tags, then numbered movetext ending in ``result``.

    Tags come in the seven-tag-roster order (Event, Site, Date, Round, White, Black,
    Result; ``?``/``????.??.??`` where ``headers`` gives none, Result always from
    ``result``), then ``SetUp "1"`` and ``FEN`` when ``start_fen`` is given (a
    ``SetUp`` or ``FEN`` in ``headers`` is never written), then the remaining
    ``headers`` in their own order. A tag name is what the reader reads
    (:data:`TAG_NAME`: a letter, digit or ``_``, then those or ``- + # = :``) and
    a value is a str, written on one line (a run of spaces or line breaks is
    one space); other headers raise :class:`ArgumentError`. Move numbers start
    from the FEN's full-move number; with Black to move the first move is
    written ``12... e5``.
    Movetext lines are wrapped at 80 columns. The text ends with a newline.

    Multi-move turns: ``movers`` gives the colour (``'white'``/``'black'``) that
    played each move; without it the sides are taken to alternate, starting with
    the side to move in ``start_fen``. A *turn* is a run of consecutive moves by
    one side, written together after one move number: a White turn is always
    prefixed ``N.``; a Black turn is prefixed ``N...`` when it opens the movetext,
    or when it or the White turn before it has more than one move (a Black turn
    of one move after a White turn of one move follows it bare, as in standard
    chess, whose output is therefore unchanged). The number grows after each
    Black turn. Double move: ``1. e4 d4 1... e5 d5 2. Nf3 Nc3 2... Nf6 Nc6``;
    Monster (White 2, Black 1): ``1. e4 d4 1... e5 2. Nf3 Nc3 2... Nf6``.
    A game starting in the middle of a White turn still opens with ``N.``.
    """
    if result not in PGN_RESULTS:
        raise ArgumentError(f"result must be one of {', '.join(PGN_RESULTS)}, not {result!r}")
    check_tags(headers)
    lines = []
    roster = {name for name, _ in SEVEN_TAG_ROSTER}
    for name, default in SEVEN_TAG_ROSTER:
        value = result if name == "Result" else headers.get(name, default)
        lines.append(f'[{name} "{_tag_value(value)}"]')
    # SetUp and FEN say where the moves start, which start_fen alone decides: a
    # caller's (re-exported from another game) would make the moves unreadable
    skip = set(roster) | {"SetUp", "FEN"}
    if start_fen is not None:
        lines.append('[SetUp "1"]')
        lines.append(f'[FEN "{_tag_value(start_fen)}"]')
    for name, value in headers.items():
        if name in skip:
            continue
        lines.append(f'[{name} "{_tag_value(value)}"]')

    white_to_move, number = True, 1
    if start_fen is not None:
        fields = start_fen.split()
        if len(fields) > 1:
            white_to_move = fields[1] != "b"
        if len(fields) > 5 and fields[5].isascii() and fields[5].isdigit():
            number = max(1, int(fields[5]))

    if movers is None:
        movers = [("white" if (i % 2 == 0) == white_to_move else "black")
                  for i in range(len(san_moves))]
    elif len(movers) != len(san_moves):
        raise ValueError(f"movers has {len(movers)} entries for {len(san_moves)} moves")
    turns: list[tuple[str, list[str]]] = []
    for san, color in zip(san_moves, movers):
        if not san or any(c.isspace() for c in san):
            raise ValueError(f"not a SAN move: {san!r}")
        if color not in ("white", "black"):
            raise ValueError(f"mover must be 'white' or 'black', not {color!r}")
        if turns and turns[-1][0] == color:
            turns[-1][1].append(san)
        else:
            turns.append((color, [san]))

    tokens = []
    for i, (color, sans) in enumerate(turns):
        if color == "white":
            tokens.append(f"{number}.")
        elif i == 0 or len(sans) > 1 or len(turns[i - 1][1]) > 1:
            tokens.append(f"{number}...")
        tokens.extend(sans)
        if color == "black":
            number += 1
    tokens.append(result)

    movetext: list[str] = []
    line = ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > _LINE_WIDTH:
            movetext.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    movetext.append(line)
    return "\n".join(lines) + "\n\n" + "\n".join(movetext) + "\n"
