"""A Dice Chess game driver: roll, walk the turn tree, end the turn; and bots.

:func:`play_game` plays a whole game turn by turn, as the turn lifecycle says:
the side to move rolls (the ``roll`` stage), the legal turns are the tree of
:func:`dice.turn_tree`, a bot (or a person) walks it one micro-move at a time
with :func:`dice.apply_move`, and :func:`dice.end_turn` hands the turn over
unless a king was captured.

Bots choose among the complete legal turns:

``random``  a uniformly random legal turn.
``greedy``  the turn that leaves the best material balance (a king capture wins
            outright); ties broken at random.
``odds``    greedy, less the expected loss over the opponent's next roll: each of
            its own pieces left attacked is lost with the probability that three
            dice show at least one face of a piece attacking it (a one-ply
            expectation over the dice), over every legal turn.

Material: pawn 1, knight and bishop 3, rook 5, queen 9; a royal piece of the
rule set (the king, or the knights under ``knightmate-rules``) 1000, a king that
is not royal 4. The bots play for material, so under a preset whose aim is to
lose it (``suicide-chess``) they play badly, but legally.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable

from rich.console import Console
from rich.markup import escape

from chess_rules.errors import MoveParseError
from chess_rules.notation import normalize_uci
from houserules.play import TerminalConsole, terminal_prompt
from chess_rules.squares import opposite

from dice.dfen import FACE_TYPE
from dice.engine import DiceGame
from dice.rules import KING_CAPTURED
from dice.turns import apply_move, end_turn, explain_move, roll, turn_tree

__all__ = ["BOTS", "play_game", "choose_turn", "GameRecord", "render_dice"]

VALUE = {"pawn": 1, "knight": 3, "bishop": 3, "rook": 5, "queen": 9, "king": 4}
ROYAL_VALUE = 1000
DIE_GLYPH = {1: "\u2680", 2: "\u2681", 3: "\u2682", 4: "\u2683", 5: "\u2684", 6: "\u2685"}
BOTS = ("random", "greedy", "odds")


def render_board(game: DiceGame, last: tuple[str, ...] = (), flip: bool = False,
                 plain: bool = False):
    """The board as rich ``Text``: White at the bottom (``flip``: Black, as a
    person playing Black sees it), squares shaded, the squares of the last
    turn's micro-moves highlighted. ``plain``, for output without colour (not a
    terminal, ``NO_COLOR``): empty squares drawn ``.`` and ``:`` as the chess
    board draws them, and the highlighted squares in brackets (``[N]``, ``[.]``)."""
    from rich.text import Text
    from chess_rules.squares import PIECE_LETTER, SQUARE_NAMES
    marked = {u[i:i + 2] for u in last for i in (0, 2)}
    st = game.state
    ranks = range(8) if flip else range(7, -1, -1)
    files = range(7, -1, -1) if flip else range(8)
    out = Text()
    for rank in ranks:
        out.append(f"{rank + 1} ", style="dim")
        for f in files:
            sq = rank * 8 + f
            t, c = st.types[sq], st.colors[sq]
            light = (rank + f) % 2 == 1
            mark = SQUARE_NAMES[sq] in marked
            bg = "on yellow" if mark else ("on grey58" if light else "on grey35")
            if t is None:
                glyph = ("." if light else ":") if plain else " "
                style = bg
            else:
                letter = PIECE_LETTER[t]
                glyph = letter if c == "white" else letter.lower()
                style = f"{'bold bright_white' if c == 'white' else 'bold black'} {bg}"
            out.append(f"[{glyph}]" if plain and mark else f" {glyph} ", style=style)
        out.append("\n")
    out.append("   " + "  ".join("abcdefgh"[f] for f in files), style="dim")
    return out


def _plain(console: Console) -> bool:
    """Whether ``console`` shows no colour (not a terminal, or ``NO_COLOR``): the
    board's shading and highlight would not show."""
    return console.no_color or console.color_system is None


def render_dice(faces, glyphs: bool = True) -> str:
    """``⚀ pawn  ⚁ knight`` for faces [1, 2] (``pawn  knight`` without ``glyphs``);
    ``(none)`` for no dice."""
    return "  ".join(f"{DIE_GLYPH[f]} {FACE_TYPE[f]}" if glyphs else FACE_TYPE[f]
                     for f in faces) or "(none)"


def _shows(console: Console, text: str) -> bool:
    """Whether ``console``'s encoding has ``text``: an ASCII-only output (a C
    locale's terminal, ``PYTHONIOENCODING=ascii``) has no die faces."""
    try:
        text.encode(console.encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _values(game: DiceGame) -> dict:
    """(type, colour) -> what the piece is worth to the bots: royal pieces of
    the rule set count :data:`ROYAL_VALUE`."""
    royal = game.ruleset.royal_types
    return {(t, c): ROYAL_VALUE if t in royal.get(c, ()) else v
            for t, v in VALUE.items() for c in ("white", "black")}


def _material(st, color: str, values: dict) -> int:
    score = 0
    for t, c in zip(st.types, st.colors):
        if t is None:
            continue
        v = values[t, c]
        score += v if c == color else -v
    return score


def _risk(game: DiceGame, color: str, values: dict) -> float:
    """Expected material lost to the opponent's next roll (one capture per piece)."""
    st = game.state
    opp = opposite(color)
    colors, types = st.colors, st.types
    loss = 0.0
    for sq in range(64):
        if colors[sq] != color:
            continue
        if not st.attacked(colors, types, sq, opp):
            continue
        kinds = {types[a] for a in st.attackers(colors, types, sq, opp)}
        p_none = (1 - len(kinds) / 6) ** 3
        loss += values[types[sq], color] * (1 - p_none)
    return loss


def _leaves(game: DiceGame, nodes: dict, path: list, out: list, score) -> None:
    """Every complete turn (path) with ``score(game)`` after it."""
    if not nodes:
        out.append((tuple(path), score(game)))
        return
    for u, (_, child) in nodes.items():
        game.push(u)
        path.append(u)
        try:
            _leaves(game, child, path, out, score)
        finally:
            path.pop()
            game.pop()


def choose_turn(dfen: str, bot: str, rng: random.Random, tree=None,
                ruleset=None) -> tuple[str, ...]:
    """A complete legal turn (micro-moves in UCI) for ``bot`` in the rolled ``dfen``
    (under ``ruleset``: a preset's rule set, FIDE's by default)."""
    if bot not in BOTS:
        raise ValueError(f"unknown bot {bot!r} (bots: {', '.join(BOTS)})")
    tree = tree or turn_tree(dfen, ruleset)
    if not tree.nodes:
        return ()
    if bot == "random":
        return rng.choice(list(tree.paths()))
    game = DiceGame(dfen, ruleset)
    color = game.turn
    values = _values(game)
    cache: dict = {}        # the score of each position a turn ends in (orders transpose)

    def score(g: DiceGame) -> float:
        if g.winner() is not None:
            return 10_000 if g.winner() == color else -10_000
        if bot == "greedy":
            return _material(g.state, color, values)
        k = g.key()
        v = cache.get(k)
        if v is None:
            v = cache[k] = _material(g.state, color, values) - _risk(g, color, values)
        return v

    scored: list = []
    _leaves(game, tree.nodes, [], scored, score)
    best = max(s for _, s in scored)
    return rng.choice([p for p, s in scored if s == best])


HUMAN_HELP = """commands:
  MOVE          play a micro-move in UCI (e2e4, e7e8q; castling e1g1, spending the
                king and the rook die); the turn ends when no die is left to play
  explain MOVE  which rule generates the micro-move, or why it is refused
  undo          take back your last micro-move of this turn
  fen           the position as DFEN, the dice left included
  help          this list
  quit          end the game (Ctrl-D too)"""


def explain_in_turn(dfen: str, uci: str, node: dict, most: int, played, ruleset=None) -> str:
    """Why ``uci`` is or is not a micro-move of the turn being played: the turn
    is the tree walked from the roll (``node``: the continuations after
    ``played``; ``most``: the dice a legal turn spends), so a move that is legal
    afresh from ``dfen`` may still not continue this turn (the spec's c2c4 case)."""
    try:
        u = normalize_uci(uci)
    except MoveParseError as e:
        return f"{uci}: illegal - {e.reason}"
    ex = explain_move(dfen, u, ruleset)
    if u in node or not ex.legal:
        return ex.text
    return (f"{u}: not a continuation of this turn - after {' '.join(played)} no turn that "
            f"plays it spends {most} dice or takes the king (Maximum Micro-moves Rule); "
            f"continuations: {', '.join(sorted(node))}")


@dataclass
class GameRecord:
    """What :func:`play_game` played: the turns (roll, micro-moves) and the end."""

    turns: list = field(default_factory=list)     # (color, faces, [uci...])
    winner: str | None = None
    final: str = ""


def play_game(seed: int | None = None, white: str = "greedy", black: str = "random",
              human: str | None = None, max_turns: int = 300, start: str | None = None,
              console: Console | None = None, inputs=None, quiet: bool = False,
              ruleset=None) -> GameRecord:
    """Play a whole game; returns its :class:`GameRecord`.

    ``human`` ('white' or 'black') reads that side's micro-moves from ``inputs``
    (a ``prompt -> str`` callable; the console by default). ``ruleset``: Dice
    Chess over a preset's rule set (``presets.load(...)``); the game starts from
    ``start``, else from the first preset's preferred layout, else the standard
    position. A ``start`` whose game is over (a king taken) plays no turn: the
    record has its winner and no turns.
    """
    from dice.dfen import START_DFEN, parse_dfen

    console = console or TerminalConsole()
    rng = random.Random(seed)
    if start is None and ruleset is not None and ruleset.presets:
        from presets.layouts import preferred_layout
        start = preferred_layout(ruleset.presets).fen + " -"      # no dice yet
    dfen = start or START_DFEN
    rec = GameRecord()
    ask = inputs or terminal_prompt(console)
    say: Callable[..., Any] = console.print
    if quiet:
        say = lambda *a, **k: None      # noqa: E731
    flip, plain = human == "black", _plain(console)
    glyphs = _shows(console, "".join(DIE_GLYPH.values()))
    first = DiceGame(dfen, ruleset)
    if first.winner():
        # a start whose game is over (a king taken): no turn is played, no
        # roll, and no turn is recorded as the one that won it
        rec.winner, rec.final = first.winner(), dfen
        say(render_board(first, flip=flip, plain=plain))
        say(f"[bold green]the game is already over: {escape(first.over_text())}[/bold green]")
        return rec
    for _ in range(max_turns):
        pos = parse_dfen(dfen, ruleset)
        color = pos.turn
        if not pos.dice:
            dfen = roll(dfen, rng, ruleset)
            pos = parse_dfen(dfen, ruleset)
        faces = pos.faces
        tree = turn_tree(dfen, ruleset)
        say(render_board(DiceGame(dfen, ruleset), tuple(rec.turns[-1][2]) if rec.turns else (),
                         flip, plain))
        say(f"[bold]{color}[/bold] rolls {render_dice(faces, glyphs)}")
        played: list[str] = []
        if human == color:
            node: dict | None = tree.nodes
            before: list[str] = []          # the DFEN before each micro-move played
            if not node:
                say(f"{color} has no legal micro-move: the turn passes")
            while node:
                options = sorted(node)
                playable = tree.playable(played)
                assert playable is not None     # (played begins a legal turn)
                idle = list(parse_dfen(dfen, ruleset).faces)    # the dice left ...
                for face in playable:                           # ... no legal turn spends
                    idle.remove(face)
                say(f"playable dice: {render_dice(playable, glyphs)}"
                    + (f"   (not playable: {render_dice(idle, glyphs)})" if idle else ""))
                say("micro-moves: " + " ".join(options))
                text = ask("your micro-move (UCI; 'help' for the commands): ").strip().lower()
                command, _, arg = text.partition(" ")
                if text in ("quit", "exit"):
                    rec.final = dfen
                    return rec
                if not text:
                    continue
                if text in ("help", "?"):
                    say(HUMAN_HELP, markup=False, highlight=False)
                elif text == "fen":
                    say(dfen, markup=False, highlight=False)
                elif command == "explain":
                    say(explain_in_turn(dfen, arg.strip(), node, tree.most, played, ruleset)
                        if arg.strip() else "explain which micro-move? e.g. 'explain e2e4'",
                        markup=False)
                elif text == "undo":
                    if not played:
                        say("nothing to take back in this turn (the dice are rolled)")
                        continue
                    dfen = before.pop()
                    played.pop()
                    node = tree.node(played)
                    say("taken back")
                elif text not in node:
                    say("[red]" + escape(explain_in_turn(dfen, text, node, tree.most, played, ruleset))
                        + "[/red]")
                else:
                    before.append(dfen)
                    dfen = apply_move(dfen, text, ruleset)
                    played.append(text)
                    node = node[text][1]
                    say(f"{color} plays {text}")
                    if node:        # the turn goes on: the board as it stands now
                        say(render_board(DiceGame(dfen, ruleset), tuple(played), flip, plain))
        else:
            bot = white if color == "white" else black
            path = choose_turn(dfen, bot, rng, tree, ruleset)
            for u in path:
                dfen = apply_move(dfen, u, ruleset)
                played.append(u)
            say(f"{color} ({bot}) plays {' '.join(played) or '(no legal move)'}")
        rec.turns.append((color, faces, played))
        game = DiceGame(dfen, ruleset)
        winner = game.winner()
        if winner:
            rec.winner = winner
            rec.final = dfen
            say(render_board(game, tuple(played), flip, plain))
            why = game.outcome().reason
            if why == KING_CAPTURED:
                royal = " or ".join(game.ruleset.royal_types.get(opposite(winner), ())) \
                    or "king"
                say(f"[bold green]{rec.winner} captures the {royal} and wins[/bold green]")
            else:                   # a preset's ending: a promotion, a first capture
                say(f"[bold green]{rec.winner} wins by {escape(why)}[/bold green]")
            return rec
        dfen = end_turn(dfen, ruleset)
    rec.final = dfen
    if rec.turns:           # the board the last turn left
        say(render_board(DiceGame(dfen, ruleset), tuple(rec.turns[-1][2]), flip, plain))
    say(f"turn cap ({max_turns}) reached: no result")
    return rec

