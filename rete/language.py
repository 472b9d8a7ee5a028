"""The rule language: templates, stages, function declarations and productions as text.

The grammar lives in ``rules.lark`` (LALR(1)); parsing builds exactly the
objects of :mod:`rete.model` that the Python builder builds, so a rule written
as text and the same rule written with :class:`~rete.model.Rule` are equal
(``Production.source`` holds the name of the text the rule came from).
Rule text is data: it names functions, and only functions registered in the
session (:meth:`Session.register_function` and the builtins) are ever called.

Example::

    template person (name age (score default 0))
    template friend (a b)
    template greeting (to)
    template adult (name)
    stages setup, main, report
    uses is_adult, greet

    rule "adults" stage main salience 10
      "optional doc string"
    when
      ?p <- person(name: ?n, age: ?a, score: ?s & < 1)
      test is_adult(?a)
      test ?a >= 18
      not person(name: ?n, age: 0)
      not (friend(a: ?n, b: ?f) and person(name: ?f, age: 0))
      exists friend(a: ?n)
      ?fs <- collect friend(a: ?n)
    then
      assert greeting(to: ?n)
      assert logical adult(name: ?n)
      modify ?p (score: add(?s, 1))
      retract ?p
      call greet(?n, "hello")
      halt
    end

Values are integers, floats, double-quoted strings (escapes ``\\" \\\\ \\n \\t \\r
\\uXXXX \\UXXXXXXXX``), bare symbols (``knight``, ``e4``, ``fide.knight-move``:
strings), ``true``/``false``/``nil``, variables ``?x`` and function calls
``fn(args)`` (:class:`~rete.model.Expr`). A slot constraint in a pattern is a
variable or a constant, optionally followed by predicates joined with ``&``:
``op value`` (``> 3``) or ``fn(args)`` meaning ``fn(slot value, *args)``. A
predicate on constants is a :class:`~rete.model.SlotPred` (alpha test); one
that uses variables becomes a :class:`~rete.model.Test` right after the
pattern, on the variable bound to the slot.

``?fs <- collect p(...)`` (:class:`~rete.model.Collect`) matches once while
any fact matches the pattern, as ``exists`` does, and binds ``?fs`` to those
facts (a tuple), read when the rule fires: actions may take it (the builtin
``count(?fs)`` is its size), tests and patterns may not. ``collect`` is a
keyword where a condition starts, like ``not``, ``exists`` and ``test``: an
unbound pattern there cannot name a template ``collect``. Elsewhere keywords
are names (the lexer is contextual): ``template stage (value)`` declares a
template ``stage`` that patterns and asserts may name.

Tests and expressions call functions with values only; ``call`` in an action
passes the firing context first (``fn(ctx, *values)``), so it calls functions
registered for actions (and the builtin ``print``): calling a builtin of values
such as ``add`` or ``>`` there is an :class:`~rete.errors.ActionFunctionError`,
pointed at the call.

This module is the language's API; the work is done below it:
:mod:`rete.parsing` (the parser over ``rules.lark`` and its syntax errors),
:mod:`rete.transformer` (parse tree -> :class:`RuleFile` of model objects),
:mod:`rete.loading` (a rule text into a session) and :mod:`rete.writer` (back
to text).
"""
from __future__ import annotations

from .loading import error_position, load_rules
from .parsing import parse_production, parse_rules
from .transformer import RuleFile
from .writer import COMPARISONS, KEYWORDS, format_production, format_rule_file, format_template

__all__ = ["RuleFile", "parse_rules", "parse_production", "load_rules", "error_position",
           "format_production", "format_template", "format_rule_file", "COMPARISONS", "KEYWORDS"]
