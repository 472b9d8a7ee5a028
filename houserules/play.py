"""Play a game in the terminal: a person against a simple bot (or bot v bot)."""
from __future__ import annotations

import random
import sys

from rich.console import Console
from rich.markup import escape

from chess_rules.errors import ChessError, MoveParseError
from chess_rules.game import Game
from chess_rules.notation import parse_uci
from chess_rules.squares import PIECE_LETTER

PIECE_VALUE = {"pawn": 1, "knight": 3, "bishop": 3, "rook": 5, "queen": 9, "king": 0}
GLYPH = {("king", "white"): "K", ("queen", "white"): "Q", ("rook", "white"): "R",
         ("bishop", "white"): "B", ("knight", "white"): "N", ("pawn", "white"): "P"}


def render(game: Game, flip: bool = False) -> str:
    """The board as text, White at the bottom (``flip``: Black at the bottom, as
    a person playing Black sees it)."""
    lines = []
    st = game.state
    shape = game.ruleset.shape
    width, height = shape.width, shape.height
    ranks = range(height) if flip else range(height - 1, -1, -1)
    files = range(width - 1, -1, -1) if flip else range(width)
    for rank in ranks:
        row = []
        for f in files:
            sq = rank * width + f
            t, c = st.types[sq], st.colors[sq]
            if t is None:
                row.append("." if (rank + f) % 2 else ":")
            else:
                g = GLYPH.get((t, "white")) or PIECE_LETTER[t]     # a fairy piece: its letter
                row.append(g if c == "white" else g.lower())
        lines.append(f"{rank + 1:<2} " + " ".join(row))
    lines.append("   " + " ".join(shape.file_names[f] for f in files))
    return "\n".join(lines)


class TerminalConsole(Console):
    """A rich console whose closed pipe is a :class:`BrokenPipeError`, as for
    ``print``: the CLI then exits 141 like any command piped into ``head``
    (rich's own handling exits 1, which reads as a failure)."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError("the reader of the output stopped reading")


def terminal_prompt(console: Console):
    """A prompt on ``console``; the end of input (Ctrl-D, a closed pipe, or no
    stdin at all: a closed file descriptor 0) reads as ``quit``, so the game
    ends instead of raising."""
    def ask(prompt: str) -> str:
        if sys.stdin is None:
            # fd 0 closed (``<&-``): input() would raise "lost sys.stdin"
            console.print(prompt)
            return "quit"
        try:
            return console.input(prompt)
        except EOFError:
            console.print()
            return "quit"
    return ask


def greedy_move(game: Game, rng: random.Random):
    """A one-ply bot: take the most valuable piece (or promote to it), else give
    check, else any move; ties broken at random. None when there is no legal move."""
    moves = game.legal_moves()
    best, best_score = [], None
    for m in moves:
        score = 0.0
        if m.victim is not None:
            score += PIECE_VALUE.get(game.state.types[m.victim] or "", 0) * 10
        if m.promo:
            score += PIECE_VALUE.get(m.promo, 0) * 5
        if best_score is None or score + 0.5 >= best_score:
            # a check only breaks a tie: it is worth less than any capture
            if _gives_check(game, m):
                score += 0.5
        if best_score is None or score > best_score:
            best, best_score = [m], score
        elif score == best_score:
            best.append(m)
    return rng.choice(best) if best else None


def _gives_check(game: Game, m) -> bool:
    game.push(m)
    try:
        return game.is_check()
    finally:
        game.pop()


HELP = """commands:
  MOVE          play a move, in UCI (e2e4, e7e8q) or SAN (e4, Nf3, O-O; nf3, o-o too)
  explain MOVE  which rule generates the move, or which refuses it and why
  undo          take back your last move (and the bot's reply)
  fen           the position as FEN (houserules play FEN goes on from it)
  help          this list
  quit          end the game (Ctrl-D too)"""


def result_text(out) -> str:
    """``1-0 white wins by checkmate (fide.checkmate-win)``: the result, who won
    and the rule that decided it, worded as ``houserules outcome`` words it."""
    who = f"{out.winner} wins" if out.winner else "draw"
    return f"{out.result()} {who} by {out.reason}" + (f" ({out.rule})" if out.rule else "")


def play(fen: str, ruleset, human: str = "white", seed: int | None = None,
         max_moves: int = 200, console: Console | None = None, inputs=None,
         bot=None) -> int:
    """Play until the game ends or ``max_moves`` plies are played; returns 0.

    ``human`` is the side a person plays (``'none'``: the bot plays both; the
    board is drawn from Black's side when the person plays Black);
    ``inputs`` is a ``prompt -> str`` callable (the console by default);
    ``bot`` a ``(game, rng) -> Move`` callable, the greedy one by default
    (``houserules play --level N`` gives the search engine's)."""
    console = console or TerminalConsole()
    rng = random.Random(seed)
    game = Game(fen, ruleset=ruleset)
    ask = inputs or terminal_prompt(console)
    flip = human == "black"
    shown = False       # whether the board on screen is the current one
    while True:
        if not shown:
            console.print(render(game, flip))
            shown = True
        out = game.outcome()
        if out is not None:     # a game decided on the last ply the cap allows is decided
            console.print(f"[bold]{escape(result_text(out))}[/bold]")
            return 0
        if len(game.move_stack) >= max_moves:
            break
        turn = game.turn
        if human != turn:
            m = (bot or greedy_move)(game, rng)
            if m is None:       # a rule set that declares no result for this position
                console.print(f"{turn} has no legal move, and the rules declare no result")
                return 0
            console.print(f"{turn} plays {m.uci()}  ({m.rule})")
            game.push(m)
            shown = False
            continue
        legal = game.legal_uci()
        if not legal:
            console.print(f"{turn} has no legal move, and the rules declare no result")
            return 0
        halves = (game.ruleset.config.get("turn-structure") or {}).get(turn, 1)
        half = game.half_moves_in_turn
        which = f" (half-move {half + 1} of {halves})" if halves > 1 else ""
        console.print(f"{turn} to move{which}; legal: {' '.join(legal)}")
        text = ask("your move (UCI or SAN; 'help' for the commands): ").strip()
        command, _, arg = text.partition(" ")
        if text.lower() in ("quit", "exit"):
            return 0
        if text.lower() in ("help", "?"):
            console.print(HELP, markup=False, highlight=False)
        elif command.lower() == "explain":
            console.print(_explain(game, arg.strip()) if arg.strip()
                          else "explain which move? e.g. 'explain e2e4'", markup=False)
        elif text.lower() == "undo":
            shown = not _undo(game, human, console)
        elif text.lower() == "fen":
            console.print(game.fen(), markup=False, highlight=False)
        elif text:
            shown = not _human_move(game, text, legal, console)
    console.print(f"move cap ({max_moves} plies) reached: no result")
    return 0


def _explain(game: Game, text: str) -> str:
    """``explain`` for a person: UCI as the engine takes it, or SAN that names a
    legal move; SAN that names none cannot say which piece was meant."""
    try:
        parse_uci(text, shape=game.ruleset.shape)
    except MoveParseError:
        try:
            text = game.parse_san(text).uci()
        except MoveParseError as e:
            if e.kind == "ambiguous":
                return (f"{text}: {e.reason}; give the move in UCI to hear which rule "
                        "generates it")
            if e.kind == "no-match":
                return (f"{text}: no legal move matches this SAN; give the move in UCI "
                        "(e.g. e2e4) to hear which rule refuses it")
    return game.explain(text).text


def _human_move(game: Game, text: str, legal: list[str], console: Console) -> bool:
    """Play the person's move (UCI or SAN; a piece letter or castling's O typed in
    lower case is forgiven: nf3, o-o); say what was played, or why it cannot be."""
    uci = text.lower()
    if uci in legal:
        return _played(game, uci, console)
    try:
        parse_uci(uci, shape=game.ruleset.shape)
    except MoveParseError:
        pass
    else:       # a move in UCI the rules refuse: the engine says why
        console.print(f"[red]{escape(game.explain(uci).text)}[/red]")
        return False
    try:
        m = game.parse_san(text)
    except ChessError as e:
        m = _forgiven_san(game, text)
        if m is None:
            console.print(f"[red]{escape(str(e))}[/red] ('help' lists the commands)")
            return False
    return _played(game, m.uci(), console)


def _forgiven_san(game: Game, text: str):
    """The legal move SAN typed in the wrong case names (``nf3``, ``kxe2``,
    ``o-o``), or None. Tried only once the text as typed names no move, so
    ``bxc3`` stays the b-pawn's capture when there is one."""
    if text[:1] and text[0] in "nbrqk":
        fixed = text[0].upper() + text[1:]
    elif text[:1] == "o":
        fixed = text.replace("o", "O")
    else:
        return None
    try:
        return game.parse_san(fixed)
    except ChessError:
        return None


def _played(game: Game, uci: str, console: Console) -> bool:
    """Push the person's move and say it with the rule that generated it, as
    the bot's moves are said (what SAN was read as; a record when piped)."""
    turn = game.turn
    m = game.push(uci)
    console.print(f"{turn} plays {m.uci()}  ({m.rule})")
    return True


def _undo(game: Game, human: str, console: Console) -> bool:
    """Take back to the person's previous move: the bot's replies since, and that move
    (every half-move of it, under a turn of several)."""
    if human not in game.movers():
        console.print("nothing to take back")
        return False
    while game.movers()[-1] != human:
        game.pop()
    while game.movers() and game.movers()[-1] == human:
        game.pop()
    console.print("taken back")
    return True
