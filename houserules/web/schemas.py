"""The JSON the API reads and writes (its OpenAPI schema is made from these)."""
from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

Id = Annotated[str, StringConstraints(min_length=1, max_length=64)]
MoveText = Annotated[str, StringConstraints(min_length=1, max_length=32)]
Level = Annotated[int, Field(ge=1, le=10, description="the engine's strength, 1 (weakest) to 10")]


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewGame(_Request):
    """The rules and the start of a new game."""

    variant: Id = Field("chess", description="'chess', 'dice' (Dice Chess), or a variant of "
                                             "the catalogue (GET /api/catalog: 'capablanca', "
                                             "'gardner', ...), which starts from its own position")
    layout: Id | None = Field(None, description="a layout id (GET /api/catalog); default: "
                                                "the first preset's preferred layout")
    presets: list[Id] = Field(default_factory=list, max_length=40,
                              description="preset ids, checked for composition first")
    config: dict[Id, dict[Id, Any]] = Field(
        default_factory=dict, description="each preset's settings, as its config_schema says")
    rules: str | None = Field(None, description="rule text in the rule language (the size "
                                                "is capped by the server)")
    fen: str | None = Field(None, description="a FEN (a DFEN for Dice Chess) to start from")


class Composition(_Request):
    presets: list[Id] = Field(default_factory=list, max_length=40)


class MoveRequest(_Request):
    move: MoveText = Field(description="UCI (e2e4, e7e8q) or SAN (Nf3, O-O)")


class BotRequest(_Request):
    level: Level = 3


class FenRequest(_Request):
    fen: str = Field(description="a FEN, or a DFEN for Dice Chess")


class RollRequest(_Request):
    faces: list[Annotated[int, Field(ge=1, le=6)]] | None = Field(
        None, min_length=3, max_length=3,
        description="three faces of one's own choosing (1 pawn .. 6 king); default: random")


# ------------------------------------------------------------ responses


class ErrorDetail(BaseModel):
    kind: str
    message: str
    rule: str | None = None
    reason: str | None = None
    move: str | None = None


class ErrorBody(BaseModel):
    error: ErrorDetail


class Piece(BaseModel):
    square: str
    type: str
    color: str
    letter: str
    attrs: dict[str, Any]


class Board(BaseModel):
    files: int
    ranks: int
    file_names: list[str]
    rank_names: list[str]
    topology: str
    pieces: list[Piece]


class LegalMove(BaseModel):
    uci: str
    from_: str = Field(alias="from")
    to: str
    promotion: str | None
    rule: str

    model_config = ConfigDict(populate_by_name=True)


class LastMove(BaseModel):
    uci: str
    from_: str = Field(alias="from")
    to: str

    model_config = ConfigDict(populate_by_name=True)


class Played(BaseModel):
    uci: str
    san: str
    rule: str
    color: str


class Outcome(BaseModel):
    winner: str | None
    reason: str
    rule: str | None
    result: str
    text: str


class DiceTurn(BaseModel):
    color: str
    dice: str
    moves: list[Played]


class Dice(BaseModel):
    left: list[str]
    letters: str
    faces: list[int]
    playable: list[int]
    played: list[str]
    rolled: bool
    turn_complete: bool
    turns: list[DiceTurn]


class Rules(BaseModel):
    variant: str
    layout: str | None
    presets: list[str]
    config: dict[str, Any]
    rules: str | None
    name: str


class GameState(BaseModel):
    id: str
    rules: Rules
    variant: str
    turn: str
    fen: str
    board: Board
    legal: list[LegalMove]
    last_move: LastMove | None
    check: list[str]
    history: list[Played]
    outcome: Outcome | None
    dice: Dice | None


class Explanation(BaseModel):
    move: str
    legal: bool
    rule: str | None
    reason: str
    generated_by: list[str]
    text: str


class Refused(BaseModel):
    from_: str = Field(alias="from")
    uci: str
    rule: str
    reason: str
    text: str

    model_config = ConfigDict(populate_by_name=True)


class SquareInfo(BaseModel):
    square: str
    piece: Piece | None
    moves: list[LegalMove]
    refused: list[Refused]


class Pgn(BaseModel):
    pgn: str


class CompositionAnswer(BaseModel):
    ok: bool
    order: list[str]
    reason: str | None = None


class PresetInfo(BaseModel):
    id: str
    name: str
    category: str
    description: str
    requires: list[str]
    incompatible_with: list[str]
    incompatible_because: dict[str, str | None]
    config_schema: dict[str, Any] | None
    preferred_layout: str | None


class VariantInfo(BaseModel):
    name: str
    description: str
    files: int
    ranks: int


class LayoutInfo(BaseModel):
    id: str
    name: str
    fen: str
    description: str


class LimitsInfo(BaseModel):
    max_sessions: int
    session_ttl: float
    max_body: int
    max_rule_text: int
    max_fen: int
    max_plies: int
    time_limit: float
    max_level: int


class Catalog(BaseModel):
    presets: list[PresetInfo]
    layouts: list[LayoutInfo]
    variants: list[VariantInfo]
    engine: str
    limits: LimitsInfo
