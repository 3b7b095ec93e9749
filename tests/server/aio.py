"""Running a coroutine from a synchronous test."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(coro)`` on a thread of its own: the browser tests' Playwright keeps an
    event loop running on the main thread for the rest of the session, and ``asyncio.run``
    refuses to start inside a running loop."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()
