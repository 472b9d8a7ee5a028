"""Miss Manners on the houserules engine (``rete/``).

The classic OPS5 rules, one production each, in ``manners.hr`` (the rule
language; :func:`rules` is the same program through the Python builder). The
OPS5 original relies on LEX/MEA's specificity and "longer timetag list wins"
steps in three places; they are made explicit with salience:

* ``make_path`` (salience 1) must run to exhaustion before ``path_done``;
* ``are_we_done`` (salience 1) must beat ``continue``;
* ``print_results`` (salience 1) must print every seat before ``all_done`` halts.

With that the run is the same under every strategy but ``breadth``; the
benchmark uses ``depth`` (newest activation first), CLIPS's default, so both
engines resolve conflicts by the same rule.
"""
from __future__ import annotations

import os

from rete import (Assert, Call, Expr, Halt, ModifyFact, Not, P, RetractFact, Rule, Session,
                  Test, V)

HERE = os.path.dirname(os.path.abspath(__file__))
RULES_FILE = os.path.join(HERE, "manners.hr")

TEMPLATES = {
    "guest": ("name", "sex", "hobby"),
    "last_seat": ("seat",),
    "seating": ("seat1", "name1", "name2", "seat2", "id", "pid", "path-done"),
    "context": ("state",),
    "path": ("id", "name", "seat"),
    "chosen": ("id", "name", "hobby"),
    "count": ("c",),
}


def rules() -> list:
    return [
        Rule("assign_first_seat")
        .when(P("context", state="start").as_("f1"),
              P("guest", name=V.n),
              P("count", c=V.c).as_("f3"))
        .then(Assert("seating", seat1=1, name1=V.n, name2=V.n, seat2=1, id=V.c, pid=0,
                     path_done="yes"),
              Assert("path", id=V.c, name=V.n, seat=1),
              ModifyFact("f3", c=Expr("add", V.c, 1)),
              ModifyFact("f1", state="assign_seats")),

        Rule("find_seating")
        .when(P("context", state="assign_seats").as_("f1"),
              P("seating", seat1=V.seat1, seat2=V.seat2, name2=V.n2, id=V.id, pid=V.pid,
                path_done="yes"),
              P("guest", name=V.n2, sex=V.s1, hobby=V.h1),
              P("guest", name=V.g2, sex=V.s2, hobby=V.h1), Test("ne", V.s2, V.s1),
              P("count", c=V.c).as_("f5"),
              Not(P("path", id=V.id, name=V.g2)),
              Not(P("chosen", id=V.id, name=V.g2, hobby=V.h1)))
        .then(Assert("seating", seat1=V.seat2, name1=V.n2, name2=V.g2,
                     seat2=Expr("add", V.seat2, 1), id=V.c, pid=V.id, path_done="no"),
              Assert("path", id=V.c, name=V.g2, seat=Expr("add", V.seat2, 1)),
              Assert("chosen", id=V.id, name=V.g2, hobby=V.h1),
              ModifyFact("f5", c=Expr("add", V.c, 1)),
              ModifyFact("f1", state="make_path")),

        Rule("make_path", salience=1)
        .when(P("context", state="make_path"),
              P("seating", id=V.id, pid=V.pid, path_done="no"),
              P("path", id=V.pid, name=V.n1, seat=V.s),
              Not(P("path", id=V.id, name=V.n1)))
        .then(Assert("path", id=V.id, name=V.n1, seat=V.s)),

        Rule("path_done")
        .when(P("context", state="make_path").as_("f1"),
              P("seating", path_done="no").as_("f2"))
        .then(ModifyFact("f2", path_done="yes"),
              ModifyFact("f1", state="check_done")),

        Rule("are_we_done", salience=1)
        .when(P("context", state="check_done").as_("f1"),
              P("last_seat", seat=V.l_seat),
              P("seating", seat2=V.l_seat))
        .then(ModifyFact("f1", state="print_results")),

        Rule("continue")
        .when(P("context", state="check_done").as_("f1"))
        .then(ModifyFact("f1", state="assign_seats")),

        Rule("print_results", salience=1)
        .when(P("context", state="print_results"),
              P("seating", id=V.id, seat2=V.s2),
              P("last_seat", seat=V.s2),
              P("path", id=V.id, name=V.n, seat=V.s).as_("f4"))
        .then(RetractFact("f4"),
              Call("record_seat", V.n, V.s)),

        Rule("all_done")
        .when(P("context", state="print_results"))
        .then(Halt()),
    ]


def build(strategy: str = "depth", use_text: bool | None = None,
          join_order: str = "control-last") -> tuple[Session, list]:
    """A session with the templates and rules; returns it and the output list."""
    s = Session(strategy=strategy, join_order=join_order)
    out: list = []
    s.register_function("record_seat", lambda ctx, n, seat: out.append((n, seat)))
    if use_text is None:
        use_text = _language_available()
    if use_text:
        from rete.language import load_rules
        with open(RULES_FILE) as fh:
            load_rules(s, fh.read())
    else:
        for name, slots in TEMPLATES.items():
            s.deftemplate(name, *slots)
        s.add(*rules())
    return s, out


def _language_available() -> bool:
    if not os.path.exists(RULES_FILE):
        return False
    try:
        from rete.language import load_rules  # noqa: F401
    except ImportError:
        return False
    return True


def load(s: Session, data) -> None:
    for name, sex, hobby in data.guests:
        s.assert_fact("guest", name=name, sex=sex, hobby=hobby)
    s.assert_fact("last_seat", seat=data.seats)
    s.assert_fact("count", c=1)
    s.assert_fact("context", state="start")


def run(data, strategy: str = "depth", use_text: bool | None = None,
        join_order: str = "control-last") -> dict:
    s, out = build(strategy, use_text, join_order)
    load(s, data)
    firings = s.run()
    return {"firings": firings, "seating": out}
