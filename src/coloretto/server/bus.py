"""The message bus between server processes: ``Notice`` ("table T changed"), the ``Bus``
protocol, ``RedisBus`` (Redis pub/sub, for several processes) and ``MemoryBus`` (hubs of one
process; with a private broker it is the bus of a single process).

The store is the truth; a notice only tells the other hubs to look (they read new actions
and seats from the store and push them to their own connections), so a lost notice delays
an update and never corrupts one. Every hub also hears its own notices; it ignores them.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, cast, get_args

from .._optional import require

log = logging.getLogger("coloretto.server")

CHANNEL = "coloretto:tables"
"""The Redis pub/sub channel of ``RedisBus``."""

NoticeKind = Literal["action", "seats", "presence"]
"""``action``: actions were accepted (``version`` is the new one); ``seats``: a seat was
taken, handed over or reclaimed, or a rematch recorded; ``presence``: the sender's
connection counts per seat changed (``counts``)."""


@dataclass(frozen=True)
class Notice:
    """Table ``table_id`` changed at server process ``process``.

    On the wire (JSON): ``{"t": table_id, "k": kind, "p": process, "v": version,
    "c": {"seat": count}}``, ``v`` and ``c`` only when set.

    >>> Notice.from_json(Notice("Ab3", "action", "A", version=4).to_json())
    Notice(table_id='Ab3', kind='action', process='A', version=4, counts=None)
    """

    table_id: str
    kind: NoticeKind
    process: str
    version: int | None = None
    counts: dict[int, int] | None = field(default=None)

    def to_json(self) -> str:
        """The wire form."""
        msg: dict[str, Any] = {"t": self.table_id, "k": self.kind, "p": self.process}
        if self.version is not None:
            msg["v"] = self.version
        if self.counts is not None:
            msg["c"] = {str(k): v for k, v in self.counts.items()}
        return json.dumps(msg)

    @classmethod
    def from_json(cls, text: str | bytes) -> Notice:
        """Read the wire form.

        Raises:
            ValueError: not a notice (bad JSON, unknown kind, mistyped field).
        """
        msg = json.loads(text)
        fields = msg if isinstance(msg, dict) else {}
        table_id, kind, process, version = fields.get("t"), fields.get("k"), fields.get("p"), fields.get("v")
        well_formed = (
            isinstance(table_id, str) and isinstance(process, str) and kind in get_args(NoticeKind)
            and (version is None or type(version) is int)
        )
        if not well_formed:
            raise ValueError(f"not a notice: {text!r}")
        raw = fields.get("c")
        try:
            counts = {int(k): int(v) for k, v in raw.items()} if isinstance(raw, dict) else None
        except TypeError:
            raise ValueError(f"notice counts must be integers: {text!r}") from None
        return cls(str(table_id), cast(NoticeKind, kind), str(process), version, counts)


NoticeHandler = Callable[[Notice], Awaitable[None]]
"""What a hub gives ``Bus.start``: called once per notice, one at a time, in order."""


class Bus(Protocol):
    """Notices between the hubs that serve one store."""

    @property
    def kind(self) -> str:
        """``redis`` or ``memory`` (``/api/health`` reports whether it is Redis)."""
        ...

    async def start(self, handler: NoticeHandler) -> None:
        """Subscribe; returns once notices published from now on reach ``handler``."""
        ...

    async def publish(self, notice: Notice) -> None:
        """Send ``notice`` to every subscribed hub, this one included. Never raises: a
        notice that cannot be sent is logged and dropped (the store stays the truth)."""
        ...

    async def close(self) -> None:
        """Unsubscribe and release connections. Idempotent."""
        ...


async def _deliver(queue: asyncio.Queue[Notice], handler: NoticeHandler) -> None:
    while True:
        notice = await queue.get()
        try:
            await handler(notice)
        except Exception:
            log.exception("handling a notice failed: %s", notice)


class MemoryBroker:
    """Connects the ``MemoryBus`` objects built on it, across threads and event loops."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: list[tuple[asyncio.AbstractEventLoop, asyncio.Queue[Notice]]] = []

    def subscribe(self, loop: asyncio.AbstractEventLoop, queue: asyncio.Queue[Notice]) -> None:
        """Deliver every notice to ``queue`` (on ``loop``) from now on."""
        with self._lock:
            self._subscribers.append((loop, queue))

    def unsubscribe(self, queue: asyncio.Queue[Notice]) -> None:
        """Stop delivering to ``queue``."""
        with self._lock:
            self._subscribers = [s for s in self._subscribers if s[1] is not queue]

    def publish(self, notice: Notice) -> None:
        """Queue ``notice`` for every subscriber, in the order of the calls."""
        with self._lock:
            subscribers = list(self._subscribers)
        for loop, queue in subscribers:
            try:
                loop.call_soon_threadsafe(queue.put_nowait, notice)
            except RuntimeError:  # that hub's event loop is closed: it is gone
                self.unsubscribe(queue)


class MemoryBus:
    """``Bus`` within one process. Hubs given buses on the same ``MemoryBroker`` hear each
    other; a bus made without a broker has its own (the bus of a lone server process)."""

    def __init__(self, broker: MemoryBroker | None = None) -> None:
        self.broker = broker or MemoryBroker()
        self._queue: asyncio.Queue[Notice] | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def kind(self) -> str:
        """Always ``memory``."""
        return "memory"

    async def start(self, handler: NoticeHandler) -> None:
        """See ``Bus.start``."""
        self._queue = asyncio.Queue()
        self.broker.subscribe(asyncio.get_running_loop(), self._queue)
        self._task = asyncio.create_task(_deliver(self._queue, handler))

    async def publish(self, notice: Notice) -> None:
        """See ``Bus.publish``."""
        self.broker.publish(notice)

    async def close(self) -> None:
        """See ``Bus.close``."""
        if self._queue is not None:
            self.broker.unsubscribe(self._queue)
        if self._task is not None:
            self._task.cancel()
            self._task = None


class RedisBus:
    """``Bus`` over Redis pub/sub (channel ``CHANNEL``), for several server processes. A
    lost subscription is re-established every second until it works again."""

    def __init__(self, url: str, channel: str = CHANNEL) -> None:
        self.url = url
        self.channel = channel
        self._redis: Any = None
        self._task: asyncio.Task[None] | None = None

    @property
    def kind(self) -> str:
        """Always ``redis``."""
        return "redis"

    async def start(self, handler: NoticeHandler) -> None:
        """Connect (raises if Redis does not answer a ping) and subscribe.

        Raises:
            MissingExtra: the redis package is not installed.
            redis.exceptions.RedisError, OSError: Redis cannot be reached.
        """
        aioredis = require("redis.asyncio", "web", "--redis-url")
        self._redis = aioredis.from_url(self.url)
        await self._redis.ping()
        ready = asyncio.Event()
        self._task = asyncio.create_task(self._listen(handler, ready))
        await ready.wait()

    async def _listen(self, handler: NoticeHandler, ready: asyncio.Event) -> None:
        while True:
            try:
                pubsub = self._redis.pubsub()
                await pubsub.subscribe(self.channel)
                ready.set()
                async for message in pubsub.listen():
                    if message.get("type") == "message":
                        await self._handle(handler, message["data"])
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - any redis failure: reconnect and go on
                log.warning("redis subscription lost (%s); retrying", exc)
                ready.set()
                await asyncio.sleep(1.0)

    @staticmethod
    async def _handle(handler: NoticeHandler, data: str | bytes) -> None:
        try:
            notice = Notice.from_json(data)
        except ValueError as exc:
            log.warning("ignoring a bad notice from redis: %s", exc)
            return
        try:
            await handler(notice)
        except Exception:
            log.exception("handling a notice failed: %s", notice)

    async def publish(self, notice: Notice) -> None:
        """See ``Bus.publish``."""
        if self._redis is None:
            return
        try:
            await self._redis.publish(self.channel, notice.to_json())
        except Exception as exc:  # noqa: BLE001 - the store stays the truth; others catch up on the next notice
            log.warning("redis publish failed: %s", exc)

    async def close(self) -> None:
        """See ``Bus.close``."""
        if self._task is not None:
            self._task.cancel()
            self._task = None
        if self._redis is not None:
            try:
                await self._redis.aclose()
            except Exception as exc:  # noqa: BLE001 - shutting down: the connection may be gone already  # pragma: no cover
                log.debug("closing redis failed: %s", exc)
            self._redis = None
