"""Adding, replacing and removing productions in a live network.

A production is compiled against the facts already present; a compile error
leaves no half-built node behind; removing a production deletes every node no
other production uses, and the facts its firings supported logically lose that
support. :class:`NetworkEditing` is one of the parts :class:`rete.Session` is
made of.
"""
from __future__ import annotations

from contextlib import contextmanager

from ._state import SessionState
from .alpha import AlphaMemory
from .errors import CompileError, DuplicateProductionError, ReteError, \
    UnknownProductionError, UnknownStageError
from .joinorder import control_states
from .match_errors import match_error
from .model import Production, Rule, as_production, name_problem
from .negation import NCCNode
from .network import JoinNode, ProductionNode, beta_nodes, node_serial
from .tokens import delete_token


class NetworkEditing(SessionState):
    """Productions in and out of the network (a part of :class:`rete.Session`)."""

    def add(self, *prods: Production | Rule) -> None:
        """Compile productions into the network; facts already present are matched.

        Productions added together are planned together: the join order
        (:mod:`rete.joinorder`) sees the state changes of all of them.
        All or nothing: if one of them fails, those added before it go again.
        """
        done = []
        with self.adding(prods):
            try:
                for p in prods:
                    done.append(self.add_production(p))
            except BaseException:
                # they are new (add never replaces) and have not fired: taking
                # them out leaves the session as it was
                for pnode in reversed(done):
                    self.remove_production(pnode.production.name)
                raise

    @contextmanager
    def adding(self, prods):
        """Productions about to be added one by one, for the join-order planner."""
        saved = self._batch
        self._batch = saved + [as_production(p) for p in prods]
        try:
            yield
        finally:
            self._batch = saved

    def _control_cycles(self) -> frozenset:
        prods = [pn.production for pn in self.productions.values()] + self._batch
        return control_states(prods)

    def add_production(self, prod: Production | Rule, replace: bool = False):
        """Compile a production; with ``replace``, it takes the place of the one of its name.

        A replacement is compiled before the old production goes, so an error
        leaves the old one in place (and nodes the two share keep their
        memories).
        """
        if not isinstance(prod, (Production, Rule)):
            raise CompileError(f"a production is a rete.Rule or rete.Production, not "
                               f"{type(prod).__name__} (rule text is loaded with "
                               f"rete.loading.load_rules(session, text))")
        prod = as_production(prod)
        problem = name_problem(prod)
        if problem is not None:
            raise CompileError(problem)
        old = self.productions.get(prod.name)
        if old is not None and not replace:
            raise DuplicateProductionError(f"production {prod.name!r} already exists")
        pnode = self._compile_beside(prod)
        if old is not None:
            self._remove_pnode(old)
        self.productions[prod.name] = pnode
        return pnode

    def _compile_beside(self, prod: Production):
        """Compile ``prod`` into the network, matched against the facts present,
        without registering it: a production of the same name stays until the
        caller puts this one in its place (or drops it with
        :meth:`_remove_pnode`, which leaves the session as it was: the new
        production has not fired)."""
        if isinstance(prod.salience, bool) or not isinstance(prod.salience, int):
            raise CompileError(f"salience must be an integer, not {prod.salience!r}", prod.name)
        if not isinstance(prod.stage, str):
            raise CompileError(f"a stage is named by a string, not {prod.stage!r}", prod.name)
        if prod.stage not in self.stage_index:
            err = UnknownStageError(
                f"rule {prod.name!r}: stage {prod.stage!r} is not declared "
                f"(stages: {', '.join(self.stages)})")
            err.rule = prod.name            # (as a CompileError names its rule)
            raise err
        self._demand_index = None
        with self._atomic_network(prod):
            pnode = self.compiler.add_production(prod)
            if self._unblocked:         # gates the facts present settled
                self._flush_unblocked()
        self._reactive = None
        self._below = {}
        self._demand_index = None
        return pnode

    def replace_production(self, prod: Production | Rule):
        """Replace the production of the same name (a network operation)."""
        prod = as_production(prod)
        if prod.name not in self.productions:
            raise UnknownProductionError(f"no production named {prod.name!r}")
        return self.add_production(prod, replace=True)

    def remove_production(self, name: str) -> Production:
        """Remove a production and every node no other production uses.

        Facts its firings supported logically lose that support. Adding and
        removing productions is not recorded by :meth:`checkpoint`: a rollback
        past the removal brings back the facts, not the production (a logical
        fact it supported comes back unsupported and is retracted again).
        """
        pnode = self.productions.get(name)
        if pnode is None:
            raise UnknownProductionError(f"no production named {name!r}")
        del self.productions[name]
        self._remove_pnode(pnode)
        return pnode.production

    def _remove_pnode(self, pnode) -> None:
        self._reactive = None
        self._below = {}
        self._demand_index = None
        pnode.dying = True
        self._destroy(pnode)
        if self._unblocked:
            self._flush_unblocked()
        if self._tms_queue:
            self._settle()

    def list_productions(self) -> list[Production]:
        return [p.production for p in self.productions.values()]

    def get_production(self, name: str) -> Production:
        p = self.productions.get(name)
        if p is None:
            raise UnknownProductionError(f"no production named {name!r}")
        return p.production

    @contextmanager
    def _atomic_network(self, prod: Production):
        """Compile errors leave no half-built nodes: new nodes are destroyed.
        (Matching the facts present runs only ``prod``'s new nodes, so a test
        that raises is one of its own.)"""
        first = next(node_serial)
        n_amems = len(self.alpha_memories)      # new alpha memories come after these
        try:
            yield
        except BaseException as e:
            # located while the new nodes still lead to the production
            located = None
            if isinstance(e, Exception) and not isinstance(e, ReteError):
                located = match_error(e, self.functions, "the new production", prod)
            new = sorted((n for n in self._all_nodes() if n.serial > first),
                         key=lambda n: n.serial)
            for n in reversed(new):
                self._detach(n)
            for am in list(self.alpha_memories.values())[n_amems:]:
                if not am.successors:
                    self._drop_alpha_memory(am)
            for am in self.alpha_memories.values():
                _prune_indexes(am)      # (a join made its index, then failed)
            self._unblocked.clear()
            if located is None:         # a ReteError, or no Exception (Ctrl-C)
                raise
            raise located from e

    def _all_nodes(self):
        return beta_nodes(self.root)

    def _detach(self, node) -> None:
        parent = getattr(node, "parent", None)
        if parent is not None and node in parent.children:
            parent.children.remove(node)
        if isinstance(node, ProductionNode):
            node.dying = True
        self._cleanup(node)

    def _cleanup(self, node) -> None:
        tokens = getattr(node, "tokens", None)
        if tokens:
            for tok in list(tokens):
                delete_token(tok)
        amem = getattr(node, "amem", None)
        if amem is not None:
            if node in amem.successors:
                amem.successors.remove(node)
                amem.node.changed()
            if not amem.successors:
                self._drop_alpha_memory(amem)
            else:
                _prune_indexes(amem)
        if isinstance(node, JoinNode) and node.pidx is not None:
            node.parent.release_index(node.spec)
            node.pidx = None

    def _destroy(self, node, stop=None) -> None:
        """Delete ``node`` and then any ancestor left without children (up to ``stop``)."""
        while node is not None and node is not self.root and node is not stop:
            parent = node.parent
            if node in parent.children:
                parent.children.remove(node)
            if isinstance(node, NCCNode) and node.partner is not None:
                partner = node.partner
                node.partner = None
                self._destroy(partner, stop=parent)
            self._cleanup(node)
            if parent.children:
                break
            node = parent

    def _drop_alpha_memory(self, amem: AlphaMemory) -> None:
        if self.alpha_memories.get(amem.key) is amem:
            del self.alpha_memories[amem.key]
        for fid in amem.items:
            lst = self.fact_amems.get(fid)
            if lst and amem in lst:
                lst.remove(amem)
        node = amem.node
        if amem in node.memories:
            node.memories.remove(amem)
            node.changed()
        while node is not None and node.is_empty() and node.parent is not None:
            slot, val = node.test
            table = node.parent.children[slot]
            table.pop(val, None)
            if not table:
                del node.parent.children[slot]
            node = node.parent


def _prune_indexes(amem) -> None:
    """Drop the indexes of ``amem`` that no successor reads.

    An index no join reads is not kept up to date: a modify of a slot no
    condition reads renews the fact in place (:mod:`rete.slot_specific`), and a
    production added later would find the stale index and join on old values.
    Dropped, it is built afresh by whoever needs it."""
    if not amem.indexes:
        return
    used = {sp.slots for sp in (getattr(n, "spec", None) for n in amem.successors)
            if sp is not None and sp.amem_index is not None}
    for slots in [k for k in amem.indexes if k not in used]:
        del amem.indexes[slots]
        amem.node.changed()
