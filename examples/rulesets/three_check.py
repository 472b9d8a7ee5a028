"""Three-check: a side that gives check for the third time wins.

Composed in Python on top of FIDE with the public API: a template of our own
(``checks``: the checks each side has given), a post-move rule that counts a
check, a result rule, and a position token so that the count survives the
FEN (``... 0 1 checks:2+1``: white has given two checks, black one).

    houserules moves "FEN checks:2+0" --ruleset examples/rulesets/three_check.py:build

Fairy-Stockfish's ``3check`` writes the count the other way round, as the
checks each side still needs, in a field of its own before the clocks
(``... KQkq - 1+2 0 1``); ``to_fsf``/``from_fsf`` convert.
"""
from rete import Assert, Call, Not, P, Rule, Template, Test, V

from chess_rules.errors import FenError
from chess_rules.fide import fide_rules

NEEDED = 3
#: the counts as ``_write`` writes them (not ``str.isdigit``, which lets through
#: '²', which ``int`` refuses, and '٣', which it reads as 3)
_COUNTS = {str(n): n for n in range(NEEDED + 1)}


def _read(value, pos):
    """``checks:W+B`` (the checks given by white and by black) into the position."""
    w, plus, b = value.partition("+")
    if not plus or w not in _COUNTS or b not in _COUNTS:
        raise FenError("extended", f"checks:{value} should read W+B, the checks each side "
                                   f"has given (0..{NEEDED})")
    return {"white": _COUNTS[w], "black": _COUNTS[b]}


def _write(game):
    n = {f.values["color"]: f.values["count"] for f in game.session.facts_of("checks")}
    return None if not any(n.values()) else f"{n.get('white', 0)}+{n.get('black', 0)}"


def _setup(game, pos):
    given = pos.tokens.get("checks", {"white": 0, "black": 0})
    for color in ("white", "black"):
        game.session.assert_fact("checks", color=color, count=given[color])


def count_check(ctx, color):
    # the counter is looked up here, not matched by the rule: a rule that
    # modifies a fact it matches matches again, and would count for ever
    # (RunawayError)
    s = ctx.session
    for f in s.facts_of("checks"):
        if f.values["color"] == color:
            s.modify(f, {"count": f.values["count"] + 1})


def build():
    rs = fide_rules()
    rs.name = "three-check"
    rs.templates["checks"] = Template("checks", ("color", "count"))
    rs.config.setdefault("position-tokens", {})["checks"] = (_read, _write)
    rs.setup_hooks.append(_setup)
    rs.function("three-check.count", count_check)
    # post-move, after fide.check-detection (salience -10) has judged the position
    rs.add(Rule("three-check.count", stage="post-move", salience=-20,
                doc="A move that gives check counts one check for its side.")
           .when(P("move", color=V.c), P("check"))
           .then(Call("three-check.count", V.c)))
    rs.add(Rule("three-check.win", stage="result", salience=70,
                doc=f"A side that has given {NEEDED} checks wins.")
           .when(P("checks", color=V.c, count=V.k), Test("ge", V.k, NEEDED), Not(P("result")))
           .then(Assert("result", winner=V.c, reason="three checks")))
    return rs


def to_fsf(fen: str) -> str:
    """Our FEN (with or without ``checks:W+B``) as FSF's 3check FEN."""
    fields = fen.split()
    given = _read(fields[6].partition(":")[2], None) if len(fields) > 6 else \
        {"white": 0, "black": 0}
    return " ".join(fields[:4] + [f"{NEEDED - given['white']}+{NEEDED - given['black']}"]
                    + fields[4:6])


def from_fsf(fen: str) -> str:
    fields = fen.split()
    w, _, b = fields[4].partition("+")
    out = " ".join(fields[:4] + fields[5:7])
    given = (NEEDED - int(w), NEEDED - int(b))
    return out + (f" checks:{given[0]}+{given[1]}" if any(given) else "")
