"""The ``checks:W+B`` token of examples/rulesets/three_check.py reads only what
it writes: any other text is a FenError (``str.isdigit`` let '²' through to
``int``, a bare ValueError, and read '٣' as 3)."""
from __future__ import annotations

from pathlib import Path

import pytest

from chess_rules.errors import FenError
from chess_rules.game import Game
from chess_rules.ruleset_spec import load_ruleset_spec

SPEC = str(Path(__file__).resolve().parents[2] / "examples" / "rulesets" / "three_check.py")
FEN = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"


@pytest.fixture(scope="module")
def rs():
    return load_ruleset_spec(SPEC + ":build")


@pytest.mark.parametrize("value", ["\u00b2+1", "\u0663+1", "9" * 5000 + "+1", "4+0", "-1+0",
                                   "2+", "+1", "2-1", "02+1"])
def test_a_count_not_written_as_the_token_writes_it_is_refused(rs, value):
    with pytest.raises(FenError, match="should read W"):
        Game(f"{FEN} checks:{value}", ruleset=rs)


@pytest.mark.parametrize("value", ["0+1", "2+1", "3+0"])
def test_counts_read_back(rs, value):
    g = Game(f"{FEN} checks:{value}", ruleset=rs)
    assert g.fen().endswith(f" checks:{value}")
