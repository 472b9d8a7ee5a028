"""Checkpoints and rollback: the session's journal of changes.

Every working-memory change made while a checkpoint is open is recorded; a
rollback undoes them newest first (facts come back with their ids, values and
timetags), and the agenda is put back as it was at the mark: a match pending
then and fired since is pending again. A match is known by its production and
the timetags of its facts, so a token deleted and made again by the undo is
the same match. :class:`Journal` is one of the parts :class:`rete.Session` is
made of; it works on the session's memories and agenda.

Entries (tuples, first item the kind): ``A`` fact asserted, ``R`` retracted,
``M`` modified (old values and timetag), ``N`` matches renewed in place (and
the slots the network read then), ``F``
an activation fired, ``D`` a pending match deleted, ``S+``/``S-`` logical
support given or taken, ``O`` an on-demand stage passed over
(:mod:`rete.demand`).
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING

from ._state import SessionState

if TYPE_CHECKING:
    from .tokens import MatchToken


def _tags(tok) -> tuple:
    facts = tok.facts
    if len(facts) == 1:
        # (most matches are of one fact: no list built for it)
        f = facts[0]
        return (f.timetag,) if f is not None else ()
    return tuple([f.timetag for f in facts if f is not None])


def _over_gone_fact(tok) -> bool:
    """Whether a fact of ``tok`` is out of working memory: then no live match has
    its timetags (a timetag is only ever one fact's), and none need be looked for
    (a move event, retracted after its move, leaves its firings so)."""
    for f in tok.facts:
        if f is not None and not f.alive:
            return True
    return False


def _live_match(pnode, tags, cache: dict):
    """The token of ``pnode`` over facts with timetags ``tags`` (None if there is none)."""
    if pnode.dying:
        return None
    m = cache.get(pnode)
    if m is None:
        m = cache[pnode] = {_tags(t): t for t in pnode.tokens if not t.dead}
    return m.get(tags)


class Journal(SessionState):
    """Checkpoint, commit, rollback and transactions (a part of :class:`rete.Session`)."""

    def checkpoint(self) -> int:
        """Start recording changes (checkpoints nest); returns a mark for :meth:`rollback`.

        The mark is the nesting level (0 for the outermost checkpoint).
        """
        j = self._journal
        if j is None:
            j = []
        # (the journal is turned on last: interrupted before, nothing is left on)
        self._marks.append(len(j))
        self._mark_times.append(self._time)
        self._journal = j
        self._horizon = self._time
        return len(self._marks) - 1

    def _close_marks(self, mark: int) -> None:
        del self._marks[mark:]
        del self._mark_times[mark:]
        self._horizon = self._mark_times[-1] if self._mark_times else None

    def rollback(self, mark: int = 0) -> None:
        """Undo every change made since checkpoint ``mark`` and close it (and those inside it).

        Facts return with their ids, values and timetags; logical support is
        restored; the agenda holds the same activations as at the checkpoint
        (fired ones stay fired, ones fired since are pending again). A mark
        that is not open is ignored.
        """
        if mark < 0 or mark >= len(self._marks):
            return
        pos = self._marks[mark]
        self._close_marks(mark)
        try:
            self._undo(pos)
        finally:
            if not self._marks:
                self._journal = None

    def commit(self, mark: int = 0) -> None:
        """Keep the changes since checkpoint ``mark`` and close it (and those inside it)."""
        if mark < 0 or mark >= len(self._marks):
            return
        self._close_marks(mark)
        if not self._marks:
            self._journal = None

    @contextmanager
    def transaction(self):
        """All or nothing: an exception inside rolls working memory back."""
        mark = len(self._marks)     # (taken inside the try: see Session.run)
        try:
            self.checkpoint()
            yield self
            self.commit(mark)
        except BaseException:
            self.rollback(mark)
            raise

    @property
    def open_checkpoints(self) -> int:
        """How many checkpoints are open (0: no change is being recorded for a
        rollback, so none can be taken back)."""
        return len(self._marks)

    def pause_journal(self) -> object:
        """Stop recording changes for a rollback until :meth:`resume_journal`
        is given what this returns: for work that leaves working memory as it
        found it (a request fact asserted, run and retracted), which a
        rollback need not see. The pair is :meth:`unjournaled` spelt out, for
        a caller on a hot path (a generator-based context manager costs)."""
        j = self._journal
        self._journal = None
        # (kept for firings on demand, which belong to the state, not to the
        # request: rete.demand)
        self._paused.append(j)
        return j

    def resume_journal(self, paused: object) -> None:
        """Record changes again as before :meth:`pause_journal` returned ``paused``."""
        if self._paused:
            self._paused.pop()
        self._journal = paused      # type: ignore[assignment]  # (what pause_journal gave)

    @contextmanager
    def unjournaled(self):
        """Changes made inside are not recorded for a rollback (see
        :meth:`pause_journal`): they must leave working memory as they found it."""
        paused = self.pause_journal()
        try:
            yield self
        finally:
            self.resume_journal(paused)

    def _undo(self, pos: int) -> None:
        """Undo journal entries from ``pos`` on, newest first."""
        j = self._journal
        if j is None or len(j) <= pos:
            return
        entries = j[pos:]
        del j[pos:]
        self._renewals.clear()          # their matches are restored from the journal
        # the state at the mark of every match touched since: the first event wins
        restore: dict = {}
        pairs: dict = {}
        logical_back: list = []
        for e in entries:
            k = e[0]
            if k == "F":            # ("F", pnode, tags, token, seq): it was pending
                restore.setdefault((e[1], e[2]), (e[3], e[4]))
            elif k == "D":          # ("D", pnode, tags, seq or None if it had fired)
                restore.setdefault((e[1], e[2]), (None, e[3]))
            elif k == "S+" or k == "S-":   # (k, pnode, tags, token, fact)
                pairs.setdefault((e[1], e[2], e[4]), (k == "S-", e[3]))
            elif k == "R" and e[1].support is not None:
                logical_back.append(e[1])       # a logical fact the undo puts back
        rebuilt: dict[tuple, MatchToken]
        self._rolling = True
        self._restore = restore
        self._rebuilt = rebuilt = {}
        try:
            for e in reversed(entries):
                k = e[0]
                if k == "A":
                    f = e[1]
                    if f.alive:
                        self._remove(f)
                elif k == "R":
                    f = e[1]
                    if not f.alive:
                        self._insert(f, f.timetag)
                elif k == "M" or (k == "N" and e[1].alive and e[4] is not self._reactive
                                  and not self._renewable(e[1], e[1].values, e[2])):
                    # (a renewal is undone the same way when a production added
                    # since - the network's reads were worked out anew - reads a
                    # slot it changed: the matches differ now)
                    f, old, old_tag = e[1], e[2], e[3]
                    if f.alive:
                        self._remove(f)
                    t = self.templates.get(f.template)
                    if t is not None and len(old) != len(t._blank):
                        old = {**t._blank, **old}
                    f.values = old
                    self._insert(f, old_tag)
                elif k == "N":
                    if e[1].alive:
                        self._undo_renew(e[1], e[2], e[3])
                elif k == "O":      # ("O", stage index, what it was): rete.demand
                    if e[2] is None:
                        self._passed.pop(e[1], None)
                    else:
                        self._passed[e[1]] = e[2]
        finally:
            self._rolling = False
            self._restore = None
            self._rebuilt = None
            self._tms_queue.clear()
            self._unblocked.clear()
        # matches that were pending at the mark and fired since are pending again
        # (the same match: same production, same facts with the same timetags)
        by_tags: dict = {}
        for (pnode, tags), (tok, seq) in restore.items():
            if tok is None or seq is None:
                continue
            if tok.dead:
                # deleted and made again by an inner rollback that ran before this
                # one: the match is the live token over the same facts, if any
                old = tok
                tok = rebuilt.get((pnode, tags))
                if tok is None or tok.dead:
                    tok = None if _over_gone_fact(old) else _live_match(pnode, tags, by_tags)
                if tok is None:
                    continue
            if tok.activation is None and _tags(tok) == tags:   # (a renewed match is another)
                self.agenda.add(pnode, tok, seq)
        # logical support as it was at the mark
        for (pnode, tags, f), (present, tok) in pairs.items():
            if tok.dead:
                # made again by this undo, or by an inner rollback before it (as
                # for the agenda above): the live token over the same facts
                tok = rebuilt.get((pnode, tags))
                if tok is None or tok.dead:
                    tok = _live_match(pnode, tags, by_tags)
            if tok is None or tok.dead:
                continue
            if present:
                if f.alive and f.support is not None:
                    f.support[tok] = None
                    if tok.supported is None:
                        tok.supported = {}
                    tok.supported[f] = None
            else:
                if tok.supported:
                    tok.supported.pop(f, None)
                if f.support:
                    f.support.pop(tok, None)
        orphans = {}
        for (_, _, f) in pairs:
            if f.support:
                dead = [t for t in f.support if t.dead]
                for t in dead:
                    del f.support[t]
            if f.alive and f.support is not None and not f.support:
                orphans[f.id] = f
        for f in logical_back:
            if f.alive and f.support is not None and not f.support:
                orphans[f.id] = f
        # a logical fact whose supporting production was removed or replaced
        # since the mark comes back with no match to support it (checkpoints do
        # not record production edits): truth maintenance takes it away, as it
        # would have had the edit come after the rollback
        for f in orphans.values():
            if f.alive and not f.support:
                self._retract_fact(f)
        if self._tms_queue:
            self._settle()

    def _restore_token(self, pnode, tok) -> None:
        """A production token made while undoing: give it the state it had at the mark."""
        key = (pnode, _tags(tok))
        # Only called while undoing, when _undo has set _rebuilt and _restore: no
        # assert to say so on the way of every match an undo rebuilds.
        self._rebuilt[key] = tok        # type: ignore[index]
        st = self._restore.get(key)     # type: ignore[union-attr]
        if st is None:
            self.agenda.add(pnode, tok)
        elif st[1] is not None:
            self.agenda.add(pnode, tok, st[1])
