"""The self-play balance lab: many games per variant, on Dask, in SQLite.

``houserules lab run SPEC.toml`` plays the games a spec describes
(:mod:`.spec`) as Dask tasks (:mod:`.runner`, one game each:
:mod:`.games`), stores each finished game in SQLite (:mod:`.store`);
``houserules lab report`` reads them back into statistics and plots
(:mod:`.stats`, :mod:`.report`). The tutorial and reference: docs/lab.md.
"""
from __future__ import annotations

from .spec import LabSpec, LabSpecError, Opening, Variant, load_spec, spec_schema

__all__ = ["LabSpec", "LabSpecError", "Opening", "Variant", "load_spec", "spec_schema"]
