"""What the parts of a :class:`rete.Session` share: its memories, journal and agenda.

:class:`rete.Session` is made of parts (:class:`~rete.editing.NetworkEditing`,
:class:`~rete.journal.Journal`, :class:`~rete.slot_specific.SlotSpecificModify`) that
work on state ``Session.__init__`` sets up and on one another's methods. They
derive from :class:`SessionState`, which declares that state and those methods
for type checkers only: at run time it is an empty class (nothing is looked up
through it, and ``Session`` keeps the one definition of each method).
"""
from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from .agenda import Agenda
    from .alpha import AlphaMemory
    from .compiler import Compiler
    from .model import Fact, Production, Template
    from .network import ProductionNode, RootMemory
    from .tokens import GatedToken, MatchToken


class SessionState:
    """The state the parts of a session work on (declared here, set by ``Session.__init__``)."""

    templates: dict[str, Template]
    functions: dict[str, Callable[..., Any]]
    productions: dict[str, ProductionNode]
    alpha_memories: dict[Any, AlphaMemory]
    root: RootMemory
    fact_amems: dict[int, list[AlphaMemory]]
    stages: list[str]
    stage_index: dict[str, int]
    agenda: Agenda
    compiler: Compiler
    _time: int
    listeners: list[Callable[[str, Fact, Any], Any]]
    # the journal and its checkpoints (rete.journal)
    _journal: list[tuple] | None
    _marks: list[int]
    _mark_times: list[int]
    _horizon: int | None
    # the journals pause_journal set aside, oldest first (rete.demand)
    _paused: list[list[tuple] | None]
    # stage index -> the agenda's sequence number when an on-demand
    # activation of that stage was last passed over in its turn (rete.demand)
    _passed: dict[int, int]
    _rolling: bool
    _restore: dict[tuple, tuple] | None
    _rebuilt: dict[tuple, MatchToken] | None
    # truth maintenance and gates settled once a change is done
    _tms_queue: deque[MatchToken]
    _unblocked: list[GatedToken]
    # slot-specific modify (rete.slot_specific)
    _reactive: tuple[dict[str, Any], frozenset[str]] | None
    # (a match token and its new sequence number, or a fact whose matches are
    # looked up once the firing ends and the sequence number at its renewal)
    _renewals: list[tuple[Any, float]]
    _below: dict[Any, tuple[ProductionNode, ...]]
    _firing: MatchToken | None
    _renewed_firing: MatchToken | None
    _batch: list[Production]

    if TYPE_CHECKING:
        # defined by Session
        def _insert(self, f: Fact, tag: int | None = None) -> None: ...
        def _remove(self, f: Fact) -> None: ...
        def _retract_fact(self, f: Fact) -> None: ...
        def _settle(self) -> None: ...
        def _flush_unblocked(self) -> None: ...
        # defined by one part and used by another
        def list_productions(self) -> list[Production]: ...
        def _renewable(self, f: Fact, old: dict, changes: dict) -> bool: ...
        def _undo_renew(self, f: Fact, old: dict, old_tag: int) -> None: ...
        def _restore_token(self, pnode: ProductionNode, tok: MatchToken) -> None: ...
