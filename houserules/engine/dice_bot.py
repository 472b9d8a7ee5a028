"""The Dice Chess bot: a whole turn chosen from the legal turn tree.

Every legal turn of the roll (the tree :func:`dice.turn_tree` builds, the
Maximum Micro-moves Rule applied) is played on a :class:`dice.DiceGame` and
scored statically: material as :class:`~houserules.engine.evaluate.Evaluator`
counts it for the rules, less the material the opponent's next roll is likely
to take (:func:`exposure`). A turn that wins (a king taken, a preset's own
ending) wins outright.

From level 4 on, the best few turns by that score (the level's
``dice_candidates``) are searched a turn further: for each of the 56
distinct rolls the opponent can throw (weighted by its chance in 216), the
opponent's best reply among the capture sequences those dice allow (up to
three micro-moves, a king capture winning), and the turn with the best
expected outcome is played (expectimax, one turn for each side).
"""
from __future__ import annotations

import itertools
import math
import random
from collections import Counter

from dice import DiceGame, turn_tree
from dice.dfen import parse_dfen

from .evaluate import Evaluator
from .levels import get_level

WIN = 100_000
#: what a royal piece counts in the exposure (a king taken is the game)
ROYAL_EXPOSURE = 2_000
#: die letter by face, as DFEN writes the dice
FACE_LETTER = {1: "P", 2: "N", 3: "B", 4: "R", 5: "Q", 6: "K"}
LETTER_TYPE = {"P": "pawn", "N": "knight", "B": "bishop", "R": "rook", "Q": "queen",
               "K": "king"}


def rolls() -> list[tuple[str, float]]:
    """The 56 distinct rolls of three dice (DFEN letters) with their chances."""
    out = []
    for combo in itertools.combinations_with_replacement(range(1, 7), 3):
        ways = math.factorial(3)
        for n in Counter(combo).values():
            ways //= math.factorial(n)
        out.append(("".join(FACE_LETTER[f] for f in combo), ways / 216))
    return out


ROLLS = rolls()


class DiceBot:
    """Turn choice for one rule set (Dice Chess over FIDE, or over presets)."""

    def __init__(self, ruleset=None):
        self.ruleset = ruleset
        probe = DiceGame(None, ruleset)
        self.evaluate = Evaluator(probe.ruleset)
        self.probe = probe          # reloaded with each position it is asked about
        self.nodes = 0

    def _game(self, dfen: str) -> DiceGame:
        self.probe.reload(dfen)
        return self.probe

    def static(self, game: DiceGame, color: str) -> float:
        """The position after a turn of ``color``, for ``color``."""
        w = game.winner()
        if w is not None:
            return WIN if w == color else -WIN
        score = self.evaluate(game)
        if game.turn != color:
            score = -score
        return score - exposure(game, color, self.evaluate)

    def turns(self, dfen: str) -> list[tuple[tuple[str, ...], float, str]]:
        """Every legal turn of the rolled ``dfen``: (micro-moves, static score,
        the DFEN it leaves), one per distinct position, best first."""
        tree = turn_tree(dfen, self.ruleset)
        game = DiceGame(dfen, self.ruleset)
        color = game.turn
        seen: dict = {}
        path: list[str] = []

        def walk(nodes: dict) -> None:
            if not nodes:
                k = game.key()
                if k not in seen:
                    seen[k] = (tuple(path), self.static(game, color), game.dfen())
                return
            for u, (_, child) in nodes.items():
                game.push(u)
                path.append(u)
                try:
                    walk(child)
                finally:
                    path.pop()
                    game.pop()

        walk(tree.nodes)
        return sorted(seen.values(), key=lambda t: -t[1])

    def expected(self, after: str, color: str) -> float:
        """The worth to ``color`` of the position its turn left (``after``),
        the opponent's reply searched over every roll."""
        game = self._game(after)
        if game.winner() is not None:
            return WIN if game.winner() == color else -WIN
        game.run_end_turn()
        fields = game.dfen().split(" ")
        total = 0.0
        for letters, chance in ROLLS:
            fields[6] = letters
            total += chance * -self._reply(" ".join(fields))
        return total

    def _reply(self, rolled: str) -> float:
        """The opponent's best capture sequence with these dice, for the opponent."""
        game = self._game(rolled)
        mover = game.turn
        return self._captures(game, mover, 0)

    def _captures(self, game: DiceGame, mover: str, depth: int) -> float:
        self.nodes += 1
        best = self.static(game, mover)
        if depth >= 3 or game.winner() is not None:
            return best
        for m in game.legal_moves():
            if m.victim is None and not m.promo:
                continue
            game.push(m)
            try:
                v = self._captures(game, mover, depth + 1)
            finally:
                game.pop()
            if v > best:
                best = v
                if best >= WIN:
                    break
        return best

    def choose(self, dfen: str, level: int, rng: random.Random) -> list[str]:
        """A whole legal turn for the rolled ``dfen`` at ``level``."""
        lv = get_level(level)
        turns = self.turns(dfen)
        if not turns:
            return []
        color = parse_dfen(dfen, self.ruleset).turn if self.ruleset is None else \
            DiceGame(dfen, self.ruleset).turn
        if lv.dice_noise:
            noisy = [(t[1] + rng.randint(0, lv.dice_noise), i) for i, t in enumerate(turns)]
            return list(turns[max(noisy)[1]][0])
        best = turns[0][1]
        if best >= WIN or not lv.dice_candidates:
            ties = [t for t in turns if t[1] == best]
            return list(rng.choice(ties)[0])
        scored = [(self.expected(t[2], color), t) for t in turns[:lv.dice_candidates]]
        top = max(s for s, _ in scored)
        return list(rng.choice([t for s, t in scored if s == top])[0])


def exposure(game: DiceGame, color: str, evaluate: Evaluator) -> float:
    """The material of ``color`` the opponent's next roll is likely to take:
    each attacked piece's worth times the chance that a die of one of its
    attackers' types comes up (one capture a piece)."""
    st = game.state
    opp = "black" if color == "white" else "white"
    colors, types = st.colors, st.types
    loss = 0.0
    for sq in range(64):
        if colors[sq] != color or not st.attacked(colors, types, sq, opp):
            continue
        kinds = {types[a] for a in st.attackers(colors, types, sq, opp)}
        p_none = (1 - len(kinds) / 6) ** 3
        worth = evaluate.piece_value(types[sq], color) or ROYAL_EXPOSURE
        loss += worth * (1 - p_none)
    return loss


_BOTS: dict = {}


def choose_dice_turn(game_or_dfen, level: int, rng: random.Random | None = None) -> list[str]:
    """The micro-moves (UCI) of one whole Dice Chess turn at ``level`` (1..10),
    for a rolled position: a :class:`dice.DiceGame` (its rule set is played) or
    DFEN text (plain Dice Chess). The dice must be rolled (a DFEN's seventh
    field); an empty list means the roll allows no micro-move."""
    rng = rng or random.Random()
    if isinstance(game_or_dfen, str):
        dfen, ruleset = game_or_dfen, None
        parse_dfen(dfen)                # a bad DFEN: its typed error
    else:
        dfen = game_or_dfen.dfen()
        ruleset = None if game_or_dfen.plain_dice else game_or_dfen.ruleset
    if dfen.split(" ")[6] in ("-", ""):
        raise ValueError(f"the dice are not rolled in {dfen!r}: roll first (dice.roll)")
    key = id(ruleset)
    bot = _BOTS.get(key)
    if bot is None or bot.ruleset is not ruleset:
        bot = _BOTS[key] = DiceBot(ruleset)
        while len(_BOTS) > 8:
            _BOTS.pop(next(iter(_BOTS)))
    return bot.choose(dfen, level, rng)
