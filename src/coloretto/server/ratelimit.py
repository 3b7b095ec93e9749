"""Token-bucket rate limits (per IP address for HTTP, per WebSocket connection) and the
HTTP middleware that applies them with the request body cap (``LimitsMiddleware``)."""

from __future__ import annotations

import asyncio
import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .config import Settings
from .errors import ErrorCode, error_response
from .jsonin import parse_json
from .score_api import SCORE_PATH, SCORE_STATUS

MAX_BODY = 16 * 1024
"""Largest HTTP request body in bytes (larger: 413 ``too_large``)."""
BODY_TIMEOUT = 10.0
"""Seconds a request's body may take to arrive once its headers are in (slower: 408
``request_timeout``, and the connection is closed)."""


class TokenBucket:
    """``rate`` tokens per second up to ``burst``; each request takes one.

    ``allow()`` returns False (and takes nothing) when the bucket is empty.
    """

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def allow(self, cost: float = 1.0) -> bool:
        """Take ``cost`` tokens if there are enough."""
        t = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (t - self.stamp) * self.rate)
        self.stamp = t
        if self.tokens >= cost:
            self.tokens -= cost
            return True
        return False

    def retry_after(self) -> float:
        """Seconds until one token is available."""
        return max(0.0, (1.0 - self.tokens) / self.rate) if self.rate > 0 else 60.0


class PerKey:
    """One bucket per key (IP address), forgetting idle keys."""

    def __init__(self, rate: float, burst: float, max_keys: int = 100_000) -> None:
        self.rate, self.burst, self.max_keys = rate, burst, max_keys
        self.buckets: dict[str, TokenBucket] = {}

    def bucket(self, key: str) -> TokenBucket:
        """The bucket of ``key``."""
        b = self.buckets.get(key)
        if b is None:
            if len(self.buckets) >= self.max_keys:
                full = [k for k, v in self.buckets.items() if v.tokens >= v.burst]
                for k in full or list(self.buckets)[: self.max_keys // 2]:
                    del self.buckets[k]
            b = self.buckets[key] = TokenBucket(self.rate, self.burst)
        return b


CSP = (
    b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    b"connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    b"frame-ancestors 'none'"
)
"""The Content-Security-Policy of every response."""

SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
)
"""Headers of every HTTP response: the browser client loads its scripts, styles, language
files and WebSocket from the server itself only, and no other site may frame its pages."""


class LimitsMiddleware:
    """HTTP only: per-IP token bucket (429 ``rate_limited`` with ``Retry-After``), a
    ``MAX_BODY`` body cap (413 ``too_large``, also for chunked bodies, which are read here
    before the application sees them), ``BODY_TIMEOUT`` for the body (408
    ``request_timeout``), JSON bodies checked by ``jsonin.parse_json`` (400 ``bad_request``:
    too deep, a lone surrogate, not JSON) and ``SECURITY_HEADERS`` on every response.
    WebSockets are limited in ``ws``."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.limits = PerKey(settings.ip_rate, settings.ip_burst)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in SECURITY_HEADERS if k not in names]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        ip = (scope.get("client") or ("?", 0))[0]
        bucket = self.limits.bucket(ip)
        if not bucket.allow():
            retry = str(max(1, round(bucket.retry_after())))
            resp = error_response(ErrorCode.RATE_LIMITED, "too many requests from your address; slow down",
                                  headers={"Retry-After": retry})
            await resp(scope, receive, send_secured)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            await error_response(ErrorCode.TOO_LARGE, f"request body over {MAX_BODY} bytes")(scope, receive, send_secured)
            return
        body, more, disconnected = b"", True, False
        try:
            async with asyncio.timeout(BODY_TIMEOUT):
                while more:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        disconnected = True
                        break
                    body += message.get("body", b"")
                    more = bool(message.get("more_body"))
                    if len(body) > MAX_BODY:
                        await error_response(ErrorCode.TOO_LARGE, f"request body over {MAX_BODY} bytes")(
                            scope, receive, send_secured)
                        return
        except TimeoutError:
            await error_response(ErrorCode.REQUEST_TIMEOUT, f"the request body took over {BODY_TIMEOUT:g} s",
                                 headers={"Connection": "close"})(scope, receive, send_secured)
            return
        if body and b"json" in headers.get(b"content-type", b"").lower():
            try:
                parse_json(body)
            except ValueError as exc:
                # the score calculator answers every bad input with its own status (422)
                status = SCORE_STATUS if scope.get("path") == SCORE_PATH else None
                await error_response(ErrorCode.BAD_REQUEST, f"body: {exc}", status)(scope, receive, send_secured)
                return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed and not disconnected:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send_secured)
