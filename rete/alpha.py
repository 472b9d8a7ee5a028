"""The alpha side of the network: a discrimination tree of constant tests per
template, ending in alpha memories.

Each level of the tree hashes one slot's value to the child for that constant,
so a fact reaches only the memories whose constants it matches; an alpha memory
keeps its facts and hashed indexes on the slots its joins look up.

What a change of working memory runs is not a walk of these objects but the
code :func:`compile_template` writes from them, one insert and one remove per
template, written again whenever the tree, an index or a successor changes
(``docs/engine.md``, "Alpha code").
"""
from __future__ import annotations

from itertools import count
from operator import itemgetter
from typing import Any, Callable

#: a template's generated insert or remove: ``(fact, hits) -> None``
AlphaCode = Callable[[Any, list], None]

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
            self.node.changed()
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

    __slots__ = ("children", "memories", "parent", "test", "insert_fn", "remove_fn", "source")

    def __init__(self, parent=None, test=None):
        self.children: dict = {}
        self.memories: list = []
        self.parent = parent
        self.test = test  # (slot, value) that leads here
        # a root's generated insert and remove (see compile_template); None
        # until first needed and again whenever its tree changes
        self.insert_fn: AlphaCode | None = None
        self.remove_fn: AlphaCode | None = None
        self.source: str | None = None

    def root(self) -> "AlphaNode":
        node = self
        while node.parent is not None:
            node = node.parent
        return node

    def changed(self) -> None:
        """Forget the root's generated code: a memory, index or successor
        below it was added or removed."""
        root = self.root()
        root.insert_fn = root.remove_fn = None
        root.source = None

    def compile(self, template: str) -> tuple[AlphaCode, AlphaCode]:
        """Write this root's insert and remove (kept until the tree changes)."""
        ins, rem, self.source = compile_template(self, template)
        self.insert_fn, self.remove_fn = ins, rem
        return ins, rem

    def is_empty(self) -> bool:
        return not self.memories and not self.children


def compile_template(root: AlphaNode, template: str) -> tuple:
    """One template's alpha network written out as Python: ``(insert, remove,
    source)``.

    ``insert(fact, hits)`` runs the tree's tests in the order of a depth-first
    walk (each node's memories, then its children slot by slot), appending each
    memory the fact passes to ``hits``; then, for each memory of ``hits`` in
    that order, it stores the fact in the memory's items and indexes and
    right-activates the memory's successors. A constant test is a hash look-up
    in the node's own table, as in the tree; the child found is then picked by
    identity from the children the table held when the code was written. Every
    memory, index, key function and successor is a name bound to the object, so
    a fact costs no call per node or memory and no loop over a memory's
    indexes or successors. ``remove(fact, hits)`` takes the fact out of each
    memory of ``hits`` (a memory it was not written for, by
    :meth:`AlphaMemory.remove`).

    The code is only valid for the network it was written from: whatever adds
    or removes a memory, an index or a successor calls :meth:`AlphaNode.changed`,
    and the next change of working memory writes it again.
    """
    ns: dict = {"MISSING": MISSING, "_bucket_add": _bucket_add,
                "_bucket_remove": _bucket_remove}
    names: dict = {}

    def name(obj, prefix: str) -> str:
        n = names.get(id(obj))
        if n is None:
            n = names[id(obj)] = f"{prefix}{len(names)}"
            ns[n] = obj
        return n

    serial = count(1)
    childvar: dict = {}     # (node, slot) -> the variable holding the child found
    hitvar: dict = {}       # memory with one-fact tests -> the variable saying it passed

    def tests(node, ind: str, out: list) -> None:
        for m in node.memories:
            M = name(m, "m")
            if m.extra:
                h = hitvar[id(m)] = f"h{next(serial)}"
                cond = " and ".join(f"{name(t, 't')}(f)" for t in m.extra)
                # ``m`` names the memory for rete.match_errors if a test raises
                out += [f"{ind}m = {M}",
                        f"{ind}{h} = False",
                        f"{ind}if {cond}:",
                        f"{ind}    {h} = True",
                        f"{ind}    hits.append({M})"]
            else:
                out.append(f"{ind}hits.append({M})")
        for slot, table in node.children.items():
            c = childvar[(id(node), slot)] = f"c{next(serial)}"
            out += [f"{ind}v = vals.get({slot!r}, MISSING)",
                    f"{ind}try:",
                    f"{ind}    {c} = {name(table, 'T')}.get(v)",
                    f"{ind}except TypeError:  # unhashable: no constant test can match it",
                    f"{ind}    {c} = None"]
            branches(c, table, ind, out, tests)

    def adds(node, ind: str, out: list) -> None:
        for m in node.memories:
            if m.extra:
                out.append(f"{ind}if {hitvar[id(m)]}:")
                add(m, ind + "    ", out)
            else:
                add(m, ind, out)
        for slot, table in node.children.items():
            branches(childvar[(id(node), slot)], table, ind, out, adds)

    def branches(c: str, table: dict, ind: str, out: list, write) -> None:
        kw = "if"
        for child in table.values():
            out.append(f"{ind}{kw} {c} is {name(child, 'n')}:")
            body: list = []
            write(child, ind + "    ", body)
            out += body or [f"{ind}    pass"]
            kw = "elif"

    def bucket(keyfn, X: str, ind: str, unhashable: str) -> list:
        # the fact's key and its bucket ``b`` in index ``X``; a key that cannot
        # be hashed goes to the slow path ``unhashable``; the caller's lines
        # continue the ``else:`` with the bucket found
        return [f"{ind}k = {name(keyfn, 'k')}(vals)",
                f"{ind}try:",
                f"{ind}    b = {X}.get(k)",
                f"{ind}except TypeError:",
                f"{ind}    {unhashable}",
                f"{ind}else:"]

    def add(m, ind: str, out: list) -> None:
        out.append(f"{ind}{name(m.items, 'i')}[fid] = f")
        for keyfn, idx in m.indexes.values():
            X = name(idx, "x")
            out += bucket(keyfn, X, ind, f"_bucket_add({X}, k, fid, f)")
            out += [f"{ind}    if b is None:",
                    f"{ind}        {X}[k] = {{fid: f}}",
                    f"{ind}    else:",
                    f"{ind}        b[fid] = f"]
        for s in m.successors:
            # a join whose left side holds no token can match nothing: no call
            # (Doorenbos's right unlinking, as a test at the source)
            out += [f"{ind}if {name(s.left_store.tokens, 'l')}:",
                    f"{ind}    {name(s, 's')}.right_activate(f)"]

    def drop(m, out: list) -> None:
        I = name(m.items, "i")
        if not m.indexes:
            out.append(f"            {I}.pop(fid, None)")
            return
        out.append(f"            if {I}.pop(fid, None) is not None:")
        ind = "                "
        for keyfn, idx in m.indexes.values():
            X = name(idx, "x")
            out += bucket(keyfn, X, ind, f"_bucket_remove({X}, k, fid)")
            out += [f"{ind}    if b is not None:",
                    f"{ind}        b.pop(fid, None)",
                    f"{ind}        if not b:",
                    f"{ind}            del {X}[k]"]

    ins = ["def insert(f, hits):", "    fid = f.id", "    vals = f.values"]
    tests(root, "    ", ins)
    adds(root, "    ", ins)

    rem = ["def remove(f, hits):", "    fid = f.id", "    vals = f.values", "    for m in hits:"]
    kw = "if"
    for node in _walk(root):
        for m in node.memories:
            rem.append(f"        {kw} m is {name(m, 'm')}:")
            drop(m, rem)
            kw = "elif"
    rem += ["        m.remove(f)"] if kw == "if" else \
        ["        else:", "            m.remove(f)"]

    source = "\n".join([f"# the alpha network of template {template!r}"] + ins + [""] + rem) + "\n"
    # the text names objects by their place in the tree, not by identity, so
    # every game compiling one rule set writes the same text: compile it once
    cached = _CODE.get(source)
    if cached is None:
        if len(_CODE) >= 256:
            _CODE.clear()
        cached = _CODE[source] = (compile(source, f"<alpha network of {template}>", "exec"),
                                  source)
    code, source = cached
    exec(code, ns)
    return ns["insert"], ns["remove"], source


#: generated source -> (its code object, the text itself, shared by the games)
_CODE: dict = {}


def _walk(node: AlphaNode):
    """``node`` and the nodes below it, depth first, children in table order."""
    yield node
    for table in node.children.values():
        for child in table.values():
            yield from _walk(child)
