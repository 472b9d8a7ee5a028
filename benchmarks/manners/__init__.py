"""Miss Manners (OPS5 benchmark suite, 1991): generator, validator, one module per engine.

Each engine module exposes ``run(data) -> dict`` with at least ``firings``
(rules fired) and ``seating`` (the ``(name, seat)`` pairs print_results
printed), and does all its work (rule compilation, fact assertion, run)
inside that call so the harness can time it.
"""
