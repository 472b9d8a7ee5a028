"""A Dice Chess scenario, run on the DFEN functions of :mod:`dice`."""
from __future__ import annotations

import json

from chess_rules.errors import ChessError, IllegalMoveError, MoveParseError

from .checks import RULE_ERRORS, UCI_RE, ScenarioRunner, reason_matches, rule_error
from .model import Expectation, Scenario, ScenarioFailure, Step, scenario_error
from .setup import build_ruleset

FACE_LETTER = {1: "P", 2: "N", 3: "B", 4: "R", 5: "Q", 6: "K"}
LETTER_FACE = {v: k for k, v in FACE_LETTER.items()}


def _dice_api():
    """The DFEN functions of :mod:`dice` a dice scenario runs on."""
    import dice
    return {n: getattr(dice, n) for n in
            ("legal_uci_moves", "legal_turn_tree", "apply_move", "end_turn", "playable_dice")}


def _dfen_fields(text: str) -> list[str]:
    f = text.split()
    if len(f) == 4:
        f += ["0", "1"]
    if len(f) == 6:
        f.append("-")
    return f


class DiceRunner(ScenarioRunner):
    """A Dice Chess scenario on the DFEN functions of :mod:`dice`."""

    def __init__(self, sc: Scenario, base=None):
        super().__init__(sc)
        s = sc.setup
        self.api = _dice_api()
        # Dice Chess over FIDE, or over the presets, rule files and modifiers given
        self.rules = None
        if s.presets or s.config or s.rules or s.modifiers or s.ruleset or base is not None:
            from dice.rules import dice_rules
            self.rules = dice_rules(build_ruleset(sc, base))
        assert s.dfen is not None       # (is_dice: the setup gives a dfen)
        self.dfen = self._canonical(s.dfen.text)       # DfenError -> setup refused
        self.at_roll = self.dfen if self._faces() else None
        self.history: list[tuple[str, str | None, list[str]]] = []
        self._game_cache: tuple[str, object] | None = None

    def _canonical(self, text: str) -> str:
        """The DFEN as the dice API writes it (a preset's tokens included)."""
        if self.rules is None:
            from dice.dfen import parse_dfen, format_dfen
            return format_dfen(parse_dfen(text))
        from dice.engine import DiceGame
        return DiceGame(text, self.rules).dfen()

    def _faces(self, dfen: str | None = None) -> list[int]:
        letters = _dfen_fields(dfen or self.dfen)[6]
        return sorted(LETTER_FACE[c.upper()] for c in letters if c != "-")

    def position(self) -> str:
        return self.dfen

    def legal(self) -> list[str]:
        return list(self.api["legal_uci_moves"](self.dfen, self.rules))

    def board(self):
        if self._game_cache is None or self._game_cache[0] != self.dfen:
            from dice.engine import DiceGame
            self._game_cache = (self.dfen, DiceGame(self.dfen, self.rules))
        return self._game_cache[1]

    def _try(self, uci: str):
        try:
            self.api["apply_move"](self.dfen, uci, self.rules)
        except (IllegalMoveError, MoveParseError) as ex:
            return ex
        return None

    def explain(self, uci: str) -> str | None:
        ex = self._try(uci)
        if ex is None:
            return f"{uci}: legal"
        return f"{uci}: {ex}"

    def refusing_rule(self, uci: str):
        ex = self._try(uci)
        if ex is None:
            return None, f"{uci}: legal"
        return getattr(ex, "rule", None), f"{uci}: {ex}"

    def rule_names(self) -> set[str]:
        from dice.engine import as_dice_rules
        return set(as_dice_rules(self.rules).productions)

    # Dice Chess has no check (a king may stand attacked and be taken): the
    # expectations about it cannot be checked here, as checkmate cannot (no
    # handler: ScenarioRunner.run says so)
    expect_check = None         # type: ignore[assignment]
    expect_not_check = None     # type: ignore[assignment]

    def _save(self) -> None:
        self.history.append((self.dfen, self.at_roll, list(self.played)))

    # steps ------------------------------------------------------------------
    def step_move(self, st: Step) -> None:
        for a in st.args:
            if not UCI_RE.match(a.text):
                raise scenario_error(f"dice scenarios take moves in UCI, not {a.text!r}", a)
            u = a.text[:4] + a.text[4:].lower()
            try:
                new = self.api["apply_move"](self.dfen, u, self.rules)
            except (IllegalMoveError, MoveParseError) as ex:
                raise ScenarioFailure(a.loc, f"move {a.text}", f"{a.text} can be played",
                                      f"refused: {ex}", None, self.context()) from None
            except RULE_ERRORS as ex:       # a rule raised: at the move being played
                raise rule_error(ex, a) from ex
            self._save()
            self.dfen = new
            self.played.append(u)
            self.log.append(u)

    def step_end_turn(self, st: Step) -> None:
        try:
            new = self.api["end_turn"](self.dfen, self.rules)
        except ChessError as ex:
            raise ScenarioFailure(st.loc, "end turn", "the turn can end", f"refused: {ex}",
                                  None, self.context()) from None
        self._save()
        self.dfen = new
        self.at_roll = None
        self.played = []
        self.log.append("end turn")

    def step_roll(self, st: Step) -> None:
        if self._faces():
            raise ScenarioFailure(st.loc, "roll " + " ".join(a.text for a in st.args),
                                  "no dice left before the roll",
                                  "dice left: " + " ".join(map(str, self._faces())),
                                  None, self.context())
        if self.board().is_game_over():
            raise ScenarioFailure(st.loc, "roll", "a game in progress", "the game is over",
                                  None, self.context())
        faces = [int(a.text) for a in st.args]
        try:
            new = self._with_dice(faces)
        except ChessError as ex:
            raise scenario_error(f"cannot roll {' '.join(map(str, faces))}: {ex}", st) from None
        self._save()
        self.dfen = new
        self.at_roll = self.dfen
        self.played = []
        self.log.append("roll " + " ".join(a.text for a in st.args))

    def _with_dice(self, faces: list[int]) -> str:
        from dice import with_dice
        return with_dice(self.dfen, faces, self.rules)

    def step_undo(self, st: Step) -> None:
        if not self.history:
            raise ScenarioFailure(st.loc, "undo", "a step to take back", "nothing was played",
                                  None, self.context())
        self.dfen, self.at_roll, self.played = self.history.pop()
        self.log.append("undo")

    # expectations --------------------------------------------------------------
    def expect_fen(self, e: Expectation) -> None:
        assert e.text is not None       # (the parser gives fen the rest of its line)
        try:
            want = self._canonical(e.text)
        except ChessError as ex:
            raise scenario_error(f"bad DFEN in 'expect fen': {ex}", e) from None
        if want != self.dfen:
            self.fail(e, want, self.dfen)

    def expect_dice(self, e: Expectation) -> None:
        want = sorted(int(a.text) for a in e.args)
        got = self._faces()
        if want != got:
            self.fail(e, f"dice left: {' '.join(map(str, want)) or 'none'}",
                      f"dice left: {' '.join(map(str, got)) or 'none'}")

    def expect_tree(self, e: Expectation) -> None:
        assert e.text is not None       # (the parser gives tree the rest of its line)
        want = json.loads(e.text)
        got = self.api["legal_turn_tree"](self.dfen, self.rules)
        if want != got:
            self.fail(e, json.dumps(want, sort_keys=True), json.dumps(got, sort_keys=True))

    def expect_playable(self, e: Expectation) -> None:
        want = None if e.text == "null" else sorted(int(a.text) for a in e.args)
        if self.at_roll is None:
            raise scenario_error("'expect playable' needs dice: give them in the dfen or 'roll' first", e)
        got = self.api["playable_dice"](self.at_roll, list(self.played), self.rules)
        if got is not None:
            got = sorted(got)
        if want != got:
            fmt = lambda v: "null" if v is None else (" ".join(map(str, v)) or "none")
            self.fail(e, f"playable dice: {fmt(want)}", f"playable dice: {fmt(got)}")

    def _winner(self):
        g = self.board()
        return g.winner() if g.is_game_over() else None

    def expect_winner(self, e: Expectation) -> None:
        g = self.board()
        res = g.session.facts_of("result")
        who = e.args[0].text
        want = f"{who} wins" + (f" by {e.by}" if e.by else "")
        if not res:
            self.fail(e, want, "the game is not over")
        v = res[0].values
        # (the rule as the game names it: a position read back from its DFEN too)
        if v["winner"] != who or (e.by is not None and not reason_matches(
                e.by.text, v.get("reason"), g.outcome().rule)):
            self.fail(e, want, f"{v['winner']} wins by {v.get('reason')}")

    def expect_ongoing(self, e: Expectation) -> None:
        w = self._winner()
        if w is not None:
            self.fail(e, "the game is not over", f"{w} wins")
