"""A chess scenario, run on :class:`chess_rules.game.Game`."""
from __future__ import annotations

from chess_rules.errors import ChessError, FenError, IllegalMoveError, MoveParseError

from .checks import RULE_ERRORS, UCI_RE, ScenarioRunner, outcome_text, reason_matches, rule_error
from .model import Expectation, Scenario, ScenarioFailure, Step, scenario_error
from .setup import blame_edits, build_ruleset, start_text


class GameRunner(ScenarioRunner):
    """A scenario on :class:`chess_rules.game.Game`."""

    def __init__(self, sc: Scenario, base=None):
        super().__init__(sc)
        from chess_rules.game import Game
        ruleset = build_ruleset(sc, base)
        try:
            self.game = Game(start_text(sc, ruleset=ruleset), ruleset=ruleset)
        except FenError as ex:
            blame_edits(sc, ex, ruleset)
            raise

    def position(self) -> str:
        return self.game.fen()

    def legal(self) -> list[str]:
        return self.game.legal_uci()

    def board(self):
        return self.game

    def explain(self, uci: str) -> str | None:
        try:
            return self.game.explain(uci).text
        except Exception as ex:  # the explanation must never hide the failure
            return f"(no explanation: {type(ex).__name__}: {ex})"

    def refusing_rule(self, uci: str):
        ex = self.game.explain(uci)
        return ex.rule, ex.text

    def rule_names(self) -> set[str]:
        return set(self.game.ruleset.productions)

    # steps ------------------------------------------------------------------
    def step_move(self, st: Step) -> None:
        for a in st.args:
            try:
                if UCI_RE.match(a.text):
                    m = self.game.push(a.text)
                else:
                    m = self.game.push_san(a.text)
            except (IllegalMoveError, MoveParseError) as ex:
                expl = self.explain(a.text) if UCI_RE.match(a.text) else None
                raise ScenarioFailure(a.loc, f"move {a.text}", f"{a.text} can be played",
                                      str(ex), expl, self.context()) from None
            except RULE_ERRORS as ex:       # a rule raised: at the move being played
                raise rule_error(ex, a) from ex
            self.played.append(m.uci())
            self.log.append(m.uci())

    def step_undo(self, st: Step) -> None:
        try:
            self.game.pop()
        except ChessError as ex:
            raise ScenarioFailure(st.loc, "undo", "a move to take back", str(ex),
                                  context=self.context()) from None
        self.played.pop()
        self.log.append("undo")

    def step_end_turn(self, st: Step) -> None:
        raise scenario_error("'end turn' is a Dice Chess step: give the position with 'dfen'", st)

    def step_roll(self, st: Step) -> None:
        raise scenario_error("'roll' is a Dice Chess step: give the position with 'dfen'", st)

    # position and result ------------------------------------------------------
    def expect_fen(self, e: Expectation) -> None:
        assert e.text is not None       # (the parser gives fen the rest of its line)
        want = " ".join(e.text.split())
        got = self.game.fen()
        if want != got and want != self.game.fen(en_passant="all"):
            self.fail(e, want, got)

    def expect_checkmate(self, e: Expectation) -> None:
        out = self.game.outcome()
        if out is None or out.reason != "checkmate":
            self.fail(e, "checkmate", outcome_text(out))

    def expect_stalemate(self, e: Expectation) -> None:
        out = self.game.outcome()
        if out is None or out.reason != "stalemate":
            self.fail(e, "stalemate", outcome_text(out))

    def expect_winner(self, e: Expectation) -> None:
        out = self.game.outcome()
        who = e.args[0].text
        want = f"{who} wins" + (f" by {e.by}" if e.by else "")
        if out is None or out.winner != who or \
                (e.by is not None and not reason_matches(e.by.text, out.reason, out.rule)):
            self.fail(e, want, outcome_text(out))

    def expect_draw(self, e: Expectation) -> None:
        out = self.game.outcome()
        want = "draw" + (f" by {e.by}" if e.by else "")
        if out is None or out.winner is not None or \
                (e.by is not None and not reason_matches(e.by.text, out.reason, out.rule)):
            self.fail(e, want, outcome_text(out))

    def expect_ongoing(self, e: Expectation) -> None:
        out = self.game.outcome()
        if out is not None:
            self.fail(e, "the game is not over", outcome_text(out))

    def expect_perft(self, e: Expectation) -> None:
        d, n = int(e.args[0].text), int(e.args[1].text)
        got = self.game.perft(d)
        if got != n:
            self.fail(e, f"perft({d}) = {n}", f"perft({d}) = {got}")
