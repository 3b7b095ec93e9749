"""One client connection's outbox: what the hub and the socket handlers send to it.

Messages are serialised when queued (so later changes to the table do not leak into them)
and written by the connection's writer task (``ws.TableSockets``), so a slow client never
delays the others; a client that falls ``MAX_QUEUE`` messages or ``MAX_QUEUE_BYTES`` bytes
behind (it does not read) is disconnected: its outbox is emptied and ``on_overflow`` closes
the connection.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .live import LiveTable


class Conn:
    """One WebSocket connection: its address, table, seat, what it has been sent, and its
    outbox (``queue``; None in it tells the writer to close the connection).

    Attributes:
        ip: the client's address.
        table: the table it said ``hello`` at (None before).
        seat: its seat (None: a spectator, or before ``hello``).
        token_hash: hash of its seat token (None: no token).
        log_sent: log entries of ``table`` it has been sent.
        greeted: it said ``hello``.
    """

    MAX_QUEUE = 1000
    MAX_QUEUE_BYTES = 2 * 1024 * 1024

    def __init__(self, ip: str) -> None:
        self.ip = ip
        self.table: LiveTable | None = None
        self.seat: int | None = None
        self.token_hash: str | None = None
        self.log_sent = 0
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.greeted = False
        self.queued_bytes = 0
        self.overflowed = False
        self.on_overflow: Callable[[], None] | None = None

    def send(self, message: dict[str, Any]) -> None:
        """Queue ``message`` (serialised now)."""
        self._put(json.dumps(message, separators=(",", ":")))

    def _put(self, text: str) -> None:
        if self.overflowed:
            return
        if self.queue.qsize() >= self.MAX_QUEUE or self.queued_bytes + len(text) > self.MAX_QUEUE_BYTES:
            self.overflowed = True
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queued_bytes = 0
            self.queue.put_nowait(None)
            if self.on_overflow is not None:
                self.on_overflow()
            return
        self.queued_bytes += len(text)
        self.queue.put_nowait(text)

    def sent(self, text: str) -> None:
        """The writer wrote ``text`` (it no longer counts against the outbox's bound)."""
        self.queued_bytes = max(0, self.queued_bytes - len(text))

    def send_state(self, table: LiveTable, full: bool = False, ack: Any = None) -> None:
        """Queue a ``state`` with the log entries this connection has not had yet (all of
        them when ``full``); ``ack`` is the ``id`` of the message it answers."""
        start = 0 if full else min(self.log_sent, table.version)
        self._put(table.state_text(self.seat, start, ack))
        self.log_sent = table.version

    def close(self) -> None:
        """Ask the writer to close the connection."""
        self.queue.put_nowait(None)
