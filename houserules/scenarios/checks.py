"""The statements every scenario can run: :class:`ScenarioRunner` dispatches a
scenario's steps and expectations, and checks the expectations that read only
the legal moves and the board (a chess and a dice scenario alike)."""
from __future__ import annotations

import json
import re

from chess_rules.errors import ChessError
from chess_rules.squares import PIECE_TO_LETTER, SQUARE_NAMES

from rete.errors import ReteError

from .model import Arg, Expectation, Scenario, ScenarioError, ScenarioFailure, Step, scenario_error

#: a UCI move's shape on a board of any size (a1 .. l10); the parser checks
#: its squares are on the scenario's board
UCI_RE = re.compile(r"^[a-l](?:10|[1-9])[a-l](?:10|[1-9])[a-zA-Z]?$")

#: What the rules raise while a statement runs: a test or an action that raised
#: (``MatchError``, ``ActionError``), or a chess error no statement expects.
RULE_ERRORS = (ReteError, ChessError)


def rule_error(ex: Exception, where) -> ScenarioError:
    """A rule's error while a statement ran, at ``where`` (the statement, or the
    move being played); the message keeps the error's kind and its own position
    in the rule file."""
    return scenario_error(f"{type(ex).__name__}: {ex}", where)


class ScenarioRunner:
    """Runs a scenario's statements in order: ``step_<kind>`` for a step,
    ``expect_<kind>`` for an expectation (a subclass adds its own); the first
    expectation that does not hold raises :class:`ScenarioFailure`."""

    def __init__(self, sc: Scenario):
        self.sc = sc
        self.played: list[str] = []     # the moves of this game (dice: of this turn)
        self.log: list[str] = []        # every step so far, for messages
        # the statements run so far (run_scenario gives its own list, to say
        # where a scenario that timed out was)
        self.where: list = []

    def run(self) -> None:
        for item in self.sc.body:
            self.where.append(item)
            if isinstance(item, Step):
                handler = getattr(self, "step_" + item.kind.replace("-", "_"))
            else:
                handler = getattr(self, "expect_" + item.kind.replace("-", "_"), None)
                if handler is None:
                    game = "a dice" if self.sc.setup.is_dice else "a chess"
                    raise scenario_error(f"'expect {item.kind}' cannot be checked in {game} "
                                         "scenario", item)
            try:
                handler(item)
            except RULE_ERRORS as ex:       # a rule raised: at the statement that ran
                raise rule_error(ex, item) from ex

    # shared helpers -------------------------------------------------------
    def context(self) -> str:
        steps = ", ".join(self.log) or "(none)"
        return f"after: {steps}; position: {self.position()}"

    def fail(self, e: Expectation, expected: str, actual: str, explanation: str | None = None,
             at: Arg | None = None):
        raise ScenarioFailure(at.loc if at is not None else e.loc, e.source(), expected, actual,
                              explanation, self.context())

    def position(self) -> str:
        raise NotImplementedError

    def legal(self) -> list[str]:
        raise NotImplementedError

    def explain(self, uci: str) -> str | None:
        return None

    def refusing_rule(self, uci: str) -> tuple[str | None, str]:
        raise NotImplementedError

    def rule_names(self) -> set[str]:
        """The names of the productions of the scenario's rule set."""
        raise NotImplementedError

    def board(self):
        raise NotImplementedError

    # move expectations ---------------------------------------------------------
    def expect_legal(self, e: Expectation) -> None:
        legal = set(self.legal())
        for a in e.args:
            if a.text not in legal:
                self.fail(e, f"{a.text} is legal", f"{a.text} is illegal", self.explain(a.text), a)

    def expect_illegal(self, e: Expectation) -> None:
        legal = set(self.legal())
        for a in e.args:
            if a.text in legal:
                self.fail(e, f"{a.text} is illegal" + (f" (refused by {e.by})" if e.by else ""),
                          f"{a.text} is legal", self.explain(a.text), a)
            if e.text is not None:
                # the refusal's own words: the quoted text is part of the explanation
                _, said = self.refusing_rule(a.text)
                if e.text not in (said or ""):
                    self.fail(e, f"{a.text} refused with {json.dumps(e.text, ensure_ascii=False)}",
                              said or f"{a.text} is illegal, with no explanation", None, a)
            if e.by is not None:
                rule, text = self.refusing_rule(a.text)
                # the refusing rule, or, when no rule refused it by name, a rule the
                # explanation names (e.g. the pawn rules that do not reach that square)
                # (a production's name, as a word of the explanation: not any word,
                # nor the start of a longer name: house.step is not in house.step.diag)
                named = rule is None and text is not None and e.by.text in self.rule_names() \
                    and names_rule(text, e.by.text)
                if rule != e.by.text and not named:
                    self.fail(e, f"{a.text} refused by {e.by.text}",
                              f"{a.text} refused by {rule}" if rule else
                              f"{a.text} is illegal; no rule refused it by name and the "
                              f"explanation does not name {e.by.text}", text, a)

    def _compare_moves(self, e: Expectation, actual: list[str], what: str) -> None:
        want = sorted({a.text for a in e.args})
        got = sorted(set(actual))
        if want != got:
            missing = [m for m in want if m not in got]
            extra = [m for m in got if m not in want]
            detail = []
            if missing:
                detail.append("missing (illegal): " + " ".join(missing))
            if extra:
                detail.append("unexpected (legal): " + " ".join(extra))
            shown = missing[:5] + extra[:5]      # the engine's word on each difference
            expl = "\n".join(x for x in (self.explain(m) for m in shown) if x) or None
            self.fail(e, f"{what}: {' '.join(want) or 'none'}",
                      f"{what}: {' '.join(got) or 'none'} ({'; '.join(detail)})", expl)

    def expect_moves(self, e: Expectation) -> None:
        self._compare_moves(e, self.legal(), "legal moves")

    def expect_moves_from(self, e: Expectation) -> None:
        assert e.square is not None     # (the parser gives moves-from its square)
        sq = e.square.text
        self._compare_moves(e, [m for m in self.legal() if m[:2] == sq], f"legal moves from {sq}")

    def expect_count(self, e: Expectation) -> None:
        n = int(e.args[0].text)
        got = self.legal()
        if len(got) != n:
            self.fail(e, f"{n} legal moves", f"{len(got)} legal moves: {' '.join(got) or 'none'}")

    # board facts ---------------------------------------------------------------
    def expect_piece(self, e: Expectation) -> None:
        g = self.board()
        for a in e.args:
            letter, sq = a.text[0], a.text[1:]
            f = g.piece_at(sq)
            got = piece_letter(f)
            if got != letter:
                self.fail(e, f"{letter} on {sq}", f"{got} on {sq}" if got else f"{sq} is empty",
                          at=a)

    def expect_empty(self, e: Expectation) -> None:
        g = self.board()
        for a in e.args:
            f = g.piece_at(a.text)
            if f is not None:
                self.fail(e, f"{a.text} is empty", f"{piece_letter(f)} on {a.text}", at=a)

    def expect_hp(self, e: Expectation) -> None:
        g = self.board()
        assert e.square is not None     # (the parser gives hp its square)
        sq = e.square.text
        f = g.piece_at(sq)
        want = int(e.args[0].text)
        if f is None:
            self.fail(e, f"a piece with {want} hp on {sq}", f"{sq} is empty")
        if "hp" not in f.values:
            self.fail(e, f"a piece with {want} hp on {sq}",
                      f"{piece_letter(f)} on {sq} has no hp (is piece-hp active?)")
        if f.values["hp"] != want:
            self.fail(e, f"{want} hp on {sq}", f"{f.values['hp']} hp on {sq}")

    def expect_ep(self, e: Expectation) -> None:
        want = sorted(a.text for a in e.args)
        g = self.board()
        names = g.ruleset.shape.square_names if hasattr(g, "ruleset") else SQUARE_NAMES
        got = sorted(names[s] for s in g.ep_squares())
        if want != got:
            self.fail(e, f"en-passant targets: {' '.join(want) or 'none'}",
                      f"en-passant targets: {' '.join(got) or 'none'}")

    def expect_check(self, e: Expectation) -> None:
        g = self.board()
        if not g.is_check():
            self.fail(e, f"{g.turn} (to move) is in check", f"{g.turn} is not in check")

    def expect_not_check(self, e: Expectation) -> None:
        g = self.board()
        if g.is_check():
            self.fail(e, f"{g.turn} (to move) is not in check", f"{g.turn} is in check")

    def expect_turn(self, e: Expectation) -> None:
        g = self.board()
        if g.turn != e.args[0].text:
            self.fail(e, f"{e.args[0].text} to move", f"{g.turn} to move")


def names_rule(text: str, rule: str) -> bool:
    """Whether ``text`` names the production ``rule`` as a whole name: not inside
    a longer one (``fide.pawn`` is not in ``fide.pawn-capture``, ``house.step``
    is not in ``house.step.diag``); a dot that ends a sentence after it is no
    part of a name.

    >>> names_rule("rules for the rook: house.step.diag, fide.rook-move", "house.step")
    False
    >>> names_rule("refused by house.step.", "house.step")
    True
    """
    return re.search(r"(?<![\w.-])" + re.escape(rule) + r"(?![\w-]|\.[\w-])", text) is not None


def piece_letter(f) -> str | None:
    if f is None:
        return None
    v = f.values
    return PIECE_TO_LETTER.get((v["type"], v["color"]), f"{v['color']} {v['type']}")


def reason_matches(want: str, reason: str | None, rule: str | None) -> bool:
    w = want.lower()
    cands = []
    if reason:
        r = reason.lower()
        cands += [r, r.replace(" ", "-"), r.split()[0]]
    if rule:
        cands += [rule.lower(), rule.lower().rsplit(".", 1)[-1]]
    return w in cands


def outcome_text(out) -> str:
    if out is None:
        return "the game is not over"
    who = f"{out.winner} wins" if out.winner else "draw"
    return f"{who} by {out.reason}" + (f" ({out.rule})" if out.rule else "")
