"""The alpha side of the network: a discrimination tree of constant tests per
template, ending in alpha memories.

Each level of the tree hashes one slot's value to the child for that constant,
so a fact reaches only the memories whose constants it matches; an alpha memory
keeps its facts and hashed indexes on the slots its joins look up.
"""
from __future__ import annotations

from operator import itemgetter

from .tokens import MISSING, _bucket_add, _bucket_remove


class AlphaMemory:
    """Facts that pass one pattern's one-fact tests, with hashed indexes by slot."""

    __slots__ = ("key", "template", "items", "successors", "indexes", "extra", "node", "id",
                 "consts")

    def __init__(self, key, template, extra, node, mid, consts=()):
        self.key = key
        self.template = template
        self.items: dict = {}
        self.successors: list = []
        self.indexes: dict = {}     # slots -> (key function, {key: {fid: fact}})
        self.extra = extra          # list of callables fact -> bool
        self.node = node            # the AlphaNode that owns this memory
        self.id = mid
        self.consts = consts        # ((slot, value), ...) tested on the way down

    def matches(self, fact) -> bool:
        """Whether a fact passes this memory's tests (constant tests included)."""
        vals = fact.values
        for s, v in self.consts:
            x = vals.get(s, MISSING)
            if x is MISSING or not (x == v):
                return False
        for t in self.extra:
            if not t(fact):
                return False
        return True

    def index(self, slots: tuple) -> dict:
        ent = self.indexes.get(slots)
        if ent is None:
            keyfn = right_key_fn(slots)
            idx: dict = {}
            for fid, f in self.items.items():
                _bucket_add(idx, keyfn(f.values), fid, f)
            ent = self.indexes[slots] = (keyfn, idx)
        return ent[1]

    def add(self, fact) -> None:
        """Store a fact that passed the tests, then right-activate the joins."""
        fid = fact.id
        self.items[fid] = fact
        if self.indexes:
            vals = fact.values
            for keyfn, idx in self.indexes.values():
                # _bucket_add inlined (a memory of pieces keeps two indexes)
                k = keyfn(vals)
                try:
                    b = idx.get(k)
                except TypeError:
                    _bucket_add(idx, k, fid, fact)
                    continue
                if b is None:
                    idx[k] = {fid: fact}
                else:
                    b[fid] = fact
        for s in self.successors:
            # a join whose left side holds no token can match nothing: skip
            # the call (Doorenbos's right unlinking, as a test at the source)
            if s.left_store.tokens:
                s.right_activate(fact)

    def remove(self, fact) -> None:
        fid = fact.id
        if self.items.pop(fid, None) is None:
            return
        if self.indexes:
            vals = fact.values
            for keyfn, idx in self.indexes.values():
                k = keyfn(vals)
                try:
                    b = idx.get(k)
                except TypeError:
                    _bucket_remove(idx, k, fid)
                    continue
                if b is not None:
                    b.pop(fid, None)
                    if not b:
                        del idx[k]


def right_key_fn(slots: tuple):
    """Key of a fact's values for a hashed join on ``slots`` (a value, or a tuple
    of values): called on ``fact.values``, so the key is one C call."""
    return itemgetter(*slots)


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
