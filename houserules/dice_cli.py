"""``houserules dice ...``: Dice Chess on the command line.

Output formats are a contract:

    houserules dice moves DFEN            legal first micro-moves, UCI, one per line, sorted
    houserules dice tree DFEN             the legal turn tree as a JSON object ({} at a leaf)
    houserules dice playable DFEN [UCI ...]   JSON list of die faces, or null
    houserules dice apply DFEN UCI        the DFEN after the micro-move
    houserules dice explain DFEN UCI      why the micro-move is legal or not (one line)
    houserules dice end DFEN              the DFEN after the turn ends
    houserules dice roll DFEN [--seed N]  the DFEN with three dice rolled
    houserules dice play [--seed N] [--white BOT] [--black BOT] [--human COLOR]

Every command takes ``--preset ID`` (repeatable, or ``--preset a,b``) and
``--config ID.KEY=VALUE``: Dice Chess played over those presets, the DFEN
carrying their state in ``key:value`` tokens after the dice (``hp:e2=1``);
``play`` starts from the first preset's preferred layout. ``--rules FILE.hr``,
``--modifier FILE.json|NAME`` and ``--ruleset MODULE:NAME`` work as in the
chess commands.

DFEN is best given as one quoted argument; unquoted, its first seven words are
taken as the DFEN (six when the seventh is a move: a plain FEN has no dice), with
the ``key:value`` tokens that follow them. Errors go to stderr with a non-zero exit (the typed errors
are ``ChessError`` s, which ``houserules`` reports).
"""
from __future__ import annotations

import json

from chess_rules.errors import ChessError

__all__ = ["add_commands"]


def _split(words: list[str], what: str) -> tuple[str, list[str]]:
    """(DFEN, the words after it): a quoted DFEN is one word; else seven words."""
    if not words:
        raise ChessError(f"a DFEN is required ({what})")
    if len(words[0].split()) > 1:
        return words[0], list(words[1:])
    n = 0
    while n < len(words) and n < 7 and ":" not in words[n]:
        n += 1
    if n == 7 and _is_uci(words[6]):
        # a plain FEN (no dice field) and then a move: the move is no dice field
        n = 6
    # the key:value tokens of a preset's state are the DFEN's too (no move has ':')
    while n < len(words) and ":" in words[n]:
        n += 1
    return " ".join(words[:n]), list(words[n:])


def _is_uci(word: str) -> bool:
    from chess_rules.notation import normalize_uci
    try:
        normalize_uci(word)
    except ChessError:
        return False
    return True


def _dfen_only(args) -> str:
    dfen, rest = _split(args.dfen, args.dice_command)
    if rest:
        raise ChessError(f"unexpected arguments after the DFEN: {' '.join(rest)}")
    return dfen


def _rules(args):
    """The rule set the options compose, or None for Dice Chess over FIDE."""
    if not (args.preset or args.config or args.rules or args.modifier or args.ruleset):
        return None
    from houserules.cli import _ruleset
    return _ruleset(args)


def cmd_moves(args) -> int:
    from dice import legal_uci_moves
    for u in legal_uci_moves(_dfen_only(args), _rules(args)):
        print(u)
    return 0


def cmd_tree(args) -> int:
    from dice import legal_turn_tree
    print(json.dumps(legal_turn_tree(_dfen_only(args), _rules(args)), separators=(",", ":")))
    return 0


def cmd_playable(args) -> int:
    from chess_rules.notation import normalize_uci

    from dice import playable_dice
    dfen, played = _split(args.dfen, "playable")
    for u in played:
        normalize_uci(u)    # malformed move text is an error, not null (as for explain)
    print(json.dumps(playable_dice(dfen, played, _rules(args))))
    return 0


def cmd_apply(args) -> int:
    from dice import apply_move
    dfen, rest = _split(args.dfen, "apply")
    if len(rest) != 1:
        raise ChessError("dice apply takes a DFEN and one UCI micro-move")
    print(apply_move(dfen, rest[0], _rules(args)))
    return 0


def cmd_explain(args) -> int:
    from dice import explain_move
    dfen, rest = _split(args.dfen, "explain")
    if len(rest) != 1:
        raise ChessError("dice explain takes a DFEN and one UCI micro-move")
    print(explain_move(dfen, rest[0], _rules(args)).text)
    return 0


def cmd_end(args) -> int:
    from dice import end_turn
    print(end_turn(_dfen_only(args), _rules(args)))
    return 0


def cmd_roll(args) -> int:
    import random
    from dice import roll
    print(roll(_dfen_only(args), random.Random(args.seed), _rules(args)))
    return 0


def cmd_play(args) -> int:
    from houserules.dice_play import play_game
    rec = play_game(seed=args.seed, white=args.white, black=args.black,
                    human=None if args.human == "none" else args.human,
                    max_turns=args.max_turns, start=args.start, ruleset=_rules(args))
    n = len(rec.turns)
    print(f"result: {rec.winner or 'none'} after {n} turn{'' if n == 1 else 's'}")
    return 0


def _preset_options(p) -> None:
    """The rule set's options, as the chess commands have them (--preset, --config,
    --rules, --modifier, --ruleset): Dice Chess is played over what they compose."""
    from houserules.cli import _add_rules_options
    _add_rules_options(p, fen=False)


def add_commands(subparsers) -> None:
    """Add ``dice`` and its subcommands to the ``houserules`` parser."""
    from houserules.cli import count_arg, text_arg

    from houserules.dice_play import BOTS

    d = subparsers.add_parser("dice", help="Dice Chess: turn trees, micro-moves, a game")
    dsub = d.add_subparsers(dest="dice_command", metavar="SUBCOMMAND")
    dsub.required = True

    def sub(name, fn, help_, dfen_help="the DFEN (quoted)"):
        p = dsub.add_parser(name, help=help_)
        p.add_argument("dfen", nargs="+", help=dfen_help)
        _preset_options(p)
        p.set_defaults(func=fn)
        return p

    sub("moves", cmd_moves, "the legal first micro-moves, one per line, sorted")
    sub("tree", cmd_tree, "the legal turn tree as JSON")
    sub("playable", cmd_playable, "the die faces a legal turn can still spend (JSON)",
        "the DFEN at the roll, then the micro-moves played since")
    sub("apply", cmd_apply, "play one micro-move", "the DFEN, then one UCI micro-move")
    sub("explain", cmd_explain, "why a micro-move is legal or not",
        "the DFEN, then one UCI micro-move")
    sub("end", cmd_end, "end the turn")
    r = sub("roll", cmd_roll, "roll three dice")
    r.add_argument("--seed", type=int, default=None, help="seed the dice (default: unseeded)")

    pl = dsub.add_parser(
        "play", help="play a whole game in the terminal",
        description="Play a whole Dice Chess game in the terminal: bots, or you (--human). "
                    "Each turn shows the roll, the dice a legal turn can still spend (and "
                    "those it cannot), and the micro-moves that continue the turn; the board "
                    "is shown again after each of your micro-moves while the turn goes on. At "
                    "the prompt: a micro-move in UCI (castling e1g1 spends the king and the "
                    "rook die), 'explain MOVE', 'undo' (within the turn), 'fen' (the DFEN), "
                    "'help', 'quit' (or Ctrl-D). The turn ends by itself when no die is left "
                    "to play, and passes when the roll allows no micro-move.")
    pl.add_argument("--seed", type=int, default=None, help="seed the dice and the bots")
    pl.add_argument("--white", choices=BOTS, default="odds", help="White's bot")
    pl.add_argument("--black", choices=BOTS, default="greedy", help="Black's bot")
    pl.add_argument("--human", choices=("white", "black", "none"), default="none",
                    help="play this side yourself")
    pl.add_argument("--max-turns", type=count_arg, default=300,
                    help="stop after this many turns (default: 300)")
    pl.add_argument("--start", type=text_arg, default=None, help="a DFEN to start from")
    _preset_options(pl)
    pl.set_defaults(func=cmd_play)
