"""The Rete network's beta side: token stores and join nodes.

Structure follows Doorenbos (1995): alpha memories fed by shared constant
tests (:mod:`rete.alpha`); a beta network of token stores (beta memories,
production nodes here; negative, exists and NCC nodes in :mod:`rete.negation`)
linked by join nodes. Joins whose conditions share variables look their
partners up in hashed indexes on both sides (the Rete-II part), so a join costs
the size of the matching bucket rather than of the memory. Tokens
(:mod:`rete.tokens`) are deleted tree-wise: each token knows its children,
each fact the tokens that end in it.

Invariants the code relies on (and the differential tests check):

* while a working-memory change propagates, only tokens and agenda entries
  change; alpha memories and facts do not (truth maintenance runs after the
  change has settled), so iterating memories and buckets without copying
  them is safe;
* a token of a *gated* store (negative, exists, NCC) has children exactly
  when ``tok.passing`` is true; joins below a gated store look at
  ``passing``, not at the join results, so an unblocking that is deferred
  (see ``Session._flush_unblocked``) cannot be seen twice;
* among the successors of an alpha memory, descendants come before their
  ancestors, so a fact that feeds two joins of one chain is matched once.
"""
from __future__ import annotations

from heapq import heappush
from itertools import count
from typing import Any, Callable

from .agenda import Activation
from .alpha import AlphaMemory
from .demand import demand_templates
from .tokens import MatchToken, Token, _bucket, _bucket_add, _bucket_remove

#: Beta nodes are numbered as they are made, so a failed compile can find the
#: nodes it made (those numbered after it began) without a walk beforehand.
node_serial = count()


# ---------------------------------------------------------------- beta side: stores


class Store:
    """Base of nodes that hold tokens (beta memory, negative, NCC, production)."""

    kind = "store"
    gated = False
    exists = False
    plain = False       # a beta memory: tokens are unfiled by delete_token itself

    def __init__(self, parent):
        self.serial = next(node_serial)
        self.parent = parent          # the node feeding this store (join/test or store)
        self.tokens: dict = {}
        self.children: list = []
        # left indexes shared by the joins below that key on the same token
        # positions: left signature -> [key function, {key: {token: None}}, users]
        self.indexes: dict = {}

    token_class = Token

    def new_token(self, parent_tok, fact) -> Token:
        tok = self.token_class(parent_tok, fact, self)
        if parent_tok is not None:
            ch = parent_tok.children
            if ch is None:
                parent_tok.children = {tok: None}
            else:
                ch[tok] = None
        if fact is not None:
            fact.tokens[tok] = None
        self.tokens[tok] = None
        if self.indexes:
            facts = tok.facts
            for ent in self.indexes.values():
                idx = ent[1]
                k = ent[0](facts)
                try:
                    b = idx.get(k)
                except TypeError:
                    _bucket_add(idx, k, tok)
                    continue
                if b is None:
                    idx[k] = {tok: None}
                else:
                    b[tok] = None
        return tok

    def remove_token(self, tok: Token) -> None:
        del self.tokens[tok]
        if self.indexes:
            self.remove_from_indexes(tok)

    def remove_from_indexes(self, tok: Token) -> None:
        facts = tok.facts
        for ent in self.indexes.values():
            idx = ent[1]
            try:
                k = ent[0](facts)
            except Exception:
                # a key that raises (an expression in a join) raised when the
                # token was filed too, so it may be in no bucket: an undo must
                # not fail on it again
                _unfile(idx, tok)
                continue
            try:
                b = idx.get(k)
            except TypeError:
                _bucket_remove(idx, k, tok)
                continue
            if b is not None:
                b.pop(tok, None)
                if not b:
                    del idx[k]

    def index_for(self, spec) -> dict:
        """The left index for a join with this spec (shared by equal left keys)."""
        ent = self.indexes.get(spec.left_sig)
        if ent is None:
            idx: dict = {}
            keyfn = spec.left_key
            for tok in self.tokens:
                _bucket_add(idx, keyfn(tok.facts), tok)
            ent = self.indexes[spec.left_sig] = [keyfn, idx, 0]
        ent[2] += 1
        return ent[1]

    def release_index(self, spec) -> None:
        ent = self.indexes.get(spec.left_sig)
        if ent is not None:
            ent[2] -= 1
            if ent[2] <= 0:
                del self.indexes[spec.left_sig]

    def outputs(self):
        """Tokens this store passes on to its children (all, for a plain memory)."""
        return list(self.tokens)


class RootMemory(Store):
    kind = "root"

    def __init__(self):
        super().__init__(None)
        self.dummy = Token(None, None, self)
        self.tokens[self.dummy] = None

    def remove_token(self, tok):  # the dummy token never goes
        tok.dead = False


class BetaMemory(Store):
    kind = "beta-memory"
    plain = True

    def left_activate(self, parent_tok, fact=None) -> None:
        # Store.new_token inlined: this is the hottest path of the network
        tok = Token(parent_tok, fact, self)
        ch = parent_tok.children
        if ch is None:
            parent_tok.children = {tok: None}
        else:
            ch[tok] = None
        if fact is not None:
            fact.tokens[tok] = None
        self.tokens[tok] = None
        if self.indexes:
            facts = tok.facts
            for ent in self.indexes.values():
                idx = ent[1]
                k = ent[0](facts)
                try:
                    b = idx.get(k)
                except TypeError:
                    _bucket_add(idx, k, tok)
                    continue
                if b is None:
                    idx[k] = {tok: None}
                else:
                    b[tok] = None
        for c in self.children:
            c.left_activate(tok)


class ProductionNode(Store):
    """Terminal store: each token is an activation of the production."""

    kind = "production"

    token_class = MatchToken

    def __init__(self, parent, production, compiled, session):
        super().__init__(parent)
        self.production = production
        self.compiled = compiled
        self.session = session
        self.agenda = session.agenda
        self.neg_salience = -production.salience
        # the templates it provides on demand (rete.demand); () fires as usual
        self.on_demand: tuple = demand_templates(production.meta)
        self.stage_index = 0
        self.bindings: dict = {}
        self.dying = False
        # token positions in the rule's written order, when the compiler
        # joined the conditions in another (see compiler.independent_last)
        self.fact_order: tuple | None = None
        self.joined_last: tuple = ()          # the patterns the planner moved

    def written_facts(self, tok) -> tuple:
        """The token's facts in the order the rule names them (no ``None``s)."""
        facts = tok.facts
        if self.fact_order is not None:
            facts = [facts[p] for p in self.fact_order]
        return tuple([f for f in facts if f is not None])

    def left_activate(self, parent_tok, fact=None) -> None:
        tok = MatchToken(parent_tok, fact, self)
        ch = parent_tok.children
        if ch is None:
            parent_tok.children = {tok: None}
        else:
            ch[tok] = None
        if fact is not None:
            fact.tokens[tok] = None
        self.tokens[tok] = None
        s = self.session
        if s._restore is None:
            # Agenda.add inlined
            ag = self.agenda
            ag.seq += 1
            act = Activation(self, tok, ag.seq, self.stage_index)
            tok.activation = act
            heappush(ag.heaps[act.stage], ag._key(act))
            ag.live += 1
        else:
            s._restore_token(self, tok)

    def remove_token(self, tok) -> None:
        del self.tokens[tok]
        act = tok.activation
        s = self.session
        if s._journal is not None and not s._rolling and not self.dying:
            # journal the deletion only of a match an undo can rebuild: one whose
            # facts are all older than the undo point
            h = s._horizon
            rebuildable = True
            tags: list | tuple      # (a list, then the journal's tuple of it)
            tags = []
            # one loop for the time tags and the horizon (no comprehension: a
            # call of its own, for the two or three facts of a match)
            for f in tok.facts:
                if f is not None:
                    t = f.timetag
                    if h is not None and t > h:
                        rebuildable = False
                    tags.append(t)
            sup = tok.supported
            if rebuildable or sup:
                tags = tuple(tags)
                if rebuildable:
                    s._journal.append(("D", self, tags, act.seq if act is not None else None))
                if sup:
                    for f in sup:
                        s._journal.append(("S-", self, tags, tok, f))
        if act is not None:
            self.agenda.remove(act)
            tok.activation = None
        if tok.supported and not s._rolling:
            s._tms_queue.append(tok)


def _unfile(idx: dict, tok: Token) -> None:
    """Take ``tok`` out of whichever bucket of ``idx`` holds it (a scan: only
    for a token whose key cannot be computed)."""
    for k, b in list(idx.items()):
        if tok in b:
            del b[tok]
            if not b:
                del idx[k]


# ---------------------------------------------------------------- beta side: joins


class JoinSpec:
    """The compiled tests between a token and a fact.

    ``eq`` lists ``(fact slot, left signature)`` equalities whose values are
    the hash key on both sides: ``left_key(facts)`` computes it from a token,
    ``right_key(fact.values)`` from a fact's values. ``test`` is a callable
    ``(facts, fact) -> bool`` for everything else (or ``None``).
    """

    __slots__ = ("eq", "test", "left_key", "right_key", "slots", "amem_index", "signature",
                 "left_sig")

    eq: tuple[tuple[str, Any], ...]
    test: Callable[[tuple, Any], Any] | None
    slots: tuple[str, ...]
    left_sig: tuple
    signature: tuple
    # None when the join has no equality to hash on: then right_key and
    # amem_index are None too, and are never read (the code tests left_key, or
    # the join's pidx made from it)
    left_key: Callable[[tuple], Any] | None
    right_key: Callable[[dict], Any]
    amem_index: dict

    def __init__(self, eq, test, test_sig, amem):
        # eq: [(slot, left signature, left getter facts -> value)]
        eq = sorted(eq, key=lambda e: (e[0], repr(e[1])))
        self.eq = tuple((s, sig) for s, sig, _ in eq)
        self.slots = tuple(s for s, _, _ in eq)
        self.left_sig = tuple(sig for _, sig, _ in eq)
        self.test = test
        self.signature = (self.eq, test_sig)
        if not eq:
            # (right_key and amem_index are declared for the hashed case: see above)
            self.left_key = self.right_key = None     # type: ignore[assignment]
            self.amem_index = None                    # type: ignore[assignment]
            return
        self.amem_index = amem.index(self.slots)
        self.right_key = amem.indexes[self.slots][0]
        gs = [g for _, _, g in eq]
        locs: list[Any] = [getattr(g, "loc", None) for g in gs]
        if len(gs) == 1:
            self.left_key = gs[0]
        elif len(gs) == 2 and None not in locs:
            (p0, s0), (p1, s1) = locs
            self.left_key = lambda facts: (facts[p0].values[s0], facts[p1].values[s1])
        elif len(gs) == 3 and None not in locs:
            (p0, s0), (p1, s1), (p2, s2) = locs
            self.left_key = lambda facts: (facts[p0].values[s0], facts[p1].values[s1],
                                           facts[p2].values[s2])
        elif len(gs) == 2:
            g0, g1 = gs
            self.left_key = lambda facts: (g0(facts), g1(facts))
        elif len(gs) == 3:
            g0, g1, g2 = gs
            self.left_key = lambda facts: (g0(facts), g1(facts), g2(facts))
        else:
            self.left_key = lambda facts: tuple([g(facts) for g in gs])


class JoinNode:
    """Joins tokens of the parent store with facts of an alpha memory."""

    kind = "join"

    def __init__(self, parent: Store, amem: AlphaMemory, spec: JoinSpec):
        self.serial = next(node_serial)
        self.parent = parent
        self.amem = amem
        self.spec = spec
        self.children: list = []
        self.pidx = parent.index_for(spec) if spec.left_key is not None else None
        self.left_store = parent    # the tokens a new fact would join with

    def left_activate(self, tok) -> None:
        spec = self.spec
        facts = tok.facts
        lk = spec.left_key
        if lk is not None:
            k = lk(facts)
            try:
                b = spec.amem_index.get(k)
            except TypeError:
                b = _bucket(spec.amem_index, k)
            if not b:
                return
            cand = b.values()
        else:
            cand = self.amem.items.values()
            if not cand:
                return
        test = spec.test
        children = self.children
        if len(children) == 1:
            la = children[0].left_activate
            if test is None:
                for f in cand:
                    la(tok, f)
            else:
                for f in cand:
                    if test(facts, f):
                        la(tok, f)
        else:
            for f in cand:
                if test is None or test(facts, f):
                    for c in children:
                        c.left_activate(tok, f)

    def right_activate(self, fact) -> None:
        pidx = self.pidx
        if pidx is not None:
            k = self.spec.right_key(fact.values)
            try:
                toks = pidx.get(k)
            except TypeError:
                toks = _bucket(pidx, k)
            if not toks:
                return
        else:
            toks = self.parent.tokens
            if not toks:
                return
        test = self.spec.test
        children = self.children
        if self.parent.gated:
            for tok in toks:
                if tok.passing and (test is None or test(tok.facts, fact)):
                    for c in children:
                        c.left_activate(tok, fact)
        elif len(children) == 1:
            la = children[0].left_activate
            if test is None:
                for tok in toks:
                    la(tok, fact)
            else:
                for tok in toks:
                    if test(tok.facts, fact):
                        la(tok, fact)
        else:
            for tok in toks:
                if test is None or test(tok.facts, fact):
                    for c in children:
                        c.left_activate(tok, fact)

    def replay(self, child) -> None:
        """Feed a new child everything this join would have passed it."""
        spec = self.spec
        for tok in self.parent.outputs():
            facts = tok.facts
            if spec.left_key is not None:
                b = _bucket(spec.amem_index, spec.left_key(facts))
                cand = list(b.values()) if b else []
            else:
                cand = list(self.amem.items.values())
            for f in cand:
                if spec.test is None or spec.test(facts, f):
                    child.left_activate(tok, f)


class TestNode:
    """A test on bound variables that no join could carry (e.g. after a negation)."""

    kind = "test"

    def __init__(self, parent: Store, test, signature):
        self.serial = next(node_serial)
        self.parent = parent
        self.test = test
        self.signature = signature
        self.children: list = []

    def left_activate(self, tok) -> None:
        if self.test(tok.facts, None):
            for c in self.children:
                c.left_activate(tok, None)

    def replay(self, child) -> None:
        for tok in self.parent.outputs():
            if self.test(tok.facts, None):
                child.left_activate(tok, None)


def beta_nodes(root):
    """Every node below ``root`` (the beta network), each once, depth first."""
    stack = [root]
    seen = set()
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        yield n
        stack.extend(getattr(n, "children", ()))
