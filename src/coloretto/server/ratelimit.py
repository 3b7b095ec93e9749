"""Token-bucket rate limits (per IP address for HTTP, per WebSocket connection) and the
HTTP middleware that applies them with the request body cap (``LimitsMiddleware``)."""

from __future__ import annotations

import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .config import Settings
from .errors import ErrorCode, Problem, error_response

MAX_BODY = 16 * 1024
"""Largest HTTP request body in bytes (larger: 413 ``too_large``)."""


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


class LimitsMiddleware:
    """HTTP only: per-IP token bucket (429 ``rate_limited`` with ``Retry-After``) and a
    ``MAX_BODY`` body cap (413 ``too_large``). WebSockets are limited in ``ws``."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.limits = PerKey(settings.ip_rate, settings.ip_burst)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        ip = (scope.get("client") or ("?", 0))[0]
        bucket = self.limits.bucket(ip)
        if not bucket.allow():
            retry = str(max(1, round(bucket.retry_after())))
            resp = error_response(ErrorCode.RATE_LIMITED, "too many requests from your address; slow down",
                                  headers={"Retry-After": retry})
            await resp(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            await error_response(ErrorCode.TOO_LARGE, f"request body over {MAX_BODY} bytes")(scope, receive, send)
            return
        seen = 0

        async def limited_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > MAX_BODY:
                    raise Problem(ErrorCode.TOO_LARGE, f"request body over {MAX_BODY} bytes")
            return message

        await self.app(scope, limited_receive, send)
