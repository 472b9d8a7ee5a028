"""A Dice Chess position on the engine: :class:`DiceGame`, a :class:`chess_rules.game.Game`
under the dice rule set, loaded from a DFEN.

The micro-move generator is the rule set's own ``movegen`` run (generate and
filter stages, ``dice.die-filter`` among the filters); a micro-move is the
``move`` event run through apply and post-move (``dice.spend-die`` spends the
die); rolling and ending a turn are the ``roll`` and ``end-turn`` stages, run on
a request fact.
"""
from __future__ import annotations

import random
from dataclasses import replace
from functools import lru_cache
from typing import cast

from rete.errors import ActionError, ReteError
from rete.model import AssertFact, as_production

from chess_rules.errors import (ArgumentError, ChessError, MoveParseError,
                                ReentrantCallError, quoted)
from chess_rules.explain import castling_squares
from chess_rules.game import Explanation, Game, Outcome
from chess_rules.rule_source import preset_ruleset
from chess_rules.moves import Move
from chess_rules.notation import parse_uci
from chess_rules.position import extended_suffix
from chess_rules.ruleset import RandomSource, RuleSet, checked_ruleset
from chess_rules.squares import PIECE_LETTER, SQUARE_NAMES, WHITE

from .dfen import TYPE_FACE, DfenPosition, parse_dfen
from .errors import (DiceError, EndTurnError, GameOverError, NoDieError, NotLegalMoveError,
                     RollError)
from .rules import KING_CAPTURED, dice_left, dice_rules, missing_die, move_dice, setup_dice

__all__ = ["DiceGame", "default_ruleset", "as_dice_rules", "is_plain_dice", "random_source"]


_NONE: dict = {}
_NO_PGN = ("Dice Chess has no PGN form (a turn is a roll and several micro-moves): "
           "record the DFEN of each position (dfen()) or the micro-moves played")


@lru_cache(maxsize=1)
def _plain_rules() -> RuleSet:
    """The Dice Chess rule set over FIDE, built once: what :func:`default_ruleset`
    hands out copies of, and what a game's rule set is compared with."""
    return dice_rules()


def default_ruleset() -> RuleSet:
    """The Dice Chess rule set over FIDE: a new copy at each call (cheap: the
    productions are shared), so that editing it changes no other game's rules."""
    return _plain_rules().copy()


def is_plain_dice(ruleset: RuleSet) -> bool:
    """Whether ``ruleset`` is the Dice Chess rule set over FIDE, unedited: the
    same productions, templates, functions, stages, royalty, topology, hooks and
    configuration. Only then may the tree builder treat two orders of a pair of
    micro-moves as one position (:data:`dice.turns.COMMUTATION`)."""
    base = _plain_rules()
    if ruleset is base:
        return True
    return (_same_objects(ruleset.productions, base.productions)
            and _same_objects(ruleset.templates, base.templates)
            and _same_objects(ruleset.functions, base.functions)
            and ruleset.stages == base.stages and ruleset.extra_stages == base.extra_stages
            and ruleset.royal_types == base.royal_types and ruleset.topology is base.topology
            and ruleset.fide_attacks is base.fide_attacks and ruleset.presets == base.presets
            and ruleset.setup_hooks == base.setup_hooks and ruleset.config == base.config)


def _same_objects(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(a[k] is b[k] for k in b)


def as_dice_rules(ruleset: RuleSet | None) -> RuleSet:
    """Dice Chess over ``ruleset``: the default rule set for None, a rule set that
    is Dice Chess already as it is, any other (a preset's) through
    :func:`~dice.rules.dice_rules`."""
    if ruleset is None:
        return default_ruleset()
    if setup_dice in ruleset.setup_hooks:
        return ruleset
    return dice_rules(ruleset)


class DiceGame(Game):
    """A Dice Chess position (one turn's worth of state) on the Rete engine.

    >>> g = DiceGame("8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1 NPP")
    >>> [m.uci() for m in g.legal_moves()]
    ['b3a5', 'b3c1', 'b3c5', 'b3d2', 'b3d4', 'c2c3', 'c2c4']
    >>> _ = g.push("c2c4"); g.dfen()
    '8/8/8/2k5/2P5/1N6/8/K7 w - c3 0 1 NP'

    ``legal_moves`` are the micro-moves (pseudo-legal, dice-filtered), before
    the Maximum Micro-moves Rule, which :mod:`dice.turns` applies on the tree.
    As :class:`Game`, it takes a ``ruleset`` or preset ids (``presets``, with
    their ``config``), played as Dice Chess:

    >>> DiceGame.from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1 KKK", presets=["piece-hp"]).ruleset.presets
    ['piece-hp']

    ``fen`` is ``dfen``; ``from_fen`` reads a DFEN (Dice Chess over FIDE plus
    ``presets``, or over ``ruleset``), as ``parse_position`` does. Dice Chess has
    no PGN and no repetition rule: ``pgn``, ``from_pgn`` and ``repetitions``
    raise :class:`DiceError`. The dice: ``dice``, ``dice_letters``,
    ``dice_facts``, ``roll``, ``end_turn`` (refused while a micro-move is
    left), ``run_end_turn``; the turn tree's needs:
    ``micro_moves``, ``key``, ``reload``. The end: ``winner``, ``over_text``,
    ``outcome`` (``outcome_if_decided`` is the same: a result stands as a fact),
    ``is_game_over`` (a king taken or a preset's ending; no draws);
    ``is_stalemate`` is always False.
    ``copy`` replays the rolls and ends of turn too; ``explain`` names
    ``dice.die-filter`` for a piece without its die. Game's hooks for a variant:
    ``refuses_ruleset`` takes a Dice Chess rule set, ``illegal_move_error``
    refuses with the classes :func:`dice.apply_move` uses,
    ``nothing_to_take_back_error`` speaks of micro-moves, and
    ``tracks_repetitions`` is False.
    """

    #: Dice Chess has no repetition rule: no position key is kept
    tracks_repetitions = False

    def __init__(self, dfen: str | DfenPosition | None = None, ruleset: RuleSet | None = None,
                 presets=(), config=None):
        # presets by id, as Game takes them (Game.from_fen passes them on too)
        if presets or config:
            if ruleset is not None:
                raise ChessError("give presets (and their config) or a ruleset, not both: "
                                 "load the presets onto it with "
                                 "presets.load(..., base=ruleset)")
            ruleset = preset_ruleset(presets, config)
        ruleset = as_dice_rules(checked_ruleset(ruleset, presets_kw=True))
        if dfen is None:
            from .dfen import START_DFEN
            dfen = START_DFEN
        pos = dfen if isinstance(dfen, DfenPosition) else parse_dfen(dfen, ruleset)
        base = _plain_rules()
        #: whether this is plain Dice Chess over FIDE: only then may the tree
        #: builder take two orders of a pair of micro-moves as one position
        self.plain_dice = is_plain_dice(ruleset)
        super().__init__(ruleset=ruleset, position=pos)
        self._phases: list[tuple] = []
        self._full_key = not self.plain_dice and (
            bool(ruleset.presets) or set(ruleset.templates) != set(base.templates)
            or ruleset.templates["piece"].slots != base.templates["piece"].slots)

    def copy(self) -> "DiceGame":
        """An independent game: the same rules and start, the micro-moves played
        again, and between them the rolls and ends of turn that were made (with
        the same dice), so the copy stands where this game stands and ``pop``
        takes back the same micro-moves."""
        g = type(self)(self.starting_fen, self.ruleset)
        g.max_firings = self.max_firings
        phases = [p for p in self._phases if self._phase_stands(p)]
        i = 0
        for k, move in enumerate(self.move_stack + [None]):
            while i < len(phases) and phases[i][0] == k:
                _, _, kind, faces = phases[i]
                if kind == "roll":
                    g.roll(_Faces(faces))
                else:
                    g.run_end_turn()
                i += 1
            if move is not None:
                g.push(move.uci())
        return g

    def _phase_stands(self, phase) -> bool:
        """Whether a roll or end of turn is still in effect: made after the same
        micro-moves that are on the stack now (``pop`` takes back what came after
        the micro-move it takes back)."""
        n, top = phase[0], phase[1]
        stack = self.move_stack
        return n <= len(stack) and (n == 0 or stack[n - 1] is top)

    def _note_phase(self, kind: str, faces: tuple = ()) -> None:
        """Record a roll or an end of turn (which the move stack does not hold)
        for :meth:`copy`, after the micro-moves on the stack now."""
        self._phases = [p for p in self._phases if self._phase_stands(p)]
        stack = self.move_stack
        self._phases.append((len(stack), stack[-1] if stack else None, kind, faces))

    def reload(self, dfen: str | DfenPosition) -> None:
        """Set up another position on this game's session, keeping its network
        (:meth:`Game.reload`; what :func:`dice.turn_tree` does between trees).
        Refused (:class:`DiceError`) while a move is on the stack."""
        pos = dfen if isinstance(dfen, DfenPosition) else parse_dfen(dfen, self.ruleset)
        if self.session.firing:
            raise ReentrantCallError("reload")
        if self.move_stack or self.session.open_checkpoints:
            raise DiceError("reload() needs a game with no move to take back")
        super().reload(pos)
        self._phases = []

    # ------------------------------------------------------------ parsing / output

    def parse_position(self, text: str) -> DfenPosition:
        """Parse a DFEN under this game's rule set."""
        return parse_dfen(text, self.ruleset)

    def dice_facts(self) -> list:
        """The ``die`` facts left, in roll order."""
        return sorted(self.session.by_template.get("die", {}).values(),
                      key=lambda f: f.values["index"])

    def dice(self) -> list[str]:
        """The dice left, as piece types in roll order."""
        return [f.values["type"] for f in self.dice_facts()]

    def dice_letters(self) -> str:
        """The dice left as DFEN writes them (``NPP``, or ``-``)."""
        return "".join(PIECE_LETTER[t] for t in self.dice()) or "-"

    def dfen(self) -> str:
        """The position as DFEN, followed by the ``key:value`` tokens of a preset's
        state that FEN cannot carry (none under plain Dice Chess)."""
        eps = self.ep_squares()
        ep = "".join(SQUARE_NAMES[e] for e in eps) or "-"
        return (f"{self.board_fen()} {'w' if self.turn == WHITE else 'b'} "
                f"{self.castling_rights()} {ep} {self.halfmove_clock} {self.fullmove_number} "
                f"{self.dice_letters()}{extended_suffix(self, eps)}")

    def fen(self, en_passant: str | None = None) -> str:
        """The position as DFEN (:meth:`dfen`). ``en_passant`` is taken as by
        :meth:`Game.fen`, but a DFEN writes every target (``'all'``): a target
        stands for the opponent's whole turn, and the turn tree reads it."""
        if en_passant not in (None, "all"):
            raise ArgumentError(f"a DFEN writes every en-passant target (en_passant='all'), "
                                f"not {en_passant!r}: a target stands for the opponent's "
                                f"whole turn")
        return self.dfen()

    def winner(self) -> str | None:
        """The colour that won (captured a king, or a preset's ending), or None
        while the game goes on."""
        res = self.session.facts_of("result")
        return res[0].values["winner"] if res else None

    def over_text(self) -> str:
        """Why the game is over, for messages: "white captured the king", or a
        preset's ending ("white won by first promotion")."""
        res = self.session.facts_of("result")
        if not res:
            return "the game goes on"
        v = res[0].values
        if v["reason"] == KING_CAPTURED:
            return f"{v['winner']} captured the king"
        return f"{v['winner']} won by {v['reason']}"

    def is_game_over(self) -> bool:
        """Whether a micro-move ended the game (a king taken, a preset's ending)."""
        return bool(self.session.facts_of("result"))

    def outcome(self):
        """The result if a micro-move decided the game (a king taken, or a preset's
        ending), else None: Dice Chess has no stalemate or draws to ask about.

        A finished game read from its DFEN names the rule it had when played: no
        firing asserted its result (the setup did, from the board or the
        ``winner:`` token), so the rule is the production that judges the
        position so (a preset's ending that reads the board: extinction), else
        the one production that asserts a result with that reason (a king
        captured: ``dice.king-capture``; a first promotion), else None (an
        ending a function decides on an event, such as explosive-rook's blast)."""
        res = self.session.facts_of("result")
        if not res:
            return None
        out = Outcome.from_fact(res[0])
        if out.rule is None:
            out = replace(out, rule=self._deciding_rule(res[0]))
        return out

    def outcome_if_decided(self):
        """The same as :meth:`outcome`: a Dice Chess result stands as a fact."""
        return self.outcome()

    def _deciding_rule(self, result) -> str | None:
        v = result.values
        return self._rule_judging_now(result) or _rule_asserting(self.ruleset, v["reason"])

    def _rule_judging_now(self, result) -> str | None:
        """The production of the ``result`` stage that, the result taken away,
        asserts the same one again on this position; the game is left as it was."""
        s = self.session
        if s.firing:
            return None         # (from a rule's action: the session is not ours to run)
        want = (result.values["winner"], result.values["reason"])
        mark = s.checkpoint()
        try:
            s.retract(result)
            s.run(stages=("result",), max_firings=self.max_firings)
            for f in s.facts_of("result"):
                if f.origin and (f.values["winner"], f.values["reason"]) == want:
                    return f.origin[0]
        except (ReteError, ChessError):
            pass                # a rule that cannot judge this position: none to name
        finally:
            s.rollback(mark)
        return None

    def is_stalemate(self) -> bool:
        """False: a side with no micro-move passes its turn (``end_turn``); Dice
        Chess has no stalemate (nor check, so no checkmate either)."""
        return False

    # Game's record of a game, which Dice Chess has no form of: its turns are
    # rolls and several micro-moves, and it has no draw by repetition

    def repetitions(self) -> int:
        """Refused (:class:`DiceError`): Dice Chess has no repetition rule."""
        raise DiceError("Dice Chess keeps no repetition history (it has no draw by "
                        "repetition)")

    def pgn(self, headers=None) -> str:
        """Refused (:class:`DiceError`): Dice Chess has no PGN."""
        raise DiceError(_NO_PGN)

    @classmethod
    def from_pgn(cls, text, presets=None, ruleset=None, config=None, source=None):
        """Refused (:class:`DiceError`): Dice Chess has no PGN."""
        raise DiceError(_NO_PGN)

    # ------------------------------------------------------------ micro-moves

    @classmethod
    def refuses_ruleset(cls, ruleset: RuleSet) -> str | None:
        """None for a Dice Chess rule set (every rule set a DiceGame is given is
        made one, :func:`as_dice_rules`)."""
        return None if ruleset.config.get("dice") else super().refuses_ruleset(ruleset)

    def illegal_move_error(self, uci: str, reason: str, rule: str | None) -> ChessError:
        """The classes :func:`dice.apply_move` refuses with, so that a caller
        catches the same refusal from either: the game over
        (:class:`GameOverError`), no die (:class:`NoDieError`), else
        :class:`NotLegalMoveError` (the Maximum Micro-moves Rule is the turn
        tree's, not a micro-move's: ``push`` does not apply it)."""
        cls = (GameOverError if self.is_game_over() else
               NoDieError if rule == "dice.die-filter" else NotLegalMoveError)
        return cls(uci, reason, rule)

    def nothing_to_take_back_error(self) -> DiceError:
        """What :meth:`pop` raises with no micro-move on the stack."""
        return DiceError("no micro-move to take back")

    def micro_moves(self) -> list[tuple[str, tuple[str, ...], bool, Move]]:
        """The micro-moves (as :meth:`legal_moves`), each with what the tree
        builder needs: ``(uci, dice types it spends, whether it takes a royal
        piece of the opponent, move)``. Castling spends a king and a rook die."""
        st = self.state
        types, colors, royal = st.types, st.colors, st.royal
        turn = self.turn
        out = []
        for m in self.legal_moves():
            kind = m.kind
            frm_type = types[m.frm] or m.piece
            v = m.victim
            takes_royal = False
            if v is not None and kind == "normal":
                c = colors[v]
                takes_royal = c is not None and c != turn and types[v] in royal[c]
            out.append((m.uci(), move_dice(frm_type, kind), takes_royal, m))
        return out

    def explain(self, move) -> Explanation:
        """As :meth:`Game.explain`; a move whose piece has no die is refused by
        ``dice.die-filter`` (the movers of a type without a die do not run, so no
        generator refuses it: the missing die is the reason) when the die would
        make it a micro-move. A move the die would not free (a knight's move no
        knight makes, a blocked double step, castling through an attacked square)
        is explained as it would be with the die: the die filter never sees it."""
        ex = super().explain(move)
        if ex.legal or ex.rule is not None:
            return ex
        try:
            frm, to, _ = parse_uci(ex.move)
        except MoveParseError:
            return ex
        st = self.state
        ptype = st.types[frm]
        if ptype is None or st.colors[frm] != self.turn or self.is_game_over():
            return ex
        castle = ptype == "king" and castling_squares(self, self.turn, frm, to)
        kind = "castle" if castle else "normal"
        reason = missing_die(dice_left(self.session), ptype, kind, frm)
        if reason is None:
            return ex
        with_die, freed = self._explain_with_dice(ex.move, move_dice(ptype, kind))
        if freed or self._dropped_after_die_filter(with_die):
            # the producers the die lets run: as a rule set without the gates
            # (dice_rules(gate=False)) names them, its movers running and the
            # die filter dropping their move
            return Explanation(ex.move, False, "dice.die-filter", reason, with_die.generated_by)
        return with_die

    def _dropped_after_die_filter(self, ex: Explanation) -> bool:
        """Whether ``ex`` is a move generated and then dropped by a filter that runs
        after ``dice.die-filter`` (a preset's: suicide chess's compulsory capture):
        the die filter, first, would have dropped it for want of its die, and the
        later filter judged candidates the added die made (a capture it allowed)."""
        if not ex.generated_by or ex.rule is None:
            return False
        prods = self.ruleset.productions
        if ex.rule not in prods or "dice.die-filter" not in prods:
            return False
        rule, die = as_production(prods[ex.rule]), as_production(prods["dice.die-filter"])
        return rule.stage == die.stage and rule.salience < die.salience

    def _explain_with_dice(self, uci: str, types) -> tuple[Explanation, bool]:
        """How ``uci`` is explained with a die of each of ``types`` added, and
        whether those dice make it (or, for a move on a promotion's squares, one
        promotion on them) a micro-move. The dice are taken back: the game is
        left as it was."""
        s = self.session
        mark = s.checkpoint()
        try:
            top = max((f.values["index"] for f in self.dice_facts()), default=-1)
            for i, t in enumerate(types):
                # (a rule set's own piece type has no face: the die is make-believe anyway)
                s.assert_fact("die", type=t, face=TYPE_FACE.get(t, 0), index=top + 1 + i)
            ex = super().explain(uci)
            freed = ex.legal or any(k[:4] == uci[:4] and len(k) == 5
                                    for k in self.generate_moves())
        finally:
            s.rollback(mark)
        return ex, freed

    def key(self) -> tuple:
        """What decides the rest of the turn: board, rights, targets, dice, result.

        Under a rule set that keeps more state (a preset's piece attributes, a
        modifier's hooks, templates of its own), every fact counts, the clocks
        and fact identities aside: two orders of the same micro-moves are one
        position only if nothing a rule could read differs."""
        if self._full_key:
            return self._every_fact_key()
        bt = self.session.by_template
        st = self.state
        get = bt.get
        return (tuple(st.types), tuple(st.colors),
                tuple([f.values["moved"] if f is not None else None for f in st.facts]),
                frozenset([(f.values["side"], f.values["color"]) for f in get("castling", _NONE).values()]),
                frozenset([(f.values["square"], f.values["by"]) for f in get("ep", _NONE).values()]),
                tuple(sorted([f.values["type"] for f in get("die", _NONE).values()])),
                bool(get("result")))

    def _every_fact_key(self) -> tuple:
        out = []
        for f in self.session.facts.values():
            v = f.values
            if f.template == "game":
                v = {k: x for k, x in v.items() if k not in ("halfmove", "fullmove")}
            out.append(repr((f.template, sorted(v.items()))))
        out.sort()
        return tuple(out)

    # ------------------------------------------------------------ turn phases

    def roll(self, rng: RandomSource | int | None = None) -> None:
        """The ``roll`` stage: three dice from ``rng``, as :func:`dice.roll` takes it
        (a :class:`random.Random`, a seed, or None for a fresh unseeded source);
        refused if dice are left or the game is over."""
        rng = random_source(rng)
        if self.is_game_over():
            raise RollError(f"the game is over ({self.over_text()})")
        if self.dice():
            raise RollError(f"the dice are already rolled ({self.dice_letters()} left)")
        if self.session.firing:
            raise ReentrantCallError("roll")
        self.session.rng = rng
        try:
            with self.guarded():
                with self.request("roll", journaled=True, color=self.turn):
                    self.session.run(stages=("roll",), max_firings=self.max_firings)
                # (noted inside: a roll made is one copy() and a rebuild replay)
                self._note_phase("roll", tuple(f.values["face"] for f in self.dice_facts()))
        except ActionError as failed:
            if isinstance(failed.cause, RollError):
                # a draw the source got wrong (_CheckedSource): the roll's refusal,
                # the run undone by the engine
                raise failed.cause from None
            raise
        finally:
            self.session.rng = None

    def end_turn(self) -> None:
        """End the turn, as :func:`dice.end_turn` does: refused
        (:class:`~dice.errors.EndTurnError`) while a legal micro-move is left or
        once the game is over, the game left as it was."""
        if self.is_game_over():
            raise EndTurnError("game-over", f"the game is over ({self.over_text()})")
        if self.legal_moves():
            from .turns import turn_tree
            first = turn_tree(self.dfen(), None if self.plain_dice else self.ruleset).first()
            raise EndTurnError("moves-left", "a legal micro-move is left: " + ", ".join(first))
        self.run_end_turn()

    def run_end_turn(self) -> None:
        """The ``end-turn`` stage, unchecked (:meth:`end_turn` checks first)."""
        if self.session.firing:
            raise ReentrantCallError("run_end_turn")
        with self.guarded():
            with self.request("end-turn", journaled=True, color=self.turn):
                self.session.run(stages=("end-turn",), max_firings=self.max_firings)
            self._note_phase("end-turn")


def random_source(rng: RandomSource | int | None) -> RandomSource:
    """``rng`` as a source with ``randint``: a :class:`random.Random` (or any
    object with ``randint``) as it is, a seed or None as a new ``random.Random``."""
    if rng is None or (isinstance(rng, int) and not isinstance(rng, bool)):
        return random.Random(rng)
    if not callable(getattr(rng, "randint", None)):
        raise RollError(f"the random source must be a random.Random, a seed (int) or None, "
                        f"not {type(rng).__name__}")
    if getattr(type(rng), "randint", None) is random.Random.randint:
        return cast(RandomSource, rng)
    return _CheckedSource(rng)


class _CheckedSource:
    """A random source of the caller's own (anything with ``randint``), its draws
    checked: a face out of range reached the roll production as a die of no type
    (a KeyError in its action), and one such as ``2.0`` or ``True`` as a die
    whose face is no whole number."""

    def __init__(self, rng: object) -> None:
        self._rng = rng

    def randint(self, a: int, b: int) -> int:
        v = self._rng.randint(a, b)  # type: ignore[attr-defined]  # (checked callable above)
        if isinstance(v, bool) or not isinstance(v, int) or not a <= v <= b:
            raise RollError(f"the random source drew {quoted(v)}, not a whole number from {a} "
                            f"to {b}")
        return v


def _rule_asserting(ruleset: RuleSet, reason: str) -> str | None:
    """The one production that asserts a ``result`` with ``reason`` as written in
    it, or None (none, or several)."""
    found = []
    for name, prod in ruleset.productions.items():
        for a in as_production(prod).actions:
            if isinstance(a, AssertFact) and a.template == "result" \
                    and dict(a.slots).get("reason") == reason:
                found.append(name)
                break
    return found[0] if len(found) == 1 else None


class _Faces:
    """A random source that gives back the faces of a roll made before (for
    :meth:`DiceGame.copy`)."""

    def __init__(self, faces):
        self._faces = iter(faces)

    def randint(self, a, b):
        return next(self._faces)
