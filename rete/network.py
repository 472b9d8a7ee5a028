"""The Rete network: alpha discrimination tree, token stores and join nodes.

Structure follows Doorenbos (1995): alpha memories fed by shared constant
tests; a beta network of token stores (beta memories, negative, NCC, exists and
production nodes) linked by join nodes. Joins whose conditions share variables
look their partners up in hashed indexes on both sides (the Rete-II part), so
a join costs the size of the matching bucket rather than of the memory.
Tokens are deleted tree-wise: each token knows its children, each fact the
tokens that end in it.
"""
from __future__ import annotations

from typing import Any, Callable

MISSING = object()


class Token:
    """A partial match: the facts matched so far (``None`` for negated positions)."""

    __slots__ = ("parent", "fact", "facts", "node", "children", "results", "owner",
                 "activation", "supported")

    def __init__(self, parent, fact, node):
        self.parent = parent
        self.fact = fact
        self.facts = parent.facts + (fact,) if parent is not None else ()
        self.node = node
        self.children = None
        self.results = None     # negative/exists: matching facts; ncc: result tokens
        self.owner = None       # ncc partner result: the ncc token it blocks
        self.activation = None
        self.supported = None   # facts logically supported by this token's firing


def delete_token(tok: Token, from_fact: bool = True, from_parent: bool = True) -> None:
    """Delete a token and everything below it."""
    ch = tok.children
    if ch:
        tok.children = None
        for c in list(ch):
            delete_token(c, True, False)
    tok.node.remove_token(tok)
    if from_fact and tok.fact is not None:
        tok.fact.tokens.pop(tok, None)
    if from_parent:
        p = tok.parent
        if p is not None and p.children is not None:
            p.children.pop(tok, None)


def delete_children(tok: Token) -> None:
    ch = tok.children
    if ch:
        tok.children = None
        for c in list(ch):
            delete_token(c, True, False)


# ---------------------------------------------------------------- alpha side


class AlphaMemory:
    """Facts that pass one pattern's one-fact tests, with hashed indexes by slot."""

    __slots__ = ("key", "template", "items", "successors", "indexes", "extra", "node", "id")

    def __init__(self, key, template, extra, node, mid):
        self.key = key
        self.template = template
        self.items: dict = {}
        self.successors: list = []
        self.indexes: dict = {}
        self.extra = extra          # list of callables fact -> bool
        self.node = node            # the AlphaNode that owns this memory
        self.id = mid

    def index(self, slots: tuple) -> dict:
        idx = self.indexes.get(slots)
        if idx is None:
            idx = {}
            for fid, f in self.items.items():
                idx.setdefault(_fact_key(f, slots), {})[fid] = f
            self.indexes[slots] = idx
        return idx

    def add(self, fact) -> None:
        """Store a fact that passed the tests, then right-activate the joins."""
        fid = fact.id
        self.items[fid] = fact
        for slots, idx in self.indexes.items():
            k = _fact_key(fact, slots)
            b = idx.get(k)
            if b is None:
                idx[k] = {fid: fact}
            else:
                b[fid] = fact
        for s in self.successors:
            s.right_activate(fact)

    def remove(self, fact) -> None:
        fid = fact.id
        if self.items.pop(fid, None) is None:
            return
        for slots, idx in self.indexes.items():
            k = _fact_key(fact, slots)
            b = idx.get(k)
            if b is not None:
                b.pop(fid, None)
                if not b:
                    del idx[k]


def _fact_key(fact, slots):
    v = fact.values
    if len(slots) == 1:
        return v.get(slots[0], MISSING)
    return tuple(v.get(s, MISSING) for s in slots)


class AlphaNode:
    """A node of the per-template discrimination tree.

    ``children[slot][value]`` is the child reached when the fact's ``slot``
    equals ``value``: constant tests are hashed, and shared between patterns
    that test the same slots in the same (canonical, sorted) order.
    """

    __slots__ = ("children", "memories", "parent", "test")

    def __init__(self, parent=None, test=None):
        self.children: dict = {}
        self.memories: list = []
        self.parent = parent
        self.test = test  # (slot, value) that leads here

    def activate(self, fact, hits: list) -> None:
        for m in self.memories:
            for t in m.extra:
                if not t(fact):
                    break
            else:
                hits.append(m)
        if self.children:
            vals = fact.values
            for slot, table in self.children.items():
                v = vals.get(slot, MISSING)
                try:
                    child = table.get(v)
                except TypeError:  # unhashable value: no constant test can match it
                    continue
                if child is not None:
                    child.activate(fact, hits)

    def is_empty(self) -> bool:
        return not self.memories and not self.children


# ---------------------------------------------------------------- beta side: stores


class Store:
    """Base of nodes that hold tokens (beta memory, negative, NCC, production)."""

    kind = "store"

    def __init__(self, parent):
        self.parent = parent          # the node feeding this store (join/test or store)
        self.tokens: dict = {}
        self.children: list = []
        self.indexes: dict = {}       # join node -> {key: {token: None}}

    def new_token(self, parent_tok, fact) -> Token:
        tok = Token(parent_tok, fact, self)
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
            for j, idx in self.indexes.items():
                k = j.left_key(facts)
                b = idx.get(k)
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
        if True:
            facts = tok.facts
            for j, idx in self.indexes.items():
                k = j.left_key(facts)
                b = idx.get(k)
                if b is not None:
                    b.pop(tok, None)
                    if not b:
                        del idx[k]

    def index_for(self, join) -> dict:
        idx = self.indexes.get(join)
        if idx is None:
            idx = {}
            for tok in self.tokens:
                idx.setdefault(join.left_key(tok.facts), {})[tok] = None
            self.indexes[join] = idx
        return idx

    def emit(self, tok) -> None:
        for c in self.children:
            c.left_activate(tok)

    gated = False

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
        pass


class BetaMemory(Store):
    kind = "beta-memory"

    def left_activate(self, parent_tok, fact=None) -> None:
        tok = self.new_token(parent_tok, fact)
        for c in self.children:
            c.left_activate(tok)


class NegativeNode(Store):
    """``not P`` (or ``exists P`` when ``exists`` is set) over one pattern.

    A token passes while no fact of the alpha memory joins with it (exists:
    while at least one does). Join results are kept per token, so a fact's
    arrival or departure updates only the tokens it joins.
    """

    def __init__(self, parent, amem, join_spec, exists=False):
        super().__init__(parent)
        self.amem = amem
        self.exists = exists
        self.kind = "exists" if exists else "negative"
        self.spec = join_spec  # JoinSpec: keys and tests
        self.own_index: dict = {}

    def left_activate(self, parent_tok) -> None:
        tok = self.new_token(parent_tok, None)
        spec = self.spec
        facts = tok.facts
        if spec.eq:
            k = spec.left_key(facts)
            b = self.own_index.get(k)
            if b is None:
                self.own_index[k] = {tok: None}
            else:
                b[tok] = None
            cand = spec.amem_index.get(k)
            cand = cand.values() if cand else ()
        else:
            cand = self.amem.items.values()
        res = []
        test = spec.test
        for f in cand:
            if test is None or test(facts, f):
                res.append(f)
                f.neg_results.append(tok)
        tok.results = res
        if bool(res) == self.exists:
            for c in self.children:
                c.left_activate(tok)

    def right_activate(self, fact) -> None:
        spec = self.spec
        if spec.eq:
            b = self.own_index.get(spec.right_key(fact))
            if not b:
                return
            toks = list(b)
        else:
            toks = list(self.tokens)
        test = spec.test
        for tok in toks:
            if test is None or test(tok.facts, fact):
                res = tok.results
                was_empty = not res
                res.append(fact)
                fact.neg_results.append(tok)
                if was_empty:
                    if self.exists:
                        for c in self.children:
                            c.left_activate(tok)
                    else:
                        delete_children(tok)

    def fact_removed(self, tok, fact) -> None:
        res = tok.results
        res.remove(fact)
        if not res:
            if self.exists:
                delete_children(tok)
            else:
                for c in self.children:
                    c.left_activate(tok)

    def remove_token(self, tok) -> None:
        del self.tokens[tok]
        for f in tok.results:
            try:
                f.neg_results.remove(tok)
            except ValueError:
                pass
        if self.spec.eq:
            k = self.spec.left_key(tok.facts)
            b = self.own_index.get(k)
            if b is not None:
                b.pop(tok, None)
                if not b:
                    del self.own_index[k]
        if self.indexes:
            self.remove_from_indexes(tok)

    gated = True

    def outputs(self):
        return [t for t in self.tokens if bool(t.results) == self.exists]




class NCCNode(Store):
    """A negated conjunction ``not (A and B ...)`` (or ``exists (...)``).

    The conjunction is a subnetwork hanging off the same parent store; its
    bottom is the :class:`NCCPartner`, which files each complete sub-match
    under the NCC token that owns it.
    """

    def __init__(self, parent, depth, exists=False):
        super().__init__(parent)
        self.partner: NCCPartner | None = None
        self.depth = depth          # length of the owner tokens' fact tuple
        self.exists = exists
        self.kind = "ncc-exists" if exists else "ncc"
        self.by_parent: dict = {}   # parent token -> owner token
        self.pending: dict = {}     # parent token -> [results] that arrived first

    def left_activate(self, parent_tok) -> None:
        tok = self.new_token(parent_tok, None)
        self.by_parent[parent_tok] = tok
        res = self.pending.pop(parent_tok, None) or []
        for r in res:
            r.owner = tok
        tok.results = res
        if bool(res) == self.exists:
            for c in self.children:
                c.left_activate(tok)

    def add_result(self, parent_tok, result) -> None:
        owner = self.by_parent.get(parent_tok)
        if owner is None:
            self.pending.setdefault(parent_tok, []).append(result)
            return
        result.owner = owner
        res = owner.results
        was_empty = not res
        res.append(result)
        if was_empty:
            if self.exists:
                for c in self.children:
                    c.left_activate(owner)
            else:
                delete_children(owner)

    def result_removed(self, result) -> None:
        owner = result.owner
        if owner is None:
            # still pending: drop it from the buffer
            for k, lst in list(self.pending.items()):
                if result in lst:
                    lst.remove(result)
                    if not lst:
                        del self.pending[k]
            return
        res = owner.results
        try:
            res.remove(result)
        except ValueError:
            return
        if not res and owner in self.tokens:
            if self.exists:
                delete_children(owner)
            else:
                for c in self.children:
                    c.left_activate(owner)

    def remove_token(self, tok) -> None:
        del self.tokens[tok]
        self.by_parent.pop(tok.parent, None)
        for r in tok.results:
            r.owner = None
        if self.indexes:
            self.remove_from_indexes(tok)

    gated = True

    def outputs(self):
        return [t for t in self.tokens if bool(t.results) == self.exists]


class NCCPartner(Store):
    """Bottom of an NCC subnetwork: reports complete sub-matches to the NCC node."""

    kind = "ncc-partner"

    def __init__(self, parent, ncc: NCCNode, sub_len: int):
        super().__init__(parent)
        self.ncc = ncc
        self.sub_len = sub_len

    def left_activate(self, parent_tok, fact=None) -> None:
        tok = self.new_token(parent_tok, fact)
        anc = tok
        for _ in range(self.sub_len):
            anc = anc.parent
        self.ncc.add_result(anc, tok)

    def remove_token(self, tok) -> None:
        del self.tokens[tok]
        self.ncc.result_removed(tok)


class ProductionNode(Store):
    """Terminal store: each token is an activation of the production."""

    kind = "production"

    def __init__(self, parent, production, compiled, agenda):
        super().__init__(parent)
        self.production = production
        self.compiled = compiled
        self.agenda = agenda

    def left_activate(self, parent_tok, fact=None) -> None:
        tok = self.new_token(parent_tok, fact)
        self.agenda.add(self, tok)

    def remove_token(self, tok) -> None:
        del self.tokens[tok]
        if tok.activation is not None:
            self.agenda.remove(tok.activation)
            tok.activation = None
        else:
            s = self.agenda.session
            if s._refracted is not None:
                # it fired: if a rollback rebuilds this token, it stays fired
                s._refracted.add(s._signature(self, tok))
        if tok.supported:
            self.agenda.session._support_lost(tok)


# ---------------------------------------------------------------- beta side: joins


class JoinSpec:
    """The compiled tests between a token and a fact.

    ``eq`` lists (fact slot, token position, token slot) equalities, used as the
    hash key on both sides; ``test`` is a callable ``(facts, fact) -> bool`` for
    everything else (or ``None``).
    """

    __slots__ = ("eq", "test", "left_key", "right_key", "slots", "amem_index", "signature")

    def __init__(self, eq, test, test_sig, amem):
        self.eq = tuple(eq)
        self.test = test
        self.slots = tuple(e[0] for e in eq)
        self.signature = (self.eq, test_sig)
        self.amem_index = amem.index(self.slots) if eq else None
        if not eq:
            self.left_key = self.right_key = None
        elif len(eq) == 1:
            (s, pos, ts), = eq
            if ts is None:
                self.left_key = lambda facts, p=pos: facts[p].id
            else:
                self.left_key = lambda facts, p=pos, t=ts: facts[p].values.get(t, MISSING)
            self.right_key = lambda f, s=s: f.values.get(s, MISSING)
        else:
            locs = tuple((pos, ts) for _, pos, ts in eq)
            slots = self.slots
            self.left_key = lambda facts, locs=locs: tuple(
                facts[p].id if t is None else facts[p].values.get(t, MISSING) for p, t in locs)
            self.right_key = lambda f, slots=slots: tuple(f.values.get(s, MISSING) for s in slots)


class JoinNode:
    """Joins tokens of the parent store with facts of an alpha memory."""

    kind = "join"

    def __init__(self, parent: Store, amem: AlphaMemory, spec: JoinSpec):
        self.parent = parent
        self.amem = amem
        self.spec = spec
        self.children: list = []
        self.left_key = spec.left_key
        self.pidx = parent.index_for(self) if spec.eq else None

    def left_activate(self, tok) -> None:
        spec = self.spec
        if spec.eq:
            b = spec.amem_index.get(spec.left_key(tok.facts))
            if not b:
                return
            cand = list(b.values())
        else:
            cand = list(self.amem.items.values())
        test = spec.test
        facts = tok.facts
        children = self.children
        for f in cand:
            if test is None or test(facts, f):
                for c in children:
                    c.left_activate(tok, f)

    def right_activate(self, fact) -> None:
        if self.pidx is not None:
            b = self.pidx.get(self.spec.right_key(fact))
            if not b:
                return
            if self.parent.gated:
                ex = self.parent.exists
                toks = [t for t in b if bool(t.results) == ex]
            else:
                toks = list(b)
        else:
            toks = self.parent.outputs()
            if not toks:
                return
        test = self.spec.test
        children = self.children
        for tok in toks:
            if test is None or test(tok.facts, fact):
                for c in children:
                    c.left_activate(tok, fact)

    def replay(self, child) -> None:
        for tok in self.parent.outputs():
            spec = self.spec
            if spec.eq:
                b = spec.amem_index.get(spec.left_key(tok.facts))
                cand = list(b.values()) if b else []
            else:
                cand = list(self.amem.items.values())
            for f in cand:
                if spec.test is None or spec.test(tok.facts, f):
                    child.left_activate(tok, f)


class TestNode:
    """A test on bound variables that no join could carry (e.g. after a negation)."""

    kind = "test"

    def __init__(self, parent: Store, test, signature):
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
