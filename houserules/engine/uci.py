"""The UCI front end: ``houserules uci`` speaks the Universal Chess Interface
on stdin and stdout, for GUIs and tools (python-chess's ``chess.engine``,
lichess-bot, cutechess, Arena).

Commands: ``uci``, ``isready``, ``ucinewgame``, ``setoption name N [value V]``,
``position startpos|fen FEN [moves M...]``, ``go`` (``depth``, ``nodes``,
``movetime``, ``wtime``/``btime``/``winc``/``binc``/``movestogo``,
``infinite``; ``go perft N`` prints the divide as Stockfish does), ``stop``,
``quit``, and ``d`` (the position, as ``info string`` lines).

Options: ``UCI_Variant`` (``chess``, a preset id, or a variant of the
built-in variants.ini catalogue such as ``capablanca``, as Fairy-Stockfish
names them; the game starts from the preset's layout or the variant's start,
on the variant's board), ``Presets`` (any compatible combination of preset ids,
commas or spaces apart; when set it replaces UCI_Variant's), ``Config`` (the
presets' settings in the ``--config`` syntax, ``extinction-chess.target_type=knight``),
``Skill Level`` (1..10, see :mod:`houserules.engine.levels`; 10 searches to
the limits ``go`` gives), ``Hash`` (MB of transposition table), ``Threads``
(1: the search is single-threaded).

Robustness: a line that is not understood, an option out of range, a bad
FEN or an illegal move is reported as ``info string`` and ignored (an illegal
move in ``position`` leaves the previous position); the search runs in a
thread, on its own copy of the game, so that ``stop``, ``isready`` and
``quit`` are answered at once and ``position`` or ``setoption`` during a
search prepare the next one; a ``go`` during a search stops it (its
``bestmove`` comes first). At the end of the input a search with limits
finishes and prints its ``bestmove``. Nothing but protocol is
ever written to the output.
"""
from __future__ import annotations

import sys
import threading
from typing import Callable

import presets
from chess_rules.game import Game
from chess_rules.variants import catalogue, load_variant
from presets.layouts import preferred_layout
from presets.registry import parse_config_text

from .levels import LEVELS, get_level
from .search import Info, Limits, Searcher

NAME = "houserules"
AUTHOR = "the houserules authors"
#: bytes a transposition table entry costs, about (key text and tuple)
ENTRY_BYTES = 250
MOVE_OVERHEAD = 0.05        # seconds kept back from the clock for the I/O


class _Abort(Exception):
    """``stop`` during ``go perft``."""


class UciEngine:
    """One UCI session: ``handle(line)`` for each input line; ``write`` is
    called with each output line (stdout's by default)."""

    def __init__(self, write=None):
        self._write = write or _stdout_line
        self._lock = threading.Lock()
        self.variant = "chess"
        self.presets_text = ""
        self.config_text = ""
        self.skill = 10
        self.hash_mb = 16
        self.ruleset = presets.load()
        self.start = self._start_fen()
        self.game = Game(self.start, ruleset=self.ruleset)
        self.searcher: Searcher | None = None
        self.thread: threading.Thread | None = None
        self.stop_event = threading.Event()
        self.infinite = False
        self.quit = False

    # ------------------------------------------------------------ output

    def send(self, line: str) -> None:
        with self._lock:
            self._write(line)

    def info(self, text: str) -> None:
        """An ``info string``: one line, whatever the text holds."""
        self.send("info string " + " ".join(str(text).split()))

    # ------------------------------------------------------------ dispatch

    def handle(self, line: str) -> None:
        """Act on one input line; never raises (but for ``quit``, which sets
        :attr:`quit`)."""
        tokens = line.split()
        if not tokens:
            return
        command, args = tokens[0], tokens[1:]
        handler = _COMMANDS.get(command)
        if handler is None:
            self.info(f"unknown command: {line.strip()[:80]}")
            return
        try:
            handler(self, args)
        except Exception as e:          # a bug must not end the session
            self.info(f"error in {command}: {type(e).__name__}: {e}")

    def run(self, lines) -> None:
        """Read commands from ``lines`` (stdin's) until ``quit`` or the end
        (where a search that has limits is let finish, an infinite one stopped)."""
        for line in lines:
            self.handle(line)
            if self.quit:
                break
        if self.thread is not None and not self.infinite:
            self.thread.join()
        self._stop_search()

    # ------------------------------------------------------------ commands

    def cmd_uci(self, args) -> None:
        from importlib.metadata import PackageNotFoundError, version
        try:
            v = version("houserules")
        except PackageNotFoundError:
            v = "dev"
        self.send(f"id name {NAME} {v}")
        self.send(f"id author {AUTHOR}")
        variants = " ".join("var " + v for v in ["chess"] + _preset_ids() + _variant_names())
        self.send(f"option name UCI_Variant type combo default chess {variants}")
        self.send("option name Presets type string default <empty>")
        self.send("option name Config type string default <empty>")
        self.send(f"option name Skill Level type spin default 10 min 1 max {max(LEVELS)}")
        self.send("option name Hash type spin default 16 min 1 max 4096")
        self.send("option name Threads type spin default 1 min 1 max 1")
        self.send("uciok")

    def cmd_isready(self, args) -> None:
        self.send("readyok")

    def cmd_ucinewgame(self, args) -> None:
        self.searcher = None
        self.game = Game(self.start, ruleset=self.ruleset)

    def cmd_setoption(self, args) -> None:
        if not args or args[0] != "name":
            self.info("setoption: expected 'setoption name NAME [value VALUE]'")
            return
        rest = args[1:]
        if "value" in rest:
            i = rest.index("value")
            name, value = " ".join(rest[:i]), " ".join(rest[i + 1:])
        else:
            name, value = " ".join(rest), ""
        if value == "<empty>":
            value = ""
        key = name.lower()
        if key in ("uci_variant", "presets", "config"):
            self._set_rules(key, value)
        elif key == "skill level":
            try:
                self.skill = get_level(int(value)).level
            except ValueError:
                self.info(f"Skill Level is a whole number from 1 to {max(LEVELS)}, "
                          f"not {value!r}; kept {self.skill}")
        elif key == "hash":
            if not value.isdigit() or not 1 <= int(value) <= 4096:
                self.info(f"Hash is a whole number of MB from 1 to 4096, not {value!r}; "
                          f"kept {self.hash_mb}")
                return
            self.hash_mb = int(value)
            self.searcher = None
        elif key == "threads":
            if value != "1":
                self.info(f"Threads: the search is single-threaded, 1 only (not {value!r})")
        else:
            self.info(f"no such option: {name!r}")

    def _set_rules(self, key: str, value: str) -> None:
        """A change of UCI_Variant, Presets or Config: the rules are built again
        and the game goes back to their start; a refusal keeps the old ones."""
        variant, text, config = self.variant, self.presets_text, self.config_text
        if key == "uci_variant":
            if value != "chess" and value not in _preset_ids() + _variant_names():
                self.info(f"UCI_Variant: no variant {value!r}; kept {self.variant}")
                return
            variant = value
        elif key == "presets":
            text = value
        else:
            config = value
        try:
            ids = _ids(variant, text)
            if ids == [variant] and variant in _variant_names():
                if config.strip():
                    raise ValueError(f"Config sets presets' settings; {variant} is a "
                                     "variants.ini variant, which has none")
                ruleset = load_variant(variant)
            else:
                settings = parse_config_text(config) if config.strip() else None
                ruleset = presets.load(*presets.with_requirements(ids), config=settings)
            start = self._start_fen(ruleset)
            game = Game(start, ruleset=ruleset)
        except Exception as e:
            self.info(f"{key}: {e}; kept the previous rules")
            return
        self.variant, self.presets_text, self.config_text = variant, text, config
        self.ruleset, self.start, self.game = ruleset, start, game
        self.searcher = None
        if ruleset.presets:
            self.info("rules: " + ", ".join(ruleset.presets))

    def _start_fen(self, ruleset=None) -> str:
        ruleset = ruleset or self.ruleset
        return ruleset.config.get("start-fen") or preferred_layout(ruleset.presets).fen

    def cmd_position(self, args) -> None:
        if not args:
            self.info("position: expected 'position startpos|fen FEN [moves ...]'")
            return
        if "moves" in args:
            i = args.index("moves")
            where, moves = args[:i], args[i + 1:]
        else:
            where, moves = args, []
        try:
            if where[0] == "startpos" and len(where) == 1:
                game = Game(self.start, ruleset=self.ruleset)
            elif where[0] == "fen" and len(where) > 1:
                game = Game(" ".join(where[1:]), ruleset=self.ruleset)
            else:
                self.info("position: expected 'startpos' or 'fen FEN'; kept the position")
                return
            for k, u in enumerate(moves):
                over = game.outcome()
                if over is not None:
                    self.info(f"position: move {k + 1} {u}: the game is over "
                              f"({over.reason}); kept the position")
                    return
                game.push(u)
        except Exception as e:
            self.info(f"position: {e}; kept the position")
            return
        self.game = game

    def cmd_go(self, args) -> None:
        params, flags, error = _go_params(args)
        if error:
            self.info(f"go: {error}")
            return
        if self.thread is not None and self.thread.is_alive():
            # (a GUI waits for bestmove before its next go; a go that comes
            # sooner stops the search, which answers, so that no search, however
            # long its limits, ever holds up the input)
            self.info("go: a search was running: stopped")
            self._stop_search()
        self.infinite = "infinite" in flags
        self.stop_event = threading.Event()
        target: Callable
        run_args: tuple
        if "perft" in params:
            target, run_args = self._perft, (params["perft"],)
        else:
            target, run_args = self._search, (params, flags)
        self.thread = threading.Thread(target=self._guarded, args=(target, run_args), daemon=True)
        self.thread.start()

    def cmd_stop(self, args) -> None:
        self._stop_search()

    def cmd_quit(self, args) -> None:
        self._stop_search()
        self.quit = True

    def cmd_d(self, args) -> None:
        for row in str(self.game).splitlines():
            self.info(row)
        self.info(f"Fen: {self.game.fen()}")

    # ------------------------------------------------------------ the search

    def _stop_search(self) -> None:
        if self.thread is not None:
            self.stop_event.set()
            self.thread.join()
            self.thread = None

    def _guarded(self, target, args) -> None:
        try:
            target(*args)
        except Exception as e:
            self.info(f"error: {type(e).__name__}: {e}")
            if target == self._search:          # a GUI waits for its bestmove
                legal = self.game.legal_moves()
                self.send(f"bestmove {legal[0].uci() if legal else '(none)'}")

    def _perft(self, depth: int) -> None:
        game = self.game.copy()
        stop = self.stop_event

        def each(uci: str, n: int) -> None:
            self.send(f"{uci}: {n}")
            if stop.is_set():
                raise _Abort

        try:
            total = sum(game.perft_divide(depth, on_move=each).values())
        except _Abort:
            self.info("perft stopped")
            return
        self.send("")
        self.send(f"Nodes searched: {total}")
        self.send("")

    def _search(self, params: dict, flags: set) -> None:
        game = self.game.copy()         # the session's game stays for the next command
        out = game.outcome()
        if out is not None:
            self.info(f"the game is over: {out.reason}")
            self._wait_if_infinite(flags)
            self.send("bestmove (none)")
            return
        level = get_level(self.skill)
        limits = Limits(stop=self.stop_event)
        if "infinite" not in flags:
            limits.depth = params.get("depth")
            limits.nodes = params.get("nodes")
            if "movetime" in params:
                limits.movetime = max(params["movetime"] / 1000 - MOVE_OVERHEAD, 0.01)
            elif game.turn == "white" and "wtime" in params or \
                    game.turn == "black" and "btime" in params:
                limits.movetime = _budget(params, game.turn)
            if self.skill < max(LEVELS) or not (limits.depth or limits.nodes or limits.movetime):
                limits.depth = min(limits.depth or level.depth, level.depth)
                limits.nodes = min(limits.nodes or level.nodes or 10**12,
                                   level.nodes or 10**12)
        searcher = Searcher(game, on_info=self._send_info, noise=level.noise,
                            quiescence=level.quiescence,
                            hash_entries=self.hash_mb * 1024 * 1024 // ENTRY_BYTES)
        if self.searcher is not None and self.searcher.game.ruleset is game.ruleset:
            searcher.tt = self.searcher.tt          # what the last search learnt
        self.searcher = searcher
        result = searcher.search(limits)
        self._wait_if_infinite(flags)
        move = result.move
        self.info(f"{move.uci()} generated by {move.rule or 'an unnamed rule'}")
        self.send(f"bestmove {move.uci()}")

    def _wait_if_infinite(self, flags: set) -> None:
        # UCI: after 'go infinite' the bestmove waits for 'stop'
        if "infinite" in flags:
            self.stop_event.wait()

    def _send_info(self, i: Info) -> None:
        mate = i.mate_in
        score = f"mate {mate}" if mate is not None else f"cp {i.score}"
        pv = " ".join(m.uci() for m in i.pv)
        self.send(f"info depth {i.depth} score {score} nodes {i.nodes} nps {i.nps} "
                  f"time {int(i.seconds * 1000)} pv {pv}")


_COMMANDS = {
    "uci": UciEngine.cmd_uci, "isready": UciEngine.cmd_isready,
    "ucinewgame": UciEngine.cmd_ucinewgame, "setoption": UciEngine.cmd_setoption,
    "position": UciEngine.cmd_position, "go": UciEngine.cmd_go, "stop": UciEngine.cmd_stop,
    "quit": UciEngine.cmd_quit, "d": UciEngine.cmd_d,
}
_GO_NUMBERS = ("depth", "nodes", "movetime", "wtime", "btime", "winc", "binc", "movestogo",
               "perft", "mate")
_GO_FLAGS = ("infinite", "ponder")


def _go_params(args) -> tuple[dict, set, str | None]:
    """``go``'s arguments: (numbers, flags, error or None)."""
    params: dict = {}
    flags: set = set()
    i = 0
    while i < len(args):
        word = args[i]
        if word in _GO_FLAGS:
            flags.add(word)
            i += 1
        elif word in _GO_NUMBERS:
            if i + 1 >= len(args):
                return {}, set(), f"{word} needs a number"
            try:
                n = int(args[i + 1])
            except ValueError:
                return {}, set(), f"{word} needs a whole number, not {args[i + 1]!r}"
            if n < 0 and word not in ("wtime", "btime"):
                return {}, set(), f"{word} cannot be negative ({n})"
            params[word] = n
            i += 2
        elif word == "searchmoves":
            return {}, set(), "searchmoves is not supported"
        else:
            return {}, set(), f"unknown parameter {word!r}"
    if "perft" in params and not 1 <= params["perft"] <= 20:
        return {}, set(), f"perft depth is 1..20, not {params['perft']}"
    if params.get("depth") == 0:
        params["depth"] = 1
    if "mate" in params:        # a mate in N is found within 2N plies
        params["depth"] = min(params.get("depth", 2 * params["mate"]), 2 * params["mate"] or 1)
    if "ponder" in flags:       # no pondering: a ponder search runs until stop
        flags.add("infinite")
    return params, flags, None


def _budget(params: dict, turn: str) -> float:
    """Seconds for this move from the clock: the time left over the moves to
    go (30 when not said), plus most of the increment, half the clock at most."""
    left = params["wtime" if turn == "white" else "btime"] / 1000
    inc = params.get("winc" if turn == "white" else "binc", 0) / 1000
    togo = params.get("movestogo") or 30
    budget = min(left / togo + 0.8 * inc, left / 2) - MOVE_OVERHEAD
    return max(budget, 0.01)


def _preset_ids() -> list[str]:
    return [m.id for m in presets.all_presets()]


def _variant_names() -> list[str]:
    """The built-in variants.ini catalogue's variants (none shares a preset's id)."""
    return [section.name for section in catalogue()]


def _ids(variant: str, text: str) -> list[str]:
    """The preset ids to load: Presets' when set, else UCI_Variant's."""
    ids = [w for w in text.replace(",", " ").split()]
    if ids:
        return ids
    return [] if variant == "chess" else [variant]


def _stdout_line(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main(stdin=None) -> int:
    """Run a UCI session on stdin and stdout (``houserules uci``)."""
    engine = UciEngine()
    engine.run(stdin if stdin is not None else sys.stdin)
    return 0


if __name__ == "__main__":
    sys.exit(main())
