"""A plain Dice Chess turn enumerator on python-chess, for tests and benchmarks.

It shares nothing with the engine but the DFEN parser: moves are python-chess's
pseudo-legal moves (``Board.generate_pseudo_legal_moves``, whose castling keeps
FIDE's attack conditions, as ruled), filtered by the dice by hand; en-passant
targets are kept in a set of their own (python-chess holds one), the colour is
set back after each push, and the turns are enumerated depth-first without
transposition tables. The Maximum Micro-moves Rule then prunes the tree.

Needs the ``chess`` package (a dev and bench dependency).
"""
from __future__ import annotations

from typing import Any

import chess

from .dfen import parse_dfen

__all__ = ["BaselineTurns", "baseline_tree"]

_TYPE_LETTER = {chess.PAWN: "P", chess.KNIGHT: "N", chess.BISHOP: "B", chess.ROOK: "R",
                chess.QUEEN: "Q", chess.KING: "K"}


class BaselineTurns:
    """The position of a DFEN on a python-chess board, plus dice and targets."""

    def __init__(self, dfen: str):
        pos = parse_dfen(dfen)
        fen6 = " ".join(dfen.split()[:6]) if len(dfen.split()) >= 6 else dfen
        fields = fen6.split()
        fields[3] = "-"
        self.board = chess.Board(" ".join(fields))
        self.color = self.board.turn
        # target square -> (victim pawn square, colour that made it)
        self.eps: dict[int, tuple[int, bool]] = {}
        for ep in pos.ep_squares:
            if ep // 8 == 2:
                self.eps[ep] = (ep + 8, chess.WHITE)
            else:
                self.eps[ep] = (ep - 8, chess.BLACK)
        self.dice = list(pos.dice)
        self.over = any(not self.board.pieces(chess.KING, c) for c in (chess.WHITE, chess.BLACK))

    # ------------------------------------------------------------ micro-moves

    def moves(self):
        """(move, dice letters it spends, takes a king) for every micro-move."""
        if self.over or not self.dice:
            return []
        b = self.board
        have = set(self.dice)
        out: list[tuple[chess.Move, tuple[str, ...], bool]] = []
        for m in b.generate_pseudo_legal_moves():
            if b.is_en_passant(m):
                continue
            pt = b.piece_type_at(m.from_square)
            if b.is_castling(m):
                if "K" in have and "R" in have:
                    out.append((m, ("K", "R"), False))
                continue
            # (a generated move leaves an occupied square: no test for None here)
            letter = _TYPE_LETTER[pt]       # type: ignore[index]
            if letter in have:
                victim = b.piece_at(m.to_square)
                out.append((m, (letter,), victim is not None and victim.piece_type == chess.KING))
        if "P" in have:
            for target, (victim_sq, by) in self.eps.items():
                if by == self.color or b.piece_at(target) is not None:
                    continue
                vp = b.piece_at(victim_sq)
                if vp is None or vp.piece_type != chess.PAWN or vp.color == self.color:
                    continue
                mask = chess.BB_PAWN_ATTACKS[not self.color][target] & b.pawns \
                    & b.occupied_co[self.color]
                for s in chess.scan_forward(mask):
                    out.append((chess.Move(s, target), ("P",), False))
        return out

    def push(self, m: chess.Move, spent) -> list:
        b = self.board
        # (targets, dice, and the pawn an en-passant capture took: what pop puts back)
        saved: list[Any] = [dict(self.eps), list(self.dice), None]
        frm, to = m.from_square, m.to_square
        is_pawn = b.piece_type_at(frm) == chess.PAWN
        ep_capture = is_pawn and to in self.eps and b.piece_at(to) is None and (frm % 8 != to % 8)
        victim_sq = self.eps[to][0] if ep_capture else to
        if ep_capture:
            # the private BaseBoard method: remove_piece_at would clear the move stack
            saved[2] = (victim_sq, b.piece_at(victim_sq))
            b._remove_piece_at(victim_sq)
            b.push(chess.Move(frm, to))
        else:
            b.push(m)
        b.turn = self.color
        b.ep_square = None
        for t, (pawn, _by) in list(self.eps.items()):
            if pawn == frm or pawn == victim_sq:
                del self.eps[t]
        if is_pawn and abs(to - frm) == 16:
            self.eps[(to + frm) // 2] = (to, self.color)
        for letter in spent:
            self.dice.remove(letter)
        return saved

    def pop(self, saved) -> None:
        self.board.pop()
        self.eps, self.dice, removed = saved
        if removed is not None:
            sq, piece = removed
            self.board._set_piece_at(sq, piece.piece_type, piece.color)


def _enumerate(bt: BaselineTurns):
    """(children, best, king): children uci -> (cost, subtree)."""
    children = {}
    best = 0
    king = False
    sub: tuple[dict, int, bool]
    for m, spent, takes_king in bt.moves():
        cost = len(spent)
        if takes_king:
            sub = ({}, 0, True)
        elif len(bt.dice) - cost == 0:
            sub = ({}, 0, False)
        else:
            saved = bt.push(m, spent)
            sub = _enumerate(bt)
            bt.pop(saved)
        children[m.uci()] = (cost, sub)
        best = max(best, cost + sub[1])
        king = king or sub[2]
    return children, best, king


def _prune(node, need: int) -> dict:
    children, _best, _king = node
    out = {}
    for u in sorted(children):
        cost, sub = children[u]
        if sub[1] + cost == need or sub[2]:
            out[u] = _prune(sub, need - cost)
    return out


def baseline_tree(dfen: str) -> dict:
    """The legal turn tree of ``dfen`` (uci -> subtree, ``{}`` at a leaf)."""
    bt = BaselineTurns(dfen)
    root = _enumerate(bt)
    return _prune(root, root[1])
