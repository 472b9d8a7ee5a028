import pytest

from rete import Session
from rete.declare import kebab, template
from rete.errors import SlotValueError, UnknownSlotError
from rete.model import P, Rule, V, Assert


@template
class Person:
    """Someone at the party."""
    name: str
    hit_points: int = 3


def test_class_becomes_template():
    assert Person.name == "person"
    assert Person.slots == ("name", "hit-points")
    assert dict(Person.defaults) == {"hit-points": 3}
    assert Person.doc == "Someone at the party."


def test_named_and_kebab():
    @template("ep")
    class EnPassantTarget:
        square: int
    assert EnPassantTarget.name == "ep"
    assert kebab("EnPassantTarget") == "en-passant-target"
    assert kebab("HTTPServer") == "http-server"


def test_declared_template_is_checked_at_compile_time():
    s = Session()
    s.deftemplate(Person)
    s.deftemplate(template(type("Greeting", (), {"__annotations__": {"to": str}})))
    s.add(Rule("greet").when(P("person", name=V.n, hit_points=3)).then(Assert("greeting", to=V.n)))
    s.assert_fact("person", name="ada")
    assert s.run() == 1
    assert [f.values["to"] for f in s.facts_of("greeting")] == ["ada"]
    with pytest.raises(UnknownSlotError):
        s.add(Rule("bad").when(P("person", age=3)).then(Assert("greeting", to="x")))


def test_empty_class_is_refused():
    with pytest.raises(SlotValueError):
        template(type("Nothing", (), {}))
    with pytest.raises(TypeError):
        template(3)
