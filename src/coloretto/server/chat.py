"""The table chat (docs/web-api.md, ``chat``): short messages from the seated players to
everyone at the table, kept in memory (the newest ``HISTORY``), sent to connections of this
server process. Spectators read the chat but do not write in it: a table's talk is its
players' (and a spectator is anyone with the link).

Text is sent as it was typed (plain text, never markup): the browser client puts it on the
page as text, so ``<script>`` in a message stays visible characters.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

from .errors import ErrorCode, Problem

if TYPE_CHECKING:
    from .clock import Clock
    from .conn import Conn
    from .live import LiveTable

MAX_CHARS = 200
"""Longest message, in characters (after surrounding spaces are removed)."""

HISTORY = 50
"""Messages kept per table and sent to a connection that says ``hello``."""

RATE_COUNT = 5
RATE_WINDOW = 10.0
"""A seat may send at most ``RATE_COUNT`` messages in any ``RATE_WINDOW`` seconds."""


def check_text(text: Any) -> str:
    """A chat message: 1 to ``MAX_CHARS`` characters, surrounding spaces removed, no control
    characters but line breaks (which become spaces).

    Raises:
        Problem: ``bad_message``.
    """
    if not isinstance(text, str):
        raise Problem(ErrorCode.BAD_MESSAGE, "text must be a string")
    clean = " ".join(text.replace("\r", "\n").split("\n")).strip()
    if not clean:
        raise Problem(ErrorCode.BAD_MESSAGE, "a chat message cannot be empty")
    if len(clean) > MAX_CHARS:
        raise Problem(ErrorCode.BAD_MESSAGE, f"a chat message has at most {MAX_CHARS} characters, not {len(clean)}")
    if not clean.isprintable():
        raise Problem(ErrorCode.BAD_MESSAGE, "a chat message cannot hold control characters")
    return clean


class ChatRoom:
    """One table's chat: its newest messages and when each seat last wrote.

    Attributes:
        messages: the newest ``HISTORY`` messages (``chat`` messages of docs/web-api.md).
        count: messages posted so far (the next one's ``n``).
    """

    def __init__(self) -> None:
        self.messages: deque[dict[str, Any]] = deque(maxlen=HISTORY)
        self.count = 0
        self._sent: dict[int, deque[float]] = {}

    def allow(self, seat: int, now: float) -> bool:
        """Whether ``seat`` may write now (``RATE_COUNT`` per ``RATE_WINDOW``); counts it."""
        times = self._sent.setdefault(seat, deque())
        while times and now - times[0] >= RATE_WINDOW:
            times.popleft()
        if len(times) >= RATE_COUNT:
            return False
        times.append(now)
        return True

    def history(self) -> dict[str, Any]:
        """The ``chat_history`` message."""
        return {"type": "chat_history", "messages": list(self.messages)}


def post(t: LiveTable, conn: Conn, text: Any, clock: Clock) -> dict[str, Any]:
    """Post ``text`` from ``conn``'s seat to everyone at ``t`` (this process's connections)
    and return the ``chat`` message.

    Raises:
        Problem: ``not_seated`` (a spectator), ``bad_message`` (``check_text``),
            ``rate_limited`` (more than ``RATE_COUNT`` in ``RATE_WINDOW`` seconds).
    """
    if conn.seat is None:
        raise Problem(ErrorCode.NOT_SEATED, "spectators read the chat but cannot write in it")
    text = check_text(text)
    room: ChatRoom = t.chat
    if not room.allow(conn.seat, clock.now()):
        raise Problem(ErrorCode.RATE_LIMITED, f"at most {RATE_COUNT} chat messages in {RATE_WINDOW:g} s")
    seat = t.data.seats[conn.seat]
    msg = {"type": "chat", "n": room.count, "seat": conn.seat, "name": seat.name, "text": text}
    room.count += 1
    room.messages.append(msg)
    for c in t.conns:
        c.send(msg)
    return msg
