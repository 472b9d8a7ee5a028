"""The legal turns of a rolled position, and the API over DFEN strings.

A turn is a sequence of micro-moves that stops when no die is left, no
micro-move is possible, or a king was captured. The Maximum Micro-moves Rule
keeps the turns that spend the greatest number of dice (castling spends two),
plus every turn that ends by capturing the king, whatever its length. (ours)
Under a preset, any micro-move that ends the game (an explosion that takes the
king, a winning promotion) counts as a king capture.

The tree is built on the micro-move generator of the rule set (a
:class:`~dice.game.DiceGame`): at each node the engine generates the
dice-filtered micro-moves, plays each one (apply and post-move stages) and rolls
it back through the session journal. Within one build, positions reached by
different orders (transpositions) are explored once. A move that spends the
last die, or takes a king, ends the turn, so it is not played.

Under the Dice Chess rule set over FIDE, two micro-moves commute: when both
orders of a pair are legal they reach the same position (see
:data:`COMMUTATION`), so the second order of a pair is not played again. Under
any other rule set (a preset, a custom rule set) every position is reached by
playing and compared by its key.

Every function takes and returns DFEN text and never changes its input. Each
takes an optional ``ruleset``: a rule set to play Dice Chess over (FIDE by
default; a preset's rule set, e.g. ``presets.load('wrap-board')``, is turned into
its Dice Chess form by :func:`dice.rules.dice_rules`).
"""
from __future__ import annotations

from collections import Counter, OrderedDict
from dataclasses import dataclass, field

from chess_rules.errors import MoveParseError, quoted
from chess_rules.explain import promotion_reason
from chess_rules.game import Explanation
from chess_rules.notation import normalize_uci, parse_uci
from chess_rules.ruleset import checked_ruleset
from chess_rules.squares import PIECE_LETTER

from .dfen import FACE_TYPE, TYPE_FACE, format_dfen, parse_dfen, parse_dice_field
from .game import DiceGame, RandomSource, random_source
from .errors import (DfenError, GameOverError, MaxMicroMovesError, NoDieError,
                     NotLegalMoveError, TurnTreeError)

__all__ = ["TurnTree", "turn_tree", "legal_turn_tree", "legal_uci_moves", "apply_move",
           "explain_move", "end_turn", "roll", "with_dice", "playable_dice", "build_tree",
           "EngineBackend", "COMMUTATION"]


# ---------------------------------------------------------------- the raw tree


class _Node:
    """Every turn from a position: ``children`` uci -> (dice spent, node); ``best``
    the most dice a turn from here spends; ``king`` whether one takes a king."""

    __slots__ = ("children", "best", "king")

    def __init__(self, children, best, king):
        self.children = children
        self.best = best
        self.king = king


_LEAF = _Node({}, 0, False)
_NO_MOVES: dict = {}            # a pruned leaf (shared: the tree is never changed)
_KING_LEAF = _Node({}, 0, True)


COMMUTATION = """Why the two orders of a pair of micro-moves reach one position
under FIDE Dice Chess, when both are legal. Take micro-moves X and Y.
If they touch no common square they change disjoint parts of the board, and
the other state is order-free: each piece's has-moved flag is set by its own
move, castling rights only ever go (by a king or rook move, or a capture on a
rook's square), dice are spent by the type of the piece on the move's origin,
an en-passant target is made by its double step and dropped when its pawn
moves or is taken. If they share a square, one order is illegal: X landing
where Y starts (Y would move X's piece, or in the other order an enemy's), X
leaving where Y lands (Y would land on its own piece first), both landing on
one square (the second would take its own piece); castling needs its king and
rook unmoved and the squares between empty, en passant needs its target's pawn
still there. The clocks differ, but a turn never reads them.

Pairs only: UCI names squares, not pieces, so three moves can be two games
(e1d1 h1e1 e1e2 moves the king to d1 and the rook to e2; e1e2 h1e1 e1d1 the
other way round). With three dice, pairs are all the builder looks up: a third
micro-move spends the last die and is never played."""


class EngineBackend:
    """The micro-move generator of a :class:`DiceGame`, as the tree builder sees it.

    ``commutes``: whether the builder may treat a set of micro-moves as one
    position whatever their order (:data:`COMMUTATION`): only for the Dice Chess
    rule set over FIDE, the one the argument was made for.
    """

    def __init__(self, game: DiceGame):
        self.game = game
        self.commutes = game.plain_dice

    def moves(self):
        """``(uci, dice spent, takes a king, handle for push)`` per micro-move."""
        return self.game.micro_moves()

    def dice_left(self) -> int:
        return len(self.game.session.by_template.get("die", ()))

    def game_over(self) -> bool:
        return bool(self.game.session.by_template.get("result"))

    def push(self, m) -> None:
        self.game.push(m)

    def pop(self) -> None:
        self.game.pop()

    def key(self):
        return self.game.key()


def _explore(b, memo: dict, played: frozenset | None, by_set: dict) -> _Node:
    """The turns from the backend's position. ``played``: the micro-moves played
    since the root (None when moves do not commute, or past a pair);
    ``by_set``: nodes by the pair of micro-moves that reached them."""
    if played is None:
        k = b.key()
        node = memo.get(k)
        if node is not None:
            return node
    if b.game_over():
        # a micro-move that ended the game without taking a royal piece (a
        # preset's: an explosion, a winning promotion) ends the turn as a king
        # capture does, and is legal whatever its length
        return _KING_LEAF
    children = {}
    best = 0
    king = False
    child: _Node | None
    left = b.dice_left()
    for u, spent, takes_king, handle in list(b.moves()):
        cost = len(spent)
        if takes_king:
            child = _KING_LEAF
        elif left - cost <= 0:
            child = _LEAF          # no die left: the turn ends here
        else:
            # a pair of distinct moves (not more: see COMMUTATION)
            after = played | {u} if played is not None and len(played) < 2 \
                and u not in played else None
            child = by_set.get(after) if after is not None else None
            if child is None:
                b.push(handle)
                try:
                    if b.dice_left() >= left:
                        raise _spent_no_die(u, left)
                    child = _explore(b, memo, after, by_set)
                finally:
                    b.pop()
                if after is not None:
                    by_set[after] = child
        children[u] = (spent, child)
        if cost + child.best > best:
            best = cost + child.best
        king = king or child.king
    node = _Node(children, best, king)
    if played is None:
        memo[k] = node
    return node


def _spent_no_die(u: str, left: int) -> TurnTreeError:
    # without this the turn would go on for ever (a rule set that lost
    # dice.spend-die): the recursion's limit would be the error, far from its cause
    return TurnTreeError(
        f"the micro-move {u} spent no die ({left} left before and after it): no turn of "
        f"this rule set would end; each micro-move must spend a die (dice.spend-die "
        f"does that in Dice Chess)")


def _prune(node: _Node, need: int, memo: dict) -> dict:
    """The legal continuations: uci -> (spent, pruned subtree)."""
    k = (id(node), need)
    out = memo.get(k)
    if out is not None:
        return out
    out = {}
    children = node.children
    for u in sorted(children):
        spent, child = children[u]
        cost = len(spent)
        if child.best + cost == need or child.king:
            # most children are leaves: no call for those
            out[u] = (spent, _prune(child, need - cost, memo) if child.children else _NO_MOVES)
    memo[k] = out
    return out


def build_tree(backend) -> tuple[dict, int]:
    """Prune the backend's turns by the Maximum Micro-moves Rule.

    Returns ``(tree, most)``: ``tree`` maps uci -> (dice spent, subtree), sorted;
    ``most`` is the greatest number of dice a turn spends.
    """
    commutes = getattr(backend, "commutes", False)
    root = _explore(backend, {}, frozenset() if commutes else None, {})
    return _prune(root, root.best, {}), root.best


# ---------------------------------------------------------------- TurnTree


@dataclass
class TurnTree:
    """The legal turns of a rolled position as a prefix tree of micro-moves."""

    dfen: str
    nodes: dict                 # uci -> (spent, nodes)
    most: int                   # the most dice a turn spends
    dice: tuple = field(default_factory=tuple)

    def to_dict(self) -> dict:
        """uci -> subtree, ``{}`` at a leaf (fresh dicts)."""
        return _plain(self.nodes)

    def first(self) -> list[str]:
        """The legal first micro-moves, sorted."""
        return sorted(self.nodes)

    def node(self, played) -> dict | None:
        """The subtree after ``played`` (UCI micro-moves: a list, or one string of
        them separated by spaces), or None if no legal turn starts so."""
        n = self.nodes
        for u in _played(played):
            nxt = n.get(_norm(u))
            if nxt is None:
                return None
            n = nxt[1]
        return n

    def paths(self, played=()):
        """Every legal turn (continuing ``played``) as a tuple of ucis."""
        played = _played(played)
        n = self.node(played)
        if n is None:
            return
        yield from _paths(n, tuple(_norm(u) for u in played))

    def playable(self, played=()) -> list[int] | None:
        """The die faces a legal turn continuing ``played`` can still spend, as
        :func:`dice.playable_dice` gives them (None: no legal turn starts so)."""
        n = self.node(played)
        if n is None:
            return None
        counts = _max_counts(n, {})
        return sorted(TYPE_FACE[t] for t in counts.elements())


def _plain(nodes: dict) -> dict:
    return {u: _plain(child) if child else {} for u, (_, child) in nodes.items()}


def _paths(nodes: dict, prefix: tuple):
    if not nodes:
        yield prefix
        return
    for u, (_, child) in nodes.items():
        yield from _paths(child, prefix + (u,))


def _max_counts(nodes: dict, memo: dict) -> Counter:
    k = id(nodes)
    r = memo.get(k)
    if r is not None:
        return r
    r = Counter()
    for _, (spent, child) in nodes.items():
        r |= Counter(spent) + _max_counts(child, memo)
    memo[k] = r
    return r


def _norm(u: str) -> str:
    u = u.strip() if isinstance(u, str) else u
    if isinstance(u, str) and len(u) == 5:
        u = u[:4] + u[4].lower()
    return u


def _tree_of(game: DiceGame, dfen: str) -> TurnTree:
    nodes, most = build_tree(EngineBackend(game))
    return TurnTree(dfen, nodes, most, tuple(game.dice()))


_CACHE: "OrderedDict[str, TurnTree]" = OrderedDict()
_CACHE_SIZE = 64
# the default rule set's network is compiled once and reloaded for each tree
_IDLE: dict = {}


def turn_tree(dfen: str, ruleset=None) -> TurnTree:
    """The legal turns of ``dfen`` (see :class:`TurnTree`).

    The last few trees are kept, keyed by the exact DFEN text, so that walking a
    turn (``playable_dice`` and ``apply_move`` after each micro-move) does not
    rebuild them; the returned tree is shared and must not be changed
    (``to_dict`` gives fresh dicts). The default rule set is compiled once: its
    session, left as loaded by each build, is reloaded with the next position
    (:meth:`~dice.game.DiceGame.reload`).

    Safe to call from several threads at once: the cache is shared, each build
    takes the idle session or makes its own (no two builds share one).
    """
    if not isinstance(dfen, str):
        parse_dfen(dfen)                # raises the typed error
    if ruleset is not None:
        return _tree_of(DiceGame(dfen, checked_ruleset(ruleset)), dfen)
    tree = _CACHE.get(dfen)
    if tree is not None:
        try:
            _CACHE.move_to_end(dfen)
        except KeyError:
            pass            # evicted since by a build on another thread: the tree stands
        return tree
    game = _IDLE.pop("default", None)      # a session left by the last tree, if any
    if game is None:
        game = DiceGame(dfen)
    else:
        game.reload(dfen)
    tree = _tree_of(game, dfen)
    _IDLE["default"] = game                 # the tree build leaves it as loaded
    _CACHE[dfen] = tree
    while len(_CACHE) > _CACHE_SIZE:
        try:
            _CACHE.popitem(last=False)
        except KeyError:
            break           # emptied meanwhile by another thread
    return tree


# ---------------------------------------------------------------- the API


def legal_turn_tree(dfen: str, ruleset=None) -> dict:
    """Every legal turn as a prefix tree: uci -> subtree, ``{}`` at a leaf; ``{}``
    for a position with no legal micro-move (or no dice, or a game over)."""
    return turn_tree(dfen, ruleset).to_dict()


def legal_uci_moves(dfen: str, ruleset=None) -> list[str]:
    """The legal first micro-moves, sorted: the first level of the tree, the
    position judged afresh with its own dice."""
    return turn_tree(dfen, ruleset).first()


def apply_move(dfen: str, uci: str, ruleset=None) -> str:
    """Play one micro-move: the die is spent, the colour kept.

    Accepts exactly the moves :func:`legal_uci_moves` lists; others raise a
    :class:`~dice.errors.DiceMoveError` saying why: :class:`NoDieError`,
    :class:`NotLegalMoveError`, :class:`MaxMicroMovesError` or
    :class:`GameOverError` (and :class:`MoveParseError` for text that is not UCI).
    """
    game = _game(dfen, ruleset)
    u = normalize_uci(uci)
    tree = turn_tree(dfen, ruleset)
    if u in tree.nodes:
        game.push(u)
        return game.dfen()
    _refuse(game, tree, u)
    raise AssertionError("unreachable")


def explain_move(dfen: str, uci: str, ruleset=None) -> Explanation:
    """Why a micro-move is legal in ``dfen`` or not.

    A legal one names the production that generated it, the dice it spends and
    the dice a legal turn can still spend after it; a refused one names the rule
    and gives the reason :func:`apply_move` would raise with (no die for the
    piece, not a legal move and which production says so, the Maximum
    Micro-moves Rule, the game over). The text is ``Explanation.text``:

    >>> explain_move("8/8/8/2k5/8/1N6/2P5/K7 w - - 0 1 NPP", "c2c4").text
    'c2c4: legal - generated by fide.pawn-double-push (spends the pawn die; then [2])'
    """
    game = _game(dfen, ruleset)
    return _explain(game, turn_tree(dfen, ruleset), normalize_uci(uci))


def _explain(game: DiceGame, tree: TurnTree, u: str) -> Explanation:
    """:func:`explain_move` on a game at the tree's position (``u`` normalised):
    one game can answer for many moves."""
    entry = tree.nodes.get(u)
    if entry is not None:
        ex = game.explain(u)
        spent = " and the ".join(entry[0])
        after = tree.playable([u])
        then = f"then {after}" if after else "the turn is complete"
        return Explanation(u, True, ex.rule, f"spends the {spent} die; {then}",
                           ex.generated_by)
    _, reason, rule, generated_by = _refusal(game, tree, u)
    return Explanation(u, False, rule, reason, generated_by)


def _refusal(game: DiceGame, tree: TurnTree, u: str) -> tuple[type, str, str | None, list]:
    """Why ``u`` (not in the tree) is refused: (error class, reason, rule, the
    productions that generated it, as :class:`Explanation` names them)."""
    if game.is_game_over():
        return GameOverError, f"the game is over ({game.over_text()})", None, []
    micro = {m.uci() for m in game.legal_moves()}
    if u in micro:
        return (MaxMicroMovesError,
                f"it breaks the Maximum Micro-moves Rule: the turn can spend {tree.most} "
                f"dice, and no turn starting with {u} spends that many or captures the king "
                f"(legal: {', '.join(tree.first())})", "dice.maximum-micro-moves",
                game.explain(u).generated_by)
    ex = game.explain(u)
    if ex.rule == "dice.die-filter":
        return NoDieError, ex.reason, ex.rule, ex.generated_by
    promotions = sorted(m for m in micro if len(m) == 5 and m[:4] == u[:4])
    if promotions and not ex.generated_by:
        # (a move generated and then dropped by a rule keeps that rule's reason)
        # the squares of a promotion without a piece it may name: offer the
        # promotions a legal turn can begin with, not every micro-move
        _, _, promo = parse_uci(u)
        in_turn = [m for m in promotions if m in tree.nodes]
        if in_turn:
            return NotLegalMoveError, promotion_reason(promo, in_turn), ex.rule, []
        return (NotLegalMoveError,
                f"{promotion_reason(promo, promotions)}, but no turn starting with any of "
                f"them keeps to the Maximum Micro-moves Rule (legal: {', '.join(tree.first())})",
                ex.rule, [])
    return NotLegalMoveError, ex.reason, ex.rule, ex.generated_by


def _refuse(game: DiceGame, tree: TurnTree, u: str):
    cls, reason, rule, _ = _refusal(game, tree, u)
    if cls is NotLegalMoveError:
        reason = f"not a legal move: {reason}"
    raise cls(u, reason, rule)


def end_turn(dfen: str, ruleset=None) -> str:
    """End the turn: colour toggled, full-move +1 after Black, the en-passant
    targets this side could have taken cleared (its own kept), dice ``-``.

    Refused (:class:`EndTurnError`) while a legal micro-move is left, or once the
    game is over.
    """
    game = _game(dfen, ruleset)
    game.end_turn()
    return game.dfen()


def roll(dfen: str, rng: RandomSource | int | None = None, ruleset=None) -> str:
    """Fill the dice field with three dice (faces 1 pawn .. 6 king) drawn with
    ``rng.randint(1, 6)``; ``rng`` may be a :class:`random.Random`, a seed, or None
    (a fresh unseeded source). Refused (:class:`RollError`) when dice are left or the
    game is over."""
    rng = random_source(rng)        # (a bad one is refused before the DFEN is read)
    game = _game(dfen, ruleset)
    game.roll(rng)
    return game.dfen()


def with_dice(dfen: str, faces, ruleset=None) -> str:
    """The position with its dice field set to ``faces`` (ints 1..6 or piece
    letters, at most three): a fixed roll, for tests and scenario files. A
    preset's ``key:value`` tokens are kept."""
    pos = parse_dfen(dfen, ruleset)
    if isinstance(faces, str):
        faces = list(faces)         # "NPP": one letter a die
    elif faces is None or not hasattr(faces, "__iter__"):
        raise DfenError("dice", f"expected the dice as a list of faces or letters, not {quoted(faces)}")
    letters = []
    for f in faces:
        if isinstance(f, bool) or not isinstance(f, (int, str)):
            raise DfenError("dice", f"{quoted(f)} is not a die face (1..6) or letter")
        if isinstance(f, int):
            if f not in FACE_TYPE:
                raise DfenError("dice", f"{quoted(f)} is not a die face (1 pawn .. 6 king)")
            letters.append(PIECE_LETTER[FACE_TYPE[f]])
        else:
            if len(f) != 1 or f == "-":
                raise DfenError("dice", f"{quoted(f)} is not one die (a face 1..6 or a piece letter)")
            letters.append(f)
    text = "".join(letters) or "-"
    pos.dice = parse_dice_field(text, dfen)       # only the dice: the board was read for ruleset
    return format_dfen(pos)                   # with the tokens as given


def playable_dice(dfen_at_roll: str, played=(), ruleset=None) -> list[int] | None:
    """The die faces (ascending) a legal turn beginning with ``played`` still
    spends after it, each as often as the most one such turn spends; ``[]`` after a
    complete turn; None when no legal turn begins with ``played`` (UCI micro-moves:
    a list, or one string of them separated by spaces)."""
    return turn_tree(dfen_at_roll, ruleset).playable(_played(played))


def _played(played) -> list[str]:
    """The micro-moves played: a sequence of UCI strings (or one string of them,
    separated by spaces)."""
    if isinstance(played, str):
        return played.split()
    try:
        out = list(played)
    except TypeError:
        raise MoveParseError(played, "expected the micro-moves played as a list of UCI strings") \
            from None
    for u in out:
        if not isinstance(u, str):
            raise MoveParseError(u, "expected the micro-moves played as a list of UCI strings")
    return out


def _game(dfen: str, ruleset=None) -> DiceGame:
    """The position of DFEN text (None is not the start position here: the
    functions of this API take a position, and say so when given none)."""
    if not isinstance(dfen, str):
        parse_dfen(dfen)                # raises the typed error
    return DiceGame(dfen, checked_ruleset(ruleset))     # (these functions take no presets=)
