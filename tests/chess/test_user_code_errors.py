"""An error raised in a user's own Python (a rule set's module, its build
function, a function an action calls) says where in that code it was raised:
the file and the line, not a frame of the engine's."""
from __future__ import annotations

import pytest

from chess_rules.errors import user_code_location
from chess_rules.game import Game
from chess_rules.ruleset_spec import RuleSetSpecError, load_ruleset_spec


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_build_function_that_raises_is_named_by_file_and_line(tmp_path):
    path = _write(tmp_path, "house.py", "from chess_rules.fide import fide_rules\n\n\n"
                                        "def build():\n    rs = fide_rules()\n"
                                        "    return rs.nothing\n")
    with pytest.raises(RuleSetSpecError) as e:
        load_ruleset_spec(f"{path}:build")
    assert str(e.value).endswith(f"(at {path}:6)")
    assert "AttributeError" in str(e.value)


def test_a_module_that_does_not_load_is_named_by_file_and_line(tmp_path):
    path = _write(tmp_path, "broken.py", "x = 1\ny = x +\n")
    with pytest.raises(RuleSetSpecError, match=rf"SyntaxError: .*\(at {path}:2\)$"):
        load_ruleset_spec(f"{path}:build")
    path = _write(tmp_path, "raising.py", "import math\n\nmath.sqrt(-1)\n")
    with pytest.raises(RuleSetSpecError, match=rf"ValueError: .*\(at {path}:3\)$"):
        load_ruleset_spec(f"{path}:build")


def test_an_action_of_a_users_rule_set_is_located_in_their_function(tmp_path):
    path = _write(tmp_path, "actions.py", """\
from chess_rules.fide import fide_rules
from rete import Call, P, Rule, V


def count(ctx, move):
    return {}["no such key"]


def build():
    rs = fide_rules()
    rs.function("house.count", count)
    rs.add(Rule("house.count", stage="post-move").when(P("move").as_("m"))
           .then(Call("house.count", V.m)))
    return rs
""")
    game = Game(ruleset=load_ruleset_spec(f"{path}:build"))
    with pytest.raises(Exception) as e:
        game.push("e2e4")
    assert user_code_location(e.value) == f"{path}:6"
    assert game.move_stack == []


def test_an_error_of_the_engine_alone_has_no_user_location():
    with pytest.raises(Exception) as e:
        Game("not a fen")
    assert user_code_location(e.value) is None
