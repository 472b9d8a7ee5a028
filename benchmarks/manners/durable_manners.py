"""Miss Manners on durable_rules (C Rete core, Python actions, JSON facts).

The classic rules as a durable ruleset: facts are dicts tagged by ``t``, a
``modify`` is a retract of the old fact plus an assert of the new one, and
negations are ``none(...)``. durable_rules has no recency-based conflict
resolution; its ``pri`` (lower fires first) orders rules, so the classic
program's reliance on LEX is stated with priorities: make_path, are_we_done
and print_results before path_done, continue and all_done.

durable reserves ``id`` (a fact's identity: a second fact with the same id is
refused as already observed) and ``sid`` (the session), so every fact gets a
unique ``id`` and the classic ``id`` slots are renamed ``seating_id``,
``path_id`` and ``chosen_id``. durable also refuses a fact that no rule's
tests accept (``MessageNotHandledException``); every fact here is accepted.

durable registers rulesets globally, by name: each run builds a fresh
ruleset with a new name.
"""
from __future__ import annotations

import itertools

_RUN = itertools.count()


def _define(name: str, state: dict):
    from durable.lang import c, m, none, pri, ruleset, when_all

    def new(c_, fact):
        state["n"] += 1
        fact["id"] = state["n"]
        c_.assert_fact(fact)
        return fact

    def modify(c_, fact, **changes):
        f = {k: v for k, v in fact._d.items() if k != "sid" and not k.startswith("$")} \
            if hasattr(fact, "_d") else dict(fact)
        c_.retract_fact(f)
        f = dict(f)
        f.update(changes)
        del f["id"]
        new(c_, f)

    def guarded(fn):
        # durable swallows an action's exception and stops quietly: record it
        def action(c_):
            try:
                fn(c_)
            except BaseException as e:  # noqa: BLE001
                state["errors"].append(f"{fn.__name__}: {type(e).__name__}: {e}")
                raise
        action.__name__ = fn.__name__
        return action

    with ruleset(name):
        @when_all(pri(0),
                  c.f1 << (m.t == "context") & (m.state == "start"),
                  c.g << (m.t == "guest"),
                  c.f3 << (m.t == "count"))
        @guarded
        def assign_first_seat(c):
            state["fired"] += 1
            n, cnt = c.g.name, c.f3.c
            new(c, {"t": "seating", "seat1": 1, "name1": n, "name2": n, "seat2": 1, "seating_id": cnt,
                    "pid": 0, "path_done": "yes"})
            new(c, {"t": "path", "path_id": cnt, "name": n, "seat": 1})
            modify(c, c.f3, c=cnt + 1)
            modify(c, c.f1, state="assign_seats")

        @when_all(pri(0),
                  c.f1 << (m.t == "context") & (m.state == "assign_seats"),
                  c.st << (m.t == "seating") & (m.path_done == "yes"),
                  c.g1 << (m.t == "guest") & (m.name == c.st.name2),
                  c.g2 << (m.t == "guest") & (m.sex != c.g1.sex) & (m.hobby == c.g1.hobby),
                  c.f5 << (m.t == "count"),
                  none((m.t == "path") & (m.path_id == c.st.seating_id) & (m.name == c.g2.name)),
                  none((m.t == "chosen") & (m.chosen_id == c.st.seating_id) & (m.name == c.g2.name)
                       & (m.hobby == c.g1.hobby)))
        @guarded
        def find_seating(c):
            state["fired"] += 1
            st, g1, g2, cnt = c.st, c.g1, c.g2, c.f5.c
            new(c, {"t": "seating", "seat1": st.seat2, "name1": st.name2, "name2": g2.name,
                    "seat2": st.seat2 + 1, "seating_id": cnt, "pid": st.seating_id, "path_done": "no"})
            new(c, {"t": "path", "path_id": cnt, "name": g2.name, "seat": st.seat2 + 1})
            new(c, {"t": "chosen", "chosen_id": st.seating_id, "name": g2.name, "hobby": g1.hobby})
            modify(c, c.f5, c=cnt + 1)
            modify(c, c.f1, state="make_path")

        @when_all(pri(0),
                  c.f1 << (m.t == "context") & (m.state == "make_path"),
                  c.st << (m.t == "seating") & (m.path_done == "no"),
                  c.p << (m.t == "path") & (m.path_id == c.st.pid),
                  none((m.t == "path") & (m.path_id == c.st.seating_id) & (m.name == c.p.name)))
        @guarded
        def make_path(c):
            state["fired"] += 1
            new(c, {"t": "path", "path_id": c.st.seating_id, "name": c.p.name, "seat": c.p.seat})

        @when_all(pri(1),
                  c.f1 << (m.t == "context") & (m.state == "make_path"),
                  c.f2 << (m.t == "seating") & (m.path_done == "no"))
        @guarded
        def path_done(c):
            state["fired"] += 1
            modify(c, c.f2, path_done="yes")
            modify(c, c.f1, state="check_done")

        @when_all(pri(0),
                  c.f1 << (m.t == "context") & (m.state == "check_done"),
                  c.ls << (m.t == "last_seat"),
                  c.st << (m.t == "seating") & (m.seat2 == c.ls.seat))
        @guarded
        def are_we_done(c):
            state["fired"] += 1
            modify(c, c.f1, state="print_results")

        @when_all(pri(1), c.f1 << (m.t == "context") & (m.state == "check_done"))
        @guarded
        def continue_(c):
            state["fired"] += 1
            modify(c, c.f1, state="assign_seats")

        @when_all(pri(0),
                  c.f1 << (m.t == "context") & (m.state == "print_results"),
                  c.st << (m.t == "seating"),
                  c.ls << (m.t == "last_seat") & (m.seat == c.st.seat2),
                  c.f4 << (m.t == "path") & (m.path_id == c.st.seating_id))
        @guarded
        def print_results(c):
            state["fired"] += 1
            p = c.f4
            c.retract_fact({k: v for k, v in p._d.items() if k != "sid" and not k.startswith("$")})
            state["out"].append((p.name, p.seat))

        @when_all(pri(1), c.f1 << (m.t == "context") & (m.state == "print_results"))
        @guarded
        def all_done(c):
            state["fired"] += 1
            state["done"] = True


def run(data) -> dict:
    from durable.lang import assert_facts

    name = f"manners{next(_RUN)}"
    state = {"fired": 0, "out": [], "n": 0, "done": False, "errors": []}
    _define(name, state)
    facts = []
    for g, s, h in data.guests:
        facts.append({"t": "guest", "name": g, "sex": s, "hobby": h})
    facts.append({"t": "last_seat", "seat": data.seats})
    facts.append({"t": "count", "c": 1})
    facts.append({"t": "context", "state": "start"})
    for f in facts:
        state["n"] += 1
        f["id"] = state["n"]
    assert_facts(name, facts)
    if state["errors"]:
        raise RuntimeError("durable action failed: " + "; ".join(state["errors"][:3]))
    return {"firings": state["fired"], "seating": state["out"]}
