"""Tokens (partial matches) and the hashed buckets the network files them in.

A token is one fact added to its parent token; it knows its children, and each
fact knows the tokens that end in it, so deleting a token deletes the subtree
below it without a search (:func:`delete_token`). Index buckets hold one item
bare and several in a dict, so the common bucket of one costs no dict.
"""
from __future__ import annotations

from typing import Any

MISSING = object()
"""A slot a fact does not hold (distinct from every value, ``None`` included)."""


def hkey(k):
    """A hashable stand-in for an unhashable key (lists, dicts, sets in slots).

    Only used after a ``TypeError``: hashable keys are used as they are. Lists
    and dicts are tagged so that they never equal a tuple, as in Python.
    """
    if isinstance(k, tuple):
        return tuple(_freeze(x) for x in k)
    return _freeze(k)


def _freeze(v):
    if isinstance(v, list):
        return ("__list__", tuple(_freeze(x) for x in v))
    if isinstance(v, dict):
        return ("__dict__", frozenset((_freeze(a), _freeze(b)) for a, b in v.items()))
    if isinstance(v, (set, frozenset)):
        return frozenset(_freeze(x) for x in v)
    if isinstance(v, tuple):
        return tuple(_freeze(x) for x in v)
    return v


def _bucket_add(idx: dict, k, item, val=None) -> None:
    try:
        b = idx.get(k)
    except TypeError:
        k = hkey(k)
        b = idx.get(k)
    if b is None:
        idx[k] = {item: val}
    else:
        b[item] = val


def _bucket_remove(idx: dict, k, item) -> None:
    try:
        b = idx.get(k)
    except TypeError:
        k = hkey(k)
        b = idx.get(k)
    if b is not None:
        b.pop(item, None)
        if not b:
            del idx[k]


def _bucket(idx: dict, k):
    try:
        return idx.get(k)
    except TypeError:
        return idx.get(hkey(k))


# ---------------------------------------------------------------- tokens


class Token:
    """A partial match: the facts matched so far (``None`` for negated positions).

    Beta memories hold plain tokens; the stores that need more per match use
    the subclasses below (fewer slots to fill on the hottest path).
    """

    __slots__ = ("parent", "fact", "facts", "node", "children", "dead")

    def __init__(self, parent, fact, node):
        self.parent = parent
        self.fact = fact
        self.facts = parent.facts + (fact,) if parent is not None else ()
        self.node = node
        self.children = None
        self.dead = False


class GatedToken(Token):
    """A token of a negative, exists or NCC node."""

    __slots__ = ("results", "passing", "key")

    # negative/exists: {fact: None}, None until the first result; NCC: {result
    # token: None}, always a dict (which of the two, only the node knows)
    results: Any

    def __init__(self, parent, fact, node, facts=None):
        self.parent = parent
        self.fact = fact
        self.facts = parent.facts + (fact,) if facts is None else facts
        self.node = node
        self.children = None
        self.dead = False
        self.results = None     # negative/exists: {fact: None}; ncc: {result token: None}
        self.passing = True     # whether the token has been passed on
        self.key = None


class MatchToken(Token):
    """A token of a production node: a complete match."""

    __slots__ = ("activation", "supported")

    def __init__(self, parent, fact, node):
        self.parent = parent
        self.fact = fact
        self.facts = parent.facts + (fact,)
        self.node = node
        self.children = None
        self.dead = False
        self.activation = None
        self.supported = None   # {fact: None} logically supported by this token's firing


class ResultToken(Token):
    """A complete sub-match of a negated conjunction (NCC partner)."""

    __slots__ = ("owner",)

    def __init__(self, parent, fact, node):
        Token.__init__(self, parent, fact, node)
        self.owner = None       # the ncc token it is filed under


def delete_token(tok: Token, from_parent: bool = True) -> None:
    """Delete a token and everything below it (a token is deleted once).

    Iterative (no recursion per token); tokens of plain beta memories are
    unfiled inline, every other store does it in its ``remove_token``.
    """
    if tok.dead:
        return
    if from_parent:
        p = tok.parent
        if p is not None:
            pc = p.children
            if pc:
                pc.pop(tok, None)
    if not tok.children:
        # a leaf (a match, most often): the loop below for one token, without its stack
        tok.dead = True
        node = tok.node
        if node.plain:
            del node.tokens[tok]
            if node.indexes:
                node.remove_from_indexes(tok)
        else:
            node.remove_token(tok)
        f = tok.fact
        if f is not None:
            f.tokens.pop(tok, None)
        return
    stack = [tok]
    pop = stack.pop
    push = stack.extend
    while stack:
        t = pop()
        if t.dead:
            continue
        t.dead = True
        ch = t.children
        if ch:
            t.children = None
            push(ch)
        node = t.node
        if node.plain:
            del node.tokens[t]
            if node.indexes:
                node.remove_from_indexes(t)
        else:
            node.remove_token(t)
        f = t.fact
        if f is not None:
            f.tokens.pop(t, None)


def delete_children(tok: Token) -> None:
    ch = tok.children
    if ch:
        tok.children = None
        for c in ch:
            delete_token(c, False)
