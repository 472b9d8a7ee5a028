"""The chess side of a session: a mailbox view of working memory and the move buffer.

Working memory is the source of truth; :class:`ChessState` keeps a mailbox
(one entry per square of the rule set's board, 64 on 8x8) in step with it (a session listener sees every piece fact come and
go), so that the geometry code the productions call can read occupancy in
constant time. It also holds the candidate moves that generate-stage
productions emit and filter-stage productions prune, and the attack and
simulation hooks that the active productions declare in their metadata.
"""
from __future__ import annotations

from typing import Callable

from rete.errors import SlotValueError

from . import geometry as geo
from .moves import Move
from .shape import STANDARD, BoardShape
from .squares import PIECE_LETTER, opposite

AttackFn = Callable[[list, list, int, str], bool]

_COLORS = ("white", "black")
_SQUARES = frozenset(range(64))
#: the square numbers of each board the mirror has been made for
_SQUARE_SETS: dict[BoardShape, frozenset[int]] = {STANDARD: _SQUARES}


def squares_of(shape: BoardShape) -> frozenset[int]:
    """The square numbers of ``shape`` as a set (shared, built once per board)."""
    squares = _SQUARE_SETS.get(shape)
    if squares is None:
        squares = _SQUARE_SETS.setdefault(shape, frozenset(shape.squares))
    return squares


def square_range(shape: BoardShape) -> str:
    """How a square number is written on ``shape``: ``0..63 (a1=0, h8=63)``."""
    last = len(shape.squares) - 1
    return f"0..{last} (a1=0, {shape.square_names[last]}={last})"


def _bad_piece(v: dict, shape: BoardShape = STANDARD) -> str:
    """What is wrong with a piece fact's values (the mirror takes none of it)."""
    sq = v["square"]
    if sq.__class__ is not int or sq not in squares_of(shape):
        return f"a piece's square is a square number {square_range(shape)}, not {sq!r}"
    if v["type"] not in PIECE_LETTER:
        return (f"a piece's type is one of {', '.join(PIECE_LETTER)}, "
                f"not {v['type']!r}")
    return f"a piece's color is white or black, not {v['color']!r}"


def _bad_game(v: dict) -> str | None:
    if v["turn"] not in _COLORS:
        return f"the game fact's turn is white or black, not {v['turn']!r}"
    return None


def _bad_ep(v: dict, st: "ChessState") -> str | None:
    if not _on_board(v["square"], st):
        return (f"an ep fact's square is a square number {square_range(st.shape)}, "
                f"not {v['square']!r}")
    if v["by"] not in _COLORS:
        return f"an ep fact's by is white or black, not {v['by']!r}"
    return None


def _on_board(sq, st: "ChessState") -> bool:
    return sq.__class__ is int and sq in st.square_set


def _bad_castling(v: dict, st: "ChessState") -> str | None:
    if v["color"] not in _COLORS:
        return f"a castling fact's color is white or black, not {v['color']!r}"
    if v["side"] not in ("king", "queen"):
        return f"a castling fact's side is king or queen, not {v['side']!r}"
    for slot in ("king-from", "king-to", "rook-from", "rook-to"):
        if not _on_board(v[slot], st):
            return (f"a castling fact's {slot} is a square number {square_range(st.shape)}, "
                    f"not {v[slot]!r}")
    return None


def game_fact(session):
    """The position's ``game`` fact (turn, clocks), or None when a rule took it
    away: whoever reads it then does nothing, and the move is refused as such
    (``Game`` checks that a move leaves exactly one)."""
    games = session.by_template.get("game")
    return next(iter(games.values())) if games else None


#: the facts besides pieces and royals the game reads (FEN, repetition, castling):
#: what is wrong with one's values, checked as it is asserted
_CHECKED = {"ep": _bad_ep, "castling": _bad_castling}     # (game: inlined)


#: a piece type no rule moves or attacks with: :meth:`ChessState.attackers`
#: turns the other pieces into it, so they block without attacking
BLOCKER = "blocker"


class ChessState:
    def __init__(self, session, ruleset):
        self.session = session
        self.ruleset = ruleset
        self.topology = ruleset.topology
        shape = self.shape = ruleset.shape
        n = len(shape.squares)
        #: the board's square numbers, as a set
        self.square_set = squares_of(shape)
        #: the square names of the board, indexed by square number
        self.names = shape.square_names
        #: ``is_promotion(sq, colour)``: a pawn arriving on ``sq`` promotes
        self.is_promotion = geo.promotion_test(shape)
        self.colors: list = [None] * n
        self.types: list = [None] * n
        self.facts: list = [None] * n
        if shape is not STANDARD:
            # moves are named on this board: each is named as it is generated
            # (8x8 keeps Move.uci's own names, and its speed)
            self.add = self._add_on_shape           # type: ignore[method-assign]
            self.add_yielding = self._add_yielding_on_shape  # type: ignore[method-assign]
        self.royal: dict[str, set] = {"white": set(), "black": set()}
        # the generated moves by UCI; a different move on the same squares (an
        # en-passant capture and a quiet move, say) waits under "uci#n" as an
        # alternate, judged by the filters like any candidate (see settle)
        self.candidates: dict[str, Move] = {}
        self.alternates = False
        self.settled_from: dict[str, str] = {}
        self.refusals: dict[str, tuple[str, str]] | None = None
        self.generated_by: dict[str, list[str]] | None = None
        self.promotion_types = tuple(ruleset.config.get(
            "promotion-types", ("queen", "rook", "bishop", "knight")))
        self.game = None  # the driving Game, for functions that need history
        self.refresh_hooks()
        session.listeners.append(self._on_change)
        session.chess = self

    # ------------------------------------------------------------ hooks from rule metadata

    def refresh_hooks(self) -> None:
        """Collect attack and simulation hooks from the active productions."""
        prods = self.session.list_productions()
        attacks = []
        groups = set()
        sims = []
        for p in prods:
            a = p.meta.get("attacks")
            if a is not None:
                attacks.append(a)
                groups.add(p.meta.get("attack-group"))
            s = p.meta.get("simulate")
            if s is not None:
                sims.append((-p.salience, self.session.stage_index[p.stage], p.name, s))
        sims.sort(key=lambda t: (t[1], t[0]))
        self.simulators = [s for *_, s in sims]
        fide = self.ruleset.fide_attacks
        if fide is not None and groups == {"fide"} and len(attacks) == 6:
            self.attack_fns = [fide]
        else:
            self.attack_fns = attacks
        # FIDE pawns: an en-passant target matters only with a pawn diagonally
        # behind it (Game's repetition key uses this as a quick first filter)
        self.fide_pawns = self.attack_fns == [fide] if fide is not None else False

    # ------------------------------------------------------------ working-memory mirror

    def _on_change(self, kind: str, fact, _old) -> None:
        t = fact.template
        if t == "piece":
            v = fact.values
            sq = v["square"]
            if kind == "assert":
                color = v["color"]
                ptype = v["type"]
                if sq.__class__ is not int or sq not in self.square_set or \
                        ptype not in PIECE_LETTER or color not in _COLORS:
                    # refused before the mirror changes (a rule's action that
                    # writes one raises, and the change is undone)
                    raise SlotValueError(_bad_piece(v, self.shape))
                self.colors[sq] = color
                self.types[sq] = ptype
                self.facts[sq] = fact
            else:
                try:
                    mirrored = self.facts[sq] is fact
                except (IndexError, TypeError):
                    # the undo of a refused write: that value never reached the mirror
                    mirrored = False
                if mirrored:
                    self.colors[sq] = None
                    self.types[sq] = None
                    self.facts[sq] = None
        elif t == "royal":
            v = fact.values
            royal = self.royal.get(v["color"]) if v["color"].__hash__ is not None else None
            if kind == "assert":
                if royal is None:
                    raise SlotValueError(f"a royal fact's color is white or black, "
                                         f"not {v['color']!r}")
                royal.add(v["type"])
            elif royal is not None:
                royal.discard(v["type"])
        elif t == "game":
            # (every move modifies it: the check is inlined)
            if kind == "assert" and fact.values["turn"] not in _COLORS:
                raise SlotValueError(_bad_game(fact.values))
        elif kind == "assert" and t in _CHECKED:
            problem = _CHECKED[t](fact.values, self)
            if problem is not None:
                raise SlotValueError(problem)

    # ------------------------------------------------------------ candidates

    def add(self, move: Move) -> None:
        """Add a generated move. The first move on a UCI is the one played; a
        different move on the same squares (another kind or victim) is kept as
        an alternate, legal only if the filters drop every move before it."""
        u = move.uci()
        cands = self.candidates
        first = cands.get(u)
        if first is None:
            cands[u] = move
        elif first.kind != move.kind or first.victim != move.victim:
            u = self._add_alternate(u, move)
        if self.generated_by is not None:
            self.generated_by.setdefault(u, []).append(move.rule)

    def _add_on_shape(self, move: Move) -> None:
        self.name_move(move)
        ChessState.add(self, move)

    def _add_yielding_on_shape(self, move: Move) -> None:
        self.name_move(move)
        ChessState.add_yielding(self, move)

    def name_move(self, move: Move) -> str:
        """The UCI of ``move`` on this board (which its ``uci()`` gives from then
        on)."""
        return move.name_on(self.names)

    def add_yielding(self, move: Move) -> None:
        """Add a move that gives way to any other move on its squares, whichever
        production adds its move first: it is legal only if the filters drop
        every other (a quiet pawn slant onto an en-passant target yields to the
        capture, but stands when the capture would expose the king)."""
        u = self._add_alternate(move.uci(), move)
        if self.generated_by is not None:
            self.generated_by.setdefault(u, []).append(move.rule)

    def _add_alternate(self, u: str, move: Move) -> str:
        cands = self.candidates
        n = 1
        while True:
            key = f"{u}#{n}"
            other = cands.get(key)
            if other is None:
                cands[key] = move
                self.alternates = True
                return key
            if other.kind == move.kind and other.victim == move.victim:
                return key
            n += 1

    def settle(self) -> dict[str, Move]:
        """The candidates left after the filters, by UCI: on each UCI the first
        move added, or where the filters dropped it, the first alternate left
        (:attr:`settled_from` records the alternate's key)."""
        cands = self.candidates
        if not self.alternates:
            return cands
        self.alternates = False
        self.settled_from = {}
        out = {}
        alts = []
        for key, m in cands.items():
            if "#" in key:
                u, n = key.split("#")
                alts.append((u, int(n), key, m))
            else:
                out[key] = m
        for u, _, key, m in sorted(alts):
            if u not in out:
                out[u] = m
                self.settled_from[u] = key
        return out

    def refuse(self, uci: str, rule: str, reason: str) -> None:
        """Record why a move was not generated (kept only while explaining)."""
        if self.refusals is not None and uci not in self.refusals:
            self.refusals[uci] = (rule, reason)

    def drop(self, uci: str, rule: str, reason: str) -> None:
        """Remove a candidate, recording the rule and reason while explaining."""
        if self.candidates.pop(uci, None) is not None and self.refusals is not None:
            # a generated move dropped by a filter: that filter is the reason, not
            # another generator's refusal of the same squares (en passant vs pawn-capture)
            self.refusals[uci] = (rule, reason)

    # ------------------------------------------------------------ board questions

    def attacked(self, colors: list, types: list, sq: int, by: str) -> bool:
        for fn in self.attack_fns:
            if fn(colors, types, sq, by):
                return True
        return False

    def attackers(self, colors: list, types: list, sq: int, by: str) -> list[int]:
        """Squares of the pieces of ``by`` attacking ``sq`` (slow; for explanations).

        Each piece of ``by`` is tried alone: the others stay where they are, on
        their side (so they block as they do, knight-immunity's own knights
        included), but as :data:`BLOCKER`, a type that attacks nothing."""
        out = []
        mine = [s for s in range(len(colors)) if colors[s] == by and s != sq]
        for s in mine:
            t2 = list(types)
            for r in mine:
                if r != s:
                    t2[r] = BLOCKER
            if self.attacked(colors, t2, sq, by):
                out.append(s)
        return out

    def royal_squares(self, colors: list, types: list, color: str) -> list[int]:
        royal = self.royal[color]
        if not royal:
            return []
        out = []
        for t in royal:
            i = -1
            index = types.index
            try:
                while True:
                    i = index(t, i + 1)
                    if colors[i] == color:
                        out.append(i)
            except ValueError:
                pass
        if len(royal) > 1:
            out.sort()
        return out

    def simulate(self, move: Move) -> tuple[list, list]:
        """The board after the whole effect of ``move`` (copies; WM is untouched)."""
        colors = self.colors[:]
        types = self.types[:]
        for sim in self.simulators:
            sim(self, colors, types, move)
        return colors, types

    def exposes_royal(self, move: Move, color: str) -> int | None:
        """The square of a royal piece of ``color`` left attacked by ``move``, if any."""
        colors, types = self.simulate(move)
        opp = opposite(color)
        for s in self.royal_squares(colors, types, color):
            if self.attacked(colors, types, s, opp):
                return s
        return None

    def describe(self, sq: int) -> str:
        t = self.types[sq]
        return f"the {t} on {self.names[sq]}" if t else self.names[sq]
