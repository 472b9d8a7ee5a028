"""The ``houserules`` command line.

Output formats are a contract: ``moves`` prints UCI moves one per line,
sorted; ``perft`` prints the node count as its last line (with ``--divide``,
``move: count`` lines first); errors go to stderr with a non-zero exit.

    houserules moves [FEN] [--preset ID ...] [--config ID.KEY=VALUE ...] [--rules FILE.hr]
                           [--modifier FILE.json|NAME] [--ruleset MODULE:NAME]
    houserules perft [FEN] DEPTH [--divide] [--progress | --no-progress]
    houserules explain [FEN] MOVE            (MOVE in UCI or SAN)
    houserules outcome [FEN]
    houserules rules [--preset ID ...]
    houserules presets [ID] [--json]
    houserules layouts [--json]
    houserules modifiers schema | list [--json] | check FILE.json ...
    houserules rete graph [FILE.hr | --preset ID ... --rules FILE.hr ...] [--dot]
    houserules test PATH ...
    houserules play [--preset ID ...] [--layout ID]
    houserules replay FILE.pgn [--preset ID ...]
    houserules dice ...
    houserules --version
    houserules --traceback ...

Wherever a FEN is taken, ``--layout ID`` may stand instead of it; a FEN is
best quoted, and its words unquoted are read as one FEN; with neither, the
position is where the rules start (a ``--ruleset``'s own start, the layout
the presets prefer, or the standard position). ``--preset a,b`` is
``--preset a --preset b``. Tables are as wide as the terminal. An error is
one line on stderr, exit status 2, saying where in the user's own Python
code it was raised when it was; ``--traceback`` (anywhere on the line)
prints any error's whole traceback first.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import re
import sys

from chess_rules.errors import ChessError, quoted


def _parse_config(items: list[str] | None) -> dict:
    """``--config extinction-chess.target_type=knight`` -> {'extinction-chess': {...}}."""
    from presets.base import PresetConfigError
    from presets.registry import parse_config_items
    try:
        return parse_config_items(items or [])
    except PresetConfigError as e:
        raise ChessError(f"--config {e}") from None


def count_arg(text: str) -> int:
    """An argparse type: a whole number, 0 or more (a cap on moves or turns)."""
    try:
        n = int(text)
    except ValueError:
        digits = _too_many_digits(text)
        if digits:
            raise argparse.ArgumentTypeError(
                f"expected a whole number, not one of {digits} digits") from None
        raise argparse.ArgumentTypeError(f"expected a whole number, not {quoted(text)}") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"expected 0 or more, not {n}")
    return n


MISSING_DEPTH = "perft needs a DEPTH after the position (e.g. ... 3)"


def depth_arg(text: str) -> int | str:
    """An argparse type: perft's DEPTH, a whole number (its sign checked by perft).
    Other text is kept for perft to refuse: it may be the last word of a FEN the
    shell split (``checks:2+1``, a four-field FEN's ``-``), taken for the DEPTH."""
    if "/" in text:     # the position took the depth's place: the depth was left out
        raise argparse.ArgumentTypeError(MISSING_DEPTH)
    try:
        return int(text)
    except ValueError:
        digits = _too_many_digits(text)
        if digits:
            from chess_rules.game import MAX_PERFT_DEPTH
            raise argparse.ArgumentTypeError(
                f"a DEPTH of {digits} digits is more than this perft counts "
                f"(at most {MAX_PERFT_DEPTH})") from None
        return text


def _too_many_digits(text: str) -> int:
    """How many digits ``text`` has when it is a whole number that int() refused
    for being longer than Python converts (sys.get_int_max_str_digits), else 0:
    such a number is no less a number, and is not worth quoting whole."""
    digits = text.strip().lstrip("+-").replace("_", "")
    return len(digits) if digits.isdecimal() else 0


def text_arg(text: str) -> str:
    """An argparse type: text that is not empty (an empty option is a slip, not
    a request for the default)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("expected text, not an empty string")
    return text


def _presets(args) -> list[str]:
    """The ``--preset`` ids: each option names one, or several separated by commas."""
    ids = []
    for item in getattr(args, "preset", None) or []:
        for pid in item.split(","):
            if not pid.strip():     # a comma too many: a slip, as an empty option is
                raise ChessError(f"--preset {item!r}: an empty preset id in the list")
            ids.append(pid.strip())
    return ids


def _ruleset(args):
    """FIDE, or the ``--ruleset`` composed in Python, then the presets (with their
    config), each rule file and each modifier, in that order."""
    from chess_rules.fide import fide_rules
    presets = _presets(args)
    config = _parse_config(getattr(args, "config", None))
    base = None
    if getattr(args, "ruleset", None):
        from chess_rules.ruleset_spec import load_ruleset_spec
        base = load_ruleset_spec(args.ruleset)
    if presets or config:
        from presets import load
        rs = load(*presets, config=config, base=base)
    else:
        rs = base if base is not None else fide_rules()
    for path in getattr(args, "rules", None) or []:
        from chess_rules.rule_files import load_rule_file
        rs = load_rule_file(rs, path)
    for path in getattr(args, "modifier", None) or []:
        from presets.modifiers import attach_descriptor_file
        rs = attach_descriptor_file(rs, path)
    return rs


def _fen(args, rs=None) -> str:
    """The position the command names: its FEN, its ``--layout``, or, with
    neither, where its rules start (:func:`_start_fen`)."""
    layout = getattr(args, "layout", None)
    fen = " ".join(getattr(args, "fen", None) or [])
    if layout:
        if fen:
            raise ChessError("give a FEN or --layout, not both")
        from presets.layouts import get_layout
        return get_layout(layout).fen
    if not fen:
        return _start_fen(args, rs if rs is not None else _ruleset(args))
    return fen


def _start_fen(args, rs) -> str:
    """Where the rules start: a rule set's own start (``--ruleset horde.py:build``),
    else the layout the presets prefer (dual-king's two kings), else the
    standard position."""
    fen = rs.config.get("start-fen")
    if fen is None:
        from presets.layouts import preferred_layout
        fen = preferred_layout(_presets(args)).fen
    return fen


def _position_given(args) -> bool:
    return bool(getattr(args, "fen", None) or getattr(args, "layout", None))


def _game(args, after: str | None = None, missing: str = "", fits: bool = True,
          name: str = ""):
    """The game of the command's position and rules. ``after``: the argument that
    follows the FEN (a DEPTH, a MOVE) as given, ``fits``: whether it reads as
    one. When the FEN reads only with it back (a FEN the shell split), or it is
    no DEPTH or MOVE and the FEN reads with it too (an extended FEN's last
    ``key:value`` token), the FEN's last word was taken for it, and the error is
    ``missing`` (that argument was left out), not the FEN's nor the argument's.
    ``name``: what ``after`` is (``DEPTH``, ``MOVE``), for words past it."""
    from chess_rules.errors import FenError
    from chess_rules.game import Game
    rs = _ruleset(args)
    fen = _fen(args, rs)
    if not _position_given(args):
        return Game(fen, ruleset=rs)        # the rules' start: nothing to split
    game = None
    try:
        game = Game(fen, ruleset=rs)
    except FenError as e:
        _refuse_words_after_a_whole_fen(args, rs, after, name)
        # (a FEN given as one word does not end in the argument after it, which fits)
        if after is None or (fits and len(getattr(args, "fen", None) or ()) < 2):
            raise
        error = e
    if game is not None and (fits or after is None):
        return game
    try:
        Game(f"{fen} {after}", ruleset=rs)
    except ChessError:
        if game is not None:
            return game
        raise error from None
    raise ChessError(missing)


def _refuse_words_after_a_whole_fen(args, rs, after: str | None, name: str) -> None:
    """A FEN given quoted, as one argument, that is a position on its own, then
    words that are no ``key:value`` tokens of it: they are arguments too many (a
    second FEN, a move given to ``moves``), which the FEN joined with them would
    report as a malformed token of its own."""
    from chess_rules.game import Game
    words = list(getattr(args, "fen", None) or ())
    if len(words) < 2 or len(words[0].split()) < 2:
        return
    # with a DEPTH or MOVE, the word after the FEN is that: argparse took the last for it
    extra = words[1:] if after is None else words[2:] + [after]
    if not extra or all(":" in w for w in extra):
        return
    try:
        Game(words[0], ruleset=rs)
    except ChessError:
        return          # the FEN is wrong itself: its own error says so
    text = " ".join(extra)
    if len(text) > 200:
        text = f"{text[:60]}... ({len(text)} characters)"
    what = "the FEN" if after is None else f"the FEN and the {name}"
    raise ChessError(f"unexpected argument{'s' if len(extra) > 1 else ''} after {what}: {text}")


def _add_fen(p) -> None:
    # the words of a FEN the shell split (not quoted) make one FEN, as a DFEN's do
    p.add_argument("fen", nargs="*", metavar="FEN",
                   help="the position (FEN or extended position), best quoted as one argument")


def _add_rules_options(p, fen: bool = True) -> None:
    if fen:
        _add_fen(p)
        p.add_argument("--layout", type=text_arg, help="a starting layout id instead of a FEN")
    p.add_argument("--preset", action="append", metavar="ID",
                   help="activate a preset (repeatable, or a comma-separated list)")
    p.add_argument("--config", action="append", metavar="ID.KEY=VALUE",
                   help="configure a preset, e.g. berolina-pawns.scope=white")
    p.add_argument("--rules", action="append", metavar="FILE.hr",
                   help="a custom rule file: adds, removes or replaces productions")
    p.add_argument("--modifier", action="append", metavar="FILE.json|NAME",
                   help="a custom modifier descriptor: a JSON file, or a gallery name "
                        "('houserules modifiers list')")
    p.add_argument("--ruleset", metavar="MODULE:NAME", type=text_arg,
                   help="start from a rule set composed in Python instead of FIDE: a RuleSet, "
                        "or a function returning one (e.g. my_rules:build or house.py:RULES)")


def cmd_moves(args) -> int:
    g = _game(args)
    for u in g.legal_uci():
        print(u)
    return 0


def cmd_perft(args) -> int:
    g = _game(args, str(args.depth), MISSING_DEPTH, fits=isinstance(args.depth, int),
              name="DEPTH")
    if not isinstance(args.depth, int):
        raise ChessError(f"DEPTH must be a whole number, not {quoted(args.depth)}")
    if args.depth < 0:
        raise ChessError("DEPTH must be 0 or more")
    from chess_rules.game import MAX_PERFT_DEPTH
    if args.depth > MAX_PERFT_DEPTH:
        raise ChessError(f"DEPTH {args.depth} is more than this perft counts "
                         f"(at most {MAX_PERFT_DEPTH})")
    if not args.divide and args.depth <= 1:
        print(g.perft(args.depth))
        return 0
    counts = _perft_with_progress(g, args.depth, _show_progress(args))
    if args.divide:
        for u, n in sorted(counts.items()):
            print(f"{u}: {n}")
    print(sum(counts.values()) if args.depth > 0 else 1)
    return 0


def _show_progress(args) -> bool:
    """Progress goes to stderr, and only to a terminal that can redraw it (stdout
    stays the contract; a ``TERM=dumb`` terminal would be left a blank line)."""
    if args.progress is not None:
        return args.progress
    return sys.stderr.isatty() and os.environ.get("TERM") != "dumb"


def _perft_with_progress(g, depth: int, show: bool) -> dict[str, int]:
    """Perft per root move; with ``show``, a progress bar over the root moves on
    stderr, cleared when done."""
    if depth == 0:
        return {}
    if not show:
        return g.perft_divide(depth)
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                               TimeElapsedColumn)
    console = Console(file=sys.stderr, force_terminal=True)
    columns = (TextColumn("perft {task.fields[depth]}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("root moves, {task.fields[nodes]:,} nodes"), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as prog:
        task = prog.add_task("perft", total=len(g.legal_moves()), depth=depth, nodes=0)
        done = [0]

        def on_move(uci, n):
            done[0] += n
            prog.update(task, advance=1, nodes=done[0])

        return g.perft_divide(depth, on_move)


#: a move in SAN, as explain and play read it (``Nf3``, ``exd5``, ``e8=Q+``, ``O-O``)
SAN = re.compile(r"^(?:(?:[A-Z]|[nbrqk])?[a-l]?(?:10|[1-9])?x?[a-l](?:10|[1-9])(?:=?[A-Za-z])?"
                 r"|[Oo0]-[Oo0](?:-[Oo0])?)[+#]?[!?]*$")
#: the largest board: a move in UCI on any board reads on it
_LARGEST = (12, 10)


def cmd_explain(args) -> int:
    from chess_rules.notation import parse_uci
    from chess_rules.shape import board_shape
    if not args.fen and not args.layout and "/" in args.move:
        # one argument, and it is a position: argparse took it for the move
        raise ChessError("explain needs a MOVE after the position (e.g. ... e2e4)")
    move = args.move.strip()
    try:
        # (a square of any board: the game's own board checks it below)
        parse_uci(move, shape=board_shape(*_LARGEST))
        uci = True
    except ChessError:
        uci = False
    g = _game(args, args.move, "explain needs a MOVE after the position (e.g. ... e2e4)",
              uci or bool(SAN.match(move)), name="MOVE")
    if uci:
        try:
            parse_uci(move, shape=g.ruleset.shape)
        except ChessError:
            raise ChessError(f"bad move {quoted(args.move)}: not a UCI move (e2e4, e7e8q) "
                             f"on the {g.ruleset.shape}") from None
    if not uci:
        if not SAN.match(move):
            raise ChessError(f"bad move {quoted(args.move)}: not a UCI move (e2e4, e7e8q) "
                             f"nor a SAN one (e4, Nf3, exd5, e8=Q, O-O)")
        try:
            move = g.parse_san(move).uci()
        except ChessError:
            # no legal move answers it: explain the one piece the SAN can mean
            guess = _illegal_san(g, move)
            if guess is None:
                raise
            move = guess
    print(g.explain(move).text)
    return 0


def _illegal_san(g, san: str) -> str | None:
    """The UCI of a SAN no legal move answers (``Nd6`` for a knight that cannot
    get there), when one piece of the side to move is the only one it can mean:
    explain then says why that piece may not go there. None otherwise."""
    from chess_rules.squares import LETTER_TO_PIECE
    m = re.match(r"^([A-Z])([a-l]?)((?:10|[1-9])?)x?([a-l](?:10|[1-9]))", san)
    if m is None or m.group(1) not in LETTER_TO_PIECE:
        return None
    letter, file, rank, to = m.groups()
    ptype = LETTER_TO_PIECE[letter][0]
    turn = g.turn
    names = g.state.names
    froms = [names[f.values["square"]] for f in g.pieces()
             if f.values["type"] == ptype and f.values["color"] == turn]
    froms = [sq for sq in froms if sq.startswith(file) and sq.endswith(rank) and sq != to]
    return froms[0] + to if len(froms) == 1 else None


def cmd_outcome(args) -> int:
    g = _game(args)
    out = g.outcome()
    if out is None:
        print("ongoing")
    else:
        who = f"{out.winner} wins" if out.winner else "draw"
        print(f"{out.result()} {who} by {out.reason}" + (f" ({out.rule})" if out.rule else ""))
    return 0


def cmd_rules(args) -> int:
    rs = _ruleset(args)
    rows = rs.describe()
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    from rich.table import Table

    from rich import box
    t = Table(title=f"rules: {rs.name}", show_lines=False, box=box.SIMPLE_HEAD)
    t.add_column("production", no_wrap=True)     # (a name is copied whole)
    for col in ("stage", "salience", "source"):
        t.add_column(col, overflow="fold")
    t.add_column("what it does", ratio=1, min_width=20)
    order = {s: i for i, s in enumerate(rs.stages)}
    for r in sorted(rows, key=lambda r: (order.get(r["stage"], 99), -r["salience"], r["name"])):
        t.add_row(r["name"], r["stage"], str(r["salience"]), r["source"], r["doc"])
    console().print(t)
    return 0


def cmd_presets(args) -> int:
    from presets import preset_table
    rows = preset_table()
    if args.id is not None:
        from presets.registry import get
        get(args.id)        # an unknown id is refused, with a "did you mean"
        row = next(r for r in rows if r["id"] == args.id)
        if args.json:
            print(json.dumps(row, indent=2))
        else:
            _print_preset(row)
        return 0
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    from rich.table import Table

    from rich import box
    t = Table(title="presets", box=box.SIMPLE_HEAD,
              caption="* refused on loading: both rewrite one production. "
                      "'houserules presets ID' shows one preset whole (category, layout...)")
    t.add_column("id", no_wrap=True)
    t.add_column("mode")
    t.add_column("requires / incompatible with", ratio=1, min_width=12)
    t.add_column("description", ratio=3, min_width=20)
    for r in rows:
        needs = ", ".join(r["requires"])
        clash = ", ".join(r["incompatible_with"] + [c + "*" for c in r["conflicts_with"]])
        t.add_row(r["id"], r["mode"], "\n".join(x for x in (needs and f"requires {needs}",
                                                              clash and f"not with {clash}") if x),
                  f"{r['name']}: {r['description']}")
    console().print(t)
    return 0


def console():
    """The console tables print on: as wide as the terminal (``COLUMNS`` where it
    is set; 80 columns into a pipe), each column wrapped to fit; a closed pipe
    exits 141, as print's does."""
    from houserules.play import TerminalConsole
    return TerminalConsole()


def _print_preset(row: dict) -> None:
    """One preset, whole: what ``houserules presets ID`` prints."""
    import textwrap
    width = max(40, min(100, console().width))
    reasons = row.get("incompatible_because") or {}
    lines = [f"{row['id']}: {row['name']}",
             f"category: {row['category']}", f"mode: {row['mode']}",
             f"affects: {', '.join(row['affects']) or 'nothing of FIDE (adds rules)'}",
             f"requires: {', '.join(row['requires']) or 'nothing'}"]
    incompatible = [f"{p} ({reasons[p]})" if p in reasons else p
                    for p in row["incompatible_with"]] + \
        [f"{p} (both rewrite one production)" for p in row["conflicts_with"]]
    lines.append(f"incompatible with: {'; '.join(incompatible) or 'nothing'}")
    lines.append(f"scope (white, black or both): {'yes' if row['scope_aware'] else 'no'}")
    if row.get("config_schema"):
        keys = ", ".join(sorted((row["config_schema"].get("properties") or {})))
        lines.append(f"configurable: {keys} (--config {row['id']}.KEY=VALUE)")
    lines.append(f"preferred layout: {row['preferred_layout'] or 'standard'}")
    for line in lines:
        print(textwrap.fill(line, width, subsequent_indent="  "))
    print()
    print(textwrap.fill(row["description"], width))


def cmd_layouts(args) -> int:
    from presets.layouts import LAYOUTS
    if args.json:
        print(json.dumps([{"id": l.id, "name": l.name, "fen": l.fen,
                           "description": l.description} for l in LAYOUTS.values()], indent=2))
        return 0
    from rich import box
    from rich.table import Table
    t = Table(title="layouts", box=box.SIMPLE_HEAD)
    t.add_column("id", no_wrap=True)
    t.add_column("FEN, then what it is", ratio=1, min_width=16)
    for l in LAYOUTS.values():
        t.add_row(l.id, f"{l.fen}\n{l.description}")
    console().print(t)
    return 0


def cmd_rete_graph(args) -> int:
    chess = any(getattr(args, k, None)
                for k in ("preset", "config", "rules", "modifier", "ruleset"))
    if args.file and chess:
        raise ChessError("give a rule program FILE, or the chess rule set's options "
                         "(--preset, --config, --rules, --modifier, --ruleset), not both")
    s = _program_session(args.file) if args.file else _ruleset(args).build()
    if args.dot:
        sys.stdout.write(s.to_dot())
        return 0
    st = s.stats()
    print(json.dumps(st, indent=2))
    return 0


def _program_session(path: str):
    """A session holding a rule program of its own (its templates, stages, rules)."""
    from rete import ReteError, Session
    from rete.errors import UnknownStageError, UnknownTemplateError
    from rete.language import load_rules, parse_rules
    from rete.loading import read_text_file
    s = Session()
    text = read_text_file(path, "rule program")
    # the network is only built, never run: a function the file declares with
    # 'uses' (registered by the program that runs the rules) gets a stand-in
    for name in parse_rules(text, source=path).functions:
        if name not in s.functions:
            def stand_in(*_, name=name):
                raise ReteError(f"function {name!r} is a stand-in in 'houserules rete graph'")
            s.register_function(name, stand_in)
    try:
        load_rules(s, text, source=path)
    except (UnknownStageError, UnknownTemplateError) as e:
        # most likely a file that edits the chess rules (movegen, piece, generate ...)
        # the same error (its line, column and source kept), with the hint added
        e.args = (f"{e} (a file that edits the chess rules is shown with "
                  f"'houserules rete graph --rules {path}')",) + tuple(e.args[1:])
        raise e from None
    return s


def cmd_test(args) -> int:
    from houserules.scenarios import main as scenario_main
    return scenario_main(args.paths)


def cmd_play(args) -> int:
    from houserules.play import play
    rs = _ruleset(args)
    fen = _fen(args, rs)
    _refuse_words_after_a_whole_fen(args, rs, None, "")
    return play(fen, rs, human=args.human, seed=args.seed, max_moves=args.max_moves,
                bot=getattr(args, "bot", None))


def _read_pgn(path: str) -> tuple[str, str]:
    """A PGN file's text (``-``: standard input) and the name to report it by:
    UTF-8, else Latin-1, the encoding the PGN standard itself names."""
    if path == "-":
        stdin = sys.stdin
        buffer = getattr(stdin, "buffer", None)
        if buffer is None:          # (closed, or a text stream put in its place)
            return (stdin.read() if stdin is not None else ""), "<stdin>"
        data, source = buffer.read(), "<stdin>"
    else:
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            raise OSError(f"cannot read PGN file {path!r}: {e.strerror or e}") from None
        source = path
    _refuse_binary(data, source)
    try:
        return data.decode("utf-8-sig"), source
    except UnicodeDecodeError:
        # the UTF-8 mark an editor put on text that is Latin-1 all the same
        return data.removeprefix(b"\xef\xbb\xbf").decode("latin-1"), source


#: the control bytes a text file may hold (tab, line feed, form feed, carriage return)
TEXT_CONTROLS = frozenset(b"\t\n\x0c\r")


def _refuse_binary(data: bytes, source: str) -> None:
    """A file that is no text (an image, an archive: a NUL byte, or another
    control byte) is named as such, where reading it as Latin-1 would quote its
    bytes back in a syntax error."""
    at = next((i for i, b in enumerate(data[:65536]) if b < 0x20 and b not in TEXT_CONTROLS),
              None)
    if at is not None:
        raise ChessError(f"{source}: not a PGN file: it is not text (byte {at} is "
                         f"{data[at]:#04x}, a control byte no text holds)")


def cmd_replay(args) -> int:
    from chess_rules.pgn import read_games
    from houserules.play import result_text
    from chess_rules.replay import moves, start
    text, source = _read_pgn(args.file)
    games = read_games(text, source)
    if not games:
        raise ChessError(f"{source}: no game in the text")
    # rules the options name are the rules; without them, the Variant tag's presets
    own = any(getattr(args, k, None) for k in ("preset", "rules", "modifier", "ruleset"))
    ruleset = _ruleset(args) if own else None
    config = None if own else (_parse_config(args.config) or None)
    for i, pgn in enumerate(games, 1):
        if len(games) > 1:
            print(f"{'' if i == 1 else chr(10)}game {i} (line {pgn.line}): "
                  f"{pgn.tags.get('White', '?')} - {pgn.tags.get('Black', '?')}")
        game = start(pgn, ruleset=ruleset, config=config)
        for step in moves(game, pgn):
            print(f"{step.number} {step.pgn.san}  {step.color} plays {step.move.uci()}  "
                  f"({step.move.rule})")
        print(f"fen: {game.fen()}")
        out = game.outcome()
        said = result_text(out) if out is not None else "ongoing"
        if pgn.result != (out.result() if out is not None else "*"):
            said += f" (the file records {pgn.result})"
        print(f"outcome: {said}")
    return 0


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    from rete import build_kind
    try:
        number = version("houserules")
    except PackageNotFoundError:        # run from a source tree, not installed
        number = "(not installed)"
    return f"{number} ({build_kind()})"     # 'compiled' or 'pure': which build runs


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="houserules",
        description="Chess and its variants as production rules on a Rete-II engine.")
    p.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    p.add_argument("--traceback", action="store_true",
                   help="on an error, its whole traceback too (anywhere on the line)")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    m = sub.add_parser("moves", help="legal moves in UCI, one per line, sorted")
    _add_rules_options(m)
    m.set_defaults(func=cmd_moves)

    pf = sub.add_parser("perft", help="count leaf nodes of the legal move tree")
    _add_fen(pf)
    pf.add_argument("depth", type=depth_arg, help="plies")
    pf.add_argument("--layout", type=text_arg, help="a starting layout id instead of a FEN")
    pf.add_argument("--divide", action="store_true", help="one 'move: count' line per root move")
    pf.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                    help="a progress bar on stderr (default: when stderr is a terminal)")
    _add_rules_options(pf, fen=False)
    pf.set_defaults(func=cmd_perft)

    e = sub.add_parser("explain", help="which production generated or refused a move")
    _add_fen(e)
    e.add_argument("move", help="a move in UCI (e2e4) or SAN (e4, Nf3, O-O)")
    e.add_argument("--layout", type=text_arg, help="a starting layout id instead of a FEN")
    _add_rules_options(e, fen=False)
    e.set_defaults(func=cmd_explain)

    o = sub.add_parser("outcome", help="the result of a position, or 'ongoing'")
    _add_rules_options(o)
    o.set_defaults(func=cmd_outcome)

    r = sub.add_parser("rules", help="the active productions with stage, salience and source")
    _add_rules_options(r, fen=False)
    r.add_argument("--json", action="store_true", help="machine-readable list")
    r.set_defaults(func=cmd_rules)

    ps = sub.add_parser("presets", help="the preset registry, or one preset whole")
    ps.add_argument("id", nargs="?", metavar="ID", type=text_arg,
                    help="one preset: all it says of itself, its description whole")
    ps.add_argument("--json", action="store_true", help="machine-readable list (a contract)")
    ps.set_defaults(func=cmd_presets)

    ly = sub.add_parser("layouts", help="the starting layouts")
    ly.add_argument("--json", action="store_true", help="machine-readable list")
    ly.set_defaults(func=cmd_layouts)

    rt = sub.add_parser("rete", help="engine tools")
    rsub = rt.add_subparsers(dest="rete_command", metavar="SUBCOMMAND")
    rsub.required = True
    g = rsub.add_parser(
        "graph", help="compile a rule program, or the chess rule set, and show its network",
        description="Without FILE: the network of the chess rule set (FIDE, or the presets, "
                    "rule files and modifiers given). With FILE: a rule program of its own "
                    "(its templates, stages and rules, e.g. benchmarks/manners/manners.hr).")
    g.add_argument("file", nargs="?",
                   help="a rule program of its own; a file that edits the chess rules "
                        "(e.g. examples/rules/*.hr) goes with --rules")
    _add_rules_options(g, fen=False)
    g.add_argument("--dot", action="store_true", help="Graphviz DOT instead of counts")
    g.set_defaults(func=cmd_rete_graph)

    t = sub.add_parser("test", help="run declarative rule-test files (.hrt)")
    t.add_argument("paths", nargs="+", help=".hrt files, or directories to search for them")
    t.set_defaults(func=cmd_test)

    pl = sub.add_parser(
        "play", help="play a variant in the terminal against a simple bot",
        description="Play a variant in the terminal against a simple bot. At the prompt: "
                    "a move in UCI (e2e4) or SAN (e4, Nf3, O-O; a piece letter or O in lower "
                    "case is read too: nf3, o-o), 'explain MOVE', 'undo', 'fen' (the position, "
                    "to go on from later), 'help', 'quit' (or Ctrl-D). Your moves are said "
                    "back with the rule that generated them; the board is drawn from your "
                    "side. The game ends with its result and the rule that decided it, or "
                    "after --max-moves plies.")
    _add_rules_options(pl)
    pl.add_argument("--human", choices=("white", "black", "none"), default="white",
                    help="the side you play (default: white; none: the bot plays both)")
    pl.add_argument("--seed", type=int, default=None, help="seed the bot's random choices")
    pl.add_argument("--max-moves", type=count_arg, default=200,
                    help="stop after this many plies (default: 200)")
    pl.set_defaults(func=cmd_play)

    rp = sub.add_parser(
        "replay", help="play a PGN file's games through the rules, move by move",
        description="Play the games of a PGN file through the rules: each move of the main "
                    "line is said with the rule that generated it, then the final FEN and "
                    "the outcome. The rules are the presets of the game's Variant tag "
                    "(configured as its VariantConfig tag says, or by --config), unless --preset, --rules, --modifier or "
                    "--ruleset name others; the game starts from its FEN tag. The first "
                    "move the rules refuse stops the replay with its line, column and the "
                    "rule's reason (exit status 2), as does a move after the game has ended "
                    "with no move left, naming how it ended (a draw by rule leaves the moves: "
                    "the replay plays on).")
    rp.add_argument("file", metavar="FILE.pgn", help="a PGN file ('-': standard input)")
    _add_rules_options(rp, fen=False)
    rp.set_defaults(func=cmd_replay)

    # the commands of other modules: each adds its own subcommands
    from houserules import dice_cli, modifiers_cli, variants_cli
    from houserules.engine import cli as engine_cli
    from houserules.lab import cli as lab_cli
    from houserules.web import cli as web_cli
    for module in (modifiers_cli, dice_cli, variants_cli, engine_cli, lab_cli, web_cli):
        module.add_commands(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    # (only a TextIOWrapper can be reconfigured)
    stdout = sys.stdout if isinstance(sys.stdout, io.TextIOWrapper) else None
    errors = stdout.errors if stdout is not None else None
    if stdout is not None:
        # what the output's encoding lacks (a scenario's name on an ASCII-only
        # terminal) is escaped, as on stderr, instead of stopping the command
        stdout.reconfigure(errors="backslashreplace")
    try:
        return _run(argv)
    finally:
        # called as a library function, main leaves the caller's stdout as it was
        if stdout is not None and not stdout.closed:
            try:
                stdout.reconfigure(errors=errors)   # (it flushes first)
            except OSError:
                # a reader gone: said as 141, or after the error the command
                # reported (replay's, after the moves it played)
                _drop_stdout()


def _run(argv: list[str] | None) -> int:
    """The command, its errors reported as main promises; with ``--traceback``
    (anywhere on the line), any error's whole traceback first."""
    argv = list(sys.argv[1:] if argv is None else argv)
    show_traceback = "--traceback" in argv[:argv.index("--")] if "--" in argv \
        else "--traceback" in argv
    if show_traceback:
        argv.remove("--traceback")
    try:
        return _command(argv, show_traceback)
    except Exception as e:
        if not show_traceback:
            raise
        import traceback
        traceback.print_exception(e, file=sys.stderr)
        _complain(f"houserules: error: {e}")
        return 2


def _command(argv: list[str], show_traceback: bool = False) -> int:
    try:
        # building the parser imports the presets (half a second): a Ctrl-C
        # then is reported as one during the command
        try:
            args = build_parser().parse_args(argv)
        except SystemExit as e:
            if not e.code:      # --help, --version: their text is the output
                _flush_stdout()
            raise
        code = int(args.func(args) or 0)
        _flush_stdout()
        return code
    except BrokenPipeError:  # e.g. piped into head: the reader stopped reading
        # the status of a process a closed pipe stops (128 + SIGPIPE), as the
        # shell reports it: under pipefail the pipeline says output was cut short
        _drop_stdout()
        return 141
    except KeyboardInterrupt:  # Ctrl-C: no traceback, the shell's status for SIGINT
        # on a terminal the message starts below the ^C it echoed
        _complain(("\n" if sys.stderr and sys.stderr.isatty() else "") + "houserules: interrupted")
        return 130
    except Exception as e:
        from rete import ReteError
        if not isinstance(e, (ChessError, ValueError, OSError, ReteError)):
            raise       # a bug: its traceback (--traceback shows any error's)
        if show_traceback:
            raise
        _complain(f"houserules: error: {e}{_user_code(e)}")
        return 2


def _user_code(e: BaseException) -> str:
    """`` (raised at FILE:LINE, in your code)`` when the error came from a user's
    own Python (a rule set's function, an action), unless its message says so."""
    from chess_rules.errors import user_code_location
    at = user_code_location(e)
    return f" (raised at {at}, in your code)" if at and at not in str(e) else ""


def _flush_stdout() -> None:
    """Write the output's last part now, where a reader that has gone is a
    BrokenPipeError for _run to report (141): left to the flush at exit (stdout
    into a pipe is block-buffered), it is Python's "Exception ignored" and
    status 120."""
    if sys.stdout is not None:
        sys.stdout.flush()


def _drop_stdout() -> None:
    """What is left of the output goes nowhere: no second error at exit's flush."""
    try:
        sys.stdout = open(os.devnull, "w")
    except OSError:
        pass


class _Parser(argparse.ArgumentParser):
    """argparse's parser, but a help or version text written into a pipe whose
    reader has gone raises the BrokenPipeError that argparse drops (it would
    exit 0 as if the text had been read)."""

    def _print_message(self, message, file=None):
        file = file if file is not None else sys.stderr
        if message and file is not None:        # (stderr closed: nowhere, as argparse)
            file.write(message)


def _complain(text: str) -> None:
    """``text`` on stderr; nowhere when stderr is closed (``2>&-``), where print
    would write it to stdout, which is the command's output."""
    if sys.stderr is not None:
        print(text, file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
