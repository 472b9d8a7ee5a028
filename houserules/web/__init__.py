"""The web playground: play, explain and compose variants on a board in a browser.

``houserules serve`` runs :func:`create_app` with uvicorn on 127.0.0.1. The
page (``static/``, shipped inside the package) draws the board as SVG from the
position and uses nothing but the JSON API (:mod:`houserules.web.app`), whose
OpenAPI schema is served at ``/openapi.json``. The server's bounds are in
:mod:`houserules.web.limits`.
"""
from __future__ import annotations

__all__ = ["create_app", "Limits"]


def __getattr__(name: str):
    # (the web framework is the 'web' extra: importing the package needs none)
    if name == "create_app":
        from .app import create_app
        return create_app
    if name == "Limits":
        from .limits import Limits
        return Limits
    raise AttributeError(name)
