"""The HTTP protocol of ``coloretto serve`` (``GuardedH11Protocol``, uvicorn's h11 protocol
with a deadline for request headers): a client that opens a connection and then sends its
request line and headers slowly, or never, is disconnected after ``HEADER_TIMEOUT`` seconds,
so half-sent requests cannot pile up until the process runs out of file descriptors. (Once
the headers are in, ``ratelimit.LimitsMiddleware`` gives the body ``BODY_TIMEOUT`` seconds.)
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_TIMEOUT = 10.0
"""Seconds a connection may take to send a request's line and headers."""


class GuardedH11Protocol(H11Protocol):
    """``H11Protocol`` that closes a connection whose request headers are not complete
    ``header_timeout`` seconds after its first byte (or after it opened)."""

    header_timeout = HEADER_TIMEOUT

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_timer: asyncio.TimerHandle | None = None
        self._upgraded = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Start the deadline for the first request's headers."""
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        """Feed the bytes; a request now running stops the deadline, a connection waiting
        for (the rest of) new headers gets one."""
        super().data_received(data)
        if self._upgraded:
            # the bytes held a WebSocket upgrade: the connection is no longer HTTP's
            return
        if self.cycle is not None and not self.cycle.response_complete:
            self._disarm()
        elif self._header_timer is None and not self.transport.is_closing():
            self._arm()

    def handle_websocket_upgrade(self, event: Any) -> None:
        """The WebSocket protocol takes the connection over (it has its own limits)."""
        self._upgraded = True
        self._disarm()
        super().handle_websocket_upgrade(event)

    def connection_lost(self, exc: Exception | None) -> None:
        """Stop the deadline."""
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        if self._upgraded:
            return
        self._header_timer = self.loop.call_later(self.header_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _too_slow(self) -> None:
        self._header_timer = None
        waiting = self.cycle is None or self.cycle.response_complete
        if waiting and not self.transport.is_closing():
            self.transport.close()
