"""Token-bucket rate limits (per IP address for HTTP, per WebSocket connection)."""

from __future__ import annotations

import time


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
