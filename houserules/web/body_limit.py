"""Request bodies over a size are refused (413) before the app reads them."""
from __future__ import annotations

import json


class BodyLimit:
    """ASGI middleware: a body longer than ``max_body`` bytes gets a 413, whether
    its length is declared (``Content-Length``) or found while it is read.

    The body (at most ``max_body`` bytes) is read here and handed to the app
    whole: the app never starts on a request it would have to cut short."""

    def __init__(self, app, max_body: int):
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = -1
                if declared < 0:
                    await _refuse(send, 400, "bad-request",
                                  "the Content-Length header is not a length")
                    return
                if declared > self.max_body:
                    await self._too_large(send)
                    return
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return          # the client went away
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                await self._too_large(send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        handed = False

        async def replay():
            nonlocal handed
            if not handed:
                handed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _too_large(self, send) -> None:
        await _refuse(send, 413, "too-large", f"the request body is larger than the "
                                              f"server's limit of {self.max_body} bytes")


async def _refuse(send, status: int, kind: str, message: str) -> None:
    body = json.dumps({"error": {"kind": kind, "message": message}}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
