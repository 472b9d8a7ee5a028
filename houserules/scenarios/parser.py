"""Read ``.hrt`` text into :class:`~houserules.scenarios.model.Scenario` objects.

The grammar is ``scenario.lark`` (LALR, contextual lexer); a lark
:class:`~lark.Transformer` turns the tree into plain dataclasses and checks the
arguments (squares, UCI moves, piece letters, numbers), so that a bad one is
reported as a :class:`ScenarioError` at its own line and column. Squares are
read on the scenario's board: 8x8, or that of the variant its ``variant``
line names (``j8`` on Capablanca's 10x8, ``a10`` on Grand's 10x10); they are
checked once the scenario's setup is read, wherever the ``variant`` line is.
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import cast

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import (UnexpectedCharacters, UnexpectedEOF, UnexpectedInput,
                             UnexpectedToken, VisitError)

from chess_rules.errors import ArgumentError
from chess_rules.notation import san_readable
from chess_rules.shape import STANDARD, BoardShape
from chess_rules.squares import LETTER_TO_PIECE
from chess_rules.variants import catalogue, load_variant
from rete.loading import read_text_file

from .model import Arg, Expectation, Loc, Scenario, ScenarioError, Setup, Step

GRAMMAR = Path(__file__).with_name("scenario.lark")
UCI_RE = re.compile(r"^[a-h][1-8][a-h][1-8][a-zA-Z]?$")
# the shapes of squares, UCI moves and SAN on a board of any size (a1 .. l10)
WIDE_SQUARE = r"[a-l](?:10|[1-9])"
WIDE_UCI_RE = re.compile(rf"^({WIDE_SQUARE})({WIDE_SQUARE})([a-zA-Z]?)$")
WIDE_SAN_RE = re.compile(
    rf"([A-Z])?([a-l])?(10|[1-9])?[-x]?({WIDE_SQUARE})(=[a-zA-Z]|[A-Z]|[nbrqk])?[+#]?[!?]*")
SETUP_KINDS = {"presets", "config", "fen", "layout", "place", "remove", "rules", "modifier",
               "ruleset", "dfen", "mark", "variant"}
FIDE_LETTERS = frozenset("PNBRQKpnbrqk")
MARK_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
FACES = {"1", "2", "3", "4", "5", "6"}
GLUED_HASH = "a '#' starts a comment only where a word would (put a space before it)"


@dataclass(frozen=True)
class _Board:
    """The board a scenario's squares are read on: 8x8, or a variant's."""

    variant: str | None
    shape: BoardShape
    letters: frozenset[str] | None     # None: the letters positions read now

    @property
    def squares(self) -> str:
        last = self.shape.square_names[-1]
        if self.variant is None:
            return f"squares are a1..{last}"
        return f"squares of {self.variant}'s {self.shape} are a1..{last}"

    def has_letter(self, letter: str) -> bool:
        return letter in (LETTER_TO_PIECE if self.letters is None else self.letters)


def _variant_board(name: str) -> _Board:
    rules = load_variant(name)
    letters = set(FIDE_LETTERS)
    for letter, _ in rules.config.get("pieces", {}).values():
        letters |= {letter.upper(), letter.lower()}
    return _Board(name, rules.shape, frozenset(letters))


STANDARD_BOARD = _Board(None, STANDARD, None)


class _GluedKeyword(Exception):
    def __init__(self, kw, nxt):
        self.kw, self.nxt = kw, nxt


class _KeywordsStandAlone:
    """Post-lexer: a keyword must be a whole word (``moves`` is not ``move`` + ``s``)."""

    always_accept = ()

    def __init__(self):
        self.keywords: set[str] = set()

    def process(self, stream):
        prev = None
        for tok in stream:
            if prev is not None and tok.start_pos == prev.end_pos:
                if tok.type != "_NL" and prev.type in self.keywords:
                    raise _GluedKeyword(prev, tok)
                if tok.type == "_NL" and tok.value.startswith("#") and \
                        not prev.value[-1:].isspace():      # (REST keeps its spaces)
                    # a comment starts where a word would: "check#x" is no comment
                    raise _GluedKeyword(prev, tok)
            prev = tok
            yield tok


@lru_cache(maxsize=1)
def _parser() -> Lark:
    post = _KeywordsStandAlone()
    lark = Lark(GRAMMAR.read_text(encoding="utf-8"), parser="lalr", lexer="contextual",
                propagate_positions=True, maybe_placeholders=False, postlex=post)
    post.keywords = {t.name for t in lark.terminals if t.pattern.type == "str"}
    return lark


def parse_file(path: str | Path) -> list[Scenario]:
    """Parse a ``.hrt`` file (raises :class:`ScenarioError`)."""
    if not isinstance(path, (str, os.PathLike)):
        raise ArgumentError(f"a scenario file is named by its path (a str or os.PathLike), "
                            f"not {type(path).__name__}")
    path = Path(path)
    try:
        text = read_text_file(path, "scenario file")
    except OSError as e:
        raise ScenarioError(str(e), str(path)) from None
    return parse_text(text, str(path))


def parse_text(text: str, file: str = "<string>") -> list[Scenario]:
    """Parse scenario text; ``file`` is used in positions and for relative paths."""
    if not isinstance(text, str):
        raise ArgumentError(f"scenario text is a str, not {type(text).__name__}")
    if text.startswith("\ufeff"):      # a byte-order mark is no text (as read_text_file)
        text = text[1:]
    if not text.endswith("\n"):
        text += "\n"
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as e:
        raise _syntax_error(e, text, file) from None
    except _GluedKeyword as g:
        word = g.kw.value + (str(g.nxt).split() or [""])[0]
        if g.nxt.type == "_NL":
            raise ScenarioError(f"{word!r}: {GLUED_HASH}", file, g.nxt.line, g.nxt.column) \
                from None
        raise ScenarioError(f"unknown {_what(text, g.kw.start_pos)} {word!r}", file,
                            g.kw.line, g.kw.column) from None
    try:
        scenarios = _Build(file).transform(tree)
    except VisitError as e:
        if isinstance(e.orig_exc, ScenarioError):
            raise e.orig_exc from None
        # a bug of the parser's, but still a file's error: say where it was read
        line = getattr(getattr(e.obj, "meta", None), "line", None) or 1
        raise ScenarioError(f"cannot read this statement: {e.orig_exc!r}", file, line, 1) \
            from e.orig_exc
    seen: dict[str, Scenario] = {}
    for sc in scenarios:
        if sc.name in seen:
            raise ScenarioError(f"scenario name {sc.name!r} is used twice in this file "
                                f"(first at line {seen[sc.name].line})", file, sc.line, sc.column)
        seen[sc.name] = sc
    return scenarios


# ------------------------------------------------------------------ syntax errors

def _keywords(names) -> list[str]:
    out = []
    for name in names:
        if name == "$END":
            out.append("end of file")
            continue
        t = _parser().get_terminal(name)
        if t.pattern.type == "str":
            out.append(repr(t.pattern.value))
        elif name == "_NL":
            out.append("end of line")
        else:
            out.append({"WORD": "a word", "REST": "text", "STRING": '"name"'}.get(name, name))
    return sorted(set(out))


def _what(text: str, pos: int) -> str:
    """'statement' for the first word of a line, 'expectation' after 'expect', else 'word'."""
    line_start = text.rfind("\n", 0, pos) + 1
    before = text[line_start:pos].split()
    if not before:
        return "statement"
    if before == ["expect"]:
        return "expectation"
    return "word"


def _quoted(kws):
    return [k if k.startswith(("a ", "end of", "text", '"')) else repr(k) for k in kws]


def _odd_space(text: str, pos) -> str | None:
    """The message for a space that is not one (a no-break space pasted in, a
    vertical tab, a form feed...) at ``pos``, or None."""
    ch = text[pos] if isinstance(pos, int) and 0 <= pos < len(text) else ""
    if not ch.isspace() or ch in " \t\n":
        return None
    import unicodedata
    name = unicodedata.name(ch, "control character")
    return (f"unexpected {name} (U+{ord(ch):04X}): words are separated by spaces or tabs, "
            f"lines by newlines")


def _syntax_error(e: UnexpectedInput, text: str, file: str) -> ScenarioError:
    line, col = getattr(e, "line", None), getattr(e, "column", None)
    if isinstance(e, UnexpectedEOF) or line in (None, -1):
        lines = text.splitlines()
        return ScenarioError("unexpected end of file", file, len(lines), 1)
    odd = _odd_space(text, getattr(e, "pos_in_stream", None)
                     if isinstance(e, UnexpectedCharacters) else
                     getattr(getattr(e, "token", None), "start_pos", None))
    if odd is not None:
        return ScenarioError(odd, file, line, col)
    if isinstance(e, UnexpectedCharacters):
        allowed = set(e.allowed or ())
        pos = e.pos_in_stream
        word = _word_at(text, pos)
    else:
        assert isinstance(e, UnexpectedToken)
        allowed = set(e.accepts or e.expected or ())
        pos = getattr(e.token, "start_pos", None)
        word = "end of line" if e.token.type == "_NL" else \
            "end of file" if e.token.type == "$END" else (str(e.token).split() or [""])[0]
        if e.token.type in ("_NL", "$END"):
            pos = None
    if isinstance(e, UnexpectedToken) and pos:
        # a word too many after one with a '#' glued to it ('count 20# twenty'):
        # the '#' was meant to start a comment
        line_start = text.rfind("\n", 0, pos) + 1
        before = text[line_start:pos].split()
        hash_at = before[-1].find("#", 1) if before else -1
        if hash_at > 0:
            prev_start = text.rfind(before[-1], line_start, pos)
            return ScenarioError(f"{before[-1]!r}: {GLUED_HASH}", file, line,
                                 col - (pos - prev_start) + hash_at)
    if pos and not text[pos - 1].isspace():          # glued to a keyword: 'checkmates'
        start = pos
        while start > 0 and not text[start - 1].isspace():
            start -= 1
        word = _word_at(text, start)
        return ScenarioError(f"unknown {_what(text, start)} {word!r}", file, line,
                             col - (pos - start))
    kws = _keywords(allowed)
    kws = [k.strip("'") if k.startswith("'") else k for k in kws]
    if "scenario" in kws and "move" not in kws:
        msg = f"expected 'scenario \"name\"' before {word!r}"
    elif "move" in kws and "presets" in kws:
        stmts = [k for k in kws if k not in ("end of line", "end of file")]
        msg = f"unknown statement {word!r} (statements: {', '.join(stmts)})"
    elif "legal" in kws and "perft" in kws:
        msg = f"unknown expectation 'expect {word}' (expectations: {', '.join(kws)})"
    elif word == "end of line":
        msg = f"this statement is incomplete: expected {' or '.join(_quoted(kws))}"
    else:
        msg = f"unexpected {word!r}: expected {' or '.join(_quoted(kws))}"
    return ScenarioError(msg, file, line, col)


# ------------------------------------------------------------------ tree -> dataclasses

class _By:
    def __init__(self, arg: Arg):
        self.arg = arg


def _split_by(toks):
    toks = list(toks)
    if toks and isinstance(toks[-1], _By):
        return toks[-1].arg, toks[:-1]
    return None, toks


def _word_at(text: str, at: int | None) -> str:
    """The run of non-space characters at ``at`` (empty at a space)."""
    m = re.match(r"\S*", text[at:])
    assert m is not None        # (\S* matches anywhere)
    return m.group(0)


def _arg(file: str, tok: Token) -> Arg:
    # (lark types a token's position as optional, for one made by hand: the
    # lexer's have it)
    return Arg(str(tok), Loc(file, cast(int, tok.line), cast(int, tok.column)))


class _Build(Transformer):
    def __init__(self, file: str):
        super().__init__()
        self.file = file
        # checks of squares and letters that wait for the scenario's board
        self._later: list = []

    # helpers ---------------------------------------------------------------
    def _loc(self, meta) -> Loc:
        return Loc(self.file, meta.line, meta.column)

    def _err(self, msg: str, where) -> ScenarioError:
        text = str(where) if isinstance(where, (Token, Arg)) else ""
        if "#" in text[1:] and not text.startswith('"'):
            # 'expect count 20#': meant as a comment (in a quoted name it is text)
            msg += f"; {GLUED_HASH}"
        if isinstance(where, Token):
            return ScenarioError(msg, self.file, where.line, where.column)
        if isinstance(where, Arg):
            return ScenarioError(msg, self.file, where.loc.line, where.loc.column)
        return ScenarioError(msg, self.file, where.line, where.column)

    def _args(self, toks) -> list[Arg]:
        return [_arg(self.file, t) for t in toks]

    def _square(self, tok) -> str:
        """The square's name; whether it is on the board is checked with the
        scenario (:meth:`_on_board`)."""
        s = str(tok)

        def check(board: _Board) -> None:
            if s not in board.shape.square_names:
                raise self._err(f"bad square {s!r} ({board.squares})", tok)
        self._later.append(check)
        return s

    def _uci(self, tok) -> Arg:
        s = str(tok)
        m = WIDE_UCI_RE.match(s)
        if not m:
            raise self._err(f"bad UCI move {s!r} (e.g. e2e4, e7e8q)", tok)
        self._later.append(lambda board: self._uci_on(board, s, m, tok))
        if m.group(3):
            s = s[:-1] + s[-1].lower()
        return Arg(s, Loc(self.file, tok.line, tok.column))

    def _uci_on(self, board: _Board, s: str, m, tok) -> None:
        if board.variant is None:
            if not UCI_RE.match(s):
                raise self._err(f"bad UCI move {s!r} (e.g. e2e4, e7e8q)", tok)
            return
        for sq in m.group(1, 2):
            if sq not in board.shape.square_names:
                raise self._err(f"bad UCI move {s!r}: {sq} is not on the board "
                                f"({board.squares})", tok)

    def _on_board(self, board: _Board) -> None:
        """Run the checks that waited for the scenario's board, in file order."""
        later, self._later = self._later, []
        for check in later:
            check(board)

    def _board(self, variant: Arg | None) -> _Board:
        if variant is None:
            return STANDARD_BOARD
        names = [s.name for s in catalogue()]
        if variant.text not in names:
            raise self._err(f"unknown variant {variant.text!r} (the catalogue's: "
                            f"{', '.join(names)})", variant)
        return _variant_board(variant.text)

    def _int(self, tok, what: str, minimum: int = 0) -> Arg:
        s = str(tok)
        # ASCII digits only (str.isdigit takes "²" and "٣"), and a sane length
        if not re.fullmatch(r"[0-9]{1,18}", s) or int(s) < minimum:
            shown = s if len(s) <= 24 else s[:20] + "..."
            raise self._err(f"bad {what} {shown!r} (expected a whole number"
                            + (f" >= {minimum}" if minimum else "") + ")", tok)
        return Arg(s, Loc(self.file, tok.line, tok.column))

    def _piece(self, tok) -> tuple[str, str]:
        s = str(tok)
        bad = f"bad piece placement {s!r} (a FEN letter and a square, e.g. Qd4 or ke8)"
        if len(s) not in (3, 4) or not (s[0].isascii() and s[0].isalpha()):
            raise self._err(bad, tok)

        def check(board: _Board) -> None:
            if not board.has_letter(s[0]):
                raise self._err(bad, tok)
        self._later.append(check)
        return s[0], self._square(Token("WORD", s[1:], line=tok.line, column=tok.column + 1))

    def _faces(self, toks) -> list[Arg] | None:
        """Die faces, or None for the word ``none``."""
        if len(toks) == 1 and str(toks[0]) == "none":
            return None
        return self._face_args(toks)

    def _face_args(self, toks) -> list[Arg]:
        for t in toks:
            if str(t) not in FACES:
                raise self._err(f"bad die face {str(t)!r} (faces are 1..6)", t)
        return self._args(toks)

    def _color(self, tok) -> Arg:
        if str(tok) not in ("white", "black"):
            raise self._err(f"bad colour {str(tok)!r} (white or black)", tok)
        return _arg(self.file, tok)

    def _expect(self, kind, meta, args=(), **kw) -> Expectation:
        return Expectation(kind, list(args), self._loc(meta), **kw)

    # file and scenario -------------------------------------------------------
    def start(self, items):
        return list(items)

    @v_args(meta=True)
    def scenario(self, meta, items):
        name_tok, stmts = items[0], items[1:]
        name = self._string(name_tok, "scenario name")
        if not name.strip():
            raise self._err("a scenario needs a non-empty name", name_tok)
        setup = Setup()
        body: list = []
        for kind, loc, payload in stmts:
            if kind in SETUP_KINDS:
                if body:
                    raise ScenarioError(f"'{kind}' is a setup statement: it must come before "
                                        f"the first step or expectation (line {body[0].line})",
                                        self.file, loc.line, loc.column)
                self._add_setup(setup, kind, loc, payload)
            else:
                body.append(payload)
        if setup.dfen is not None:
            for what, val in (("fen", setup.fen), ("layout", setup.layout)):
                if val is not None:
                    raise self._err(f"a dice scenario takes its position from 'dfen'; drop '{what}'",
                                    val)
            if setup.place or setup.remove:
                loc = (setup.place or setup.remove)[0][-1]
                raise ScenarioError("place/remove cannot be used with 'dfen'", self.file,
                                    loc.line, loc.column)
        if setup.variant is not None:
            for what, val in (("ruleset", setup.ruleset), ("dfen", setup.dfen)):
                if val is not None:
                    raise self._err(f"a scenario plays either a 'variant' or a '{what}', "
                                    f"not both", val)
        self._on_board(self._board(setup.variant))
        return Scenario(name, self.file, meta.line, setup, body, meta.column)

    def _add_setup(self, s: Setup, kind: str, loc: Loc, payload) -> None:
        def once(attr):
            prev = getattr(s, attr)
            if prev is not None:
                raise ScenarioError(f"'{attr}' given twice (first at line {prev.loc.line})",
                                    self.file, loc.line, loc.column)
        if kind == "presets":
            s.presets.extend(payload)
        elif kind == "config":
            for pid, key, val, arg in payload:
                s.config.setdefault(pid, {})[key] = val
                s.config_args.append(arg)
            s.config_loc = s.config_loc or loc
        elif kind == "variant":
            once("variant")
            s.variant = payload
        elif kind == "ruleset":
            once("ruleset")
            s.ruleset = payload
        elif kind in ("fen", "layout", "dfen"):
            once(kind)
            other = {"fen": "layout", "layout": "fen"}.get(kind)
            if other and getattr(s, other) is not None:
                raise ScenarioError("give either 'fen' or 'layout', not both", self.file,
                                    loc.line, loc.column)
            setattr(s, kind, payload)
        elif kind == "place":
            s.place.extend(payload)
            s.edits.append(loc)
        elif kind == "remove":
            s.remove.extend(payload)
            s.edits.append(loc)
        elif kind == "rules":
            s.rules.append(payload)
        elif kind == "modifier":
            s.modifiers.append(payload)
        elif kind == "mark":
            s.marks.extend(payload)

    # setup -----------------------------------------------------------------
    @v_args(meta=True)
    def presets(self, meta, toks):
        return ("presets", self._loc(meta), self._args(toks))

    @v_args(meta=True)
    def config(self, meta, toks):
        out = []
        for t in toks:
            s = str(t)
            left, eq, raw = s.partition("=")
            pid, dot, key = left.partition(".")
            if not eq or not dot or not pid or not key or not raw:
                raise self._err(f"bad config {s!r} (write PRESET.KEY=VALUE, e.g. "
                                f"monster-rules.scope=white)", t)
            try:
                val = json.loads(raw)
            except ValueError:
                val = raw
            except RecursionError:
                raise self._err(f"bad config value for {left}: JSON nested too deeply "
                                f"for this reader", t) from None
            out.append((pid, key, val, _arg(self.file, t)))
        return ("config", self._loc(meta), out)

    @v_args(meta=True)
    def fen(self, meta, toks):
        return ("fen", self._loc(meta), Arg(str(toks[0]).strip(), Loc(self.file, toks[0].line, toks[0].column)))

    @v_args(meta=True)
    def dfen(self, meta, toks):
        return ("dfen", self._loc(meta), Arg(str(toks[0]).strip(), Loc(self.file, toks[0].line, toks[0].column)))

    @v_args(meta=True)
    def mark(self, meta, toks):
        for t in toks:
            if not MARK_RE.match(str(t)):
                raise self._err(f"bad mark {str(t)!r} (a pytest marker name, e.g. slow)", t)
        return ("mark", self._loc(meta), [str(t) for t in toks])

    @v_args(meta=True)
    def layout(self, meta, toks):
        return ("layout", self._loc(meta), _arg(self.file, toks[0]))

    @v_args(meta=True)
    def place(self, meta, toks):
        return ("place", self._loc(meta),
                [(*self._piece(t), Loc(self.file, t.line, t.column)) for t in toks])

    @v_args(meta=True)
    def remove(self, meta, toks):
        return ("remove", self._loc(meta),
                [(self._square(t), Loc(self.file, t.line, t.column)) for t in toks])

    @v_args(meta=True)
    def rules(self, meta, toks):
        return ("rules", self._loc(meta), _arg(self.file, toks[0]))

    @v_args(meta=True)
    def variant(self, meta, toks):
        return ("variant", self._loc(meta), _arg(self.file, toks[0]))

    @v_args(meta=True)
    def ruleset(self, meta, toks):
        return ("ruleset", self._loc(meta), _arg(self.file, toks[0]))

    @v_args(meta=True)
    def modifier(self, meta, toks):
        return ("modifier", self._loc(meta),
                (_arg(self.file, toks[0]), [self._square(t) for t in toks[1:]]))

    # steps -------------------------------------------------------------------
    @v_args(meta=True)
    def move(self, meta, toks):
        for t in toks:
            w = str(t)
            shown = w if len(w) <= 24 else w[:20] + "..."
            bad = (f"bad move {shown!r} (UCI such as e2e4 or e7e8q, or SAN such as Nf3, "
                   f"exd5, e8=Q or O-O)")
            if not (WIDE_UCI_RE.match(w) or san_readable(w) or WIDE_SAN_RE.fullmatch(w)):
                raise self._err(bad, t)
            self._later.append(lambda board, w=w, t=t, bad=bad: self._move_on(board, w, t, bad))
        return ("step", None, Step("move", self._args(toks), self._loc(meta)))

    def _move_on(self, board: _Board, w: str, tok, bad: str) -> None:
        m = WIDE_UCI_RE.match(w)
        if board.variant is None:
            if not (UCI_RE.match(w) or san_readable(w)):
                raise self._err(bad, tok)
        elif m:
            self._uci_on(board, w, m, tok)

    @v_args(meta=True)
    def end_turn(self, meta, toks):
        return ("step", None, Step("end-turn", [], self._loc(meta)))

    @v_args(meta=True)
    def roll(self, meta, toks):
        faces = self._face_args(toks)
        return ("step", None, Step("roll", faces, self._loc(meta)))

    @v_args(meta=True)
    def undo(self, meta, toks):
        return ("step", None, Step("undo", [], self._loc(meta)))

    # expectations --------------------------------------------------------------
    @v_args(meta=True)
    def expectation(self, meta, items):
        kind, _, exp = items[0]
        exp.loc = self._loc(meta)           # the statement starts at 'expect'
        return items[0]

    def _string(self, tok, what: str) -> str:
        """A quoted text's contents (JSON escapes)."""
        try:
            text = json.loads(str(tok)) if "\\" in str(tok) else str(tok)[1:-1]
        except ValueError:
            raise self._err(f"bad escape in the {what} {str(tok)}", tok) from None
        if any("\ud800" <= ch <= "\udfff" for ch in text):
            raise self._err(f"the {what} {str(tok)} holds a lone surrogate "
                            "(an escape no text can print)", tok)
        return text

    def _e(self, kind, meta, args=(), **kw):
        return ("expect", None, self._expect(kind, meta, args, **kw))

    @v_args(meta=True)
    def exp_legal(self, meta, toks):
        return self._e("legal", meta, [self._uci(t) for t in toks])

    @v_args(meta=True)
    def exp_illegal(self, meta, toks):
        toks = list(toks)
        because = None
        if toks and isinstance(toks[-1], Token) and toks[-1].type == "STRING":
            because = self._string(toks.pop(), "reason")
        by, moves = _split_by(toks)
        return self._e("illegal", meta, [self._uci(t) for t in moves], by=by, text=because)

    def _move_list(self, toks):
        if len(toks) == 1 and str(toks[0]) == "none":
            return []
        return [self._uci(t) for t in toks]

    @v_args(meta=True)
    def exp_moves(self, meta, toks):
        return self._e("moves", meta, self._move_list(toks))

    @v_args(meta=True)
    def exp_moves_from(self, meta, toks):
        sq_tok, rest = toks[0], list(toks[1:])
        s = str(sq_tok)
        if s.endswith(":"):
            sq_tok = Token("WORD", s[:-1], line=sq_tok.line, column=sq_tok.column)
        elif rest and str(rest[0]) == ":":
            rest = rest[1:]
        elif rest and str(rest[0]).startswith(":"):
            r0 = rest[0]
            rest[0] = Token("WORD", str(r0)[1:], line=r0.line, column=r0.column + 1)
        self._square(sq_tok)
        return self._e("moves-from", meta, self._move_list(rest) if rest else [],
                       square=_arg(self.file, sq_tok))

    @v_args(meta=True)
    def exp_count(self, meta, toks):
        return self._e("count", meta, [self._int(toks[0], "move count")])

    @v_args(meta=True)
    def exp_fen(self, meta, toks):
        return self._e("fen", meta, text=str(toks[0]).strip())

    @v_args(meta=True)
    def exp_piece(self, meta, toks):
        return self._e("piece", meta, [Arg(letter + sq, Loc(self.file, t.line, t.column))
                                       for t in toks for letter, sq in [self._piece(t)]])

    @v_args(meta=True)
    def exp_empty(self, meta, toks):
        for t in toks:
            self._square(t)
        return self._e("empty", meta, self._args(toks))

    @v_args(meta=True)
    def exp_hp(self, meta, toks):
        self._square(toks[0])
        return self._e("hp", meta, [self._int(toks[1], "hit points")], square=_arg(self.file, toks[0]))

    @v_args(meta=True)
    def exp_ep(self, meta, toks):
        if len(toks) == 1 and str(toks[0]) == "none":
            return self._e("ep", meta, [])
        for t in toks:
            self._square(t)
        return self._e("ep", meta, self._args(toks))

    @v_args(meta=True)
    def exp_dice(self, meta, toks):
        return self._e("dice", meta, self._faces(toks) or [])

    @v_args(meta=True)
    def exp_tree(self, meta, toks):
        text = str(toks[0]).strip()
        try:
            json.loads(text)
        except (ValueError, RecursionError) as e:
            raise self._err(f"bad JSON for 'expect tree': {e}", toks[0])
        return self._e("tree", meta, text=text)

    @v_args(meta=True)
    def exp_playable(self, meta, toks):
        if len(toks) == 1 and str(toks[0]) == "null":
            return self._e("playable", meta, [], text="null")
        return self._e("playable", meta, self._faces(toks) or [])

    @v_args(meta=True)
    def exp_check(self, meta, toks):
        return self._e("check", meta)

    @v_args(meta=True)
    def exp_not_check(self, meta, toks):
        return self._e("not-check", meta)

    @v_args(meta=True)
    def exp_checkmate(self, meta, toks):
        return self._e("checkmate", meta)

    @v_args(meta=True)
    def exp_stalemate(self, meta, toks):
        return self._e("stalemate", meta)

    @v_args(meta=True)
    def exp_winner(self, meta, toks):
        by, toks = _split_by(toks)
        return self._e("winner", meta, [self._color(toks[0])], by=by)

    @v_args(meta=True)
    def exp_draw(self, meta, toks):
        by, toks = _split_by(toks)
        return self._e("draw", meta, by=by)

    def by(self, toks):
        return _By(_arg(self.file, toks[0]))

    @v_args(meta=True)
    def exp_ongoing(self, meta, toks):
        return self._e("ongoing", meta)

    @v_args(meta=True)
    def exp_perft(self, meta, toks):
        return self._e("perft", meta, [self._int(toks[0], "perft depth"),
                                       self._int(toks[1], "perft count")])

    @v_args(meta=True)
    def exp_turn(self, meta, toks):
        return self._e("turn", meta, [self._color(toks[0])])

    @v_args(meta=True)
    def exp_refused(self, meta, toks):
        return self._e("refused", meta, self._args(toks))
