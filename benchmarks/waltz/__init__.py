"""Waltz line labelling (OPS5 benchmark suite): generator, validator, one module per engine.

Each engine module exposes ``run(data) -> dict`` with ``firings``, ``edges``
(sorted ``(p1, p2, label)`` of the final edge facts), ``junctions`` (sorted
``(base_point, jtype)``) and ``stage`` (the final stage values).
"""
