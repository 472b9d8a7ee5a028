"""``Game.explain`` checked against the rules themselves, under rule sets a
designer writes: the example variants (``examples/rulesets``), the example rule
files (``examples/rules``) and small rule sets of this file's own (filters that
drop with a reason, without one, or by deleting the candidate; a castling rule
with a condition of its own; a mover by ``gen-slide``; a stage of its own).

Along seeded random playouts, from positions with promotions and castling to
hand, for the moves of the side to move (every generated candidate, every
legal move, their promotions and a sample of other from-to pairs):

* ``explain(m).legal`` is True exactly for the legal moves;
* a legal move names generate-stage rules, and with those rules (and every
  filter) removed no rule generates it;
* a move refused by a filter-stage rule is legal, or refused by another rule,
  once that rule is removed; a refusal always has a reason (no dangling dash);
* a move explained with no rule ("no rule moves the knight ...", a blocked
  line, an own piece) is not a candidate of any generator: with every filter
  removed it is still not legal (nor any promotion on its squares).
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from rete import Call, P, Rule, V

from chess_rules.rule_files import load_rule_file, load_rule_text
from chess_rules.fide import fide_rules
from chess_rules.game import Game
from chess_rules.ruleset_spec import load_ruleset_spec
from chess_rules.squares import SQUARE_NAMES

ROOT = Path(__file__).resolve().parents[2]
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
# castling both ways, pawns about to promote (straight and by capture) on both sides
BUSY = "r3k2r/pP2n1P1/8/3q4/3Q4/8/Pp2N1p1/R3K2R w KQkq - 0 1"


def _example(name):
    return lambda: load_ruleset_spec(str(ROOT / "examples" / "rulesets" / f"{name}.py") + ":build")


def _rule_file(name):
    return lambda: load_rule_file(fide_rules(), ROOT / "examples" / "rules" / f"{name}.hr")


def _filtered():
    """A filter with a reason, one that deletes silently, one that drops with none."""
    rs = fide_rules()

    def rim(ctx, color):
        st = ctx.session.chess
        for u, m in list(st.candidates.items()):
            if m.piece == "knight" and m.to % 8 in (0, 7):
                del st.candidates[u]

    def spare(ctx, color):
        st = ctx.session.chess
        for u, m in list(st.candidates.items()):
            if m.piece == "rook" and m.victim is not None and st.types[m.victim] == "pawn":
                st.drop(u, ctx.pnode.production.name, "a rook may not capture a pawn")

    def humble(ctx, color):
        st = ctx.session.chess
        st.candidates = {u: m for u, m in st.candidates.items()
                         if not (m.piece == "queen" and m.to // 8 == 3)}
    for name, fn, doc in (("house.no-knight-rim", rim, "No knight to the a or h file."),
                          ("house.rooks-spare-pawns", spare, ""),
                          ("house.queen-not-rank4", humble, "")):
        rs.function(name, fn)
        rs.add(Rule(name, stage="filter", doc=doc)
               .when(P("movegen", color=V.c)).then(Call(name, V.c)))
    return rs


# on top of examples/rules/castle_only_with_queen.hr
MIXED = '''
rule "house.knight-camel" stage generate
  "A knight may also leap as a camel."
when
  movegen(color: ?c)
  ?p <- piece(type: knight, color: ?c)
then
  call gen-leap(?p, "3,1 1,3 -3,1 -1,3 3,-1 1,-3 -3,-1 -1,-3")
end

rule fide.rook-move replaces stage generate
  "A rook slides, by the helper, and never captures."
when
  movegen(color: ?c)
  ?p <- piece(type: rook, color: ?c)
then
  call gen-slide-quiet(?p, "N E S W")
end

rule "house.no-queen-promo" stage filter
when
  movegen(color: ?c)
then
  call drop-promotions(?c, queen)
end

rule "house.first-capture-wins" stage result
when
  move(capture: true, color: ?c)
  not result()
then
  assert result(winner: ?c, reason: "first capture")
end
remove fide.insufficient-material
'''


def _mixed():
    return load_rule_text(_rule_file("castle_only_with_queen")(), MIXED, "mixed.hr")


def _own_stage():
    rs = fide_rules()

    def vet(ctx, color):
        st = ctx.session.chess
        for u, m in list(st.candidates.items()):
            if m.piece == "pawn" and abs(m.to - m.frm) == 16:
                st.candidates.pop(u)
    rs.function("house.vet", vet)
    rs.remove("fide.check-resolution")          # kings may walk into check
    return load_rule_text(rs, '''
stages generate, house-vet
rule "house.no-double-step" stage house-vet
when
  movegen(color: ?c)
then
  call house.vet(?c)
end
''', "vet.hr")


RULESETS = {
    "atomic": (_example("atomic"), [START, BUSY]),
    "horde": (_example("horde"), [
        "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1", BUSY]),
    "racing-kings": (_example("racing_kings"), ["8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1"]),
    "three-check": (_example("three_check"), [START, BUSY]),
    "king-of-the-hill": (_rule_file("king_of_the_hill"), [START, BUSY]),
    "kings-step-only": (_rule_file("kings_step_only"), [BUSY]),
    "no-queen-promotion": (_rule_file("no_queen_promotion"), [BUSY]),
    "rook-steps-diagonally": (_rule_file("rook_steps_diagonally"), [BUSY]),
    "filtered": (_filtered, [START, BUSY]),
    "mixed": (_mixed, [START, BUSY]),
    "own-stage": (_own_stage, [START, BUSY]),
}


class Oracle:
    """The rule set, and copies of it with productions removed (cached)."""

    def __init__(self, rs):
        self.rs = rs
        self.copies: dict = {}
        self.filters: tuple | None = None

    def without(self, names) -> object:
        key = tuple(sorted(set(names)))
        rs = self.copies.get(key)
        if rs is None:
            rs = self.rs.copy()
            for n in key:
                rs.remove(n)
            self.copies[key] = rs
        return rs

    def unfiltered(self, fen, g, extra=()):
        if self.filters is None:
            gen = set(g._gen_stages) - {"generate"}
            self.filters = tuple(n for n, p in self.rs.productions.items() if p.stage in gen)
        return set(Game(fen, ruleset=self.without(self.filters + tuple(extra))).legal_uci())


def _pairs(g, cands, rng, sample):
    st = g.state
    mine = [s for s in range(64) if st.colors[s] == g.turn]
    every = []
    for f in mine:
        for t in range(64):
            if t != f:
                u = SQUARE_NAMES[f] + SQUARE_NAMES[t]
                every.append(u)
                if st.types[f] == "pawn" and t // 8 in (0, 7):
                    every += [u + p for p in "qrbnk"]
    if sample is None:
        return every
    base = set(cands) | {u[:4] for u in cands} | set(g.legal_uci())
    promos = {u[:4] + p for u in base for p in "qrbnk"
              if st.types[SQUARE_NAMES.index(u[:2])] == "pawn" and u[3] in "18"}
    rest = sorted(set(every) - base - promos)
    return sorted(base | promos) + rng.sample(rest, min(sample, len(rest)))


def check_position(oracle: Oracle, g: Game, rng, sample=40) -> int:
    fen = g.fen()
    legal = set(g.legal_uci())
    cands = oracle.unfiltered(fen, g)
    n = 0
    for u in _pairs(g, cands, rng, sample):
        ex = g.explain(u)
        n += 1
        where = f"{fen} {u}: {ex.text}"
        assert ex.legal == (u in legal), where
        assert not ex.text.rstrip().endswith("-") and ex.reason == ex.reason.strip(), where
        if ex.legal:
            assert ex.generated_by, where
            prods = oracle.rs.productions
            assert all(r in prods and prods[r].stage == "generate" for r in ex.generated_by), where
            assert u not in oracle.unfiltered(fen, g, ex.generated_by), where
            continue
        assert ex.reason, where
        if ex.reason.startswith("the game is over"):
            continue
        if ex.rule is None:
            # no rule generated or refused it: no generator makes it, promoting or not
            assert not ({u, u[:4]} & cands or any(c[:4] == u for c in cands)), where
            continue
        prod = oracle.rs.productions.get(ex.rule)
        assert prod is not None, where
        if prod.stage != "generate":
            ex2 = Game(fen, ruleset=oracle.without([ex.rule])).explain(u)
            assert ex2.legal or (ex2.rule is not None and ex2.rule != ex.rule), \
                f"{where}; without {ex.rule}: {ex2.text}"
    return n


def _run(name, seed, plies, every, sample):
    make, starts = RULESETS[name]
    oracle = Oracle(make())
    rng = random.Random(seed)
    n = 0
    for fen in starts:
        g = Game(fen, ruleset=oracle.rs)
        for ply in range(plies):
            if ply % every == 0:
                n += check_position(oracle, g, rng, sample)
            moves = g.legal_uci()
            if not moves:
                break
            caps = [u for u in moves if len(u) == 5 or g.state.colors[SQUARE_NAMES.index(u[2:4])]]
            g.push(rng.choice(caps if caps and rng.random() < 0.4 else moves))
    return n


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_explain_agrees_with_the_rules(name):
    assert _run(name, seed=7, plies=11, every=5, sample=25) > 50


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("name", sorted(RULESETS))
def test_explain_agrees_with_the_rules_long(name, seed):
    assert _run(name, seed=seed, plies=60, every=3, sample=None) > 500
