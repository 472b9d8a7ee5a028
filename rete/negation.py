"""Negation in the beta network: ``not``/``exists`` over one pattern
(:class:`NegativeNode`) and over a conjunction (:class:`NCCNode` with its
subnetwork's bottom, :class:`NCCPartner`).

Their tokens are *gated* (see the invariants in :mod:`rete.network`): a token
passes on to the joins below only while its condition holds, and
``tok.passing`` says whether it does.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .network import Store
from .tokens import (MISSING, GatedToken, ResultToken, Token, _bucket, _bucket_add,
                     delete_children, hkey)

if TYPE_CHECKING:
    from .session import Session


class GatedStore(Store):
    """A store whose tokens pass on only while their condition holds: ``not``
    while they have no join result, ``exists`` while they have one."""

    gated = True

    token_class = GatedToken
    session: Session

    if TYPE_CHECKING:
        # (Store.new_token makes a token_class token)
        def new_token(self, parent_tok, fact) -> GatedToken: ...

    def first_result(self, tok) -> None:
        """``tok`` just got its first result: an ``exists`` token passes, a ``not`` one stops."""
        if self.exists:
            if not tok.passing:
                tok.passing = True
                for c in self.children:
                    c.left_activate(tok)
        elif tok.passing:
            tok.passing = False
            delete_children(tok)

    def last_result_gone(self, tok) -> None:
        """``tok`` lost its last result: an ``exists`` token stops; a ``not`` one is
        queued to pass on once the change has settled (``Session._flush_unblocked``)."""
        if self.exists:
            if tok.passing:
                tok.passing = False
                delete_children(tok)
        elif not tok.passing:
            self.session._unblocked.append(tok)

    def closes(self, tok) -> bool:
        """Whether settling ``tok`` would stop it (only an NCC gate is settled so)."""
        return False

    def unblock(self, tok) -> None:
        if not tok.dead and not tok.passing and bool(tok.results) == self.exists:
            tok.passing = True
            for c in self.children:
                c.left_activate(tok)

    def outputs(self):
        return [t for t in self.tokens if t.passing]


class NegativeNode(GatedStore):
    """``not P`` (or ``exists P`` when ``exists`` is set) over one pattern.

    A token passes while no fact of the alpha memory joins with it (exists:
    while at least one does). Join results are kept per token, so a fact's
    arrival or departure updates only the tokens it joins.
    """

    def __init__(self, parent, amem, join_spec, exists=False, session=None):
        super().__init__(parent)
        self.amem = amem
        self.exists = exists
        self.kind = "exists" if exists else "negative"
        self.spec = join_spec  # JoinSpec: keys and tests
        self.own_index: dict = {}
        self.session = session
        self.left_store = self      # its own tokens are what a new fact joins with

    def left_activate(self, parent_tok, fact=None) -> None:
        # new_token inlined. Under a join (``fact`` given) the token also holds
        # the joined fact: the beta memory between the two is fused away
        if fact is None:
            tok = GatedToken(parent_tok, None, self)
        else:
            tok = GatedToken(parent_tok, fact, self, parent_tok.facts + (fact, None))
            fact.tokens[tok] = None
        ch = parent_tok.children
        if ch is None:
            parent_tok.children = {tok: None}
        else:
            ch[tok] = None
        self.tokens[tok] = None
        facts = tok.facts
        if self.indexes:
            for ent in self.indexes.values():
                _bucket_add(ent[1], ent[0](facts), tok)
        spec = self.spec
        lk = spec.left_key
        if lk is not None:
            k = tok.key = lk(facts)
            own = self.own_index
            try:
                b = own.get(k)
            except TypeError:
                k = tok.key = hkey(k)
                b = own.get(k)
            if b is None:
                own[k] = {tok: None}
            else:
                b[tok] = None
            cand = spec.amem_index.get(k)
            if not cand:
                cand = ()
            else:
                cand = cand.values()
        else:
            cand = self.amem.items.values()
        res = None              # made on the first join result (most tokens have none)
        test = spec.test
        for f in cand:
            if test is None or test(facts, f):
                if res is None:
                    res = {f: None}
                else:
                    res[f] = None
                f.neg_results[tok] = None
        tok.results = res
        if (res is not None) == self.exists:
            for c in self.children:
                c.left_activate(tok)
        else:
            tok.passing = False

    def right_activate(self, fact) -> None:
        spec = self.spec
        if spec.left_key is not None:
            toks = _bucket(self.own_index, spec.right_key(fact.values))
            if not toks:
                return
        else:
            toks = self.tokens
        test = spec.test
        for tok in toks:
            if test is None or test(tok.facts, fact):
                res = tok.results
                was_empty = not res
                if res is None:
                    tok.results = {fact: None}
                else:
                    res[fact] = None
                fact.neg_results[tok] = None
                if was_empty:
                    self.first_result(tok)

    def fact_removed(self, tok, fact) -> None:
        """``fact`` left; unblocking is queued on the session (emitted after deletions)."""
        res = tok.results
        if res is not None:
            res.pop(fact, None)
        if not res:
            self.last_result_gone(tok)

    def remove_token(self, tok) -> None:
        del self.tokens[tok]
        res = tok.results
        if res:
            for f in res:
                f.neg_results.pop(tok, None)
        if self.spec.left_key is not None:
            own = self.own_index
            k = tok.key
            b = own.get(k)
            if b is not None:
                b.pop(tok, None)
                if not b:
                    del own[k]
        if self.indexes:
            self.remove_from_indexes(tok)


class NCCNode(GatedStore):
    """A negated conjunction ``not (A and B ...)`` (or ``exists (...)``).

    The conjunction is a subnetwork hanging off the same parent store; its
    bottom is the :class:`NCCPartner`, which files each complete sub-match
    under the NCC token that owns it (the token made from the same parent
    token).
    """

    def __init__(self, parent, depth, exists=False, session=None):
        super().__init__(parent)
        self.partner: NCCPartner | None = None
        self.depth = depth          # length of the parent tokens' fact tuple
        self.exists = exists
        self.kind = "ncc-exists" if exists else "ncc"
        self.by_parent: dict[Token, GatedToken] = {}    # parent token -> owner token
        self.pending: dict = {}     # parent token -> {results} that arrived first
        self.session = session

    def left_activate(self, parent_tok, fact=None) -> None:
        tok = self.new_token(parent_tok, None)
        self.by_parent[parent_tok] = tok
        res = self.pending.pop(parent_tok, None)
        if res is None:
            res = {}
        else:
            for r in res:
                r.owner = tok
        tok.results = res
        if bool(res) == self.exists:
            for c in self.children:
                c.left_activate(tok)
        else:
            tok.passing = False

    # A fact joins the subnetwork through its alpha memories one at a time, so
    # while it propagates an owner's results may come and go again (``not (A
    # and not B)`` with the fact in both A and B: a result until B sees it).
    # The owner's gate is therefore settled once the change is done
    # (``Session._flush_unblocked`` calls :meth:`unblock`), not at each result:
    # a match that never really went away is not broken and rebuilt.

    def add_result(self, parent_tok, result) -> None:
        owner = self.by_parent.get(parent_tok)
        if owner is None:
            self.pending.setdefault(parent_tok, {})[result] = None
            return
        result.owner = owner
        res = owner.results
        was_empty = not res
        res[result] = None
        if was_empty:
            self.session._unblocked.append(owner)

    def result_removed(self, result) -> None:
        owner = result.owner
        if owner is None:
            # still pending: drop it from the buffer
            for k, d in list(self.pending.items()):
                if result in d:
                    del d[result]
                    if not d:
                        del self.pending[k]
            return
        result.owner = None
        res = owner.results
        if res.pop(result, MISSING) is MISSING or res or owner.dead:
            return
        self.session._unblocked.append(owner)

    def closes(self, tok) -> bool:
        return not tok.dead and tok.passing and bool(tok.results) != self.exists

    def unblock(self, tok) -> None:
        """Settle the gate of ``tok`` once a change is done: it passes on exactly
        while its condition holds (results for ``exists``, none for ``not``)."""
        if tok.dead:
            return
        want = bool(tok.results) == self.exists
        if want and not tok.passing:
            tok.passing = True
            for c in self.children:
                c.left_activate(tok)
        elif not want and tok.passing:
            tok.passing = False
            delete_children(tok)

    # (a store removes only tokens of its own token_class: here gated ones)
    def remove_token(self, tok: GatedToken) -> None:    # type: ignore[override]
        del self.tokens[tok]
        if self.by_parent.get(tok.parent) is tok:
            del self.by_parent[tok.parent]
        for r in tok.results:
            r.owner = None
        if self.indexes:
            self.remove_from_indexes(tok)


class NCCPartner(Store):
    """Bottom of an NCC subnetwork: reports complete sub-matches to the NCC node."""

    kind = "ncc-partner"

    token_class = ResultToken

    def __init__(self, parent, ncc: NCCNode):
        super().__init__(parent)
        self.ncc = ncc
        self.top = ncc.parent       # the store both the NCC node and the subnetwork hang off

    def left_activate(self, parent_tok, fact=None) -> None:
        tok = self.new_token(parent_tok, fact)
        anc = parent_tok
        top = self.top
        while anc.node is not top:
            anc = anc.parent
        self.ncc.add_result(anc, tok)

    def remove_token(self, tok) -> None:
        del self.tokens[tok]
        self.ncc.result_removed(tok)
