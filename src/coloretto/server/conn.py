"""One client connection's outbox: what the hub and the socket handlers send to it.

Messages are serialised when queued (so later changes to the table do not leak into them)
and written by the connection's writer task (``ws.TableSockets``), so a slow client never
delays the others; a client that falls ``MAX_QUEUE`` messages behind is disconnected.
"""

from __future__ import annotations

import asyncio
import json
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

    def __init__(self, ip: str) -> None:
        self.ip = ip
        self.table: LiveTable | None = None
        self.seat: int | None = None
        self.token_hash: str | None = None
        self.log_sent = 0
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.greeted = False

    def send(self, message: dict[str, Any]) -> None:
        """Queue ``message`` (serialised now)."""
        if self.queue.qsize() >= self.MAX_QUEUE:
            self.queue.put_nowait(None)  # the writer closes the connection
            return
        self.queue.put_nowait(json.dumps(message, separators=(",", ":")))

    def send_state(self, table: LiveTable, full: bool = False, ack: Any = None) -> None:
        """Queue a ``state`` with the log entries this connection has not had yet (all of
        them when ``full``); ``ack`` is the ``id`` of the message it answers."""
        start = 0 if full else min(self.log_sent, table.version)
        if self.queue.qsize() >= self.MAX_QUEUE:
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(table.state_text(self.seat, start, ack))
        self.log_sent = table.version

    def close(self) -> None:
        """Ask the writer to close the connection."""
        self.queue.put_nowait(None)
