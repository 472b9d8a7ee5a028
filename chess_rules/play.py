"""Play a game in the terminal: a person against a simple bot (or bot v bot)."""
from __future__ import annotations

import random

from rich.console import Console

from .errors import ChessError
from .game import Game

PIECE_VALUE = {"pawn": 1, "knight": 3, "bishop": 3, "rook": 5, "queen": 9, "king": 0}
GLYPH = {("king", "white"): "K", ("queen", "white"): "Q", ("rook", "white"): "R",
         ("bishop", "white"): "B", ("knight", "white"): "N", ("pawn", "white"): "P"}


def render(game: Game) -> str:
    """The board as text, White at the bottom."""
    lines = []
    st = game.state
    for rank in range(7, -1, -1):
        row = []
        for f in range(8):
            sq = rank * 8 + f
            t, c = st.types[sq], st.colors[sq]
            if t is None:
                row.append("." if (rank + f) % 2 else ":")
            else:
                g = GLYPH[(t, "white")]
                row.append(g if c == "white" else g.lower())
        lines.append(f"{rank + 1}  " + " ".join(row))
    lines.append("   a b c d e f g h")
    return "\n".join(lines)


def terminal_prompt(console: Console):
    """A prompt on ``console``; the end of input (Ctrl-D, or a closed pipe)
    reads as ``quit``, so the game ends instead of raising."""
    def ask(prompt: str) -> str:
        try:
            return console.input(prompt)
        except EOFError:
            console.print()
            return "quit"
    return ask


def greedy_move(game: Game, rng: random.Random):
    """A one-ply bot: take the most valuable piece, prefer checks, else random."""
    moves = game.legal_moves()
    best, best_score = [], None
    for m in moves:
        score = 0.0
        if m.victim is not None:
            score += PIECE_VALUE.get(game.state.types[m.victim] or "", 0) * 10
        if m.promo:
            score += PIECE_VALUE.get(m.promo, 0) * 5
        if best_score is None or score > best_score:
            best, best_score = [m], score
        elif score == best_score:
            best.append(m)
    return rng.choice(best)


def play(fen: str, ruleset, human: str = "white", seed: int | None = None,
         max_moves: int = 200, console: Console | None = None, inputs=None) -> int:
    """Play until the game ends or ``max_moves`` plies; returns 0."""
    console = console or Console()
    rng = random.Random(seed)
    game = Game(fen, ruleset=ruleset)
    ask = inputs or terminal_prompt(console)
    for _ in range(max_moves):
        console.print(render(game))
        out = game.outcome()
        if out is not None:
            console.print(f"[bold]{out.result()}[/bold] {out.reason}"
                          + (f" ({out.rule})" if out.rule else ""))
            return 0
        turn = game.turn
        if human == turn:
            legal = game.legal_uci()
            halves = (game.ruleset.config.get("turn-structure") or {}).get(turn, 1)
            half = game._game_fact().values.get("half", 0) or 0
            which = f" (half-move {half + 1} of {halves})" if halves > 1 else ""
            console.print(f"{turn} to move{which}; legal: {' '.join(legal)}")
            text = ask("your move (UCI or SAN, 'explain MOVE', 'quit'): ").strip()
            if text in ("quit", "exit"):
                return 0
            if text.startswith("explain "):
                console.print(game.explain(text.split()[1]).text)
                continue
            try:
                if text in legal:
                    game.push(text)
                else:
                    game.push_san(text)
            except ChessError as e:
                console.print(f"[red]{e}[/red]")
            continue
        m = greedy_move(game, rng)
        console.print(f"{turn} plays {m.uci()}  ({m.rule})")
        game.push(m)
    console.print("move cap reached")
    return 0
