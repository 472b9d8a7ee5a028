"""A variants.ini section compiled into a rule set.

:func:`variant_rules` resolves the section's ``[name:parent]`` chain (a
parent is an earlier section of the same text, or ``chess``: FIDE chess with
its six pieces; a section with no parent starts from FIDE's rules with no
piece letters defined, as Fairy-Stockfish's default template), merges the
options (a child's override its parent's) and builds the rule set option by
option. An option outside the supported set (``SUPPORTED``) is refused with
its name and line, never ignored; XBoard/GUI-only options (``IGNORED``) do not
change the rules and are accepted.
"""
from __future__ import annotations

from typing import Callable

from rete import AssertLogical, Call, Not, P, Rule, Test, V

from ..errors import FenError
from ..fen import STARTING_FEN
from ..fide import FIDE_MOVEMENT, fide_rules
from ..shape import FILE_LETTERS, MAX_FILES, MAX_RANKS, MIN_FILES, MIN_RANKS, BoardShape, board_shape
from ..move_helpers import compulsory_capture
from ..movement import Leg, leap, mover_rule
from ..pieces import PieceType, PieceTypeError
from ..ruleset import RuleSet
from ..squares import opposite
from .ini import Option, Section, VariantsIniError

__all__ = ["variant_rules", "SUPPORTED", "IGNORED", "PREDEFINED"]

#: Fairy-Stockfish's predefined piece types (other than FIDE's six), with their Betza
PREDEFINED: dict[str, str] = {
    "fers": "F", "alfil": "A", "fersAlfil": "FA", "silver": "FfW", "aiwok": "RNF",
    "bers": "RF", "archbishop": "BN", "chancellor": "RN", "amazon": "QN",
    "knibis": "mNcB", "biskni": "mBcN", "kniroo": "mNcR", "rookni": "mRcN",
    "shogiKnight": "fN", "gold": "WfF", "dragonHorse": "BW", "clobber": "cW",
    "cannon": "mRcpR", "janggiCannon": "pR", "soldier": "fsW", "horse": "nN",
    "elephant": "nA", "wazir": "W", "centaur": "KN", "lance": "fR",
}
_FIDE = {"pawn": "p", "knight": "n", "bishop": "b", "rook": "r", "queen": "q", "king": "k"}
_CUSTOM = tuple(f"customPiece{i}" for i in range(1, 26))
_BOOL = {"true": True, "false": False}
_VALUES = ("win", "loss", "draw")

#: every option a section may give, with what it does here
SUPPORTED: dict[str, str] = {
    "maxRank": "the ranks, 5 to 10 (8 by default)",
    "maxFile": "the last file, e to l (or 5 to 12; h by default)",
    "startFen": "the start position",
    **{k: "its FIDE letter, or - (no such piece)" for k in _FIDE if k != "king"},
    "king": "k (royal, FIDE's king) or - (no royal king)",
    "commoner": "k, with king = -: the king is an ordinary piece (no check)",
    **{k: f"a letter: the predefined piece {v!r}" for k, v in PREDEFINED.items()},
    **{k: "LETTER:BETZA, the piece type custom-LETTER" for k in _CUSTOM},
    "promotionPieceTypes": "the letters pawns promote to (both sides)",
    "promotionPieceTypesWhite": "the same as Black's, if both are given",
    "promotionPieceTypesBlack": "the same as White's, if both are given",
    "promotionRegionWhite": "whole ranks holding the last (*8 on 8x8; *8 *9 *10 in Grand "
                            "chess); needed on a board of other than 8 ranks",
    "promotionRegionBlack": "whole ranks, the mirror of White's",
    "mandatoryPawnPromotion": "true, or false (with immobilityIllegal = true): a pawn in "
                              "the promotion region before the last rank may stay a pawn",
    "promotionLimit": "LETTER:COUNT ...: a pawn promotes to a type only while its side has "
                      "fewer than COUNT of it",
    "immobilityIllegal": "false, or true where no piece but the pawn moves forward or "
                         "backward only (no f or b in its Betza)",
    "doubleStep": "true or false: the pawn's double step",
    "doubleStepRegionWhite": "whole ranks (*2 *3 ...), Black's the mirror of White's",
    "doubleStepRegionBlack": "whole ranks, the mirror of White's; needed on a board of "
                             "other than 8 ranks, unless doubleStep = false",
    "castling": "true or false",
    "castlingKingsideFile": "the file the king castles to kingside (g by default)",
    "castlingQueensideFile": "the file the king castles to queenside (c by default)",
    "castlingKingFile": "e only (on 8x8; the king castles from its square in the FEN)",
    "castlingRookKingsideFile": "the last file only (the rook in its corner)",
    "castlingRookQueensideFile": "a only",
    "castlingKingPiece": "k only",
    "checking": "true only",
    "mustCapture": "true or false: a side that can capture must",
    "stalemateValue": "win, loss or draw for the stalemated side",
    "checkmateValue": "loss only",
    "extinctionValue": "win, loss or draw for the side whose extinction piece types are gone",
    "extinctionPieceTypes": "letters, or * (all pieces)",
    "extinctionPieceCount": "a count: extinct at that many or fewer",
    "flagPiece": "a letter, or * (any piece)",
    "flagRegion": "squares (d4 e4) or whole ranks (*8), both sides",
    "flagRegionWhite": "squares or ranks", "flagRegionBlack": "squares or ranks",
    "nMoveRule": "a count of moves (0: none); 50 in FIDE",
    "nFoldRule": "a count of repetitions; 3 in FIDE",
}
#: options that change no rule (XBoard/GUI and engine tuning): accepted as they are
IGNORED = ("variantTemplate", "pieceToCharTable", "pocketSize", "pieceValueMg",
           "pieceValueEg")


def _resolve(sections: dict[str, Section], name: str, at: Option | None = None) -> list[Section]:
    chain: list[Section] = []
    seen = set()
    while name != "chess":
        s = sections.get(name)
        if s is None:
            known = ", ".join(["chess", *sections])
            if not chain:
                raise VariantsIniError(at.source if at else "<variants.ini>", at.line if at else 1,
                                       at.column if at else 1,
                                       f"no variant {name!r} (variants: {known})")
            child = chain[-1]
            raise VariantsIniError(child.source, child.line, 1,
                                   f"[{child.name}:{name}]: no parent {name!r} (sections: {known})")
        if name in seen:
            raise VariantsIniError(s.source, s.line, 1, f"[{name}] inherits from itself")
        seen.add(name)
        chain.append(s)
        if s.parent is None:
            chain.append(Section("", None, s.source, 0))     # the empty template
            break
        name = s.parent
    return list(reversed(chain))


def _letters(opt: Option, types: dict[str, str], star: bool = False) -> tuple[str, ...] | None:
    """The piece types named by an option's letters (None for ``*``)."""
    if star and opt.value == "*":
        return None
    out = []
    for ch in opt.value.replace(" ", ""):
        t = types.get(ch.lower())
        if t is None:
            raise opt.error(f"{ch!r} is no piece letter of this variant "
                            f"(letters: {''.join(sorted(types))})")
        out.append(t)
    return tuple(out)


def _ranks(opt: Option, shape: BoardShape) -> tuple[int, ...]:
    out = []
    top = shape.height
    for word in opt.value.split():
        if len(word) < 2 or word[0] != "*" or not word[1:].isdigit() or \
                not 1 <= int(word[1:]) <= top:
            raise opt.error(f"{word!r}: only whole ranks (*1 .. *{top}) are read here")
        out.append(int(word[1:]) - 1)
    return tuple(sorted(out))


def _squares(opt: Option, shape: BoardShape) -> frozenset[int]:
    out: set[int] = set()
    w, top = shape.width, shape.height
    for word in opt.value.split():
        if word.startswith("*") and word[1:].isdigit() and 1 <= int(word[1:]) <= top:
            r = int(word[1:]) - 1
            out |= set(range(w * r, w * r + w))
            continue
        try:
            out.add(shape.parse_square(word))
        except ValueError:
            raise opt.error(f"{word!r} is no square (e4) or rank (*8) of the {shape}") from None
    return frozenset(out)


def _bool(opt: Option) -> bool:
    if opt.value not in _BOOL:
        raise opt.error(f"{opt.value!r} is not true or false")
    return _BOOL[opt.value]


def _int(opt: Option) -> int:
    if not opt.value.isdigit():
        raise opt.error(f"{opt.value!r} is not a whole number")
    return int(opt.value)


def _value(opt: Option) -> str:
    if opt.value not in _VALUES:
        raise opt.error(f"{opt.value!r} is not win, loss or draw")
    return opt.value


def _only(opt: Option, *allowed: str) -> None:
    if opt.value not in allowed:
        raise opt.error(f"{opt.value!r} is not supported (only {' or '.join(allowed)})")


def variant_rules(sections: dict[str, Section], name: str) -> RuleSet:
    """The rule set of the variant ``name`` of parsed variants.ini ``sections``
    (its start position in ``config['start-fen']``)."""
    chain = _resolve(sections, name)
    opts: dict[str, Option] = {}
    chess_parent = chain[0].name != ""
    for s in chain:
        opts.update(s.options)
    for key, opt in opts.items():
        if key not in SUPPORTED and key not in IGNORED:
            raise VariantsIniError(opt.source, opt.line, 1,
                                   f"option {key!r} is not supported (RULES.md, "
                                   "'variants.ini', lists the options read)")
    shape = _board(opts)
    rules = fide_rules(shape)
    rules.name = name
    # piece letters: FIDE's six where inherited from chess, else those declared
    types: dict[str, str] = dict((v, k) for k, v in _FIDE.items()) if chess_parent else {}
    royal_king = True
    for key, opt in opts.items():
        if key in _FIDE:
            if opt.value == "-":
                types.pop(_FIDE[key], None)
                if key == "king":
                    royal_king = False
                continue
            if opt.value != _FIDE[key]:
                raise opt.error(f"the {key} is written {_FIDE[key]!r} here, not {opt.value!r}")
            types[opt.value] = key
        elif key == "commoner":
            if opt.value != "k" or opts.get("king") is None or opts["king"].value != "-":
                raise opt.error("a commoner is read only as k, with king = - (the king "
                                "as an ordinary piece)")
            types["k"] = "king"
        elif key in PREDEFINED or key in _CUSTOM:
            if key in _CUSTOM:
                letter, sep, betza = opt.value.partition(":")
                piece_name = f"custom-{letter.lower()}"
                if not sep:
                    raise opt.error(f"{opt.value!r} is not LETTER:BETZA")
            else:
                letter, betza = opt.value, PREDEFINED[key]
                piece_name = "".join("-" + c.lower() if c.isupper() else c for c in key)
            if letter.lower() in types:
                raise opt.error(f"the letter {letter!r} is the {types[letter.lower()]}'s already")
            try:
                rules.add_piece(PieceType(piece_name, letter, betza), origin="variant")
            except (PieceTypeError, ValueError) as e:
                raise opt.error(str(e)) from None
            types[letter.lower()] = piece_name
    if not royal_king:
        rules.royal_types = {"white": (), "black": ()}
    _start(rules, opts, types)
    _promotion(rules, opts, types)
    double_leg = _double_step(rules, opts)
    _promotion_zone(rules, opts, types, double_leg)
    _castling(rules, opts)
    _must_capture(rules, opts)
    _results(rules, opts, types, royal_king)
    return rules


def _board(opts) -> BoardShape:
    """The board of ``maxRank`` and ``maxFile`` (8x8 unless given), with the
    options that must name its last rank or corner file checked."""
    height = 8
    if "maxRank" in opts:
        opt = opts["maxRank"]
        if not opt.value.isdigit() or not MIN_RANKS <= int(opt.value) <= MAX_RANKS:
            raise opt.error(f"{opt.value!r}: a board has {MIN_RANKS} to {MAX_RANKS} ranks")
        height = int(opt.value)
    width = 8
    if "maxFile" in opts:
        opt = opts["maxFile"]
        letters = FILE_LETTERS[MIN_FILES - 1:MAX_FILES]
        if opt.value.isdigit() and MIN_FILES <= int(opt.value) <= MAX_FILES:
            width = int(opt.value)
        elif len(opt.value) == 1 and opt.value in letters:
            width = FILE_LETTERS.index(opt.value) + 1
        else:
            raise opt.error(f"{opt.value!r}: the last file is {letters[0]} to {letters[-1]} "
                            f"({MIN_FILES} to {MAX_FILES} files)")
    shape = board_shape(width, height)
    for key, ok in (("checking", "true"), ("checkmateValue", "loss"),
                    ("castlingRookKingsideFile", FILE_LETTERS[width - 1]),
                    ("castlingRookQueensideFile", "a"), ("castlingKingPiece", "k")):
        if key in opts:
            _only(opts[key], ok)
    if "castlingKingFile" in opts:
        if shape.width != 8 or shape.height != 8:
            raise opts["castlingKingFile"].error(
                "is read on 8x8 only (the king castles from its square in the FEN)")
        _only(opts["castlingKingFile"], "e")
    if height != 8 and "promotionRegionWhite" not in opts and _has_pawns(opts):
        raise (opts.get("maxRank")).error(
            f"on a board of {height} ranks give promotionRegionWhite = *{height}: "
            f"Fairy-Stockfish's default, *8, is not the last rank there")
    return shape


def _has_pawns(opts) -> bool:
    return "pawn" not in opts or opts["pawn"].value != "-"


def _start(rules: RuleSet, opts, types) -> None:
    opt = opts.get("startFen")
    if opt is None:
        shape = rules.shape
        if shape.width != 8 or shape.height != 8:
            at = opts.get("maxFile") or opts["maxRank"]
            raise at.error(f"a variant on the {shape} needs a startFen")
        rules.config["start-fen"] = STARTING_FEN
        return
    placement = opt.value.split()[0]
    for ch in placement:
        if ch.isalpha() and ch.lower() not in types:
            raise opt.error(f"{ch!r} is no piece letter of this variant "
                            f"(letters: {''.join(sorted(types))})")
    fields = opt.value.split()
    if len(fields) == 4:
        fields += ["0", "1"]
    rules.config["start-fen"] = " ".join(fields)


def _promotion(rules: RuleSet, opts, types) -> None:
    given = [opts[k] for k in ("promotionPieceTypes", "promotionPieceTypesWhite",
                               "promotionPieceTypesBlack") if k in opts]
    if not given:
        return
    sets = [_letters(o, types) for o in given]
    if any(set(s or ()) != set(sets[0] or ()) for s in sets):
        raise given[-1].error("different promotion pieces for the two sides are not "
                              "supported")
    rules.config["promotion-types"] = sets[0]


def _double_step(rules: RuleSet, opts) -> Leg | None:
    """Apply the double-step options; the leg of a double step other than
    FIDE's, if any (None: FIDE's, or none)."""
    if "doubleStep" in opts and not _bool(opts["doubleStep"]):
        rules.remove("fide.pawn-double-push", "variant")
        return None
    shape = rules.shape
    white = _ranks(opts["doubleStepRegionWhite"], shape) \
        if "doubleStepRegionWhite" in opts else (1,)
    # (Fairy-Stockfish's default for Black is rank 7 on any board)
    black = _ranks(opts["doubleStepRegionBlack"], shape) \
        if "doubleStepRegionBlack" in opts else (6,)
    top = shape.height - 1
    if tuple(sorted(top - r for r in black)) != white:
        if "doubleStepRegionBlack" not in opts:
            at = opts.get("doubleStepRegionWhite") or opts["maxRank"]
            raise at.error(f"on a board of {shape.height} ranks give doubleStepRegionBlack "
                           f"(or doubleStep = false): Fairy-Stockfish's default, *7, is "
                           f"not the mirror of White's")
        raise (opts.get("doubleStepRegionBlack") or opts["doubleStepRegionWhite"]).error(
            "the two sides' double-step ranks must mirror each other")
    if white == (1,):
        return None
    leg = leap((0, 2), mode="move", lame=True, from_ranks=white, ep=True,
               blocked="{blocked} is occupied")
    rule, gen = mover_rule("fide.pawn-double-push", "pawn", (leg,), rules.topology,
                           "variant: a pawn on ranks " + ", ".join(str(r + 1) for r in white)
                           + " (its side's) advances two squares through an empty one.",
                           "gen.variant-double-step", meta={})
    rules.function("gen.variant-double-step", gen)
    rules.replace(rule, "variant")
    rules.config["strict-ep"] = False
    rules.config["ep-pawn-infer"] = _ep_pawn_beyond(rules.shape)
    return leg


def _ep_pawn_beyond(shape: BoardShape) -> Callable:
    """The pawn a FEN's en-passant target captures under double steps from
    ranks of the variant's own (Grand chess's from the third): the one beyond
    the target, seen from the nearer side (White's below the middle)."""
    width, height = shape.width, shape.height

    def infer(state, target: int) -> int:
        rank = target // width
        if not 0 < rank < height - 1:
            raise FenError("en_passant", f"{shape.square_names[target]!r} is on the board's "
                                         f"first or last rank: no double step passes it")
        return target + width if rank < height // 2 else target - width
    return infer


def _promotion_zone(rules: RuleSet, opts, types, double_leg: Leg | None) -> None:
    """A promotion region beyond the last rank, optional promotion
    (``mandatoryPawnPromotion = false``) and ``promotionLimit``: the pawn's
    movers are made again with promotions of their own (Grand chess)."""
    shape = rules.shape
    top = shape.height - 1
    given = [opts[k] for k in ("promotionRegionWhite", "promotionRegionBlack") if k in opts]
    white = _ranks(opts["promotionRegionWhite"], shape) \
        if "promotionRegionWhite" in opts else (7,)
    black = _ranks(opts["promotionRegionBlack"], shape) \
        if "promotionRegionBlack" in opts else (0,)
    if tuple(sorted(top - r for r in black)) != white:
        raise given[-1].error("the two sides' promotion regions must mirror each other")
    if top not in white:
        raise given[0].error(f"a promotion region holds the last rank (*{top + 1})")
    mandatory = _bool(opts["mandatoryPawnPromotion"]) \
        if "mandatoryPawnPromotion" in opts else True
    immobility = _bool(opts["immobilityIllegal"]) if "immobilityIllegal" in opts else False
    if immobility:
        for letter, ptype in types.items():
            betza = rules.config.get("pieces", {}).get(ptype, ("", ""))[1]
            if any(ch in "fb" for ch in betza):
                raise opts["immobilityIllegal"].error(
                    f"is read only for pieces that can always move: the {ptype} "
                    f"({betza}) moves forward or backward only in some directions")
    if not mandatory and not immobility:
        raise opts["mandatoryPawnPromotion"].error(
            "false is read with immobilityIllegal = true only (a pawn that stays a "
            "pawn on the last rank could never move)")
    limits = {}
    if "promotionLimit" in opts:
        opt = opts["promotionLimit"]
        for word in opt.value.split():
            letter, sep, count = word.partition(":")
            if not sep or not count.isdigit() or letter.lower() not in types:
                raise opt.error(f"{word!r} is not LETTER:COUNT of a piece of this variant")
            limits[types[letter.lower()]] = int(count)
    if white == (top,) and mandatory and not limits:
        return      # FIDE's promotion on the last rank
    zone = frozenset(white)
    width = shape.width

    def promotion(st, to: int, colour: str) -> tuple[tuple[str, ...], bool]:
        rank = to // width
        if colour == "black":
            rank = top - rank
        if rank not in zone:
            return (), True
        kinds = st.promotion_types
        if limits:
            colors, tps = st.colors, st.types
            kinds = tuple(k for k in kinds if k not in limits or sum(
                1 for c, t in zip(colors, tps) if c == colour and t == k) < limits[k])
        return kinds, not mandatory and rank != top

    ranks = ", ".join(str(r + 1) for r in white)
    why = (f" variant (promotionRegion, mandatoryPawnPromotion, promotionLimit): a pawn "
           f"arriving on ranks {ranks} (its side's) {'may promote' if not mandatory else 'promotes'}"
           + (" to a piece type its side has fewer of than the limit" if limits else "")
           + ".")
    for name, ptype, legs, doc in FIDE_MOVEMENT:
        if ptype != "pawn" or name not in rules.productions:
            continue
        meta: dict | None = None
        if name == "fide.pawn-double-push" and double_leg is not None:
            legs, meta = (double_leg,), {}
        short = name.removeprefix("fide.")
        fn_name = f"gen.variant-{short}-promotion"
        rule, gen = mover_rule(name, "pawn", legs, rules.topology, doc + why, fn_name,
                               meta=meta, promotion=promotion)
        rules.function(fn_name, gen)
        rules.replace(rule, "variant")


def _drop_castling(game, pos) -> None:
    s = game.session
    for f in list(s.facts_of("castling")):
        s.retract(f)


def _castling(rules: RuleSet, opts) -> None:
    if "castling" in opts and not _bool(opts["castling"]):
        rules.remove("fide.castling", "variant")
        rules.setup_hooks.append(_drop_castling)
        return
    shape = rules.shape
    files = []
    for key, default in (("castlingKingsideFile", 6), ("castlingQueensideFile", 2)):
        opt = opts.get(key)
        if opt is None:
            files.append(default)
            continue
        if len(opt.value) != 1 or opt.value not in shape.file_names[1:-1]:
            raise opt.error(f"{opt.value!r} is no file of the {shape} the king may castle to "
                            f"(b to {shape.file_names[-2]})")
        files.append(FILE_LETTERS.index(opt.value))
    if tuple(files) != (6, 2) or shape.width != 8 or shape.height != 8:
        # (8x8 with FIDE's files keeps FIDE's own table)
        rules.config["castling-king-files"] = tuple(files)


def _must_capture(rules: RuleSet, opts) -> None:
    if "mustCapture" in opts and _bool(opts["mustCapture"]):
        rules.function("variant.must-capture", compulsory_capture)
        rules.add(Rule("variant.must-capture", stage="filter", salience=0,
                       doc="variant (mustCapture): when a capture is legal, every move "
                           "that does not capture is dropped.")
                  .when(P("movegen", color=V.c))
                  .then(Call("variant.must-capture", V.c)), "variant")


def _winner(value: str, side: str) -> str:
    """The winner when ``value`` (win, loss, draw) is ``side``'s."""
    return "draw" if value == "draw" else side if value == "win" else opposite(side)


def _extinction(value: str, kinds: tuple[str, ...] | None, count: int) -> Callable:
    def extinct(ctx, game):
        s = ctx.session
        if s.facts_of("result"):
            return
        st = s.chess
        turn = game.values["turn"]
        for c in (opposite(turn), turn):
            if kinds is None:
                gone = sum(1 for x in st.colors if x == c) <= count
            else:
                gone = any(sum(1 for x, t in zip(st.colors, st.types) if x == c and t == k) <= count
                           for k in kinds)
            if gone:
                ctx.assert_fact("result", winner=_winner(value, c), reason="extinction")
                return
    return extinct


def _flag(kinds: tuple[str, ...] | None, regions: dict[str, frozenset[int]]) -> Callable:
    def flag(ctx, game):
        s = ctx.session
        if s.facts_of("result"):
            return
        st = s.chess
        mover = opposite(game.values["turn"])
        for sq in regions[mover]:
            if st.colors[sq] == mover and (kinds is None or st.types[sq] in kinds):
                ctx.assert_fact("result", winner=mover, reason="flag reached")
                return
    return flag


def _results(rules: RuleSet, opts, types, royal_king: bool) -> None:
    if "stalemateValue" in opts:
        value = _value(opts["stalemateValue"])
        if value != "draw":
            _stalemate(rules, value)
    if "extinctionValue" in opts:
        value = _value(opts["extinctionValue"])
        if "extinctionPieceTypes" not in opts:
            raise opts["extinctionValue"].error("extinctionPieceTypes names no piece type")
        kinds = _letters(opts["extinctionPieceTypes"], types, star=True)
        count = _int(opts["extinctionPieceCount"]) if "extinctionPieceCount" in opts else 0
        rules.function("variant.extinction", _extinction(value, kinds, count))
        rules.add(Rule("variant.extinction", stage="result", salience=65,
                       doc=f"variant (extinctionValue): a side with "
                           f"{'no pieces' if kinds is None else 'no ' + ' or no '.join(kinds)}"
                           f"{'' if count == 0 else f' (or {count} or fewer)'} left: it {value}s.")
                  .when(P("game").as_("g"), Not(P("result")))
                  .then(Call("variant.extinction", V.g)), "variant")
        rules.config["dead-positions"] = False
    if "extinctionPieceCount" in opts and "extinctionValue" not in opts:
        raise opts["extinctionPieceCount"].error("is read with extinctionValue only")
    region_keys = [k for k in ("flagRegion", "flagRegionWhite", "flagRegionBlack") if k in opts]
    if region_keys or "flagPiece" in opts:
        if not region_keys:
            raise opts["flagPiece"].error("flagRegion names no squares")
        shape = rules.shape
        both = _squares(opts["flagRegion"], shape) if "flagRegion" in opts else frozenset()
        regions = {"white": _squares(opts["flagRegionWhite"], shape)
                   if "flagRegionWhite" in opts else both,
                   "black": _squares(opts["flagRegionBlack"], shape)
                   if "flagRegionBlack" in opts else both}
        kinds = _letters(opts["flagPiece"], types, star=True) if "flagPiece" in opts else None
        rules.function("variant.flag", _flag(kinds, regions))
        rules.add(Rule("variant.flag", stage="result", salience=70,
                       doc="variant (flagPiece, flagRegion): a side whose "
                           f"{'piece' if kinds is None else '/'.join(kinds)} stands on its "
                           "flag region after its move wins.")
                  .when(P("game").as_("g"), Not(P("result")))
                  .then(Call("variant.flag", V.g)), "variant")
        rules.config["dead-positions"] = False
    if "nMoveRule" in opts:
        n = _int(opts["nMoveRule"])
        if n == 0:
            rules.remove("fide.fifty-move", "variant")
        elif n != 50:
            rules.replace(Rule("fide.fifty-move", stage="result", salience=20,
                               doc=f"variant (nMoveRule): {n} moves by each side with no pawn "
                                   "move or capture: a draw.")
                          .when(P("status"), P("game", halfmove=V.h), Test("ge", V.h, 2 * n))
                          .then(AssertLogical("result", winner="draw",
                                              reason=f"{n}-move rule")), "variant")
    if "nFoldRule" in opts:
        n = _int(opts["nFoldRule"])
        if n < 2:
            raise opts["nFoldRule"].error("a repetition rule counts 2 or more")
        if n != 3:
            def nfold(ctx, status, n=n):
                game = ctx.session.chess.game
                if game is not None and game.repetitions() >= n:
                    ctx.assert_logical("result", winner="draw", reason=f"{n}-fold repetition")
            rules.function("variant.n-fold", nfold)
            rules.replace(Rule("fide.threefold-repetition", stage="result", salience=10,
                               doc=f"variant (nFoldRule): the same position for the {n}th "
                                   "time: a draw.")
                          .when(P("status").as_("s"))
                          .then(Call("variant.n-fold", V.s)), "variant")
    if not royal_king:
        rules.config["dead-positions"] = False


def _stalemate(rules: RuleSet, value: str) -> None:
    """``fide.stalemate-draw`` replaced: the side to move with no legal move
    (and not in check) wins or loses."""
    def stalemate(ctx, status):
        c = status.values["color"]
        if not any(f.values["color"] == c for f in ctx.session.facts_of("check")):
            ctx.assert_logical("result", winner=_winner(value, c), reason="stalemate")
    rules.function("variant.stalemate", stalemate)
    rules.replace(Rule("fide.stalemate-draw", stage="result", salience=40,
                       doc=f"variant (stalemateValue): a side to move with no legal move, "
                           f"not in check, {'wins' if value == 'win' else 'loses'}.")
                  .when(P("status", moves=0).as_("s"))
                  .then(Call("variant.stalemate", V.s)), "variant")

