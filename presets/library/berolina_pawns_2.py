"""Berolina Pawns (Extended): Berolina pawns that may also capture sideways.

Built like ``berolina-pawns`` (see that module; the same four FIDE pawn
productions are replaced, scope-aware), with one more capture vector: a pawn
of a colour in scope captures one square straight forward OR one square
sideways (the adjacent file, same rank).

Config: ``scope`` = ``white`` | ``black`` | ``both`` (default ``both``).

Rulings (ours where marked):

* Pushes, double steps, promotion and the Parton en-passant rule are those of
  ``berolina-pawns``, and so is what it keeps of the pawn productions it
  replaces (with a scope of one side, the other side's, a base rule set's own
  included; with scope ``both``, nothing: refused over a base's own).
* A sideways capture takes an enemy piece on the adjacent square of the same
  rank; it never moves onto an empty square, and never promotes (it stays on
  its rank).
* Sideways captures neither make nor take en-passant targets: en passant is
  by the straight-forward capture only.
* (ours) The sideways squares are attacked: a pawn beside an enemy king gives
  check, and a king may not step beside an enemy Berolina pawn.
* Incompatible with ``berolina-pawns`` (both rewrite the pawn), and with the
  same presets as it.

Fairy-Stockfish has no such variant built in; the differential test
(tests/presets/test_v2_berolina_fsf.py) defines one (``mfFcfeWcsWimfnA`` pawns
on its ``berolina`` base) and compares legal moves and perft(2) along seeded
random playouts. One difference, by design: FSF lets every capture vector of an
en-passant piece take en passant, so its pawn on c6 may take a c7-e5 double
step sideways on d6; sideways en passant is not allowed here. And a
pawn that captured sideways along its home rank has moved: it may not double
step (has-moved decides, as for every pawn here); FSF goes by the
rank and lets it. The test removes exactly those moves from FSF's list; nothing
else differs.
"""
from presets.base import PresetMeta, ScopeConfig
from .berolina_pawns import META as BEROLINA, install_berolina

# incompatible with what berolina-pawns is, for the same reasons (both rewrite
# the pawn as it does): only the capture's reason says more
_AS_BEROLINA = [p for p in BEROLINA.incompatible_with if p != "berolina-pawns-2"]

META = PresetMeta(
    id="berolina-pawns-2", name="Berolina Pawns (Extended)", category="Movement Modifier",
    description="Berolina pawns (diagonal pushes, straight-forward captures, Parton en "
                "passant) that may also capture sideways.",
    mode="override",
    affects=["fide.pawn-single-push", "fide.pawn-double-push", "fide.pawn-capture",
             "fide.en-passant"],
    incompatible_with=["berolina-pawns", *_AS_BEROLINA],
    incompatible_because={
        **{p: BEROLINA.incompatible_because[p] for p in _AS_BEROLINA},
        "knight-immunity": (
            "both rewrite the pawn's capture (knight-immunity's veto on a bishop "
            "promotion that takes a knight): a Berolina pawn captures straight "
            "forward and sideways"),
    },
    scope_aware=True, config_model=ScopeConfig,
    gallery="v2",
)


def apply(rules, config) -> None:
    install_berolina(rules, config, sideways=True, tag="berolina-pawns-2")
