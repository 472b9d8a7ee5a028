"""Reading PGN: the games of a text, as plain objects, and played through the rules.

The grammar is ``pgn.lark`` (tag pairs, movetext with move numbers, SAN,
NAGs and annotation glyphs, ``{comments}``, ``;`` comments, ``%`` escape lines,
variations nested in parentheses, results, several games to a text).
:func:`read_games` gives each game's tags, its main line (each move with where
it stands in the text, its NAGs, comments and variations) and its result;
:meth:`PgnGame.play` plays the main line through a :class:`~chess_rules.game.Game`
(see :mod:`chess_rules.replay`), which is what ``Game.from_pgn`` does.

>>> games = read_games('[White "Ann"]\\n\\n1. e4 {best by test} e5 $1 (1... c5) 2. Nf3 1-0')
>>> g = games[0]
>>> g.tags["White"], g.result, [m.san for m in g.moves]
('Ann', '1-0', ['e4', 'e5', 'Nf3'])
>>> m = g.moves[1]
>>> (m.line, m.column, m.nags, [v[0].san for v in m.variations])
(3, 22, (1,), ['c5'])
>>> g.play().fen()
'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2'

Variations are kept, not played: only the main line is. Move numbers are read
and not checked, nor are ``+`` and ``#`` (as python-chess).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Sequence, cast

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from .errors import ArgumentError, PgnSyntaxError, source_name

__all__ = ["PgnMove", "PgnGame", "read_games", "MAX_VARIATION_DEPTH"]

#: how deeply variations may nest (the objects that hold them are walked recursively)
MAX_VARIATION_DEPTH = 100
#: annotation glyphs as the NAGs they stand for (as python-chess reads them)
GLYPH_NAGS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}


@dataclass(frozen=True)
class PgnMove:
    """One move of a PGN game, as the text writes it.

    ``san`` is the move with its check or mate sign (``'Qxf7#'``), without the
    annotation glyphs (which are read into ``nags``: ``!?`` is 5) or an ``e.p.``.
    ``line`` and ``column`` (1-based) say where it starts; ``comments`` are the
    ``{...}`` after it; ``variations`` the alternatives to it, each a tuple of
    moves (their own variations nested likewise)."""

    san: str
    line: int
    column: int
    nags: tuple[int, ...] = ()
    comments: tuple[str, ...] = ()
    variations: tuple[tuple["PgnMove", ...], ...] = ()


@dataclass(frozen=True)
class PgnGame:
    """One game of a PGN text: its ``tags`` (in the order written), its main
    line ``moves``, its ``result`` (the movetext's, else the ``Result`` tag's,
    else ``'*'``), the comments before its first move, and where it starts.
    ``tag_positions`` gives the line and column of each tag's value."""

    tags: dict[str, str]
    moves: tuple[PgnMove, ...]
    result: str
    line: int
    column: int
    comments: tuple[str, ...] = ()
    tag_positions: dict[str, tuple[int, int]] = field(default_factory=dict, repr=False)
    source: str | None = field(default=None, repr=False)

    def play(self, presets=None, ruleset=None, config=None, game_class=None):
        """The game after its main line, played through the rules (see
        :func:`chess_rules.replay.play`; :func:`chess_rules.replay.moves` plays
        it move by move)."""
        from .replay import play
        return play(self, presets=presets, ruleset=ruleset, config=config,
                    game_class=game_class)


def read_games(text: str, source: str | None = None) -> list[PgnGame]:
    """Every game of a PGN text, in order (an empty list for a text with none).

    ``source`` (a file name, or a path) goes into error messages. Text that is not PGN
    raises :class:`~chess_rules.errors.PgnSyntaxError` with its line and column;
    nothing is returned then.
    """
    if not isinstance(text, str):
        raise ArgumentError(f"PGN text is a str, not {type(text).__name__}")
    source = source_name(source)
    try:
        # (the parser's transformer turns the tree into the games)
        games = cast("list[PgnGame]", _parser().parse(text))
    except UnexpectedInput as e:
        raise _syntax_error(e, text, source) from None
    except PgnSyntaxError as e:
        if source is None:
            raise
        raise PgnSyntaxError(e.reason, e.line, e.column, source) from None
    if source is not None:
        games = [_with_source(g, source) for g in games]
    return games


def _with_source(g: PgnGame, source: str) -> PgnGame:
    from dataclasses import replace
    return replace(g, source=source)


# ---------------------------------------------------------------------------- parse tree


class _Variation:
    """A variation while its game is read: its moves and how deeply it nests."""

    __slots__ = ("moves", "depth", "line", "column")

    def __init__(self, moves, depth, line, column):
        self.moves, self.depth, self.line, self.column = moves, depth, line, column


class _Builder(Transformer):
    """Called by the parser as it reduces (no tree is built, so no recursion
    however deep the variations go)."""

    def tag(self, children):
        lsqb, name, value = children
        body = value[1:-1]
        # \" and \\ are the escapes PGN has; any other backslash is kept as written
        body = re.sub(r'\\(["\\])', r"\1", body)
        return ("tag", name, body, value, lsqb)

    def result(self, children):
        return children[0]

    def variation(self, children):
        lpar = children[0]
        items = [c for c in children[1:] if not (isinstance(c, Token) and c.type == "RESULT")]
        depth = 1 + max((c.depth for c in items if isinstance(c, _Variation)), default=0)
        if depth > MAX_VARIATION_DEPTH:
            raise PgnSyntaxError(f"variations nest more than {MAX_VARIATION_DEPTH} deep",
                                 lpar.line, lpar.column)
        moves, _ = _main_line(items)
        return _Variation(moves, depth, lpar.line, lpar.column)

    def game(self, children):
        tags: dict[str, str] = {}
        where: dict[str, tuple[int, int]] = {}
        named_at: dict[str, tuple[int, int]] = {}
        result = None
        items = []
        for c in children:
            if isinstance(c, tuple):
                _, name, value, tok, _ = c
                if name in tags:
                    line, column = named_at[name]
                    raise PgnSyntaxError(f"tag {str(name)!r} is given twice (first at "
                                         f"{line}:{column})", name.line, name.column)
                tags[str(name)] = value
                where[str(name)] = (tok.line, tok.column)
                named_at[str(name)] = (name.line, name.column)
            elif isinstance(c, Token) and c.type == "RESULT":
                result = str(c)
            else:
                items.append(c)
        first = children[0]
        if isinstance(first, tuple):
            first = first[4]
        moves, comments = _main_line(items)
        if not (tags or moves or result):
            return None     # comments alone (a file that opens with one) make no game
        if result is None:
            result = tags.get("Result", "*")
        return PgnGame(tags, moves, result, first.line, first.column, comments, where)

    def start(self, children):
        return [g for g in children if g is not None]


def _main_line(items) -> tuple[tuple[PgnMove, ...], tuple[str, ...]]:
    """The moves of one line (NAGs, comments and variations attached to the move
    before them) and the comments before its first move."""
    moves: list[list] = []       # [token, nags, comments, variations]
    leading: list[str] = []
    for c in items:
        if isinstance(c, _Variation):
            if moves:
                moves[-1][3].append(c.moves)
            # (a variation before any move is an alternative to nothing: dropped)
            continue
        kind = c.type
        if kind in ("SAN", "NULL_MOVE"):
            moves.append([c, [], [], []])
            glyphs = re.search(r"[!?]+\Z", c)
            if glyphs and glyphs.group() in GLYPH_NAGS:
                moves[-1][1].append(GLYPH_NAGS[glyphs.group()])
        elif kind == "NAG":
            if moves:
                moves[-1][1].append(int(c[1:]) if c.startswith("$") else GLYPH_NAGS[str(c)])
        elif kind == "COMMENT":
            text = " ".join(c[1:-1].split())
            (moves[-1][2] if moves else leading).append(text)
        # MOVE_NUMBER and a lone 'e.p.' say nothing the moves do not
    out = tuple(PgnMove(_bare_san(str(tok)), tok.line, tok.column, tuple(nags), tuple(comments),
                        tuple(variations))
                for tok, nags, comments, variations in moves)
    return out, tuple(leading)


def _bare_san(text: str) -> str:
    return re.sub(r"[!?]+\Z", "", text).replace("e.p.", "")


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark.open("pgn.lark", rel_to=__file__, parser="lalr", lexer="contextual",
                     transformer=_Builder(), maybe_placeholders=False)


# ---------------------------------------------------------------------------- errors

_FRIENDLY = {
    "TAG_NAME": "a tag name", "TAG_VALUE": "a tag value (a quoted string)",
    "RESULT": "a result (1-0, 0-1, 1/2-1/2, *)", "SAN": "a move", "MOVE_NUMBER": "a move number",
    "NAG": "an annotation ($1)", "COMMENT": "a comment", "LPAR": "'('", "RPAR": "')'",
    "LSQB": "'['", "RSQB": "']'", "$END": "end of input",
}
_QUIET = {"NULL_MOVE", "EP"}       # accepted, but no help to list
_DELIMS = " \t\r\n\f\v{}()[];\""


def _expected(names) -> str:
    kinds = sorted({_FRIENDLY.get(n, n.lower()) for n in names if n not in _QUIET})
    if "a move" in kinds:
        return "expected a move, a move number, a comment, a variation or a result"
    if len(kinds) == 1:
        return f"expected {kinds[0]}"
    return "expected one of: " + ", ".join(kinds) if kinds else "unexpected input"


def _end_of(text: str) -> tuple[int, int]:
    lines = text.split("\n")
    return len(lines), len(lines[-1]) + 1


def _word_at(text: str, pos: int, end: int = 0) -> tuple[str, int]:
    """The word around ``pos`` (back to its start, or to the dots of a move number
    glued to it: ``1.Zf3``; on to ``end`` at least), and how far back it starts."""
    start = pos
    while start > 0 and text[start - 1] not in _DELIMS + ".":
        start -= 1
    end = max(end, pos)
    while end < len(text) and text[end] not in _DELIMS:
        end += 1
    return (text[start:end] or text[pos:pos + 1]), pos - start


# what the lexer reads a '{' or '}' inside of (a comment, a ';' comment, a '%'
# line, a tag value), then a '{' that opens nothing closed, then a '}'
_BRACES = re.compile(r'(?P<comment>\{[^}]*\})|(?P<open>\{)|;[^\n]*|(?m:^%[^\n]*)'
                     r'|"(?:[^"\\\n]|\\[^\n]|"(?![ \t]*\]))*"|(?P<close>\})')


def _line_column(text: str, offset: int) -> tuple[int, int]:
    return text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset)


def _brace_error(text: str, at: int, source: str | None) -> PgnSyntaxError | None:
    """The error to give, for one found at offset ``at``, when a comment's braces
    explain it: comments do not nest, so ``{a {b} c}`` is the comment ``{a {b}``
    and then ``c}``, whose '}' closes nothing (as in ``{a } b}``). The error is at
    that '}' when the text after the comment before it went wrong (its word was
    meant to be in the comment); None when the braces are not the cause."""
    before = None       # the last comment before the stray '}'
    for m in _BRACES.finditer(text):
        if m.lastgroup == "open":
            return None         # a comment left open: "comment not closed" says it
        if m.lastgroup == "comment":
            if m.start() >= at:
                return None
            before = m
        elif m.lastgroup == "close":
            if m.start() < at or (before is None and m.start() != at):
                return None
            line, column = _line_column(text, m.start())
            return PgnSyntaxError("'}' closes no comment" + _closed_at(text, before),
                                  line, column, source)
    return None


def _nest_note(text: str, at: int) -> str:
    """What to add to an error at offset ``at`` when it follows right after a
    comment holding a '{' (``{a {b} c``: a '}' missing, or taken for the inner one)."""
    before = None
    for m in _BRACES.finditer(text, 0, at):
        before = m if m.lastgroup == "comment" else None
    if before is None or text[before.end():at].strip() or "{" not in before.group()[1:]:
        return ""
    return " after a comment" + _closed_at(text, before)


def _closed_at(text: str, comment) -> str:
    """Where ``comment`` (a match) opened and closed, and any '{' read as its text."""
    if comment is None:
        return ""
    opened = "%d:%d" % _line_column(text, comment.start())
    closed = "%d:%d" % _line_column(text, comment.end() - 1)
    inner = comment.group().find("{", 1)
    if inner < 0:
        return f" (the comment opened at {opened} ended at the first '}}' after it, {closed})"
    nested = "%d:%d" % _line_column(text, comment.start() + inner)
    return (f" (comments do not nest: the '{{' at {nested} is text of the comment opened "
            f"at {opened}, which the first '}}' after it, at {closed}, ended)")


def _lexed_at(tok: Token) -> tuple[int, int]:
    """The line and column of a token the lexer read (lark types them as
    optional, for a token made by hand)."""
    return cast(int, tok.line), cast(int, tok.column)


def _syntax_error(e: UnexpectedInput, text: str, source: str | None) -> PgnSyntaxError:
    tok = getattr(e, "token", None)
    if isinstance(e, UnexpectedCharacters) or (tok is not None and tok.type != "$END"):
        end = 0
        if isinstance(e, UnexpectedCharacters):
            # (lark's class leaves the position unset; a lexer error always has it)
            pos, line, column = cast(int, e.pos_in_stream), e.line, e.column
            names = e.allowed or ()
            if text[pos] == "{":
                return PgnSyntaxError("comment not closed: '{' with no '}' after it",
                                      line, column, source)
            if text[pos] == '"':
                return PgnSyntaxError("tag value not closed: '\"' with no '\"' after it on "
                                      "its line", line, column, source)
        else:
            # (the contextual lexer read a word no terminal of its state matches with
            # the lexer of every state: 'Zf3' came as a tag name)
            assert isinstance(e, UnexpectedToken) and tok is not None
            pos, line, column, end = tok.start_pos, tok.line, tok.column, tok.end_pos
            names = getattr(e, "accepts", None) or e.expected
            if tok.type == "RPAR":
                return PgnSyntaxError("')' closes no variation", line, column, source)
        word, back = _word_at(text, pos, end)
        braces = _brace_error(text, pos - back, source)
        if braces is not None:
            return braces
        note = _nest_note(text, pos - back)
        if "SAN" in names:
            return PgnSyntaxError(f"not a move: {word!r}{note}", line, column - back, source)
        return PgnSyntaxError(f"{_expected(names)} but found {word!r}{note}", line,
                              column - back, source)
    # the end of the text, with a tag pair or a variation still open
    stack: Sequence[Any] = ()
    ip = getattr(e, "interactive_parser", None)
    if ip is not None:
        stack = ip.parser_state.value_stack
    for item in reversed(stack):
        if isinstance(item, Token) and item.type == "LPAR":
            return PgnSyntaxError("variation not closed: '(' with no ')' after it",
                                  *_lexed_at(item), source)
        if isinstance(item, Token) and item.type == "LSQB":
            return PgnSyntaxError("tag pair not closed: '[' with no ']' after it",
                                  *_lexed_at(item), source)
    line, column = _end_of(text)
    names = getattr(e, "expected", ()) or ()
    return PgnSyntaxError(f"{_expected(names)} but found end of input", line, column, source)
