"""Run a :class:`Scenario` on the Game API (or, with ``dfen``, on the dice API).

:func:`run_scenario` returns normally when every expectation holds, raises
:class:`ScenarioFailure` (what was expected, what happened, the engine's
explanation of the move involved) at the first that does not, and
:class:`ScenarioError` when the scenario itself cannot be set up or played
(unknown preset, bad FEN, a move the position refuses).
"""
from __future__ import annotations

import json
import os
import re
import signal
import threading
from pathlib import Path

from chess_rules.errors import ChessError, IllegalMoveError, MoveParseError
from chess_rules.fen import STARTING_FEN
from chess_rules.squares import PIECE_TO_LETTER, SQUARE_NAMES, parse_square

from rete.errors import ReteError

from .model import Arg, Expectation, Loc, Scenario, ScenarioError, Step

#: What a refused setup raises: the chess layer's errors (presets, FEN, modifiers),
#: the engine's (a rule file that does not compile), bad values, unreadable files.
_REFUSALS = (ChessError, ReteError, ValueError, OSError)

UCI_RE = re.compile(r"^[a-h][1-8][a-h][1-8][a-zA-Z]?$")
#: Seconds a scenario may run before it is stopped (``HOUSERULES_SCENARIO_TIMEOUT``; 0 = never).
DEFAULT_TIMEOUT = 60.0
FACE_LETTER = {1: "P", 2: "N", 3: "B", 4: "R", 5: "Q", 6: "K"}
LETTER_FACE = {v: k for k, v in FACE_LETTER.items()}


class ScenarioFailure(AssertionError):
    """An expectation that does not hold."""

    def __init__(self, loc: Loc, statement: str, expected: str, actual: str,
                 explanation: str | None = None, context: str | None = None):
        self.loc = loc
        self.statement = statement
        self.expected = expected
        self.actual = actual
        self.explanation = explanation
        self.context = context
        super().__init__(self.report())

    def report(self) -> str:
        lines = [f"{self.loc}: {self.statement}",
                 f"  expected: {self.expected}",
                 f"  actual:   {self.actual}"]
        if self.explanation:
            for i, ln in enumerate(self.explanation.splitlines()):
                lines.append(("  explanation: " if i == 0 else "               ") + ln)
        if self.context:
            lines.append(f"  {self.context}")
        return "\n".join(lines)


def _err(msg: str, where) -> ScenarioError:
    loc = where.loc if isinstance(where, (Arg, Step, Expectation)) else where
    return ScenarioError(msg, loc.file, loc.line, loc.column)


# ------------------------------------------------------------------ setup

def _base_dir(sc: Scenario) -> Path:
    return Path(sc.file).resolve().parent if sc.file and not sc.file.startswith("<") else Path.cwd()


def build_ruleset(sc: Scenario):
    """The rule set a scenario's setup describes (typed errors propagate)."""
    s = sc.setup
    ids = [a.text for a in s.presets]
    if ids or s.config:
        from presets.registry import load
        rs = load(*ids, config=s.config or None)
    else:
        from chess_rules.fide import fide_rules
        rs = fide_rules()
    base = _base_dir(sc)
    for arg in s.rules:
        try:
            from chess_rules.custom import load_rule_file
        except ImportError as e:
            raise _err(f"'rules' needs chess_rules.custom.load_rule_file, which is not "
                       f"available ({e})", arg) from None
        path = Path(arg.text)
        if not path.is_absolute():
            path = base / path
        rs = load_rule_file(rs, str(path))
    for arg, squares in s.modifiers:
        try:
            from presets.modifiers import attach
        except ImportError as e:
            raise _err(f"'modifier' needs presets.modifiers.attach, which is not available ({e})",
                       arg) from None
        rs = attach(rs, arg.text, squares=list(squares) if squares else None,
                    base_dir=str(base))
    return rs


def start_text(sc: Scenario) -> str:
    """The starting FEN (or extended position) after fen/layout, place and remove."""
    s = sc.setup
    if s.fen is not None:
        text = s.fen.text
    elif s.layout is not None:
        from presets.layouts import get_layout
        text = get_layout(s.layout.text).fen
    else:
        text = STARTING_FEN
    if s.place or s.remove:
        text = _edit_board(text, s.place, s.remove, s.fen or s.layout or sc)
    return text


def _edit_board(text: str, place, remove, where) -> str:
    fields = text.split()
    rows = fields[0].split("/") if fields else []
    if len(rows) != 8:
        raise _err(f"cannot place pieces: {fields[0] if fields else text!r} is not an 8-rank board",
                   where.loc if hasattr(where, "loc") else where)
    board: list[str | None] = []
    for row in reversed(rows):          # rank 1 first
        cells: list[str | None] = []
        for ch in row:
            if ch.isdigit():
                cells += [None] * int(ch)
            else:
                cells.append(ch)
        if len(cells) != 8:
            raise _err(f"cannot place pieces: rank {row!r} does not hold 8 squares",
                       where.loc if hasattr(where, "loc") else where)
        board += cells
    for sq, loc in remove:
        board[parse_square(sq)] = None
    for letter, sq, loc in place:
        board[parse_square(sq)] = letter
    out = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for f in range(8):
            c = board[rank * 8 + f]
            if c is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += c
        out.append(row + (str(empty) if empty else ""))
    fields[0] = "/".join(out)
    return " ".join(fields)


def _locate_setup_error(sc: Scenario, e: Exception) -> ScenarioError:
    """Point a refused setup at the statement (and word) responsible."""
    s = sc.setup
    name = type(e).__name__
    msg = f"{name}: {e}"
    names = {c.__name__ for c in type(e).__mro__}
    if "UnknownPresetError" in names:
        try:
            from presets.registry import _modules
            known = set(_modules())
        except Exception:  # pragma: no cover - registry itself broken
            known = set()
        for a in s.presets:
            if a.text not in known:
                return _err(msg, a)
    if "UnknownLayoutError" in names and s.layout is not None:
        return _err(msg, s.layout)
    if "PresetConfigError" in names and s.config_loc is not None:
        text = str(e)
        for a in s.config_args:             # the word of the preset the error names
            pid = a.text.split(".", 1)[0]
            if f"'{pid}'" in text or f'"{pid}"' in text:
                return _err(msg, a)
        return _err(msg, s.config_loc)
    if names & {"FenError", "DfenError"}:
        src = s.dfen or s.fen or s.layout
        if src is not None:
            return _err(msg, src)
    if "PresetError" in names and s.presets:
        return _err(msg, s.presets[0])
    for arg in s.rules:
        if arg.text in str(e) or Path(arg.text).name in str(e):
            return _err(msg, arg)
    for arg, _ in s.modifiers:
        if arg.text in str(e):
            return _err(msg, arg)
    if s.rules and "Rule" in name:
        return _err(msg, s.rules[0])
    if s.modifiers and ("Modifier" in name or "Descriptor" in name):
        return _err(msg, s.modifiers[0][0])
    return _err(msg, sc.loc)


# ------------------------------------------------------------------ running

class _Timeout(BaseException):
    pass


def scenario_timeout() -> float:
    raw = os.environ.get("HOUSERULES_SCENARIO_TIMEOUT")
    try:
        return float(raw) if raw else DEFAULT_TIMEOUT
    except ValueError:
        return DEFAULT_TIMEOUT


def run_scenario(sc: Scenario, timeout: float | None = None) -> None:
    """Run one scenario; raise :class:`ScenarioFailure` or :class:`ScenarioError`.

    A scenario still running after ``timeout`` seconds (default
    :func:`scenario_timeout`) is stopped with a :class:`ScenarioError` at the
    statement it was running (only where SIGALRM can be used: the main thread).
    """
    timeout = scenario_timeout() if timeout is None else timeout
    usable = timeout and timeout > 0 and hasattr(signal, "setitimer") and \
        threading.current_thread() is threading.main_thread()
    if not usable:
        return _run_scenario(sc)
    where: list = [sc]

    def on_alarm(signum, frame):
        raise _Timeout()

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        _run_scenario(sc, where)
    except _Timeout:
        item = where[-1]
        what = f"while running {item.source() if isinstance(item, Expectation) else item.kind}" \
            if isinstance(item, (Step, Expectation)) else "while setting up"
        raise _err(f"scenario {sc.name!r} timed out after {timeout:g}s {what} "
                   f"(HOUSERULES_SCENARIO_TIMEOUT sets the limit)",
                   item if isinstance(item, (Step, Expectation)) else sc.loc) from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _run_scenario(sc: Scenario, where: list | None = None) -> None:
    refused = [e for e in sc.expectations if e.kind == "refused"]
    if refused:
        first = refused[0]
        if sc.body[0] is not first or len(sc.body) > 1:
            raise _err("'expect refused' checks the setup: it must be the only statement "
                       "after the setup", first)
    try:
        runner = DiceRunner(sc) if sc.setup.is_dice else GameRunner(sc)
    except ScenarioError:
        raise
    except _REFUSALS as e:
        if refused:
            kind = refused[0].args[0].text
            names = [c.__name__ for c in type(e).__mro__]
            if kind in names:
                return
            raise ScenarioFailure(refused[0].loc, refused[0].source(),
                                  f"the setup refused with {kind}",
                                  f"refused with {type(e).__name__}: {e}") from None
        raise _locate_setup_error(sc, e) from None
    if refused:
        raise ScenarioFailure(refused[0].loc, refused[0].source(),
                              f"the setup refused with {refused[0].args[0].text}",
                              "the setup was accepted")
    runner.where = where if where is not None else []
    runner.run()


class _Runner:
    def __init__(self, sc: Scenario):
        self.sc = sc
        self.played: list[str] = []     # the moves of this game (dice: of this turn)
        self.log: list[str] = []        # every step so far, for messages

    def run(self) -> None:
        for item in self.sc.body:
            self.where.append(item)
            if isinstance(item, Step):
                getattr(self, "step_" + item.kind.replace("-", "_"))(item)
            else:
                handler = getattr(self, "expect_" + item.kind.replace("-", "_"), None)
                if handler is None:
                    raise _err(f"'expect {item.kind}' cannot be checked in "
                               f"{'a dice' if self.sc.setup.is_dice else 'a chess'} scenario", item)
                handler(item)

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
            if e.by is not None:
                rule, text = self.refusing_rule(a.text)
                # the refusing rule, or, when no rule refused it by name, a rule the
                # explanation names (e.g. the pawn rules that do not reach that square)
                named = rule is None and text is not None and \
                    re.search(r"(?<![\w.-])" + re.escape(e.by.text) + r"(?![\w-])", text)
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
            got = _letter(f)
            if got != letter:
                self.fail(e, f"{letter} on {sq}", f"{got} on {sq}" if got else f"{sq} is empty",
                          at=a)

    def expect_empty(self, e: Expectation) -> None:
        g = self.board()
        for a in e.args:
            f = g.piece_at(a.text)
            if f is not None:
                self.fail(e, f"{a.text} is empty", f"{_letter(f)} on {a.text}", at=a)

    def expect_hp(self, e: Expectation) -> None:
        g = self.board()
        sq = e.square.text
        f = g.piece_at(sq)
        want = int(e.args[0].text)
        if f is None:
            self.fail(e, f"a piece with {want} hp on {sq}", f"{sq} is empty")
        if "hp" not in f.values:
            self.fail(e, f"a piece with {want} hp on {sq}",
                      f"{_letter(f)} on {sq} has no hp (is piece-hp active?)")
        if f.values["hp"] != want:
            self.fail(e, f"{want} hp on {sq}", f"{f.values['hp']} hp on {sq}")

    def expect_ep(self, e: Expectation) -> None:
        want = sorted(a.text for a in e.args)
        got = sorted(SQUARE_NAMES[s] for s in self.board().ep_squares())
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


def _letter(f) -> str | None:
    if f is None:
        return None
    v = f.values
    return PIECE_TO_LETTER.get((v["type"], v["color"]), f"{v['color']} {v['type']}")


def _reason_matches(want: str, reason: str | None, rule: str | None) -> bool:
    w = want.lower()
    cands = []
    if reason:
        r = reason.lower()
        cands += [r, r.replace(" ", "-"), r.split()[0]]
    if rule:
        cands += [rule.lower(), rule.lower().rsplit(".", 1)[-1]]
    return w in cands


def _outcome_text(out) -> str:
    if out is None:
        return "the game is not over"
    who = f"{out.winner} wins" if out.winner else "draw"
    return f"{who} by {out.reason}" + (f" ({out.rule})" if out.rule else "")


class GameRunner(_Runner):
    """A scenario on :class:`chess_rules.game.Game`."""

    def __init__(self, sc: Scenario):
        super().__init__(sc)
        from chess_rules.game import Game
        ruleset = build_ruleset(sc)
        self.game = Game(start_text(sc), ruleset=ruleset)

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
        raise _err("'end turn' is a Dice Chess step: give the position with 'dfen'", st)

    def step_roll(self, st: Step) -> None:
        raise _err("'roll' is a Dice Chess step: give the position with 'dfen'", st)

    # position and result ------------------------------------------------------
    def expect_fen(self, e: Expectation) -> None:
        want = " ".join(e.text.split())
        got = self.game.fen()
        if want != got and want != self.game.fen(en_passant="all"):
            self.fail(e, want, got)

    def expect_checkmate(self, e: Expectation) -> None:
        out = self.game.outcome()
        if out is None or out.reason != "checkmate":
            self.fail(e, "checkmate", _outcome_text(out))

    def expect_stalemate(self, e: Expectation) -> None:
        out = self.game.outcome()
        if out is None or out.reason != "stalemate":
            self.fail(e, "stalemate", _outcome_text(out))

    def expect_winner(self, e: Expectation) -> None:
        out = self.game.outcome()
        who = e.args[0].text
        want = f"{who} wins" + (f" by {e.by}" if e.by else "")
        if out is None or out.winner != who or \
                (e.by is not None and not _reason_matches(e.by.text, out.reason, out.rule)):
            self.fail(e, want, _outcome_text(out))

    def expect_draw(self, e: Expectation) -> None:
        out = self.game.outcome()
        want = "draw" + (f" by {e.by}" if e.by else "")
        if out is None or out.winner is not None or \
                (e.by is not None and not _reason_matches(e.by.text, out.reason, out.rule)):
            self.fail(e, want, _outcome_text(out))

    def expect_ongoing(self, e: Expectation) -> None:
        out = self.game.outcome()
        if out is not None:
            self.fail(e, "the game is not over", _outcome_text(out))

    def expect_perft(self, e: Expectation) -> None:
        d, n = int(e.args[0].text), int(e.args[1].text)
        got = self.game.perft(d)
        if got != n:
            self.fail(e, f"perft({d}) = {n}", f"perft({d}) = {got}")


# ------------------------------------------------------------------ dice

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


class DiceRunner(_Runner):
    """A Dice Chess scenario on the DFEN functions of :mod:`dice`."""

    def __init__(self, sc: Scenario):
        super().__init__(sc)
        s = sc.setup
        self.api = _dice_api()
        # Dice Chess over FIDE, or over the presets, rule files and modifiers given
        self.rules = None
        if s.presets or s.config or s.rules or s.modifiers:
            from dice.rules import dice_rules
            self.rules = dice_rules(build_ruleset(sc))
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

    def _save(self) -> None:
        self.history.append((self.dfen, self.at_roll, list(self.played)))

    # steps ------------------------------------------------------------------
    def step_move(self, st: Step) -> None:
        for a in st.args:
            if not UCI_RE.match(a.text):
                raise _err(f"dice scenarios take moves in UCI, not {a.text!r}", a)
            u = a.text[:4] + a.text[4:].lower()
            try:
                new = self.api["apply_move"](self.dfen, u, self.rules)
            except (IllegalMoveError, MoveParseError) as ex:
                raise ScenarioFailure(a.loc, f"move {a.text}", f"{a.text} can be played",
                                      f"refused: {ex}", None, self.context()) from None
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
            raise _err(f"cannot roll {' '.join(map(str, faces))}: {ex}", st) from None
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
        try:
            want = self._canonical(e.text)
        except ChessError as ex:
            raise _err(f"bad DFEN in 'expect fen': {ex}", e) from None
        if want != self.dfen:
            self.fail(e, want, self.dfen)

    def expect_dice(self, e: Expectation) -> None:
        want = sorted(int(a.text) for a in e.args)
        got = self._faces()
        if want != got:
            self.fail(e, f"dice left: {' '.join(map(str, want)) or 'none'}",
                      f"dice left: {' '.join(map(str, got)) or 'none'}")

    def expect_tree(self, e: Expectation) -> None:
        want = json.loads(e.text)
        got = self.api["legal_turn_tree"](self.dfen, self.rules)
        if want != got:
            self.fail(e, json.dumps(want, sort_keys=True), json.dumps(got, sort_keys=True))

    def expect_playable(self, e: Expectation) -> None:
        want = None if e.text == "null" else sorted(int(a.text) for a in e.args)
        if self.at_roll is None:
            raise _err("'expect playable' needs dice: give them in the dfen or 'roll' first", e)
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
        w = self._winner()
        who = e.args[0].text
        if w != who:
            self.fail(e, f"{who} wins", f"{w} wins" if w else "the game is not over")

    def expect_ongoing(self, e: Expectation) -> None:
        w = self._winner()
        if w is not None:
            self.fail(e, "the game is not over", f"{w} wins")
