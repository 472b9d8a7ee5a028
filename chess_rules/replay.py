"""Playing a PGN game through the rules: its start position, its rule set, its moves.

:func:`play` is ``Game.from_pgn``'s work: the game starts from the ``FEN`` tag
(else where the rule set starts, :func:`chess_rules.game.start_fen`), under the
presets the ``Variant`` tag names (the export's format:
``[Variant "piece-hp, king-heals"]``) unless presets or a rule set are given,
and each move of the main line is read with :meth:`Game.parse_san
<chess_rules.game.Game.parse_san>`, so the presets decide what is legal.

>>> from chess_rules.pgn import read_games
>>> from chess_rules.replay import moves, play, start
>>> pgn = read_games('[Variant "double-move"]\\n\\n1. e4 d4 1... e5 d5 2. Nf3 *')[0]
>>> game = start(pgn)
>>> [f"{s.number} {s.pgn.san} {s.move.uci()}" for s in moves(game, pgn)][:3]
['1. e4 e2e4', '1. d4 d2d4', '1... e5 e7e5']
>>> game.fen()
'rnbqkbnr/ppp2ppp/8/3pp3/3PP3/5N2/PPP2PPP/RNBQKB1R w KQkq d6e6 1 2 half:1'

A move the rules refuse raises :class:`~chess_rules.errors.PgnMoveError`,
which says where it is written and why, in the words of the production that
refuses it (:meth:`Game.explain <chess_rules.game.Game.explain>`):

>>> play(read_games("1. e4 e5 2. Nf3 Nf6 3. O-O *")[0])
Traceback (most recent call last):
...
chess_rules.errors.PgnMoveError: 1:24: move 3. O-O (e1g1): refused by fide.castling - f1 is not empty
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

from .errors import ChessError, MoveParseError, PgnError, PgnMoveError
from .moves import Move
from .pgn import PgnGame, PgnMove
from .shape import STANDARD
from .squares import LETTER_TO_PIECE

__all__ = ["Step", "start", "moves", "play", "variant_presets", "STANDARD_VARIANTS"]

#: ``Variant`` values that name standard chess (lower case): what other tools write
STANDARD_VARIANTS = frozenset({"standard", "chess", "from position"})

_SAN = re.compile(r"([A-Z])?([a-l])?(10|[1-9])?[-x]?([a-l](?:10|[1-9]))(?:=?([A-Za-z]))?")
_CASTLE = re.compile(r"O-O-O|0-0-0|O-O|0-0")


@dataclass(frozen=True)
class Step:
    """One move of the main line, played: as the text writes it (``pgn``), as
    the rules made it (``move``: its ``rule`` is the production that generated
    it), who played it and under which move number (``'12.'``, ``'12...'``)."""

    pgn: PgnMove
    move: Move
    color: str
    number: str


def variant_presets(pgn: PgnGame) -> list[str]:
    """The preset ids the ``Variant`` tag names (none for standard chess, or no
    tag). A variant that is no preset raises :class:`PgnError` naming it."""
    value = pgn.tags.get("Variant")
    if value is None or value.strip().lower() in STANDARD_VARIANTS:
        return []
    ids = [v.strip() for v in value.split(",") if v.strip()]
    from .rule_source import rule_source
    known = rule_source().known_ids()
    for i in ids:
        if i not in known:
            line, column = pgn.tag_positions["Variant"]
            raise PgnError(f"Variant {i!r} is not a preset this library knows (they are "
                           f"listed by 'houserules presets'): give the presets, or a rule "
                           f"set, to play it under rules of your own", line, column, pgn.source)
    return ids


def _catalogue_variant(pgn: PgnGame):
    """The rule set of the catalogue variant the ``Variant`` tag names
    (``capablanca``, as :meth:`Game.pgn` writes it), or None: a preset's id,
    several ids or no such variant are read as presets."""
    value = (pgn.tags.get("Variant") or "").strip()
    if not value or "," in value or value.lower() in STANDARD_VARIANTS:
        return None
    from .rule_source import NoRuleSourceError, rule_source
    try:
        if value in rule_source().known_ids():
            return None
    except NoRuleSourceError:
        pass
    from .variants import catalogue, load_variant
    if value not in {s.name for s in catalogue()}:
        return None
    return load_variant(value)


def variant_config(pgn: PgnGame) -> dict[str, dict]:
    """The presets' settings the ``VariantConfig`` tag gives (``monster-rules.scope=
    black``, as :meth:`Game.pgn` writes those that differ from the defaults)."""
    from .rule_source import rule_source
    try:
        return rule_source().parse_config_text(pgn.tags["VariantConfig"])
    except ChessError as e:
        line, column = pgn.tag_positions["VariantConfig"]
        raise PgnError(f"VariantConfig: {e}", line, column, pgn.source) from None


def start(pgn: PgnGame, presets=None, ruleset=None, config=None, game_class=None):
    """The game at the start of ``pgn``, under its rules, no move played.

    The rules: ``ruleset``, or FIDE plus ``presets`` (with ``config``), or, when
    neither is given, FIDE plus the presets of the ``Variant`` tag (``config``
    configures those; without it, the ``VariantConfig`` tag does). The position: the ``FEN`` tag, else the rule set's own
    start. A ``Variant`` or ``FEN`` the rules cannot take raises
    :class:`PgnError` at the tag's value."""
    if game_class is None:
        from .game import Game as game_class
    if presets is None and ruleset is None and config is None:
        ruleset = _catalogue_variant(pgn)
    if presets is None and ruleset is None:
        ids = variant_presets(pgn)
        tagged = config is None and bool(ids) and "VariantConfig" in pgn.tags
        if tagged:
            config = variant_config(pgn)
        if ids or config:
            from .rule_source import rule_source
            source = rule_source()
            try:
                ruleset = source.load(ids, config)
            except ChessError as e:
                if not ids:
                    raise
                if tagged and source.is_config_error(e):
                    line, column = pgn.tag_positions["VariantConfig"]
                    raise PgnError(f"VariantConfig {pgn.tags['VariantConfig']!r}: {e}",
                                   line, column, pgn.source) from e
                line, column = pgn.tag_positions["Variant"]
                raise PgnError(f"Variant {pgn.tags['Variant']!r}: {e}", line, column,
                               pgn.source) from e
            config = None
        presets = ()
    fen = pgn.tags.get("FEN")
    try:
        return game_class(fen, ruleset=ruleset, presets=presets or (), config=config)
    except ChessError as e:
        if fen is None or isinstance(e, PgnError):
            raise
        try:        # the rules themselves, built alone, are not what failed
            game_class(ruleset=ruleset, presets=presets or (), config=config)
        except ChessError:
            raise e from None
        line, column = pgn.tag_positions["FEN"]
        raise PgnError(f"FEN tag: {e}", line, column, pgn.source) from e


def moves(game, pgn: PgnGame) -> Iterator[Step]:
    """Play the main line of ``pgn`` on ``game``, yielding each move once played.

    A move the rules do not allow (or SAN that names several legal moves, or a
    null move, or any move once the game has ended with no move left: its
    ``rule`` is the one that ended it) raises :class:`PgnMoveError` at that
    move; the moves before it stay played on ``game``. A draw by rule
    (repetition, fifty moves, insufficient material) leaves the moves, as
    :meth:`Game.push <chess_rules.game.Game.push>` plays them: the game goes on
    from it, as the game that wrote the text did."""
    for pm in pgn.moves:
        fields = game.fen().split()
        color = "white" if fields[1] == "w" else "black"
        number = f"{fields[5]}{'.' if color == 'white' else '...'}"
        out = _ended(game)
        if out is not None:
            # after a mate the move's own refusal (the king left in check) hides why
            who = f"{out.winner} wins" if out.winner else "draw"
            raise PgnMoveError(pm.san, number, f"the game is already over: {out.result()} "
                               f"{who} by {out.reason}", pm.line, pm.column, pgn.source,
                               out.rule)
        if pm.san in ("--", "Z0"):
            raise PgnMoveError(pm.san, number, "a null move passes the turn, which no rule "
                               "of the game does", pm.line, pm.column, pgn.source)
        try:
            m = game.parse_san(pm.san)
        except MoveParseError as e:
            uci, rule, reason = _refusal(game, pm.san, e)
            raise PgnMoveError(pm.san, number, reason, pm.line, pm.column, pgn.source,
                               rule, uci) from None
        game.push(m)
        yield Step(pm, m, color, number)


def _ended(game):
    """The outcome of a game that has ended with no move left to play (a mate, a
    stalemate, a preset's win), else None. A draw by rule leaves the moves
    (RULES.md, standard chess): Game.push plays on from it, and so does a game
    read from the text such a game writes."""
    out = game.outcome()
    if out is None or game.legal_moves():
        return None
    return out


def play(pgn: PgnGame, presets=None, ruleset=None, config=None, game_class=None):
    """The game after the main line of ``pgn`` (see :func:`start` for the rules
    and the start, :func:`moves` for the errors); nothing is returned when a
    move fails."""
    game = start(pgn, presets, ruleset, config, game_class)
    for _ in moves(game, pgn):
        pass
    return game


def _refusal(game, san: str, error: MoveParseError) -> tuple[str | None, str | None, str]:
    """Why SAN that names no legal move names none: (uci, rule, reason) of the
    production that refuses the move of a piece the SAN could mean, as
    :meth:`Game.explain` tells it; parse_san's own reason when it says more (ambiguous, a missing
    promotion) or no such piece has anything to say."""
    if error.kind != "no-match":
        return None, None, error.reason
    # parse_san's reason, when it says more than that no move matches
    said = error.reason if error.reason != "no legal move matches" else None
    turn = game.turn
    shape = game.ruleset.shape
    names, width = shape.square_names, shape.width
    body = re.sub(r"[+#]+\Z", "", san)
    ptype: str | None       # (None: any piece)
    if _CASTLE.fullmatch(body):
        ptype, file_idx, rank_idx, promo = "king", None, None, ""
        files = game.ruleset.config.get("castling-king-files")
        if files is None and shape is not STANDARD:
            files = (width - 2, 2)
        step = -2 if len(body) == 5 else 2

        def target(frm):
            if files is not None:       # the king goes to its castling file
                return frm - frm % width + files[len(body) == 5]
            return frm + step if 0 <= frm % width + step < width else None
    else:
        m = _SAN.fullmatch(body)
        if m is None:
            return None, None, error.reason
        letter, f, r, to_name, promo = m.groups()
        promo = (promo or "").lower()
        if to_name not in names or (letter and letter not in LETTER_TO_PIECE) or \
                (f and f not in shape.file_names) or (r and int(r) > shape.height):
            return None, None, error.reason
        file_idx = shape.file_names.index(f) if f else None
        rank_idx = int(r) - 1 if r else None
        ptype = LETTER_TO_PIECE[letter][0] if letter else (None if f and r else "pawn")
        if ptype == "pawn" and file_idx is None:
            file_idx = shape.file_names.index(to_name[0])
        to_sq = names.index(to_name)

        def target(frm):
            return to_sq
    found = []
    for sq in shape.squares:
        p = game.piece_at(sq)
        if p is None or p.values["color"] != turn:
            continue
        if ptype is not None and p.values["type"] != ptype:
            continue
        if (file_idx is not None and sq % width != file_idx) or \
                (rank_idx is not None and sq // width != rank_idx):
            continue
        to = target(sq)
        if to is None or to == sq:
            continue
        uci = names[sq] + names[to] + promo
        ex = game.explain(uci)
        if not ex.legal:
            found.append((uci, ex))
    # the piece the text most likely means: one a rule refuses, else one the
    # board stops (a piece in the way, an own piece on the target), else any
    ranked = sorted(found, key=lambda f: (f[1].rule is None,
                                          f[1].reason.startswith("no rule moves ")))
    if ranked and (said is None or ranked[0][1].rule):
        uci, ex = ranked[0]
        return uci, ex.rule, ex.reason
    if said is not None or ptype is None:
        return None, None, error.reason
    where = ""
    if file_idx is not None and rank_idx is not None:
        where = f" on {shape.file_names[file_idx]}{rank_idx + 1}"
    elif file_idx is not None:
        where = f" on the {shape.file_names[file_idx]}-file"
    elif rank_idx is not None:
        where = f" on rank {rank_idx + 1}"
    has_any = any(game.piece_at(sq) is not None and game.piece_at(sq).values["color"] == turn
                  and game.piece_at(sq).values["type"] == ptype for sq in shape.squares)
    if has_any and not where:
        return None, None, error.reason
    return None, None, f"{turn} has no {ptype}{where}"
