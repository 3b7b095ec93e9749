"""The heavy reads of a finished game, built once: its ``coloretto-record/1`` download and
its replay (``GET /api/tables/{id}/record`` and ``/replay``) are serialised on a worker
thread the first time they are asked for (one build however many ask at once) and then
served as the same bytes from a bounded cache (``FinishedCache``), so many downloads of a
long match neither rebuild it nor hold up the event loop. Each text is also gzip-compressed
once in that build (a replay shrinks about twenty-fold), and clients that accept gzip, every
browser among them, are sent the compressed bytes: the event loop then writes a twentieth of
the bytes per download.
"""

from __future__ import annotations

import asyncio
import gzip
import json
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..engine.record import dumps_record

if TYPE_CHECKING:
    from .live import LiveTable

KEPT = 64
"""Finished games whose record and replay are kept (least recently asked go first)."""


GZIP_LEVEL = 6
"""zlib's default trade of size against time; done once per finished game."""


@dataclass(frozen=True)
class Download:
    """One JSON text (UTF-8 bytes) and the same bytes gzip-compressed (RFC 1952)."""

    plain: bytes
    gzipped: bytes

    @classmethod
    def of(cls, text: str) -> Download:
        """The JSON ``text`` as UTF-8 bytes, and compressed."""
        plain = text.encode("utf-8")
        return cls(plain, gzip.compress(plain, GZIP_LEVEL, mtime=0))


def _build(t: LiveTable) -> tuple[Download, Download]:
    """The record, written as every record is (``engine.record.dumps_record``), and the
    replay (compact JSON)."""
    record = Download.of(dumps_record(t.game.to_record()))
    replay = Download.of(json.dumps(t.replay_json(), separators=(",", ":")))
    return record, replay


class FinishedCache:
    """``record(t)`` and ``replay(t)``: the serialised record and replay of the finished
    table ``t`` (see the module docstring), at most ``kept`` games at a time."""

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self._done: OrderedDict[str, tuple[Download, Download]] = OrderedDict()
        self._building: dict[str, asyncio.Future[tuple[Download, Download]]] = {}

    async def _get(self, t: LiveTable) -> tuple[Download, Download]:
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

    async def record(self, t: LiveTable) -> Download:
        """The record's JSON text."""
        return (await self._get(t))[0]

    async def replay(self, t: LiveTable) -> Download:
        """The replay's JSON text."""
        return (await self._get(t))[1]
