"""The presets, one module each: its metadata (``META``) on top and the
productions it adds, removes or replaces (``apply``) below. The catalogue
(:data:`presets.catalog.PRESET_MODULES`) lists them; the framework they are
written with is the rest of :mod:`presets` (base, royalty, pieces, layouts)."""
