"""Miss Manners on experta (pure-Python Rete, a PyKnow fork).

The classic rules, unchanged in meaning. experta's default ``DepthStrategy``
orders activations by salience, then by their fact ids sorted newest first,
compared as lists, so a longer list with an equal prefix wins as in OPS5 LEX:
no salience is needed. ``~?s1`` becomes a ``TEST``; a firing counter is kept
by the rule bodies since ``run()`` returns nothing.
"""
from __future__ import annotations

from ..experta_compat import fixed_depth_strategy, import_experta


def _engine_class():
    ex = import_experta()
    Fact, Rule, AS, MATCH, NOT, TEST = ex.Fact, ex.Rule, ex.AS, ex.MATCH, ex.NOT, ex.TEST

    class Guest(Fact):
        pass

    class LastSeat(Fact):
        pass

    class Seating(Fact):
        pass

    class Context(Fact):
        pass

    class Path(Fact):
        pass

    class Chosen(Fact):
        pass

    class Count(Fact):
        pass

    class Manners(ex.KnowledgeEngine):
        __strategy__ = fixed_depth_strategy()

        def __init__(self):
            super().__init__()
            self.fired = 0
            self.out = []

        @Rule(AS.f1 << Context(state="start"),
              Guest(name=MATCH.n),
              AS.f3 << Count(c=MATCH.c))
        def assign_first_seat(self, f1, f3, n, c):
            self.fired += 1
            self.declare(Seating(seat1=1, name1=n, name2=n, seat2=1, id=c, pid=0, path_done="yes"))
            self.declare(Path(id=c, name=n, seat=1))
            self.modify(f3, c=c + 1)
            self.modify(f1, state="assign_seats")

        @Rule(AS.f1 << Context(state="assign_seats"),
              Seating(seat1=MATCH.seat1, seat2=MATCH.seat2, name2=MATCH.n2, id=MATCH.id,
                      pid=MATCH.pid, path_done="yes"),
              Guest(name=MATCH.n2, sex=MATCH.s1, hobby=MATCH.h1),
              Guest(name=MATCH.g2, sex=MATCH.s2, hobby=MATCH.h1),
              TEST(lambda s1, s2: s1 != s2),
              AS.f5 << Count(c=MATCH.c),
              NOT(Path(id=MATCH.id, name=MATCH.g2)),
              NOT(Chosen(id=MATCH.id, name=MATCH.g2, hobby=MATCH.h1)))
        def find_seating(self, f1, seat2, n2, id, g2, h1, f5, c, **_):
            self.fired += 1
            self.declare(Seating(seat1=seat2, name1=n2, name2=g2, seat2=seat2 + 1, id=c,
                                 pid=id, path_done="no"))
            self.declare(Path(id=c, name=g2, seat=seat2 + 1))
            self.declare(Chosen(id=id, name=g2, hobby=h1))
            self.modify(f5, c=c + 1)
            self.modify(f1, state="make_path")

        @Rule(Context(state="make_path"),
              Seating(id=MATCH.id, pid=MATCH.pid, path_done="no"),
              Path(id=MATCH.pid, name=MATCH.n1, seat=MATCH.s),
              NOT(Path(id=MATCH.id, name=MATCH.n1)))
        def make_path(self, id, n1, s, **_):
            self.fired += 1
            self.declare(Path(id=id, name=n1, seat=s))

        @Rule(AS.f1 << Context(state="make_path"),
              AS.f2 << Seating(path_done="no"))
        def path_done(self, f1, f2):
            self.fired += 1
            self.modify(f2, path_done="yes")
            self.modify(f1, state="check_done")

        @Rule(AS.f1 << Context(state="check_done"),
              LastSeat(seat=MATCH.l_seat),
              Seating(seat2=MATCH.l_seat))
        def are_we_done(self, f1, **_):
            self.fired += 1
            self.modify(f1, state="print_results")

        @Rule(AS.f1 << Context(state="check_done"))
        def continue_(self, f1):
            self.fired += 1
            self.modify(f1, state="assign_seats")

        @Rule(Context(state="print_results"),
              Seating(id=MATCH.id, seat2=MATCH.s2),
              LastSeat(seat=MATCH.s2),
              AS.f4 << Path(id=MATCH.id, name=MATCH.n, seat=MATCH.s))
        def print_results(self, f4, n, s, **_):
            self.fired += 1
            self.retract(f4)
            self.out.append((n, s))

        @Rule(Context(state="print_results"))
        def all_done(self):
            self.fired += 1
            self.halt()

    return Manners, Guest, LastSeat, Count, Context


def run(data) -> dict:
    Manners, Guest, LastSeat, Count, Context = _engine_class()
    e = Manners()
    e.reset()
    for name, sex, hobby in data.guests:
        e.declare(Guest(name=name, sex=sex, hobby=hobby))
    e.declare(LastSeat(seat=data.seats))
    e.declare(Count(c=1))
    e.declare(Context(state="start"))
    e.run()
    return {"firings": e.fired, "seating": e.out}
