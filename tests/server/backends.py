"""The hub's parts for in-process server tests: the real ones (a SQL database, optionally
Redis) or the in-memory ones, behind one interface, so a test body runs unchanged on both.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from coloretto.server.app import create_app
from coloretto.server.bus import MemoryBroker
from coloretto.server.clock import Clock
from coloretto.server.config import Settings
from coloretto.server.hub import Hub
from coloretto.server.store import MemoryTableStore
from coloretto.server.wiring import build_hub, memory_hub

FAST = {"computer_delay": 0, "handover_after": 0, "ip_rate": 10_000, "ip_burst": 10_000,
        "ws_rate": 10_000, "ws_burst": 10_000, "max_computer_tables": 10_000, "max_open_tables": 10_000,
        "sync_rate": 10_000}
"""Settings of the API tests: computers act at once, limits out of the way (the limits have
their own tests)."""


class Backend:
    """Where hubs made by ``app`` keep their tables: ``kind`` ``sqlite`` or ``postgresql``
    (the database at ``db_url``; Redis too when ``redis_url`` is given) or ``memory`` (one
    ``MemoryTableStore`` and one ``MemoryBroker`` shared by every hub made here, so a second
    app is a restarted server or a second server process)."""

    def __init__(self, kind: str, db_url: str | None = None, redis_url: str | None = None) -> None:
        self.kind = kind
        self.db_url = db_url
        self.redis_url = redis_url
        self.store = MemoryTableStore() if kind == "memory" else None
        self.broker = MemoryBroker() if kind == "memory" else None

    def __repr__(self) -> str:
        return f"Backend({self.kind})"

    def app(self, clock: Clock | None = None, **kw: Any) -> FastAPI:
        """An application on this backend; ``kw`` are ``Settings`` fields over ``FAST``.
        Without ``clock`` a SQL backend is wired as ``coloretto serve`` wires it
        (``create_app(settings)``); with one, its hub gets the same real parts and that clock."""
        opts: dict[str, Any] = {**FAST, **kw}
        if self.store is not None:
            return create_app(hub=memory_hub(Settings(**opts), store=self.store, broker=self.broker, clock=clock))
        settings = Settings(database_url=self.db_url or "", redis_url=self.redis_url, **opts)
        if clock is None:
            return create_app(settings)
        real = build_hub(settings)
        return create_app(hub=Hub(settings, store=real.store, bus=real.bus, runner=real.runner, clock=clock))

    def client(self, clock: Clock | None = None, **kw: Any) -> TestClient:
        """A ``TestClient`` of ``app(clock, **kw)`` (use it in a ``with`` block)."""
        return TestClient(self.app(clock, **kw))
