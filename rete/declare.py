"""Templates declared as Python classes.

>>> from rete.declare import template
>>> @template
... class EnPassantTarget:
...     '''A square a pawn may take on en passant.'''
...     square: int
...     pawn: int
...     by: str = "white"
>>> EnPassantTarget.name, EnPassantTarget.slots, dict(EnPassantTarget.defaults)
('en-passant-target', ('square', 'pawn', 'by'), {'by': 'white'})

The class body's annotations are the slots, in order; class attributes give
defaults; the docstring becomes the template's doc. The template's name is
the class name in kebab case unless given: ``@template("ep")``. Slot names
with underscores are declared with dashes (``hit_points`` -> ``hit-points``),
the form the rule language writes; the Python builders accept either.
The decorator returns the :class:`~rete.model.Template`, ready for
``Session.deftemplate``.
"""
from __future__ import annotations

import inspect
import re

from .errors import SlotValueError
from .model import Template

__all__ = ["template", "kebab"]


def kebab(name: str) -> str:
    """``EnPassantTarget`` -> ``en-passant-target``; ``hit_points`` -> ``hit-points``."""
    s = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "-", name)
    return s.replace("_", "-").lower()


def _build(cls, name: str | None) -> Template:
    ann = cls.__dict__.get("__annotations__", {})
    if not ann:
        raise SlotValueError(f"template class {cls.__name__!r} declares no slots "
                             "(annotate them: `name: str`)")
    slots = [kebab(s) for s in ann]
    defaults = {kebab(s): cls.__dict__[s] for s in ann if s in cls.__dict__}
    return Template(name or kebab(cls.__name__), tuple(slots), defaults,
                    inspect.cleandoc(cls.__doc__ or ""))


def template(arg=None):
    """Declare a template from a class (``@template`` or ``@template("name")``)."""
    if isinstance(arg, type):
        return _build(arg, None)
    if arg is not None and not isinstance(arg, str):
        raise TypeError("@template takes a class or a template name")
    return lambda cls: _build(cls, arg)
