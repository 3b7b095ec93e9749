"""HEAD requests: answered as GET without the body (RFC 9110 §9.3.2).

Uptime monitors and ``curl -I`` ask with HEAD; every address that answers GET (pages, the
API's reads, static files) answers HEAD with the same status and headers, and addresses
without GET still answer 405.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class HeadAsGetMiddleware:
    """ASGI middleware: a HEAD request runs as GET, and the body of its answer is dropped
    (``Content-Length`` keeps the length GET would send)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def send_headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, send_headers_only)
