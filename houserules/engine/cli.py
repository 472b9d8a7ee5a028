"""The engine's commands: ``houserules analyse``, ``houserules uci``, and
``--level N`` for ``houserules play`` and ``houserules dice play``."""
from __future__ import annotations

import argparse
import sys

from .levels import DEFAULT_LEVEL, LEVELS, LevelError, get_level


def level_arg(text: str) -> int:
    """A strength level 1..10, for argparse."""
    try:
        return get_level(int(text)).level
    except (ValueError, LevelError):
        raise argparse.ArgumentTypeError(
            f"a level is a whole number from 1 to {max(LEVELS)}, not {text!r}") from None


def positive_arg(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"a whole number of at least 1, not {text!r}")
    return n


def chess_bot(level: int):
    """The engine at ``level`` as ``houserules play`` calls a bot."""
    from . import choose_move

    def bot(game, rng):
        return choose_move(game, level, rng)
    return bot


def dice_bot(level: int):
    """The engine at ``level`` as ``houserules dice play`` calls a bot."""
    from dice import DiceGame

    from . import choose_dice_turn

    def bot(dfen, rng, tree, ruleset):
        game = dfen if ruleset is None else DiceGame(dfen, ruleset)
        return tuple(choose_dice_turn(game, level, rng))
    bot.name = f"level {level}"         # type: ignore[attr-defined]
    return bot


def cmd_analyse(args) -> int:
    from houserules.cli import _game, _ruleset

    from . import analyse
    from .search import Limits
    if args.fen or args.layout:
        game = _game(args)
    else:
        from chess_rules.game import Game
        from presets.layouts import preferred_layout
        rs = _ruleset(args)
        game = Game(rs.config.get("start-fen") or preferred_layout(rs.presets).fen, ruleset=rs)
    out = game.outcome()
    if out is not None:
        print(f"the game is over: {out.result()} by {out.reason}"
              + (f" ({out.rule})" if out.rule else ""))
        return 0
    if args.movetime is not None:
        limits = Limits(movetime=args.movetime / 1000)
    else:
        limits = Limits(depth=args.depth or 3)

    def show(info) -> None:
        if args.progress:
            print(f"depth {info.depth}: {_score(info)}  {info.nodes} nodes, "
                  f"{info.seconds:.1f}s", file=sys.stderr)

    result = analyse(game, limits, on_info=show)
    from .search import Info
    print(f"score: {_score(Info(result.depth, result.score, result.nodes, result.seconds))} "
          f"(for {game.turn}; depth {result.depth}, {result.nodes} nodes, "
          f"{result.seconds:.1f}s)")
    print("principal variation:")
    pushed = 0
    try:
        for m in result.pv:
            side = game.turn
            game.push(m)
            pushed += 1
            print(f"  {side:5} {m.uci():6} {m.rule}")
    finally:
        for _ in range(pushed):
            game.pop()
    return 0


def _score(info) -> str:
    mate = info.mate_in
    if mate is not None:
        return f"mate in {mate}" if mate > 0 else f"mated in {-mate}"
    return f"{info.score / 100:+.2f}"


def cmd_uci(args) -> int:
    from .uci import main
    return main()


def add_commands(sub) -> None:
    """Add ``analyse`` and ``uci``, and ``--level`` to ``play`` and ``dice play``."""
    from houserules.cli import _add_rules_options

    a = sub.add_parser(
        "analyse", help="search a position: the best line, its rules and score",
        description="Search a position (the rules' start when no FEN is given) with the "
                    "engine and print the principal variation, each move with the rule "
                    "that generated it, and the score for the side to move (centipawns "
                    "as pawns, or mate in N).")
    _add_rules_options(a)
    limit = a.add_mutually_exclusive_group()
    limit.add_argument("--depth", type=positive_arg, default=None,
                       help="search to this many plies (default: 3)")
    limit.add_argument("--movetime", type=positive_arg, default=None, metavar="MS",
                       help="search for this many milliseconds")
    a.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="each finished depth on stderr (default: when stderr is a terminal)")
    a.set_defaults(func=_with_progress(cmd_analyse))

    u = sub.add_parser(
        "uci", help="speak the UCI protocol on stdin/stdout (for chess GUIs and tools)",
        description="Run the engine as a UCI engine: commands on stdin, answers on stdout "
                    "(uci, isready, ucinewgame, setoption, position, go, stop, quit). "
                    "Options: UCI_Variant (chess or a preset id), Presets, Config, Skill "
                    "Level (1..10), Hash, Threads. See docs/engine-play.md.")
    u.set_defaults(func=cmd_uci)

    play = sub.choices["play"]
    play.add_argument("--level", type=level_arg, default=None,
                      help=f"play against the search engine at this level, 1..10 "
                           f"(default: the one-ply greedy bot; {DEFAULT_LEVEL} is a fair "
                           f"start)")
    play.set_defaults(func=_with_chess_level(play.get_default("func")))

    dice_play = _subcommand(sub.choices["dice"], "play")
    dice_play.add_argument("--level", type=level_arg, default=None,
                           help="the search engine at this level, 1..10, plays the sides "
                                "that are not yours, in place of --white and --black")
    dice_play.set_defaults(func=_with_dice_level(dice_play.get_default("func")))


def _subcommand(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    # (argparse keeps a parser's subcommands in its subparsers action)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices[name]
    raise KeyError(name)


def _with_progress(cmd):
    def run(args) -> int:
        if args.progress is None:
            args.progress = sys.stderr is not None and sys.stderr.isatty()
        return cmd(args)
    return run


def _with_chess_level(cmd):
    def run(args) -> int:
        if args.level is not None:
            args.bot = chess_bot(args.level)
        return cmd(args)
    return run


def _with_dice_level(cmd):
    def run(args) -> int:
        if args.level is not None:
            bot = dice_bot(args.level)
            args.white = bot if args.human != "white" else args.white
            args.black = bot if args.human != "black" else args.black
        return cmd(args)
    return run

