"""The heavy reads of a finished game, built once: its ``coloretto-record/1`` download and
its replay (``GET /api/tables/{id}/record`` and ``/replay``) are serialised on a worker
thread the first time they are asked for (one build however many ask at once) and then
served as the same bytes from a bounded cache (``FinishedCache``), so many downloads of a
long match neither rebuild it nor hold up the event loop.
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .live import LiveTable

KEPT = 64
"""Finished games whose record and replay are kept (least recently asked go first)."""


def _build(t: LiveTable) -> tuple[bytes, bytes]:
    record = json.dumps(t.game.to_record(), indent=1).encode("utf-8")
    replay = json.dumps(t.replay_json(), separators=(",", ":")).encode("utf-8")
    return record, replay


class FinishedCache:
    """``record(t)`` and ``replay(t)``: the serialised record and replay of the finished
    table ``t`` (see the module docstring), at most ``kept`` games at a time."""

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self._done: OrderedDict[str, tuple[bytes, bytes]] = OrderedDict()
        self._building: dict[str, asyncio.Future[tuple[bytes, bytes]]] = {}

    async def _get(self, t: LiveTable) -> tuple[bytes, bytes]:
        hit = self._done.get(t.id)
        if hit is not None:
            self._done.move_to_end(t.id)
            return hit
        fut = self._building.get(t.id)
        if fut is None:
            fut = asyncio.ensure_future(asyncio.to_thread(_build, t))
            self._building[t.id] = fut
            try:
                built = await fut
            finally:
                del self._building[t.id]
            self._done[t.id] = built
            while len(self._done) > self.kept:
                self._done.popitem(last=False)
            return built
        return await asyncio.shield(fut)

    async def record(self, t: LiveTable) -> bytes:
        """The record's JSON text (UTF-8)."""
        return (await self._get(t))[0]

    async def replay(self, t: LiveTable) -> bytes:
        """The replay's JSON text (UTF-8)."""
        return (await self._get(t))[1]
