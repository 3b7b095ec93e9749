"""The hub's clock: how long a person has been away, how long a computer player waits.
``SystemClock`` is the real one; ``ManualClock`` is moved by hand (tests of timed rules run
without waiting).
"""

from __future__ import annotations

import asyncio
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
    """A clock that moves only when told: ``advance(seconds)``, or ``sleep``, which moves it
    forward by the time slept and returns at once (virtual time).

    >>> clock = ManualClock()
    >>> clock.advance(15.0); clock.now()
    15.0
    """

    def __init__(self, start: float = 0.0) -> None:
        self._now = start

    def now(self) -> float:
        """See ``Clock.now``."""
        return self._now

    def advance(self, seconds: float) -> None:
        """Move the clock forward.

        Raises:
            ValueError: ``seconds`` is negative (a monotonic clock never goes back).
        """
        if seconds < 0:
            raise ValueError(f"a clock cannot go back ({seconds} s)")
        self._now += seconds

    async def sleep(self, seconds: float) -> None:
        """Move the clock forward by ``seconds`` and let other tasks run once."""
        self.advance(max(0.0, seconds))
        await asyncio.sleep(0)
