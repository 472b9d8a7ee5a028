"""``houserules serve``: the web playground on a local address.

The command line registers it with one call, :func:`add_commands`; it
also runs as ``python -m houserules.web [--host H] [--port P]``.
"""
from __future__ import annotations

import argparse
import socket
import sys

from .limits import Limits

DEFAULTS = Limits()


def _port(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a port is a whole number, not {text!r}") from None
    if not 0 <= n <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0..65535 (0: any free port), not {n}")
    return n


def _positive(kind):
    def parse(text: str):
        try:
            v = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a positive number, not {text!r}") from None
        if not v > 0:
            raise argparse.ArgumentTypeError(f"expected a positive number, not {text!r}")
        return v
    return parse


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default: 127.0.0.1, this machine only)")
    p.add_argument("--port", type=_port, default=8000,
                   help="the port (default: 8000; 0: any free port, printed)")
    p.add_argument("--time-limit", type=_positive(float), default=DEFAULTS.time_limit,
                   metavar="SECONDS",
                   help=f"the longest one computation may run (default: {DEFAULTS.time_limit:g})")
    p.add_argument("--max-games", type=_positive(int), default=DEFAULTS.max_sessions,
                   help=f"the most games held at once (default: {DEFAULTS.max_sessions})")


def add_commands(sub) -> None:
    """Register ``serve`` on the CLI's subcommands (``sub``: argparse's subparsers)."""
    p = sub.add_parser(
        "serve", help="the web playground: play, explain and compose variants in a browser",
        description="Start the web playground and print its address: a board to play on, "
                    "each move's rule, refusals explained, presets and rule text to compose, "
                    "the engine, Dice Chess. Its JSON API is described at /openapi.json. "
                    "Needs the 'web' extra (pip install 'houserules[web]').")
    add_arguments(p)
    p.set_defaults(func=cmd_serve)


def cmd_serve(args) -> int:
    """Listen, print the address, serve until Ctrl-C."""
    try:
        import uvicorn

        from .app import create_app
    except ImportError as e:
        print(f"houserules: error: serve needs the 'web' extra ({e.name} is not installed): "
              f"pip install 'houserules[web]'", file=sys.stderr)
        return 2
    limits = Limits(time_limit=args.time_limit, max_sessions=args.max_games)
    try:
        sock = _listen(args.host, args.port)
    except OSError as e:
        print(f"houserules: error: cannot listen on {args.host}:{args.port}: "
              f"{e.strerror or e}", file=sys.stderr)
        return 2
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    print(f"houserules playground: http://{shown}:{port}/  (Ctrl-C stops it)", flush=True)
    if host not in ("127.0.0.1", "::1", "localhost"):
        print("houserules: warning: listening beyond this machine: anyone who reaches "
              "this address can play and start games", file=sys.stderr)
    config = uvicorn.Config(create_app(limits), log_level="warning",
                            limit_concurrency=64, timeout_keep_alive=5)
    uvicorn.Server(config).run(sockets=[sock])
    return 0


def _listen(host: str, port: int) -> socket.socket:
    """A listening socket (bound here, so that a port in use is an error with
    its reason, and port 0 gets a port that can be printed)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m houserules.web",
                                description="The houserules web playground.")
    add_arguments(p)
    return cmd_serve(p.parse_args(argv))
