"""The agent runner: where computer players' decisions and move hints are computed, off
the event loop, as a protocol with one implementation today (``ThreadRunner``).

A runner is given a ``JobOwner`` with every job: the table and the address the work is
for. ``ThreadRunner`` runs jobs first come, first served (in-memory hubs: tests and trials);
``pool.ProcessRunner``, the one ``coloretto serve`` uses, runs them in worker processes,
scheduled fairly across addresses and tables (its jobs must be picklable: a module-level
function and its arguments).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import ParamSpec, Protocol, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


@dataclass(frozen=True)
class JobOwner:
    """Whom a job is for: the table, and the address it is charged to: the person who asked
    for it, or for a computer seat's decision the address that created the table (None when
    not known, e.g. a game resumed after a restart)."""

    table_id: str
    address: str | None = None


class AgentRunner(Protocol):
    """Runs computer players' decisions and hints away from the event loop."""

    async def run(self, owner: JobOwner, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``fn(*args, **kwargs)``, computed elsewhere; its exception is raised here.

        Raises:
            RuntimeError: the runner is closed.
        """
        ...

    async def close(self) -> None:
        """Stop taking jobs and drop the queued ones (running ones finish). Idempotent."""
        ...


class ThreadRunner:
    """``AgentRunner`` on a pool of ``threads`` threads, first come, first served."""

    def __init__(self, threads: int) -> None:
        if threads < 1:
            raise ValueError(f"an agent runner needs at least one thread, not {threads}")
        self._pool = ThreadPoolExecutor(threads, thread_name_prefix="agent")

    async def run(self, owner: JobOwner, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """See ``AgentRunner.run`` (``owner`` does not change the order here)."""
        return await asyncio.get_running_loop().run_in_executor(self._pool, functools.partial(fn, *args, **kwargs))

    async def close(self) -> None:
        """See ``AgentRunner.close``."""
        self._pool.shutdown(wait=False, cancel_futures=True)
