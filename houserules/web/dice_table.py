"""A game of Dice Chess on the playground: rolls, micro-moves walked on the
legal turn tree of the roll (the Maximum Micro-moves Rule), ends of turn.

The table's log holds the rolls (with their faces), the micro-moves and the
ends of turn, so that it is rebuilt as :class:`~houserules.web.tables.Table`
rebuilds any table.
"""
from __future__ import annotations

from chess_rules.errors import ChessError
from chess_rules.explain import Explanation
from dice import DiceGame, TurnTree, turn_tree

from . import players
from .board import board_view
from .errors import MoveRefusedError, NotNowError
from .tables import Table, new_game, outcome_dict, uci_or_san


class DiceTable(Table):
    """A game of Dice Chess: rolls, micro-moves walked on the turn tree, ends of turn."""

    game: DiceGame

    def _reset(self, start: str) -> None:
        self.game = new_game(DiceGame, start, self.ruleset)
        #: the DFEN at this turn's roll and the micro-moves played since
        self.roll_dfen: str | None = self.game.dfen() if self.game.dice() else None
        self.played: list[str] = []
        self.history: list[dict] = []
        # (a position set up with its dice is a turn rolled already)
        self.turns: list[dict] = [] if self.roll_dfen is None else \
            [{"color": self.game.turn, "dice": self.game.dice_letters(), "moves": []}]
        self.log = []
        self._tree: TurnTree | None = None

    def _tree_rules(self):
        # plain Dice Chess's trees are cached by the library (None: its rules)
        return None if self.game.plain_dice else self.game.ruleset

    def tree(self):
        if self._tree is None and self.roll_dfen is not None:
            self._tree = turn_tree(self.roll_dfen, self._tree_rules())
        return self._tree

    def node(self) -> dict | None:
        """The turn's continuations after the micro-moves played (uci -> (dice, subtree))."""
        tree = self.tree()
        if tree is None:
            return None
        n = tree.nodes
        for u in self.played:
            n = n[u][1]
        return n

    def _redo(self, entry: tuple) -> None:
        kind = entry[0]
        if kind == "roll":
            self._roll(entry[1])
        elif kind == "move":
            self._micro(entry[1])
        else:
            self._end_turn()

    # ------------------------------------------------------------ the turn's steps

    def _roll(self, faces) -> None:
        g = self.game
        g.roll(self.rng if faces is None else _Faces(faces))
        faces = tuple(f.values["face"] for f in g.dice_facts())
        self.roll_dfen = g.dfen()
        self.played = []
        self._tree = None
        self.turns.append({"color": g.turn, "dice": g.dice_letters(), "moves": []})
        self.log.append(("roll", faces))

    def _micro(self, uci: str) -> dict:
        g = self.game
        color = g.turn
        san = g.san(uci)
        m = g.push(uci)
        self.played.append(m.uci())
        entry = {"uci": m.uci(), "san": san, "rule": m.rule, "color": color}
        self.history.append(entry)
        if self.turns:
            self.turns[-1]["moves"].append(entry)
        self.log.append(("move", m.uci()))
        return entry

    def _end_turn(self) -> None:
        self.game.end_turn()
        self.roll_dfen = None
        self.played = []
        self._tree = None
        self.log.append(("end",))

    # ------------------------------------------------------------ operations

    def roll(self, faces: list[int] | None = None) -> dict:
        """Roll three dice (``faces``: a roll of one's choosing, as on a real board)."""
        self._check_room()
        g = self.game
        if g.is_game_over():
            raise NotNowError(f"the game is over ({g.over_text()})")
        if g.dice():
            raise NotNowError(f"the dice are already rolled ({g.dice_letters()} left)")
        try:
            self._roll(faces)
        except ChessError as e:
            raise NotNowError(str(e)) from None
        return {}

    def play(self, text: str) -> dict:
        """Play a micro-move of this turn: one that continues a legal turn (the
        Maximum Micro-moves Rule), refused otherwise with the rule and the reason."""
        self._check_room()
        g = self.game
        node = self.node()
        if node is None and not g.is_game_over():
            raise NotNowError("roll the dice first: a turn starts with the roll")
        try:
            uci = uci_or_san(g, text)
        except ChessError as e:
            raise self._refusal(e) from None
        if node is None or uci not in node:
            ex = self._explanation(uci)
            raise MoveRefusedError(ex.text, move=ex.move, rule=ex.rule, reason=ex.reason)
        return self._micro(uci)

    def end_turn(self) -> dict:
        """Hand the turn over: refused while a legal micro-move is left."""
        g = self.game
        if not g.dice() and self.roll_dfen is None and not g.is_game_over():
            raise NotNowError("roll the dice first: a turn starts with the roll")
        try:
            self._end_turn()
        except ChessError as e:
            raise NotNowError(str(e)) from None
        return {}

    def undo(self) -> dict:
        """Take back the last micro-move (and any roll or end of turn after it)."""
        moves = [i for i, e in enumerate(self.log) if e[0] == "move"]
        if not moves:
            raise NotNowError("no micro-move to take back")
        self._restore(self.start, self.log[:moves[-1]])
        return {}

    def bot(self, level: int) -> dict:
        """The engine plays the side to move's whole turn: the roll if it is
        still to be made, the micro-moves, the end of the turn."""
        g = self.game
        if g.is_game_over():
            raise NotNowError(f"the game is over ({g.over_text()})")
        if self.played:
            raise NotNowError("this turn has micro-moves played already: finish it "
                              "(or take them back) before the engine plays")
        if not g.dice():
            self.roll()
        for u in players.bot_turn(g, level, self.rng):
            self._micro(u)
        if not self.game.is_game_over():
            self._end_turn()
        return {}

    def load(self, fen: str) -> None:
        """Set up a DFEN under the same rules (a bad one changes nothing)."""
        fen = self._checked_fen(fen)
        new_game(DiceGame, fen, self.ruleset)
        self.start = fen
        self._reset(fen)

    def pgn(self) -> str:
        raise NotNowError("Dice Chess has no PGN: its turns are rolls and micro-moves "
                          "(the DFEN records a position)")

    def _explanation(self, move: str) -> Explanation:
        """The micro-move's own word (its production, the die filter, the
        board), and the turn's: a micro-move no legal turn of this roll goes
        on with is refused by the Maximum Micro-moves Rule."""
        ex = self.game.explain(move)
        u = ex.move
        node = self.node()
        tree = self.tree()
        if node is None or tree is None or not ex.legal:
            return ex
        if u in node:
            spent = " and the ".join(node[u][0])
            after = tree.playable(self.played + [u])
            then = f"then {after}" if after else "the turn is complete"
            return Explanation(u, True, ex.rule, f"spends the {spent} die; {then}",
                               ex.generated_by)
        so_far = f"after {' '.join(self.played)} " if self.played else ""
        cont = ", ".join(sorted(node)) or "none: the turn is complete"
        return Explanation(u, False, "dice.maximum-micro-moves",
                           f"it breaks the Maximum Micro-moves Rule: {so_far}no turn that "
                           f"plays {u} spends {tree.most} dice or takes the king "
                           f"(legal: {cont})", ex.generated_by)

    def _legal(self) -> list[dict]:
        node = self.node()
        if not node:
            return []
        moves = {m.uci(): m for m in self.game.legal_moves()}
        return self._legal_dicts(moves[u] for u in sorted(node) if u in moves)

    def state(self) -> dict:
        g = self.game
        node = self.node()
        tree = self.tree()
        playable = tree.playable(self.played) if tree is not None else []
        over = g.outcome()
        return {
            "variant": "dice", "turn": g.turn, "fen": g.dfen(),
            "board": board_view(g), "legal": self._legal(), "last_move": self._last(),
            "check": [], "history": list(self.history), "outcome": outcome_dict(over),
            "dice": {
                "left": g.dice(), "letters": g.dice_letters(),
                "faces": [f.values["face"] for f in g.dice_facts()],
                "playable": playable or [],
                "played": list(self.played),
                "rolled": self.roll_dfen is not None,
                "turn_complete": self.roll_dfen is not None and not node,
                "turns": [dict(t, moves=list(t["moves"])) for t in self.turns],
            },
        }


class _Faces:
    """A roll of given faces, as a random source (what the table's log replays)."""

    def __init__(self, faces):
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0)
