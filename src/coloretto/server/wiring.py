"""Wiring a ``Hub`` to its parts: ``build_hub(settings)`` the real ones (SQL store, Redis bus
when ``settings.redis_url`` is set, a process pool runner, the system clock), ``memory_hub`` the
in-memory ones (no database, no Redis; tests and trials).
"""

from __future__ import annotations

from .bus import Bus, MemoryBroker, MemoryBus, RedisBus
from .clock import Clock, SystemClock
from .config import Settings
from .db import SqlTableStore
from .hub import Hub
from .pool import ProcessRunner
from .runner import AgentRunner, ThreadRunner
from .store import MemoryTableStore, TableStore


def build_hub(settings: Settings) -> Hub:
    """The hub of a ``coloretto serve`` process: ``SqlTableStore(settings.database_url)``,
    ``RedisBus(settings.redis_url)`` (or a ``MemoryBus`` of its own without Redis),
    ``ProcessRunner(settings.agent_processes, settings.decision_seconds)``, ``SystemClock()``. Nothing connects before
    ``Hub.start``."""
    bus: Bus = RedisBus(settings.redis_url) if settings.redis_url else MemoryBus()
    return Hub(settings, store=SqlTableStore(settings.database_url), bus=bus,
               runner=ProcessRunner(settings.agent_processes, settings.decision_seconds), clock=SystemClock())


def memory_hub(
    settings: Settings,
    *,
    store: TableStore | None = None,
    broker: MemoryBroker | None = None,
    runner: AgentRunner | None = None,
    clock: Clock | None = None,
) -> Hub:
    """A hub on in-memory parts (``settings.database_url`` and ``redis_url`` are not used).

    Args:
        store: the table store (default a new ``MemoryTableStore``); give the same one to a
            second hub to play a restart or a second server process.
        broker: connects this hub's ``MemoryBus`` to other hubs' (default: its own).
        runner: default ``ThreadRunner(settings.agent_processes)``.
        clock: default ``SystemClock()``; a ``ManualClock`` makes timed rules testable.
    """
    return Hub(settings, store=store or MemoryTableStore(), bus=MemoryBus(broker),
               runner=runner or ThreadRunner(settings.agent_processes), clock=clock or SystemClock())
