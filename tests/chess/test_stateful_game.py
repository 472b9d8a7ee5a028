"""Stateful differential test of the ``Game`` API against python-chess.

A hypothesis ``RuleBasedStateMachine`` drives a houserules ``Game`` and a
python-chess ``Board`` side by side through random sequences of: legal moves
(UCI text, SAN, ``Move`` objects), illegal and malformed moves (which must raise
the documented typed error and change nothing), ``pop`` (also on an empty
stack), ``copy()`` (the copy is continued, the original must stay untouched),
``Game.from_fen(game.fen())`` round trips, PGN export replayed through
python-chess, and knight shuffles that reach repetition draws.

After every step the two must agree on the FEN, the legal move set,
``is_check``, ``repetitions()`` and the verdict. Houserules' draws are
automatic (RULES.md: fifty-move once the clock reaches 100, threefold once a
position occurs the third time), so the reference verdict is python-chess's
position predicates (``is_checkmate``, ``is_insufficient_material``,
``is_stalemate``, ``is_fifty_moves``, ``is_repetition(3)``), not
``outcome(claim_draw=True)`` (which also grants next-move claims).

The fast suite runs a few examples of each machine (derandomized, so CI is
repeatable); ``-m slow`` runs them at length.
"""
from __future__ import annotations

import io
import random

import chess
import chess.pgn
import pytest
from hypothesis import HealthCheck, event, note, settings
from hypothesis import strategies as st
from hypothesis.stateful import (RuleBasedStateMachine, initialize, invariant, precondition,
                                 rule)

from chess_rules.errors import ChessError, IllegalMoveError, MoveParseError
from chess_rules.game import Game
from chess_rules.moves import Move

FIXED_FENS = [
    chess.STARTING_FEN,
    # castling rights both sides, kiwipete
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    # en-passant squares that can be taken
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 2",
    # an en-passant capture that would expose the king (pinned along the rank)
    "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1",
    # promotion-rich
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    # near the fifty-move limit, thin material
    "8/8/4k3/8/8/3K4/8/R7 w - - 97 80",
    "8/3k4/8/8/8/2NK4/8/7b w - - 98 70",
    "4k3/8/8/8/8/8/3B4/4K2b w - - 0 40",
    "7k/5Q2/8/8/8/8/8/K7 w - - 0 50",
    "k7/8/1K6/8/8/8/8/7R w - - 99 60",
    "6nk/8/8/8/8/8/8/KN6 w - - 0 1",
]

MALFORMED = ["", " ", "e2", "e2e", "e2e9", "i2i4", "e2e4e", "e7e8x", "e2-e4", "zz",
             "0000", "a1a1", "e1e1", "e7e8K", "e7e8p", "e2e4q", "a0a1", "\x00\x00\x00\x00",
             "e2e4\n", "E2E4", "e2\u00e94"]
NON_STRINGS = [None, 12, 12.5, b"e2e4", ("e2", "e4"), ["e2e4"]]
BAD_SAN = ["", "Nf9", "O-O-O-O", "Qxx", "K", "e9", "Pe4", "Bxh9", "Nbd2d3", "exd9=Q",
           "--", "Z@e4", "e4e5e6", "a8=Q"]


def random_playout_fen(seed: int, plies: int, ep: str = "legal") -> str:
    """A position of a seeded random playout; ``ep='fen'`` writes the en-passant
    square after every double step (legal capture or not), as input to read."""
    rnd = random.Random(seed)
    b = chess.Board()
    for _ in range(plies):
        moves = list(b.legal_moves)
        if not moves or b.is_game_over(claim_draw=False):
            break
        b.push(rnd.choice(moves))
    return b.fen(en_passant=ep)


start_fens = st.one_of(
    st.sampled_from(FIXED_FENS),
    st.builds(random_playout_fen, st.integers(0, 10**6), st.integers(0, 80),
              st.sampled_from(["legal", "fen"])),
)


def _sibling(relative: str, name: str):
    """A test module beside this one, loaded under a name of its own (the tests
    are no package: importing them by name could pick another file's)."""
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parents[1] / relative
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: python-chess's position predicates, as the differential test reads them
reference_verdict = _sibling("chess/test_differential.py", "_stateful_differential").reference_verdict


def reference_repetitions(board: chess.Board) -> int:
    """How often the current position occurred in the board's history (this time too)."""
    key = board._transposition_key()
    b = board.copy()
    n = 1
    while b.move_stack:
        b.pop()
        if b._transposition_key() == key:
            n += 1
    return n


def snapshot(g: Game) -> dict:
    out = g.outcome()
    return {
        "fen": g.fen(),
        "stack": [m.uci() for m in g.move_stack],
        "legal": g.legal_uci(),
        "reps": g.repetitions(),
        "outcome": out,
        "check": g.is_check(),
        "over": g.is_game_over(),
    }


class GameVsBoard(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.g: Game | None = None
        self.b: chess.Board | None = None
        self.log: list[str] = []

    @initialize(fen=start_fens)
    def start(self, fen):
        self.b = chess.Board(fen)
        self.g = Game(fen)
        self.log.append(f"start {fen}")
        note(f"start {fen}")
        assert self.g.fen() == self.b.fen(), (self.g.fen(), self.b.fen())

    # ---------------------------------------------------------------- helpers

    def _legal(self):
        return sorted(self.b.legal_moves, key=lambda m: m.uci())

    def _assert_unchanged(self, before, what):
        after = snapshot(self.g)
        assert after == before, f"{what} changed the game:\n{before}\n{after}"

    # ---------------------------------------------------------------- moves

    @precondition(lambda self: self.b is not None and any(True for _ in self.b.legal_moves))
    @rule(data=st.data(), how=st.sampled_from(["uci", "san", "move", "uci-upper-promo"]))
    def push_legal(self, data, how):
        m = data.draw(st.sampled_from(self._legal()))
        if how == "san":
            san = self.b.san(m)
            assert self.g.san(m.uci()) == san, (self.g.fen(), m.uci(), self.g.san(m.uci()), san)
            got = self.g.push_san(san)
        elif how == "move":
            ours = {x.uci(): x for x in self.g.legal_moves()}
            got = self.g.push(ours[m.uci()])
        elif how == "uci-upper-promo" and m.promotion:
            got = self.g.push(" " + m.uci()[:4] + m.uci()[4].upper() + " ")
        else:
            got = self.g.push(m.uci())
        assert got.uci() == m.uci()
        self.b.push(m)
        self.log.append(f"push {m.uci()} ({how})")

    @precondition(lambda self: self.b is not None)
    @rule(data=st.data())
    def shuffle(self, data):
        """Play knight/king moves out and back so that positions repeat."""
        for _ in range(4):
            quiet = [m for m in self._legal()
                     if self.b.piece_type_at(m.from_square) in (chess.KNIGHT, chess.KING, chess.ROOK)
                     and not self.b.is_capture(m)]
            if not quiet:
                return
            m = data.draw(st.sampled_from(quiet))
            self.g.push(m.uci())
            self.b.push(m)
            self.log.append(f"shuffle {m.uci()}")
        # and back again, if legal
        for _ in range(4):
            back = None
            if len(self.b.move_stack) >= 4:
                prev = self.b.move_stack[-4]
                back = chess.Move(prev.to_square, prev.from_square)
            if back is None or back not in self.b.legal_moves:
                return
            self.g.push(back.uci())
            self.b.push(back)
            self.log.append(f"shuffle-back {back.uci()}")

    @precondition(lambda self: self.b is not None)
    @rule(data=st.data(), kind=st.sampled_from(["pseudo", "random", "malformed", "nonstr",
                                                "san", "move-obj"]))
    def push_illegal(self, data, kind):
        before = snapshot(self.g)
        legal = {m.uci() for m in self.b.legal_moves}
        if kind == "pseudo":
            cands = [m.uci() for m in self.b.pseudo_legal_moves if m.uci() not in legal]
            # castling through check, etc.
            if not cands:
                return
            text = data.draw(st.sampled_from(sorted(cands)))
            exp = (IllegalMoveError,)
        elif kind == "random":
            f = data.draw(st.integers(0, 63))
            t = data.draw(st.integers(0, 63))
            promo = data.draw(st.sampled_from(["", "", "q", "n"]))
            text = chess.SQUARE_NAMES[f] + chess.SQUARE_NAMES[t] + promo
            if text in legal:
                return
            exp = (IllegalMoveError, MoveParseError)
        elif kind == "malformed":
            text = data.draw(st.sampled_from(MALFORMED) | st.text(max_size=6))
            try:
                if chess.Move.from_uci(text.strip()) and text.strip().lower() in legal:
                    return
            except (ValueError, chess.InvalidMoveError):
                pass
            exp = (IllegalMoveError, MoveParseError)
        elif kind == "nonstr":
            text = data.draw(st.sampled_from(NON_STRINGS))
            exp = (MoveParseError,)
        elif kind == "move-obj":
            f = data.draw(st.integers(0, 70))
            t = data.draw(st.integers(0, 70))
            text = Move(f, t, promo=data.draw(st.sampled_from([None, "queen", "bogus"])))
            try:
                if text.uci() in legal:
                    return
            except Exception:
                pass
            exp = (IllegalMoveError, MoveParseError)
        else:  # san
            text = data.draw(st.sampled_from(BAD_SAN) | st.text(max_size=5))
            try:
                self.b.parse_san(text)
                return                      # python-chess reads it: not a bad SAN
            except ValueError:
                pass
            with pytest.raises((IllegalMoveError, MoveParseError)):
                self.g.push_san(text)
            self._assert_unchanged(before, f"push_san({text!r})")
            return
        with pytest.raises(exp):
            self.g.push(text)
        label = (f"Move({text.frm}, {text.to}, {text.promo!r})" if isinstance(text, Move)
                 else repr(text))
        self._assert_unchanged(before, f"push({label})")
        assert self.g.is_legal(text) is False
        self.log.append(f"illegal {label}")

    @precondition(lambda self: self.b is not None)
    @rule()
    def pop(self):
        if not self.b.move_stack:
            before = snapshot(self.g)
            with pytest.raises(ChessError):
                self.g.pop()
            self._assert_unchanged(before, "pop() on an empty stack")
            self.log.append("pop-empty")
            return
        m1 = self.g.pop()
        m2 = self.b.pop()
        assert m1.uci() == m2.uci()
        self.log.append(f"pop {m1.uci()}")

    # ---------------------------------------------------------------- copies

    @precondition(lambda self: self.b is not None)
    @rule(data=st.data())
    def copy_and_continue(self, data):
        orig = self.g
        before = snapshot(orig)
        c = orig.copy()
        assert snapshot(c) == before
        # a move on the copy leaves the original untouched
        legal = self._legal()
        if legal:
            m = data.draw(st.sampled_from(legal))
            c.push(m.uci())
            self._assert_unchanged(before, "a move on the copy")
            c.pop()
            assert snapshot(c) == before
        # a move on the original leaves the copy untouched
        if legal:
            orig.push(legal[0].uci())
            assert snapshot(c) == before, "a move on the original changed its copy"
            orig.pop()
        self.g = c
        self.log.append("copy")

    @precondition(lambda self: self.b is not None)
    @rule()
    def fen_round_trip(self):
        fen = self.g.fen()
        g2 = Game.from_fen(fen)
        assert g2.fen() == fen
        assert g2.legal_uci() == self.g.legal_uci()
        assert g2.is_check() == self.g.is_check()
        b2 = chess.Board(fen)
        assert b2.fen() == fen
        # continue on the round-tripped game (history starts afresh on both)
        self.g, self.b = g2, b2
        self.log.append(f"from_fen {fen}")

    @precondition(lambda self: self.b is not None)
    @rule()
    def pgn_replay(self):
        before = snapshot(self.g)
        text = self.g.pgn({"Event": "stateful"})
        self._assert_unchanged(before, "pgn()")
        game = chess.pgn.read_game(io.StringIO(text))
        assert game is not None
        assert not game.errors, (text, game.errors)
        board = game.end().board()
        assert board.fen() == self.g.fen(), text
        assert [m.uci() for m in board.move_stack] == [m.uci() for m in self.g.move_stack]
        res = game.headers.get("Result")
        ours = self.g.outcome()
        assert res == (ours.result() if ours else "*"), (res, ours)
        assert game.headers.get("Event") == "stateful"

    # ---------------------------------------------------------------- invariants

    @invariant()
    def agree(self):
        if self.b is None:
            return
        g, b = self.g, self.b
        where = " | ".join(self.log[-8:])
        assert g.fen() == b.fen(), (where, g.fen(), b.fen())
        assert g.legal_uci() == sorted(m.uci() for m in b.legal_moves), where
        assert g.is_check() == b.is_check(), where
        assert [m.uci() for m in g.move_stack] == [m.uci() for m in b.move_stack], where
        assert g.repetitions() == reference_repetitions(b), (where, g.repetitions())
        ref = reference_verdict(b)
        out = g.outcome()
        event(f"verdict: {out.reason if out else None}")
        if ref:
            assert out is not None, (where, ref)
            assert out.winner == ref[0][0], (where, out, ref)
            assert out.reason in {r for _, r in ref}, (where, out, ref)
        else:
            assert out is None, (where, out)
        assert g.is_game_over() == (out is not None)
        assert g.is_checkmate() == b.is_checkmate(), where
        assert g.is_stalemate() == b.is_stalemate(), where


_QUIET = [HealthCheck.too_slow, HealthCheck.filter_too_much]


class TestGameVsBoard(GameVsBoard.TestCase):
    settings = settings(max_examples=60, stateful_step_count=25, deadline=None,
                        derandomize=True, database=None, suppress_health_check=_QUIET)


@pytest.mark.slow
class TestGameVsBoardAtLength(GameVsBoard.TestCase):
    settings = settings(max_examples=300, stateful_step_count=30, deadline=None,
                        database=None, suppress_health_check=_QUIET)


# =====================================================================================
# Presets with a Fairy-Stockfish (pyffish) or python-chess variant equivalent
# =====================================================================================
#
# The same kind of machine over a preset: legal moves compared with FSF (given our
# FEN with every en-passant target, as tests/presets/test_v2_differential.py does)
# and, for suicide-chess, with python-chess's AntichessBoard too; push/pop/copy/
# from_fen/fen/pgn checked for consistency on the houserules side.

import re

sf = pytest.importorskip("pyffish")
import chess.variant  # noqa: E402

from presets.layouts import get_layout  # noqa: E402

# the royalty variants of the preset differential test, and two of this file's own
sf.load_variant_config(_sibling("presets/test_v2_differential.py", "_stateful_v2").CONFIG + """
[hr-bishops-ignore-color:chess]
bishop = -
customPiece1 = b:BW
promotionPieceTypes = qrbn

[hr-double-pawn-sprint:chess]
doubleStepRegionWhite = *1 *2 *3 *4 *5 *6 *7 *8
doubleStepRegionBlack = *1 *2 *3 *4 *5 *6 *7 *8
""")

STANDARD = chess.STARTING_FEN
NO_CASTLING = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"

PRESET_CASES = {
    # preset: (config, FSF variant, start FENs, python-chess board class or None)
    "coregal": (None, "coregal", [STANDARD, "r3k2r/8/8/2q5/8/8/8/R2QK2R w KQkq - 0 1"], None),
    "knightmate-rules": (None, "hr-knightmate", [get_layout("knightmate").fen], None),
    "dual-king": (None, "hr-dualking", [get_layout("dual-classic").fen], None),
    "suicide-chess": (None, "antichess", [NO_CASTLING, "8/8/3p4/8/2P5/8/8/8 w - - 0 1"],
                      chess.variant.AntichessBoard),
    "capture-all": (None, "hr-captureall", [STANDARD], None),
    "extinction-chess": ({"target_type": "knight"}, "hr-extinction-knight", [STANDARD], None),
    "bishops-ignore-color": (None, "hr-bishops-ignore-color",
                             [STANDARD, "r3k2r/1b4b1/8/3B4/8/8/1B3pB1/R3K2R w KQkq - 0 1"], None),
    "double-pawn-sprint": (None, "hr-double-pawn-sprint",
                           [STANDARD, "r3k2r/p6p/8/1pP1pP2/8/8/P6P/R3K2R w KQkq - 0 1"], None),
}


def _movetext_sans(pgn: str) -> list[str]:
    body = "\n".join(line for line in pgn.splitlines() if not line.startswith("["))
    out = []
    for tok in body.split():
        if re.fullmatch(r"\d+\.(\.\.)?", tok) or tok in ("*", "1-0", "0-1", "1/2-1/2"):
            continue
        out.append(re.sub(r"^\d+\.(\.\.)?", "", tok))
    return [t for t in out if t]


def preset_machine(preset: str):
    config, variant, fens, pc_class = PRESET_CASES[preset]

    class PresetMachine(RuleBasedStateMachine):
        def __init__(self):
            super().__init__()
            self.g = None
            self.fens_before: list[str] = []
            self.b = None

        @initialize(fen=st.sampled_from(fens))
        def start(self, fen):
            self.g = Game(fen, presets=[preset], config={preset: config} if config else None)
            self.start_fen = self.g.fen()
            self.rs = self.g.ruleset
            self.b = pc_class(fen) if pc_class else None
            note(f"{preset} start {fen}")

        def _ref_legal(self):
            f = " ".join(self.g.fen(en_passant="all").split()[:6])
            return sorted(sf.legal_moves(variant, f, []))

        @precondition(lambda self: self.g is not None and self.g.legal_moves())
        @rule(data=st.data(), how=st.sampled_from(["uci", "san", "move"]))
        def push(self, data, how):
            legal = self.g.legal_moves()
            m = data.draw(st.sampled_from(legal))
            before = self.g.fen()
            if how == "san":
                san = self.g.san(m)
                assert self.g.fen() == before, "san() changed the game"
                got = self.g.push_san(san)
            elif how == "move":
                got = self.g.push(m)
            else:
                got = self.g.push(m.uci())
            assert got.uci() == m.uci()
            self.fens_before.append(before)
            if self.b is not None:
                self.b.push(chess.Move.from_uci(m.uci()))

        @precondition(lambda self: self.g is not None)
        @rule(f=st.integers(0, 63), t=st.integers(0, 63),
              junk=st.sampled_from(["", "zz", "e2e9", "0000", None, "a1a1q"]))
        def illegal(self, f, t, junk):
            legal = set(self.g.legal_uci())
            before = snapshot(self.g)
            for text in (chess.SQUARE_NAMES[f] + chess.SQUARE_NAMES[t], junk):
                if text in legal:
                    continue
                with pytest.raises((IllegalMoveError, MoveParseError)):
                    self.g.push(text)
                assert snapshot(self.g) == before, f"push({text!r}) changed the game"

        @precondition(lambda self: self.g is not None)
        @rule()
        def pop(self):
            if not self.fens_before:
                with pytest.raises(ChessError):
                    self.g.pop()
                return
            self.g.pop()
            assert self.g.fen() == self.fens_before.pop()
            if self.b is not None:
                self.b.pop()

        @precondition(lambda self: self.g is not None)
        @rule()
        def copy_and_continue(self):
            before = snapshot(self.g)
            c = self.g.copy()
            assert snapshot(c) == before
            self.g = c

        @precondition(lambda self: self.g is not None)
        @rule()
        def fen_round_trip(self):
            fen = self.g.fen()
            decided_by_event = self.g.outcome_if_decided() is not None
            g2 = Game.from_fen(fen, ruleset=self.rs)
            assert g2.fen() == fen
            if not decided_by_event:
                assert g2.legal_uci() == self.g.legal_uci()
                o1, o2 = self.g.outcome(), g2.outcome()
                if not (o1 and o1.reason == "threefold repetition"):
                    assert (o1 and (o1.winner, o1.reason)) == (o2 and (o2.winner, o2.reason))
                self.g = g2
                self.fens_before = []
                if self.b is not None:
                    self.b = pc_class(fen)

        @precondition(lambda self: self.g is not None)
        @rule()
        def pgn_replay(self):
            before = snapshot(self.g)
            text = self.g.pgn()
            assert snapshot(self.g) == before
            sans = _movetext_sans(text)
            r = Game(self.g._start_fen, ruleset=self.rs)
            for s in sans:
                r.push_san(s)
            assert r.fen() == self.g.fen(), text
            if self.b is not None:
                # python-chess reads the same SAN
                bb = pc_class(self.b.root().fen())
                for s in sans:
                    bb.push_san(s)
                assert bb.fen() == self.b.fen(), text

        @invariant()
        def agree(self):
            if self.g is None:
                return
            ours = self.g.legal_uci()
            theirs = self._ref_legal()
            if self.g.outcome_if_decided() is None:
                assert ours == theirs, (self.g.fen(), sorted(set(ours) - set(theirs)),
                                        sorted(set(theirs) - set(ours)))
            if self.b is not None:
                assert self.g.fen() == self.b.fen(), (self.g.fen(), self.b.fen())
                assert ours == sorted(m.uci() for m in self.b.legal_moves)
            if not ours:
                out = self.g.outcome()
                assert out is not None
                f = " ".join(self.g.fen(en_passant="all").split()[:6])
                v = sf.game_result(variant, f, [])
                winner = None if v == 0 else (self.g.turn if v > 0 else
                                              ("black" if self.g.turn == "white" else "white"))
                assert out.winner == winner, (self.g.fen(), out, v)

    PresetMachine.__name__ = f"PresetMachine_{preset.replace('-', '_')}"
    return PresetMachine


for _p in PRESET_CASES:
    _m = preset_machine(_p)
    _name = _p.replace('-', '_')
    globals()[f"TestPreset_{_name}"] = type(f"TestPreset_{_name}", (_m.TestCase,), {
        "settings": settings(max_examples=4, stateful_step_count=12, deadline=None,
                             derandomize=True, database=None, suppress_health_check=_QUIET)})
    globals()[f"TestPreset_{_name}_at_length"] = pytest.mark.slow(type(
        f"TestPreset_{_name}_at_length", (_m.TestCase,), {
            "settings": settings(max_examples=25, stateful_step_count=25, deadline=None,
                                 database=None, suppress_health_check=_QUIET)}))
