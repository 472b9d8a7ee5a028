"""A rule set: the productions of a game before they are compiled.

FIDE chess is one :class:`RuleSet`; presets and user rule files add, remove
and replace productions by name on a copy of it. ``build()`` compiles the
result into a fresh :class:`rete.Session`.

>>> from chess_rules.fide import fide_rules
>>> rs = fide_rules()
>>> "fide.knight-move" in rs.productions
True
"""
from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, Callable, Iterable, Protocol

from rete import Production, Rule, Session, Template
from rete.errors import CompileError, StageCycleError, did_you_mean
from rete.model import (AssertFact, Call, Exists, Modify, Pattern, Retract, as_production,
                        name_problem)

from .errors import ChessError, NotARuleSetError
from .move_helpers import MOVE_HELPERS, helper_call_problem, meta_problem, with_implied_attacks
from .schema import STAGES, TEMPLATES, slot_values
from .topology import Plain

if TYPE_CHECKING:
    from .state import ChessState


class RandomSource(Protocol):
    """Where a rule that draws gets its numbers (a Dice Chess roll's faces): a
    :class:`random.Random`, or any object with its ``randint``."""

    def randint(self, a: int, b: int) -> int: ...


class ChessSession(Session):
    """The session a rule set compiles into (:meth:`RuleSet.build`): a
    :class:`rete.Session` to which the chess layer attaches what its rules'
    functions read through ``ctx.session`` (the engine knows nothing of chess)."""

    #: the position, kept in step with working memory (a Game's ChessState sets it)
    chess: ChessState
    #: the random source of the draw being made (a Dice Chess roll:
    #: dice.DiceGame.roll), None once it is made
    rng: RandomSource | None


class RuleSetError(ChessError):
    """An edit the rule set refuses, leaving it as it was: a production added
    twice, removed or replaced when it is not there, one whose metadata or move
    helper call cannot work (``gen-slide`` given a direction it cannot read), a
    stage declared twice or ordered against a stage the rule set lacks."""


def checked_ruleset(ruleset: object, presets_kw: bool = False, required: bool = False,
                    name: str = "ruleset") -> RuleSet | None:
    """``ruleset`` if it is a :class:`RuleSet` or None, else :class:`NotARuleSetError`
    (``presets_kw``: the caller also takes preset ids as ``presets=``; ``required``:
    None is refused too, by a function that edits a copy of the rule set it is
    given; ``name``: the argument's name in the message)."""
    if isinstance(ruleset, RuleSet) or (ruleset is None and not required):
        return ruleset
    hint = ""
    if isinstance(ruleset, (str, list, tuple)):
        hint = (" (load a preset with presets.load(...)"
                + (", or name it with presets=" if presets_kw else "") + ")")
    elif ruleset is None:
        hint = " (fide_rules() is FIDE's)"
    raise NotARuleSetError(f"{name} must be a RuleSet{'' if required else ' or None'}, not "
                           f"{type(ruleset).__name__}{hint}")


def _stage_names(name: str, stages) -> tuple:
    """``after`` or ``before`` of :meth:`RuleSet.add_stage`: one stage's name, or
    several (each checked against the rule set's stages by the caller)."""
    if isinstance(stages, str):
        return (stages,)
    try:
        return tuple(stages)
    except TypeError:
        raise RuleSetError(f"stage {name!r} is ordered against {stages!r}: give a stage's "
                           f"name, or a list of them") from None


GEN_STAGES = ("generate", "filter")
PUSH_STAGES = ("apply", "post-move", "turn-end", "result")


def move_stages(order, config) -> tuple[tuple, tuple]:
    """The stages a move generation runs (``generate`` .. ``filter``) and those a
    move runs (``apply`` .. ``result``), in the session's ``order``: stages a rule
    file declares between them run too. The modifiers' dispatch stages
    (``config['extra-push-stages']``) are a run of their own."""
    order = list(order)
    own = set(config.get("extra-push-stages") or ())

    def span(first, last):
        return tuple(st for st in order[order.index(first):order.index(last) + 1]
                     if st not in own)
    return span(*GEN_STAGES), span(PUSH_STAGES[0], PUSH_STAGES[-1])


_SCHEMA_TEMPLATES = frozenset(t.name for t in TEMPLATES)


def generation_scoped(productions, gen_stages) -> frozenset:
    """The templates whose facts live only while moves are listed: ``movegen``
    itself, and a template of the rule set's own that its productions assert
    only logically, in the stages of move generation (a chain of logical facts
    rooted in the request goes with it)."""
    only: dict[str, bool] = {}
    for p in productions:
        for a in p.actions:
            if isinstance(a, AssertFact):
                ok = a.logical and p.stage in gen_stages
                only[a.template] = only.get(a.template, True) and ok
    return frozenset({"movegen"} | {t for t, ok in only.items()
                                     if ok and t not in _SCHEMA_TEMPLATES})


def _matches_any(conditions, templates) -> bool:
    """Whether the conditions need a fact of one of ``templates`` (a pattern, or
    one inside ``exists``/``collect``): such a fact supports what they assert."""
    return any(c.template in templates if isinstance(c, Pattern)
               else isinstance(c, Exists) and _matches_any(c.conditions, templates)
               for c in conditions)


def generation_change(prod: Production, gen_stages,
                      scoped=frozenset({"movegen"})) -> tuple[str, int] | None:
    """What is wrong with a production that runs with move generation and changes
    the position, and the index of the action at fault; or None. Generation proposes moves and must leave the game as
    it was (``legal_moves()`` changes nothing): its rules call functions and may
    assert logical facts that go with the ``movegen`` request, its conditions
    matching the request or a fact that goes with it (``scoped``:
    :func:`generation_scoped`); a plain assert, a modify or a retract would stay,
    and so would a logical fact supported by the position alone."""
    if prod.stage not in gen_stages:
        return None
    for i, a in enumerate(prod.actions):
        what = ("asserts" if isinstance(a, AssertFact) and not a.logical
                else "modifies" if isinstance(a, Modify)
                else "retracts" if isinstance(a, Retract) else None)
        if what is not None:
            return (f"runs with move generation (stage {prod.stage!r}), which only proposes "
                    f"moves, yet {what} a fact: the position would change each time the "
                    f"moves are listed (change it in 'apply' or 'post-move'; a fact for "
                    f"generation alone is asserted logical)", i)
        if isinstance(a, AssertFact) and not _matches_any(prod.conditions, scoped):
            return (f"runs with move generation (stage {prod.stage!r}), which only proposes "
                    f"moves, yet asserts a logical {a.template!r} fact that its conditions "
                    f"keep without the movegen request: it would stay once the moves are "
                    f"listed (match movegen, or a fact that goes with it, to support it)", i)
    return None


def request_stage_problem(prod: Production, gen_stages, push_stages) -> str | None:
    """What is wrong with a production that matches a request in a stage where the
    request never stands, or None: ``movegen`` lives while moves are generated,
    ``move`` while one is played, ``status`` while the result is asked. Such a
    rule would never fire (a mover moved to ``post-move`` moves nothing)."""
    lives = {"movegen": (gen_stages, "while moves are generated"),
             "move": (push_stages, "while a move is played"),
             "status": (("result",), "while the result is asked")}
    for c in prod.conditions:
        if isinstance(c, Pattern) and c.template in lives:
            stages, when = lives[c.template]
            if prod.stage not in stages:
                return (f"matches the {c.template!r} request, which stands only {when} "
                        f"(stages {', '.join(stages)}): in stage {prod.stage!r} it never "
                        f"fires")
    return None


class RuleSet:
    """The productions of a game by name, with what compiling them needs: templates,
    stages, the functions the rules call (the move helpers of
    :mod:`chess_rules.move_helpers` among them), the board's topology and the royal
    piece types; ``shape`` is its board. Edit it with :meth:`add`, :meth:`replace` and :meth:`remove`,
    add a piece type written in Betza notation with :meth:`add_piece`,
    register the functions its rules call with :meth:`function` and declare
    stages with :meth:`add_stage` (:meth:`stage_order` gives the order a
    session runs them in); :meth:`build` compiles it into a session (a
    :class:`~chess_rules.game.Game` does that when it is made, from its own
    :meth:`copy`), and :meth:`describe` lists its productions.
    ``docs/rulesets.md`` is a guide."""

    def __init__(self, name: str = "custom"):
        self.name = name
        self.productions: dict[str, Production] = {}
        self.origin: dict[str, str] = {}
        self.functions: dict[str, Callable] = dict(MOVE_HELPERS)
        self.templates: dict[str, Template] = {t.name: t for t in TEMPLATES}
        self.stages: list[str] = list(STAGES)
        self.extra_stages: list[tuple[str, tuple, tuple]] = []
        self.royal_types: dict[str, tuple[str, ...]] = {"white": ("king",), "black": ("king",)}
        self.topology = Plain()
        self.fide_attacks: Callable | None = None
        self.config: dict[str, Any] = {}
        self.presets: list[str] = []
        self.setup_hooks: list[Callable] = []     # fn(game, pos) as a position loads, before the rules run
        self.history: list[tuple[str, str, str]] = []  # (op, production, origin)

    @property
    def shape(self):
        """The board the rule set plays on (:class:`~chess_rules.shape.BoardShape`):
        its topology's, 8x8 unless the rule set was made for another
        (``fide_rules(board_shape(10, 8))``, a variants.ini section)."""
        return self.topology.shape

    def copy(self) -> "RuleSet":
        new = copy.copy(self)
        new.productions = dict(self.productions)
        new.origin = dict(self.origin)
        new.functions = dict(self.functions)
        new.templates = dict(self.templates)
        new.stages = list(self.stages)
        new.extra_stages = list(self.extra_stages)
        new.royal_types = dict(self.royal_types)
        new.config = copy.deepcopy(self.config)
        new.presets = list(self.presets)
        new.setup_hooks = list(self.setup_hooks)
        new.history = list(self.history)
        return new

    # ------------------------------------------------------------ editing

    def add(self, prod: Production | Rule, origin: str = "custom") -> Production:
        """Add a production (a :class:`rete.Rule` is turned into one); its name must
        be new. A move helper called with bad arguments is refused here."""
        prod = self._checked(prod)
        if prod.name in self.productions:
            raise RuleSetError(
                f"production {prod.name!r} already exists (from {self.origin[prod.name]}); "
                "use replace to change it")
        self.productions[prod.name] = prod
        self.origin[prod.name] = origin
        self.history.append(("add", prod.name, origin))
        return prod

    def remove(self, name: str, origin: str = "custom") -> Production:
        """Take the production of that name out, and return it."""
        if not isinstance(name, str) or name not in self.productions:
            raise RuleSetError(f"no production named {name!r} to remove"
                               f"{did_you_mean(name, self.productions)}")
        self.history.append(("remove", name, origin))
        del self.origin[name]
        return self.productions.pop(name)

    def replace(self, prod: Production | Rule, origin: str = "custom") -> Production:
        """Put a production in the place of the one of the same name."""
        prod = self._checked(prod)
        if prod.name not in self.productions:
            raise RuleSetError(f"no production named {prod.name!r} to replace"
                               f"{did_you_mean(prod.name, self.productions)}")
        self.productions[prod.name] = prod
        self.origin[prod.name] = origin
        self.history.append(("replace", prod.name, origin))
        return prod

    def add_piece(self, piece, origin: str = "custom") -> None:
        """Add a piece type (a :class:`~chess_rules.pieces.PieceType`: name,
        FEN letter, Betza movement): its letter is read and written in
        positions, and the production ``piece.<name>-move`` moves it on the
        rule set's board (its attacks are declared from the same movement)."""
        from .pieces import PieceType, piece_rule, register_piece_type
        if not isinstance(piece, PieceType):
            raise RuleSetError(f"add_piece takes a PieceType, not {type(piece).__name__}")
        if piece.rule_name in self.productions:
            raise RuleSetError(f"the piece {piece.name!r} is in the rule set already "
                               f"({piece.rule_name})")
        register_piece_type(piece)
        rule, fn_name, gen = piece_rule(piece, self.topology)
        self.function(fn_name, gen)
        self.add(rule, origin)
        self.config.setdefault("pieces", {})[piece.name] = (piece.letter, piece.betza)
        # built on the board it has now: a geometry preset loaded over it later
        # (wrap-board) is refused rather than leaving this piece on the old board
        self.config.setdefault("topology-bound", []).append(piece.rule_name)

    def _checked(self, prod: Production | Rule) -> Production:
        if not isinstance(prod, (Production, Rule)):
            hint = (" (rule text is loaded with chess_rules.rule_files.load_rule_text)"
                    if isinstance(prod, str) else "")
            raise RuleSetError(f"a production is a rete.Rule or rete.Production, not "
                               f"{type(prod).__name__}{hint}")
        prod = as_production(prod)
        problem = name_problem(prod)
        if problem is not None:
            raise RuleSetError(problem)
        problem = meta_problem(prod)
        if problem is not None:
            raise RuleSetError(f"production {prod.name!r}: {problem}")
        for a in prod.actions:
            problem = helper_call_problem(a, self.functions, prod.conditions,
                                          self._known_stage(prod.stage), self.templates) \
                if isinstance(a, Call) else None
            if problem is not None:
                raise RuleSetError(f"production {prod.name!r}: {problem}")
        return prod

    def _known_stage(self, stage) -> str | None:
        """``stage`` if the rule set has it (an unknown one is reported when the
        rule set is compiled, where it is placed in the rule's text), else None."""
        known = stage in self.stages or any(s == stage for s, _, _ in self.extra_stages)
        return stage if known else None

    def function(self, name: str, fn: Callable | None = None):
        """Register a function the productions call by name (usable as a decorator)."""
        if not isinstance(name, str):
            raise RuleSetError(f"a function is registered under its name (text), not {name!r}: "
                               f"rs.function('house.name', fn), or @rs.function('house.name') "
                               f"as a decorator")
        if fn is None:
            return lambda f: self.function(name, f)
        if not callable(fn):
            raise RuleSetError(f"function {name!r}: {fn!r} is not callable (it is called as "
                               f"fn(ctx, *arguments))")
        self.functions[name] = fn
        return fn

    def add_stage(self, name: str, after: Iterable[str] = (), before: Iterable[str] = ()) -> None:
        """Declare a stage, ordered after and before stages the rule set has. A
        stage between ``apply`` and ``result`` runs with every move, one between
        ``generate`` and ``filter`` with every move generation. Given only
        ``after``, it runs right after that stage, before the one that followed
        it (``after=("apply",)`` runs with every move, before ``post-move``), as a
        rule file's ``stages`` declaration does."""
        # (as a production's name: a number, or '', would be a stage no rule names)
        if not isinstance(name, str) or not name.strip():
            raise RuleSetError(f"a stage is named by non-empty text, not {name!r}")
        # one stage's name is that stage (not its letters)
        after, before = (_stage_names(name, x) for x in (after, before))
        known = set(self.stages) | {s for s, _, _ in self.extra_stages}
        if name in known:
            raise RuleSetError(f"stage {name!r} already exists")
        for s in after + before:
            if s not in known:
                raise RuleSetError(f"stage {name!r} is ordered against {s!r}, which is no "
                                   f"stage of this rule set (stages: {', '.join(self.stages)})")
        if after and not before:
            # left unbounded, the stage would sort after every stage (after
            # 'result', where no move runs it)
            order = self.stage_order()
            last = max(after, key=order.index)
            before = tuple(order[order.index(last) + 1:][:1])
        self.extra_stages.append((name, after, before))
        try:
            self.stage_order()
        except StageCycleError as e:
            self.extra_stages.pop()
            raise RuleSetError(f"stage {name!r} cannot run after {', '.join(after)} and before "
                               f"{', '.join(before)}: {e}") from None

    def stage_order(self) -> list[str]:
        """Every stage of the rule set, in the order a compiled session runs them."""
        s = Session(stages=self.stages)
        for name, after, before in self.extra_stages:
            s.define_stage(name, after=after, before=before)
        return list(s.stages)

    # ------------------------------------------------------------ compiling

    def build(self) -> ChessSession:
        """Compile into a new session (templates, functions, stages, productions)."""
        self._check_royal_types()
        self._check_position_keys()
        s = ChessSession(stages=self.stages)
        # a typo in a symbolic value is refused; the rule set's own piece types
        # (read when a rule compiles: add_piece may come after this build)
        config = self.config
        s.slot_values = lambda template, slot: slot_values(template, slot,
                                                           config.get("pieces", ()))
        for name, after, before in self.extra_stages:
            s.define_stage(name, after=after, before=before)
        for t in self.templates.values():
            s.deftemplate(t)
        s.functions.update(self.functions)
        gen_stages, push_stages = move_stages(s.stages, self.config) \
            if "generate" in s.stages else ((), ())
        push_stages += tuple(self.config.get("extra-push-stages") or ())
        scoped = generation_scoped(self.productions.values(), gen_stages)
        for p in self.productions.values():
            change = generation_change(p, gen_stages, scoped)
            if change is not None:
                err = CompileError(change[0], p.name)
                err.action = change[1]      # (rule text points at that action)
                raise err
            problem = request_stage_problem(p, gen_stages, push_stages) \
                if gen_stages and p.stage in s.stages else None
            if problem is not None:
                raise CompileError(problem, p.name)
            # a capturing move helper's attacks, over the topology the board has
            # now (a preset applied after the rule was added may have changed it)
            s.add_production(with_implied_attacks(p, self.topology, self.functions))
        return s

    def _check_royal_types(self) -> None:
        """Refuse royalty that would silently make no piece royal: ``("king")`` is the
        text 'king', whose letters would be the royal types."""
        for color, types in self.royal_types.items():
            if color not in ("white", "black"):
                raise RuleSetError(f"royal_types is keyed by 'white' and 'black', not {color!r}")
            if isinstance(types, str) or not isinstance(types, (tuple, list, set, frozenset)) \
                    or not all(isinstance(t, str) for t in types):
                hint = f" (write ({types!r},) for one)" if isinstance(types, str) else ""
                raise RuleSetError(f"royal_types[{color!r}] is a tuple of piece types, such as "
                                   f"('king',), or () for none, not {types!r}{hint}")

    def _check_position_keys(self) -> None:
        """Refuse a piece attribute or position token whose ``key:`` the extended
        FEN would read as another's: the game would write positions it cannot
        read back (``half:e4=1`` is the half-move of a multi-move turn)."""
        from .position import BASE_PIECE_SLOTS, RESERVED_TOKEN_KEYS
        slots = [sl for sl in self.templates["piece"].slots if sl not in BASE_PIECE_SLOTS]
        tokens = list(self.config.get("position-tokens") or ())
        taken: bool | str       # (what the key is taken as, if it is)
        for key, what in [(sl, "piece attribute") for sl in slots] + \
                         [(k, "position token") for k in tokens]:
            taken = key in RESERVED_TOKEN_KEYS and "its own"
            if not taken and what == "position token" and key in slots:
                taken = "the piece attribute's"
            if taken:
                raise RuleSetError(f"{what} {key!r} would be written as '{key}:...', which the "
                                   f"extended FEN reads as {taken}: the game's FEN would not "
                                   f"read back; give it another name")

    def describe(self) -> list[dict]:
        """The active productions with stage, salience and source."""
        return [{"name": p.name, "stage": p.stage, "salience": p.salience,
                 "source": self.origin[p.name], "doc": p.doc}
                for p in self.productions.values()]
