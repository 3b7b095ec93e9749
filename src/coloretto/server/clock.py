"""The hub's clock: how long a person has been away, how long a computer player waits.
``SystemClock`` is the real one; ``ManualClock`` is moved by hand, so tests of timed rules
(hand-over after an absence, a computer player's delay) neither wait nor race.
"""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Protocol


class Clock(Protocol):
    """Monotonic time in seconds, and waiting."""

    def now(self) -> float:
        """Seconds on a monotonic scale (only differences mean something)."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds``."""
        ...


class SystemClock:
    """``time.monotonic`` and ``asyncio.sleep``."""

    def now(self) -> float:
        """See ``Clock.now``."""
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        """See ``Clock.sleep``."""
        await asyncio.sleep(seconds)


class ManualClock:
    """A clock that moves only when told (``advance``); ``sleep`` returns once the clock
    has been advanced past its end. Safe to advance from another thread than the one whose
    event loop sleeps (a test driving a ``TestClient``).

    >>> clock = ManualClock()
    >>> clock.advance(15.0)
    >>> clock.now()
    15.0
    """

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._lock = threading.Lock()
        self._sleepers: list[tuple[float, asyncio.AbstractEventLoop, asyncio.Future[None]]] = []

    def now(self) -> float:
        """See ``Clock.now``."""
        return self._now

    def advance(self, seconds: float) -> None:
        """Move the clock forward and wake the sleepers whose time has come.

        Raises:
            ValueError: ``seconds`` is negative (a monotonic clock never goes back).
        """
        if seconds < 0:
            raise ValueError(f"a clock cannot go back ({seconds} s)")
        with self._lock:
            self._now += seconds
            due = [s for s in self._sleepers if s[0] <= self._now]
            self._sleepers = [s for s in self._sleepers if s[0] > self._now]
        for _, loop, fut in due:
            try:
                loop.call_soon_threadsafe(_wake, fut)
            except RuntimeError:  # that event loop is closed: nobody waits any more
                pass

    @property
    def sleepers(self) -> int:
        """How many ``sleep`` calls are waiting."""
        with self._lock:
            return sum(not fut.done() for _, _, fut in self._sleepers)

    async def sleep(self, seconds: float) -> None:
        """See ``Clock.sleep``: waits until ``advance`` moved the clock ``seconds`` on."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        with self._lock:
            if seconds <= 0:
                fut.set_result(None)
            else:
                self._sleepers.append((self._now + seconds, loop, fut))
        await fut


def _wake(fut: asyncio.Future[None]) -> None:
    if not fut.done():
        fut.set_result(None)
