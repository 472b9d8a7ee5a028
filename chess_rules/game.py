"""The game API: one obvious object, in the spirit of python-chess's ``Board``.

>>> g = Game()
>>> len(g.legal_moves())
20
>>> g.push("e2e4"); g.push("e7e5")
Move(e2e4, fide.pawn-double-push)
Move(e7e5, fide.pawn-double-push)
>>> g.fen()
'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2'
>>> print(g.explain("e1g1").text)
e1g1: refused by fide.castling - f1 is not empty

Every question is answered by the rule set on the engine: legal moves are the
``movegen`` request run through the generate and filter stages, a move is the
``move`` event run through apply, post-move, turn-end and result, and ``pop``
rolls working memory back through the session's journal.
"""
from __future__ import annotations

from contextlib import contextmanager, nullcontext
from dataclasses import dataclass

from rete.errors import ReteError
from rete.model import Fact

from .errors import (ArgumentError, ChessError, FenError, IllegalMoveError, MoveParseError,
                     NotPicklableError, ReentrantCallError)
from .explain import Explanation, explain_move
from .fen import STARTING_FEN, FenPosition
from .pieces import activate_pieces
from .moves import Move
from .geometry import home_rank_test
from .notation import (MoveInfo, check_tags, format_uci, game_to_pgn, move_to_san,
                       normalize_uci, parse_san)
from .ruleset import RuleSet, checked_ruleset, move_stages
from .schema import TEMPLATES
from .shape import STANDARD
from .squares import PIECE_LETTER, opposite
from .state import ChessState

_NO_FACTS: dict = {}
#: the causes of an engine error that may have struck anywhere (a signal
#: handler's timeout, no memory or stack): see Game._failed
_ASYNC = (TimeoutError, MemoryError, RecursionError)
#: the default of ``Game.max_firings`` (a rule set's ``config['max-firings']``);
#: a move makes a handful of firings, a modifier's chain some hundreds
MAX_FIRINGS = 100_000
#: the deepest perft counts: Python's recursion gives out not far below, deep
#: inside the engine (and a tree that deep is never walked to its end)
MAX_PERFT_DEPTH = 100
CASTLING_SQUARES = {
    # letter: (colour, side, king-from, king-to, rook-from, rook-to)
    "K": ("white", "king", 4, 6, 7, 5), "Q": ("white", "queen", 4, 2, 0, 3),
    "k": ("black", "king", 60, 62, 63, 61), "q": ("black", "queen", 60, 58, 56, 59),
}
#: the castling letters of each side, with the side they castle to
_LETTER_SIDE = {"K": ("white", "king"), "Q": ("white", "queen"),
                "k": ("black", "king"), "q": ("black", "queen")}


def castling_squares(letter: str, king_sq: int, shape, king_files=None) -> tuple:
    """(colour, side, king-from, king-to, rook-from, rook-to) of a castling
    right: on 8x8 FIDE's (:data:`CASTLING_SQUARES`) unless ``king_files`` says
    otherwise. On any board the rook stands in the corner of its side's first
    rank (the h- or a-file on 8x8, the last file or the a-file); ``king_sq``
    is where the king stands. ``king_files`` is (the file the king goes to
    castling kingside, queenside), 0 for the a-file: by default the file
    next to the corner's neighbour kingside (g on 8x8, i on Capablanca's
    10x8) and the c-file queenside. The rook ends on the king's other side.

    >>> from chess_rules.game import castling_squares
    >>> from chess_rules.shape import board_shape
    >>> castling_squares("K", 5, board_shape(10, 8))        # f1, O-O to i1, the rook h1
    ('white', 'king', 5, 8, 9, 7)
    """
    if king_files is None and shape.width == 8 and shape.height == 8:
        return CASTLING_SQUARES[letter]
    colour, side = _LETTER_SIDE[letter]
    width = shape.width
    king_side, queen_side = king_files if king_files is not None else (width - 2, 2)
    first = 0 if colour == "white" else width * (shape.height - 1)
    if side == "king":
        kt = first + king_side
        return colour, side, king_sq, kt, first + width - 1, kt - 1
    kt = first + queen_side
    return colour, side, king_sq, kt, first, kt + 1


SIDE_LETTER = {("white", "king"): "K", ("white", "queen"): "Q",
               ("black", "king"): "k", ("black", "queen"): "q"}


@dataclass(frozen=True)
class Outcome:
    """How a game ended: ``winner`` is 'white', 'black' or None (a draw)."""

    winner: str | None
    reason: str
    rule: str | None = None

    def result(self) -> str:
        scores: dict[str | None, str] = {"white": "1-0", "black": "0-1"}
        return scores.get(self.winner, "1/2-1/2")

    @classmethod
    def from_fact(cls, fact) -> "Outcome":
        """The outcome a ``result`` fact records (its rule: the production
        that asserted it, if one did)."""
        v = fact.values
        w = v["winner"]
        origin = fact.origin[0] if fact.origin else None
        return cls(None if w in ("draw", None) else w, v["reason"], origin)


def _uci_of(move, shape=STANDARD) -> str:
    """A :class:`Move`'s UCI, or UCI text normalised (MoveParseError if it is
    neither), on the board ``shape``."""
    if isinstance(move, Move):
        try:
            return move.uci() if shape is STANDARD else move.name_on(shape.square_names)
        except (IndexError, KeyError, TypeError):
            raise MoveParseError(f"Move({move.frm!r}, {move.to!r}, {move.promo!r})",
                                 "its squares or promotion are not on the board") from None
    if not isinstance(move, str):
        raise MoveParseError(move, "expected a UCI string or a Move")
    return normalize_uci(move, shape=shape)


class Game:
    """A game of chess (or of a variant) whose rules run on the Rete engine.

    Making one: ``Game(fen, ruleset=, presets=, config=)``, ``from_fen``,
    ``from_pgn``, ``from_variant``, ``copy``. Position: ``fen()``, ``board_fen()``, ``turn``,
    ``piece_at``, ``pieces``, ``castling_rights``, ``ep_squares``,
    ``parse_position``, ``str(game)``, ``halfmove_clock``, ``fullmove_number``,
    ``half_moves_in_turn``, ``starting_fen``. Moves: ``legal_moves``,
    ``legal_uci``, ``is_legal``, ``push``, ``push_san``, ``pop``, ``move_stack``,
    ``movers``, ``san``, ``parse_san``, ``pgn``. Verdicts: ``is_check``,
    ``is_checkmate``, ``is_stalemate``, ``outcome``, ``outcome_if_decided``,
    ``is_game_over``, ``repetitions``. The engine's word: ``explain``, ``rules``,
    ``perft``, ``perft_divide``.

    A class that plays a variant overrides the hooks ``refuses_ruleset``,
    ``illegal_move_error``, ``nothing_to_take_back_error`` and
    ``tracks_repetitions``, and works on the session through ``request``,
    ``guarded``, ``generate_moves`` and ``reload`` (docs/architecture.md).

    As python-chess's ``Board``, a game is not thread-safe: use one game from
    one thread at a time (separate games, on as many threads as you like, share
    nothing that changes). A rule's action must not call back into its own game
    to move or generate moves (:class:`ReentrantCallError`); it reads the
    position through ``ctx.session.chess``. An operation that raises leaves the
    game as it was before it; one interrupted (Ctrl-C) leaves it as before it or,
    if the interrupt came once its change was made, as after it (a walk of the
    tree, ``perft`` or ``san``, takes back its moves), never in between.
    """

    #: whether positions are remembered for the repetition rules (a variant
    #: without them, such as Dice Chess, sets it False: no key is kept)
    tracks_repetitions = True

    def __init__(self, fen: str | None = None, ruleset: RuleSet | None = None,
                 presets=(), config=None, position=None):
        ruleset = checked_ruleset(ruleset, presets_kw=True)
        if ruleset is None:
            ruleset = _default_ruleset(presets, config)
        elif presets or config:
            raise ChessError("give presets (and their config) or a ruleset, not both: load "
                             "the presets onto it with presets.load(..., base=ruleset)")
        refusal = self.refuses_ruleset(ruleset)
        if refusal:
            raise ArgumentError(refusal)
        # the game's own copy: a rule set edited after the game was made changes
        # neither the compiled game nor what it says about itself (rules, pgn, copy)
        ruleset = ruleset.copy()
        activate_pieces(ruleset)
        self.ruleset = ruleset
        self.session = ruleset.build()
        self._gen_stages, self._push_stages = move_stages(self.session.stages, ruleset.config)
        #: the most firings one run of the rules may take: a rule that keeps
        #: matching what it changes raises RunawayError instead of hanging
        cap = ruleset.config.get("max-firings", MAX_FIRINGS)
        if not isinstance(cap, int) or isinstance(cap, bool) or cap < 1:
            raise ArgumentError(f"config['max-firings'] is a whole number of firings, at "
                                f"least 1, not {cap!r}")
        self.max_firings = cap
        self.state = ChessState(self.session, ruleset)
        self.state.game = self
        self._stack: list[tuple[int, Move, str]] = []
        # position keys, None where one is yet to be worked out (_push_key)
        self._history: list[tuple | None] = []
        self._ep_pending = False
        self._legal_cache: list[Move] | None = None
        # the legal moves of the position before each move on the stack (None
        # where they were not asked): pop puts them back, so a search that
        # makes and takes back move after move generates each position's once
        self._legal_before: list[list[Move] | None] = []
        self._start_fen: str | None = None
        # a rule set whose positions carry state beyond FEN's six fields (a
        # preset's hit points, has-moved pawns, half-moves...) repeats a position
        # only when that state repeats too; so does one with rules of a user's
        # own (a pawn of theirs that steps back home has lost its double step)
        from .position import BASE_PIECE_SLOTS
        self._extended_key = bool(
            ruleset.presets or ruleset.config.get("position-tokens")
            or any(sl not in BASE_PIECE_SLOTS for sl in ruleset.templates["piece"].slots)
            or any(o != "fide" for o in ruleset.origin.values()))
        # facts of templates a rule set declares (a rule file's checks-given
        # counter) are part of the position: two positions that differ in them
        # are not a repetition. Those a position token writes already
        # (config['keyed-templates']: the modifiers', the dice) count through it.
        known = {t.name for t in TEMPLATES} | set(ruleset.config.get("keyed-templates", ()))
        self._own_templates = tuple(sorted(t for t in ruleset.templates if t not in known))
        if position is None:
            position = self.parse_position(start_fen(ruleset) if fen is None else fen)
        self._load(position)

    # ------------------------------------------------------------ construction

    @classmethod
    def from_fen(cls, fen: str, presets=(), config=None, ruleset: RuleSet | None = None) -> "Game":
        """A game from a FEN (or extended position) under FIDE plus ``presets``."""
        return cls(fen, ruleset=ruleset, presets=presets, config=config)

    @classmethod
    def from_variant(cls, name: str, ini: str | None = None, fen: str | None = None,
                     source: str = "<variants.ini>") -> "Game":
        """A game of the variant ``name``: a section of Fairy-Stockfish
        variants.ini text ``ini``, or of houserules' built-in catalogue
        (``chess_rules.variants``), from its start or ``fen``.

        >>> Game.from_variant("kingofthehill").legal_uci()[:2]
        ['a2a3', 'a2a4']
        """
        from .variants import load_variant
        return cls(fen, ruleset=load_variant(name, ini, source))

    @classmethod
    def from_pgn(cls, text: str, presets=None, ruleset: RuleSet | None = None, config=None,
                 source: str | None = None) -> "Game":
        """The game a PGN text records, its moves played through the rules.

        The text holds one game (:func:`chess_rules.pgn.read_games` reads a file
        of several). It starts from the ``FEN`` tag, else from the rule set's
        start; the rules are ``ruleset``, or FIDE plus ``presets``, or, when
        neither is given, the presets the ``Variant`` tag names (as :meth:`pgn`
        writes it), configured by ``config`` or else by the ``VariantConfig`` tag. Text that is not PGN raises
        :class:`~chess_rules.errors.PgnSyntaxError`, a move the rules refuse
        :class:`~chess_rules.errors.PgnMoveError` (an IllegalMoveError), each
        with its line and column (``source``, a file name, goes in front).

        >>> g = Game.from_pgn('[Variant "double-move"]\\n\\n1. e4 d4 1... e5 d5 *')
        >>> g.ruleset.presets, [m.uci() for m in g.move_stack]
        (['double-move'], ['e2e4', 'd2d4', 'e7e5', 'd7d5'])
        >>> Game.from_pgn("1. e4 e5 2. Ke3 *")
        Traceback (most recent call last):
        ...
        chess_rules.errors.PgnMoveError: 1:13: move 2. Ke3 (e1e3): no rule moves the king on e1 to e3 ...
        """
        from .errors import PgnError, source_name
        from .pgn import read_games
        from .replay import play
        source = source_name(source)
        games = read_games(text, source)
        if len(games) != 1:
            line, column = (games[1].line, games[1].column) if games else (1, 1)
            raise PgnError(f"the text holds {len(games) or 'no'} game"
                           f"{'s' if len(games) > 1 else ''}; Game.from_pgn reads one "
                           f"(chess_rules.pgn.read_games reads them all)", line, column, source)
        return play(games[0], presets=presets, ruleset=ruleset, config=config, game_class=cls)

    def parse_position(self, text: str) -> FenPosition:
        """Parse a FEN (extended forms are handled by :mod:`chess_rules.position`)."""
        from .position import parse_position
        return parse_position(text, self.ruleset)

    # ------------------------------------------------------------ hooks for variants
    # (a class of Game that plays a variant overrides these: DiceGame does)

    @classmethod
    def refuses_ruleset(cls, ruleset: RuleSet) -> str | None:
        """Why this class does not play ``ruleset``, or None when it does. A rule
        set that must be played by a class of its own names it in
        ``config['played-with']`` (Dice Chess: ``dice.DiceGame``, whose
        positions carry dice); such a class overrides this hook to take it."""
        played_with = ruleset.config.get("played-with")
        if played_with:
            return f"this rule set is played with {played_with}"
        return None

    def illegal_move_error(self, uci: str, reason: str, rule: str | None) -> ChessError:
        """The error :meth:`push` raises for ``uci``, a move that is not legal
        (``reason`` and ``rule`` as :meth:`explain` gives them)."""
        return IllegalMoveError(uci, reason, rule)

    def nothing_to_take_back_error(self) -> ChessError:
        """The error :meth:`pop` raises when no move is left to take back."""
        return ChessError("no move to take back")

    # ------------------------------------------------------------ operations for variants

    @contextmanager
    def request(self, template: str, journaled: bool = False, **values):
        """A ``template`` fact with ``values`` asserted for the rules to run on
        (inside the ``with``), retracted afterwards. The run is kept out of the
        journal, unless ``journaled``: then what it changes in the position
        (Dice Chess's roll and end of turn) is taken back with the move before
        it, and the legal moves are worked out again."""
        with self._request(template, journaled, **values) as f:
            yield f
        if journaled:
            self._legal_cache = None

    @contextmanager
    def guarded(self):
        """Run an operation on the session: an error is raised as :meth:`push`
        raises one (an interrupt that struck half-way rebuilds the game from
        its start and its moves, so that it is never left in between)."""
        try:
            yield
        except BaseException as e:
            raise self._failed(e)

    def generate_moves(self) -> dict[str, Move]:
        """The moves the rules generate now, by UCI, worked out afresh (after
        facts asserted into the session directly, which the cache of
        :meth:`legal_moves` does not see)."""
        return self._generate()

    def reload(self, position) -> None:
        """Set up another position (text for :meth:`parse_position`, or what it
        returns) on this game's session, keeping its compiled network.

        Every fact goes and the position is loaded as at construction, without
        compiling the rule set again. A bad position raises before anything
        changes, and one the rule set's setup refuses leaves the game as it
        was. Refused while a move is on the stack (the game would lose its
        history)."""
        pos = self.parse_position(position) if isinstance(position, str) else position
        s = self.session
        if s.firing:
            raise ReentrantCallError("reload")
        if self._stack or s.open_checkpoints:
            raise ChessError("reload() needs a game with no move to take back")
        # all or nothing: a position the rule set's setup refuses (its rules
        # break the game fact, say) leaves the old one standing
        old = self._start_fen, self._history, self._legal_cache
        try:
            with s.transaction():
                for f in list(s.facts.values()):
                    if f.alive:
                        s.retract(f)
                self._load(pos)
            self._ep_pending = False
            self._legal_cache = None
        except BaseException as e:
            # (_load set the new start position before it was done: the old
            # game's, for the session rolled back or rebuilt from it)
            self._start_fen, self._history, self._legal_cache = old
            raise self._failed(e)

    def _load(self, pos) -> None:
        s = self.session
        rs = self.ruleset
        for color in ("white", "black"):
            for t in rs.royal_types.get(color, ()):
                s.assert_fact("royal", type=t, color=color)
        shape = rs.shape
        if getattr(pos, "shape", STANDARD) is not shape:
            raise FenError("placement", f"the position is of a {pos.shape}, and the rules "
                                        f"play on a {shape}")
        is_home = home_rank_test(shape)
        moved_overrides = getattr(pos, "moved", None) or {}
        attrs = getattr(pos, "attrs", None) or {}
        for sq, (ptype, color) in sorted(pos.placement.items()):
            moved = False
            if ptype == "pawn":
                moved = not is_home(sq, color)
            moved = moved_overrides.get(sq, moved)
            vals = {"type": ptype, "color": color, "square": sq, "moved": moved}
            for slot, fn in rs.config.get("slot-defaults", {}).items():
                vals[slot] = fn(ptype, color)
            vals.update(attrs.get(sq, {}))
            s.assert_fact("piece", vals)
        s.assert_fact("game", turn=pos.turn, halfmove=pos.halfmove, fullmove=pos.fullmove,
                      half=getattr(pos, "half", 0))
        king_files = rs.config.get("castling-king-files")
        for letter in sorted(pos.castling, key="KQkq".index):
            color, side, kf, kt, rf, rt = castling_squares(
                letter, _king_on_first_rank(pos, letter), shape, king_files)
            s.assert_fact("castling", {"color": color, "side": side, "king-from": kf,
                                       "king-to": kt, "rook-from": rf, "rook-to": rt})
        ep_pawns = getattr(pos, "ep_pawns", None) or {}
        for ep in pos.ep_squares:
            pawn_sq = ep_pawns.get(ep)
            if pawn_sq is None:   # FIDE: the pawn stands beyond its target
                from .position import ep_pawn_default
                pawn_sq = ep_pawn_default(rs, self.state, ep)
            by = self.state.colors[pawn_sq] or opposite(pos.turn)
            s.assert_fact("ep", square=ep, pawn=pawn_sq, by=by)
        for hook in rs.setup_hooks:
            hook(self, pos)
        s.run(max_firings=self.max_firings)
        self._check_game_fact()
        self._start_fen = self.fen()
        self._history = []
        if self.tracks_repetitions:
            self._push_key()

    # ------------------------------------------------------------ reading the position

    @property
    def turn(self) -> str:
        return self._game_fact().values["turn"]

    @property
    def halfmove_clock(self) -> int:
        """Half-moves since the last capture or pawn move (the fifty-move rule's count)."""
        return self._game_fact().values["halfmove"]

    @property
    def fullmove_number(self) -> int:
        """The number of the full move, 1 at the start, counted up after Black's turn."""
        return self._game_fact().values["fullmove"]

    @property
    def half_moves_in_turn(self) -> int:
        """How many half-moves the side to move has made in its turn (0 at its
        start; more under a preset of several moves a turn, such as double-move)."""
        return self._game_fact().values.get("half", 0) or 0

    @property
    def starting_fen(self) -> str:
        """The position the game started from (before the moves of :attr:`move_stack`)."""
        assert self._start_fen is not None     # (set as the game is made)
        return self._start_fen

    def _game_fact(self):
        games = self.session.by_template.get("game")
        if not games:
            raise ChessError("the rules took the game fact (turn, clocks) away: a position "
                             "has exactly one")
        return next(iter(games.values()))

    def _check_game_fact(self) -> None:
        """After the rules ran: exactly one game fact (a rule that retracts it, or
        asserts another, breaks every position; the run is refused)."""
        n = len(self.session.by_template.get("game") or ())
        if n != 1:
            raise ChessError(f"the rules left {n} game facts (turn, clocks): a position has "
                             f"exactly one")

    def piece_at(self, square: int | str):
        """The piece fact on a square (name or index), or None."""
        sq = _square(square, self.ruleset.shape)
        return self.state.facts[sq]

    def pieces(self) -> list:
        return sorted(self.session.facts_of("piece"), key=lambda f: f.values["square"])

    def castling_rights(self) -> str:
        letters = {SIDE_LETTER[(f.values["color"], f.values["side"])]
                   for f in self.session.facts_of("castling")}
        return "".join(c for c in "KQkq" if c in letters) or "-"

    def ep_squares(self) -> list[int]:
        return sorted(f.values["square"] for f in self.session.facts_of("ep"))

    def __str__(self) -> str:
        """The board as python-chess prints it: rank 8 first, ``.`` for an empty square.

        >>> print(Game("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"))
        . . . . k . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . P . . .
        . . . . K . . .
        """
        types, colors = self.state.types, self.state.colors
        width, height = self.ruleset.shape.width, self.ruleset.shape.height
        rows = []
        for rank in range(height - 1, -1, -1):
            cells = []
            for sq in range(rank * width, rank * width + width):
                t = types[sq]
                letter = "." if t is None else PIECE_LETTER[t]
                cells.append(letter if colors[sq] != "black" else letter.lower())
            rows.append(" ".join(cells))
        return "\n".join(rows)

    def __repr__(self) -> str:
        presets = f", presets={list(self.ruleset.presets)!r}" if self.ruleset.presets else ""
        return f"{type(self).__name__}({self.fen()!r}{presets})"

    def board_fen(self) -> str:
        rows = []
        types, colors = self.state.types, self.state.colors
        width, height = self.ruleset.shape.width, self.ruleset.shape.height
        for rank in range(height - 1, -1, -1):
            row, empty = "", 0
            for f in range(width):
                sq = rank * width + f
                if types[sq] is None:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                letter = PIECE_LETTER[types[sq]]
                row += letter if colors[sq] == "white" else letter.lower()
            if empty:
                row += str(empty)
            rows.append(row)
        return "/".join(rows)

    def fen(self, en_passant: str | None = None) -> str:
        """The position as FEN. ``en_passant='legal'`` (as python-chess) shows a
        target only when an en-passant capture is legal; ``'all'`` shows every target.
        The default is the rule set's ``config['fen-ep']`` ('legal' unless a rule set
        such as a multi-move turn needs every target kept)."""
        if en_passant is None:
            en_passant = self.ruleset.config.get("fen-ep", "legal")
        if en_passant not in ("legal", "all"):
            raise ArgumentError(f"en_passant is 'legal' or 'all', not {en_passant!r}")
        g = self._game_fact().values
        eps = self.ep_squares()
        if eps and en_passant == "legal":
            legal_targets = {m.to for m in self._legal() if m.kind == "en-passant"}
            eps = [e for e in eps if e in legal_targets]
        ep = "".join(self.state.names[e] for e in eps) or "-"
        base = f"{self.board_fen()} {'w' if g['turn'] == 'white' else 'b'} " \
               f"{self.castling_rights()} {ep} {g['halfmove']} {g['fullmove']}"
        from .position import extended_suffix
        return base + extended_suffix(self, eps)

    def is_check(self) -> bool:
        turn = self.turn
        return any(f.values["color"] == turn for f in self.session.facts_of("check"))

    # ------------------------------------------------------------ moves

    @contextmanager
    def _request(self, template: str, journaled: bool = False, **values):
        """Assert a request fact for one run; it is gone afterwards. The run is
        kept out of the journal, unless ``journaled``: then what it changes (Dice
        Chess's roll and end of turn) is taken back with the move before it."""
        s = self.session
        with (nullcontext() if journaled else s.unjournaled()):
            f = s.assert_fact(template, values)
            try:
                yield f
            finally:
                if f.alive:
                    s.retract(f)

    def _generate(self) -> dict[str, Move]:
        if self.session.firing:
            raise ReentrantCallError("legal_moves")
        st = self.state
        st.candidates = {}
        st.alternates = False
        # what _request does, spelt out: this runs at every node of a tree or
        # perft, where the generator-based context manager cost 3.5% of a Dice
        # Chess tree's instructions
        s = self.session
        j = s.pause_journal()
        f = None
        try:
            f = s.assert_fact("movegen", {"color": self.turn})
            s.run(stages=self._gen_stages, max_firings=self.max_firings)
        finally:
            try:
                if f is not None and f.alive:
                    s.retract(f)
            finally:
                s.resume_journal(j)
        cands = st.settle()
        st.candidates = {}
        return cands

    def legal_moves(self) -> list[Move]:
        """The legal moves, sorted by UCI (a new list: changing it changes nothing)."""
        return list(self._legal())

    def _legal(self) -> list[Move]:
        """The legal moves as the game keeps them (not to be changed)."""
        if self._legal_cache is None:
            try:
                self._key_now()         # (of the position the rules are asked about)
                cands = self._generate()
                self._legal_cache = [cands[u] for u in sorted(cands)]
                if self._ep_pending:
                    self._resolve_ep()
            except BaseException as e:
                raise self._failed(e)
        return self._legal_cache

    def legal_uci(self) -> list[str]:
        return [m.uci() for m in self._legal()]

    def _find(self, move) -> Move:
        legal = self._legal()
        if move.__class__ is Move:
            for m in legal:
                if m is move:       # (one of legal_moves(): a tree walk's, at each node)
                    return m
        u = _uci_of(move, self.ruleset.shape)
        for m in legal:
            if m.uci() == u:
                return m
        ex = self.explain(u)
        raise self.illegal_move_error(u, ex.reason, ex.rule)

    def push(self, move) -> Move:
        """Play a move (UCI text or :class:`Move`). An illegal move raises
        :class:`IllegalMoveError` saying why, and the game is unchanged."""
        if self.session.firing:
            raise ReentrantCallError("push")
        m = self._find(move)
        self._play(m)
        return m

    def _play(self, m: Move) -> None:
        try:
            if self.tracks_repetitions:
                self._resolve_ep()      # (the key of the position the move leaves)
                self._make(m)
                self._push_key()
            else:
                self._make(m)
        except BaseException as e:
            raise self._failed(e)

    def _make(self, m: Move) -> None:
        """Play ``m`` through the move stages and stack it for :meth:`pop`
        (everything a move does, but the repetition key)."""
        s = self.session
        if s.firing:
            raise ReentrantCallError("push")
        # (the old position's moves: gone before the move's rules run, so that
        # none of them is read as the new position's)
        before = self._legal_cache
        self._legal_cache = None
        mark = s.checkpoint()
        color = self.turn
        try:
            f = s.assert_fact("move", m.event(color))
            self._run_move_stages()
            if len(s.by_template.get("game") or ()) != 1:
                self._check_game_fact()
            if f.alive:
                # the event fact came after the checkpoint, so rollback need not see
                # it go: keeping its retraction out of the journal spares pop()
                # putting it back into the network only to take it out again
                with s.unjournaled():
                    s.retract(f)
        except BaseException:
            s.rollback(mark)
            self._legal_cache = None
            raise
        self._stack.append((mark, m, color))
        self._legal_before.append(before)
        self._legal_cache = None

    def _run_move_stages(self) -> None:
        """Run apply .. result on the ``move`` event in working memory; the
        modifiers' dispatch stages, when attached, are a run of their own after
        turn-end and before result."""
        s = self.session
        extra = self.ruleset.config.get("extra-push-stages")
        if extra:
            s.run(stages=self._push_stages[:-1], max_firings=self.max_firings)
            s.run(stages=extra, max_firings=self.max_firings)
            s.run(stages=self._push_stages[-1:], max_firings=self.max_firings)
        else:
            s.run(stages=self._push_stages, max_firings=self.max_firings)

    def push_san(self, san: str) -> Move:
        return self.push(self.parse_san(san))

    def pop(self) -> Move:
        """Take back the last move."""
        if not self._stack:
            raise self.nothing_to_take_back_error()
        if self.session.firing:
            raise ReentrantCallError("pop")
        try:
            mark, m, _ = self._stack.pop()
            before = self._legal_before.pop() if self._legal_before else None
            self._legal_cache = None
            self.session.rollback(mark)
            if self._history:             # (Dice Chess keeps no repetition history)
                self._history.pop()
            self._ep_pending = False      # the entry below was settled before this move
            self._legal_cache = before
        except BaseException as e:
            raise self._failed(e)
        return m

    def _failed(self, e: BaseException) -> BaseException:
        """An operation on the session raised ``e``: the exception to raise.

        An error raised where the engine looks for one (a rule's action or test,
        the chess layer's checks: a ReteError or ChessError) has been undone by
        the engine. Any other (Ctrl-C, a signal handler's exception, no memory)
        may have struck between two steps of a change, where no undo can be
        trusted: the session is rebuilt from the start position and the moves on
        the stack (once per exception), and the interrupt is what is raised, not
        what a broken undo raised after it."""
        if getattr(e, "_houserules_rebuilt", None) is self:
            return e
        cause = _interrupt_in(e)
        if cause is None and isinstance(e, (ReteError, ChessError)):
            return e
        self._rebuild()
        # (a broken undo's error, or the engine's error wrapping it: the
        # interrupt came first)
        first = cause if cause is not None and not isinstance(cause, Exception) else e
        for x in {id(e): e, id(first): first}.values():
            try:
                # a mark on whatever exception came (the except: one that takes
                # no attributes)
                x._houserules_rebuilt = self        # type: ignore[attr-defined]
            except AttributeError:
                pass
        return first if not isinstance(first, Exception) else e

    def _rebuild(self) -> None:
        """Replace the session by a new one: the start position, the moves on the
        stack played again (what :meth:`copy` does, into this game)."""
        g = self.copy()
        g.state.game = self
        self.__dict__.update(g.__dict__)

    @property
    def move_stack(self) -> list[Move]:
        return [m for _, m, _ in self._stack]

    def movers(self) -> list[str]:
        """The colour that played each move of :attr:`move_stack`, in order."""
        return [color for _, _, color in self._stack]

    # ------------------------------------------------------------ results

    def outcome(self) -> Outcome | None:
        """The result if the game is over: checkmate, stalemate, draws, or a preset's end rule."""
        s = self.session
        done = s.facts_of("result")
        if done:
            return _outcome(done[0])
        n = len(self._legal())
        if s.firing:
            raise ReentrantCallError("outcome")
        try:
            with self._request("status", color=self.turn, moves=n, check=self.is_check()):
                s.run(stages=("result",), max_firings=self.max_firings)
                res = s.facts_of("result")
                out = _outcome(res[0]) if res else None
        except BaseException as e:
            raise self._failed(e)
        return out

    def is_game_over(self) -> bool:
        return self.outcome() is not None

    def is_checkmate(self) -> bool:
        """In check with no legal move, in a game no rule has decided yet (a preset's
        event, such as a king captured). What it scores is :meth:`outcome`'s word."""
        return not self.session.facts_of("result") and self.is_check() and \
            not self._legal()

    def is_stalemate(self) -> bool:
        """Not in check with no legal move, in a game no rule has decided yet
        (a draw under FIDE; :meth:`outcome` says what the rule set makes of it)."""
        return not self.session.facts_of("result") and not self.is_check() and \
            not self._legal()

    def is_legal(self, move) -> bool:
        """Whether ``move`` (UCI text or :class:`Move`) is legal now; text that is
        not UCI is not a legal move."""
        try:
            u = _uci_of(move, self.ruleset.shape)
        except MoveParseError:
            return False
        return any(m.uci() == u for m in self._legal())

    def copy(self) -> "Game":
        """An independent game: the same rules and start, the moves played again
        (so ``pop``, repetition and PGN work on the copy as on the original)."""
        g = type(self)(self._start_fen, ruleset=self.ruleset)
        g.max_firings = self.max_firings
        for m in self.move_stack:
            g._play(g._find(m.uci()))
        return g

    def __copy__(self):
        # the default shallow copy would share the session: the two would move as one
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __reduce_ex__(self, protocol):
        # pickle's own error would name a lambda deep in the compiled rules
        raise NotPicklableError(
            f"a {type(self).__name__} does not pickle: its compiled rules hold Python "
            f"functions; send the position (fen(), or pgn() for the game with its moves) "
            f"and the rules' preset ids (ruleset.presets), and make the game again")

    def repetitions(self) -> int:
        """How many times the current position has occurred (this time included).
        A class that keeps no record (``tracks_repetitions`` False) refuses."""
        if not self.tracks_repetitions:
            raise ChessError(f"a {type(self).__name__} keeps no record of positions "
                             f"(tracks_repetitions is False)")
        self._resolve_ep()      # (and the key worked out)
        cur = self._history[-1]
        return sum(1 for k in self._history if k == cur)

    def _push_key(self) -> None:
        """Record the position for repetition, its key worked out later
        (:meth:`_key_now`): before the next move, when the legal moves are
        generated, when repetitions are asked. The position cannot change
        before then (a move, pop, or the rules run on a request are the only
        changes, and each asks for the key first or drops it), and a leaf that is
        only made and unmade - most of perft's nodes - never pays for it. An
        en-passant target counts only if the capture is legal (a pinned pawn's is
        not; FIDE 9.2.3, as python-chess): that needs the legal moves, so it is
        settled lazily too (:meth:`_resolve_ep`)."""
        self._history.append(None)
        self._ep_pending = False

    def _key_now(self) -> None:
        """Work out the key :meth:`_push_key` left for later, if it did."""
        h = self._history
        if h and h[-1] is None:
            key = self._position_key()
            h[-1] = key
            self._ep_pending = bool(key[4])

    def _resolve_ep(self) -> None:
        self._key_now()
        if not self._ep_pending:
            return
        self._ep_pending = False
        if not self._history:
            return
        key = self._history[-1]
        assert key is not None      # (_key_now worked it out)
        legal = {m.to for m in self._legal() if m.kind == "en-passant"}
        self._history[-1] = key[:4] + (tuple(e for e in key[4] if e in legal),) + key[5:]

    def _position_key(self) -> tuple:
        st = self.state
        bt = self.session.by_template
        g = self._game_fact().values
        turn = g["turn"]
        eps = []
        ep_facts = bt.get("ep")
        if ep_facts:
            types, colors = st.types, st.colors
            for e in sorted(f.values["square"] for f in ep_facts.values()):
                if not st.fide_pawns:
                    eps.append(e)       # other pawns: _resolve_ep asks the legal moves
                    continue
                for a in st.topology.pawn_attackers[turn][e]:
                    if types[a] == "pawn" and colors[a] == turn:
                        eps.append(e)
                        break
        rights: dict[int, Fact] | frozenset | None
        rights = bt.get("castling")
        rights = frozenset([(f.values["color"], f.values["side"]) for f in rights.values()]) \
            if rights else frozenset()
        key: tuple
        key = (tuple(st.types), tuple(st.colors), turn, rights, tuple(eps), g.get("half", 0))
        if self._extended_key:
            # what the extended FEN writes (less en-passant pawns: the targets
            # above already count only where a capture is possible)
            from .position import extended_suffix
            key += (extended_suffix(self, ()),)
        if self._own_templates:
            key += (tuple(sorted(repr((t, sorted(f.values.items(), key=lambda kv: kv[0])))
                                 for t in self._own_templates
                                 for f in bt.get(t, _NO_FACTS).values())),)
        return key

    # ------------------------------------------------------------ perft

    def perft(self, depth: int, bulk: bool = True) -> int:
        """Count the leaf nodes of the legal move tree to ``depth`` (at most
        :data:`MAX_PERFT_DEPTH`, 100: deeper is an ArgumentError).

        With ``bulk`` the last ply counts the legal moves instead of playing them;
        ``bulk=False`` makes and unmakes every move (what the benchmark measures).
        A count that fails or is interrupted (a rule that raises, Ctrl-C) takes
        back the moves it made: the game is left where it was.
        """
        if not isinstance(depth, int) or isinstance(depth, bool):
            raise ArgumentError(f"depth is a whole number, not {depth!r}")
        _check_perft_depth(depth)
        base = len(self._stack)
        try:
            return self._perft(depth, bulk)
        except BaseException:
            self._unwind(base)
            raise

    def _perft(self, depth: int, bulk: bool) -> int:
        if depth <= 0:
            return 1
        moves = self._legal()
        if depth == 1 and bulk:
            return len(moves)
        n = 0
        for m in list(moves):
            self._play(m)
            n += self._perft(depth - 1, bulk)
            self.pop()
        return n

    def _unwind(self, depth: int) -> None:
        """Take back the moves a walk of the tree left on the stack above ``depth``
        (one that failed half-way: perft, san)."""
        while len(self._stack) > depth:
            self.pop()

    def perft_divide(self, depth: int, on_move=None) -> dict[str, int]:
        """Perft per root move: uci -> leaf count at ``depth`` (``depth`` >= 1).

        ``on_move(uci, count)``, if given, is called as each root move is done
        (the CLI's progress display)."""
        if not isinstance(depth, int) or isinstance(depth, bool) or depth < 1:
            raise ArgumentError(f"depth is a whole number of at least 1, not {depth!r}")
        _check_perft_depth(depth)
        out = {}
        base = len(self._stack)
        try:
            for m in list(self._legal()):
                self._play(m)
                n = self._perft(depth - 1, True)
                self.pop()
                out[m.uci()] = n
                if on_move is not None:
                    on_move(m.uci(), n)
        except BaseException:
            self._unwind(base)
            raise
        return out

    # ------------------------------------------------------------ explanations

    def explain(self, move) -> Explanation:
        """Which production generated a legal move, or which refused it and why
        (see :mod:`chess_rules.explain`)."""
        try:
            return explain_move(self, move)
        except BaseException as e:
            raise self._failed(e)

    def outcome_if_decided(self) -> Outcome | None:
        """The result a rule asserted as a move was played or the position loaded
        (a preset's win such as capture-to-win's), or None. Unlike :meth:`outcome`
        it runs no rule, so it does not see what the status rules judge when
        asked (under FIDE: checkmate, stalemate and the draws).

        >>> g = Game("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
        >>> _ = g.push("a1a8")
        >>> g.outcome_if_decided(), g.outcome().reason
        (None, 'checkmate')
        """
        res = self.session.facts_of("result")
        return _outcome(res[0]) if res else None

    # ------------------------------------------------------------ notation

    def _infos(self) -> list[MoveInfo]:
        return [MoveInfo(m.frm, m.to, m.promo, m.piece, m.victim is not None,
                         m.kind == "castle") for m in self._legal()]

    def san(self, move) -> str:
        m = self._find(move)
        base = len(self._stack)
        try:
            self._play(m)
            check = self.is_check()
            # '#' is checkmate only: not a game a rule decided otherwise (a first
            # capture, a winning promotion) with the opponent left in check
            mate = self.is_checkmate()
        finally:
            self._unwind(base)
        info = MoveInfo(m.frm, m.to, m.promo, m.piece, m.victim is not None,
                        m.kind == "castle", check, mate)
        return move_to_san(info, self._infos(), shape=self.ruleset.shape)

    def parse_san(self, san: str) -> Move:
        shape = self.ruleset.shape
        info = parse_san(san, self._infos(), shape=shape)
        if shape is STANDARD:
            return self._find(info.uci)
        return self._find(format_uci(info.from_sq, info.to_sq, info.promotion, shape=shape))

    def pgn(self, headers: dict | None = None) -> str:
        """The game as PGN (see :func:`chess_rules.notation.game_to_pgn`).

        Move numbers follow the real turns: under multi-move presets
        (``double-move``, ``monster-rules``) the half-moves of one side's turn are
        written together after one number (``1. e4 d4 1... e5 d5``); standard
        chess reads as usual (``1. e4 e5 2. Nf3``). Under presets a ``Variant``
        tag names them (``[Variant "piece-hp, king-heals"]``), unless
        ``headers`` gives one, and a ``VariantConfig`` tag their settings that
        differ from the defaults (``[VariantConfig "monster-rules.scope=black"]``,
        the ``--config`` syntax), so that the game reads back under the same rules.
        """
        if headers is not None:
            check_tags(headers)
        moves = self.move_stack
        replay = Game(self._start_fen, ruleset=self.ruleset)
        sans, movers = [], []
        for m in moves:
            movers.append(replay.turn)
            sans.append(replay.san(m.uci()))
            replay._play(replay._find(m.uci()))
        out = self.outcome()
        result = out.result() if out else "*"
        # no FEN tag means the standard start to every reader (python-chess's,
        # and ours, which starts a rule set of its own start-fen there)
        standard = self._start_fen == STARTING_FEN and start_fen(self.ruleset) == STARTING_FEN
        start = None if standard else self._start_fen
        tags = dict(headers or {})
        variant = self.ruleset.config.get("catalogue-variant")
        if variant and not self.ruleset.presets and "Variant" not in tags:
            tags["Variant"] = variant       # (a catalogue variant: from_pgn reads it back)
        if self.ruleset.presets and "Variant" not in tags:
            tags["Variant"] = ", ".join(self.ruleset.presets)
            # settings other than the defaults: without them the moves would be
            # read back under other rules (monster-rules' scope)
            from .rule_source import rule_source
            settings = rule_source().config_text(self.ruleset)
            if settings:
                tags.setdefault("VariantConfig", settings)
        return game_to_pgn(tags, sans, result, start, movers)

    # ------------------------------------------------------------ rules

    def rules(self) -> list[dict]:
        """The active productions with stage, salience and source."""
        return self.ruleset.describe()


def _check_perft_depth(depth: int) -> None:
    if depth > MAX_PERFT_DEPTH:
        raise ArgumentError(f"depth {depth} is more than this perft counts "
                            f"(at most {MAX_PERFT_DEPTH})")


def _interrupt_in(e: BaseException) -> BaseException | None:
    """The interrupt (Ctrl-C, a signal handler's exception, no memory) that ``e``
    is or came from, following its causes and contexts: a KeyboardInterrupt
    between two steps of a change can make the undo raise a KeyError, which a
    rule's action reports as an ActionError. None when there is none."""
    seen = set()
    x: BaseException | None = e
    while x is not None and id(x) not in seen:
        if not isinstance(x, Exception) or isinstance(x, _ASYNC):
            return x
        seen.add(id(x))
        x = x.__cause__ if x.__cause__ is not None else x.__context__
    return None


def start_fen(ruleset) -> str:
    """Where a game under ``ruleset`` starts when no position is given: the rule
    set's own ``config['start-fen']`` (a variant with a layout of its own:
    Horde, Racing Kings), else the standard position (a rule set on another
    board than 8x8 has none: ArgumentError)."""
    fen = ruleset.config.get("start-fen") if ruleset is not None else None
    if not fen and ruleset is not None and ruleset.shape is not STANDARD:
        raise ArgumentError(f"a rule set on a {ruleset.shape} has no start position of its "
                            f"own: give a FEN (or config['start-fen'])")
    return fen or STARTING_FEN


def _outcome(fact) -> Outcome:
    return Outcome.from_fact(fact)


def _square(square, shape=STANDARD) -> int:
    last = len(shape.squares) - 1
    if isinstance(square, int) and not isinstance(square, bool):
        if not 0 <= square <= last:
            raise ArgumentError(f"not a square: {square} (0..{last}, or a name such as 'e4')")
        return square
    try:
        return shape.parse_square(square)
    except (ValueError, TypeError, AttributeError):
        raise ArgumentError(f"not a square: {square!r} (0..{last}, or a name such as "
                            f"'e4')") from None


def _king_on_first_rank(pos, letter: str) -> int:
    """The square of the king a castling letter of ``pos`` castles (the FEN
    reader has checked that it stands on its side's first rank)."""
    colour = "white" if letter.isupper() else "black"
    shape = pos.shape
    rank = 0 if colour == "white" else shape.height - 1
    for f in range(shape.width):
        sq = shape.square(f, rank)
        if pos.placement.get(sq) == ("king", colour):
            return sq
    return CASTLING_SQUARES[letter][2]


def _default_ruleset(presets=(), config=None) -> RuleSet:
    if presets or config:
        from .rule_source import preset_ruleset
        return preset_ruleset(presets, config)
    from .fide import fide_rules
    return fide_rules()
