"""The WebSocket protocol (docs/web-api.md, "WebSocket ``/ws/tables/{table_id}``"): the
connection's life (admission, reading, writing, presence) in ``TableSockets`` and one
handler per client message type in ``HANDLERS``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.types import Message
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from ..engine.actions import Action
from . import chat, host
from .config import Settings
from .conn import Conn
from .errors import ErrorCode, Problem
from .hints import hint
from .hub import Hub
from .jsonin import parse_json
from .live import LiveTable
from .ratelimit import TokenBucket
from .store import token_hash

log = logging.getLogger("coloretto.server")

SYNC_RATE, SYNC_BURST = 1.0, 5.0
"""``sync`` messages per second and burst per connection (a full ``state`` is large)."""

HELLO_TIMEOUT = 10.0
"""Seconds a new connection has to send a valid ``hello`` before it is closed (code 4408)."""

MAX_TOKEN_CHARS = 200
"""Longest seat token accepted in ``hello`` (tokens the server makes are 32 characters)."""


@dataclass
class Session:
    """What a message handler works with: the hub, the settings, the table the connection
    was opened at, and the connection."""

    hub: Hub
    settings: Settings
    table: LiveTable
    conn: Conn
    sync_bucket: TokenBucket = field(default_factory=lambda: TokenBucket(SYNC_RATE, SYNC_BURST))


Handler = Callable[[Session, dict[str, Any], Any], Awaitable[None]]
"""``handler(session, message, ref)``: ``ref`` is the message's ``id`` (None if absent)."""


def _with_id(message: dict[str, Any], ref: Any) -> dict[str, Any]:
    if ref is not None:
        message["id"] = ref
    return message


async def on_hello(s: Session, msg: dict[str, Any], _ref: Any) -> None:
    """``hello``: sit at the token's seat, or watch without a token; answer ``welcome`` and a
    full ``state``; update presence."""
    token = msg.get("token")
    seat = thash = None
    if token is not None:
        if not isinstance(token, str) or len(token) > MAX_TOKEN_CHARS or not token.isascii():
            raise Problem(ErrorCode.BAD_TOKEN, "token must be a string of the server's token characters")
        seat = await s.hub.seat_of_token(s.table, token)
        thash = token_hash(token)
    conn, t = s.conn, s.table
    old = conn.seat
    conn.seat, conn.token_hash, conn.table, conn.greeted = seat, thash, t, True
    t.conns.add(conn)
    conn.send({
        "type": "welcome", "table_id": t.id, "seat": seat, "role": "player" if seat is not None else "spectator",
        "table": t.table_json(),
        "limits": {"max_message_bytes": s.settings.max_message_bytes, "messages_per_second": s.settings.ws_rate,
                   "burst": s.settings.ws_burst},
    })
    conn.send_state(t, full=True)
    conn.send(t.chat.history())
    if old is not None and old != seat:
        await s.hub.presence(t, old, -1)
    if seat is not None and old != seat:
        await s.hub.presence(t, seat, +1)


async def on_sync(s: Session, _msg: dict[str, Any], ref: Any) -> None:
    """``sync``: a full ``state`` (acknowledging ``ref``), built from the table's cached
    parts; at most ``SYNC_RATE`` per second (bursts of ``SYNC_BURST``).

    Raises:
        Problem: ``rate_limited``.
    """
    if not s.sync_bucket.allow():
        raise Problem(ErrorCode.RATE_LIMITED, "too many sync messages; one a second is plenty")
    s.conn.send_state(s.table, full=True, ack=ref)


async def on_action(s: Session, msg: dict[str, Any], ref: Any) -> None:
    """``action``: play it for the connection's seat (``Hub.submit``)."""
    if s.conn.seat is None:
        raise Problem(ErrorCode.NOT_SEATED, "spectators cannot act; say hello with your seat token")
    raw = msg.get("action")
    try:
        action = Action.from_json(raw)
    except (ValueError, TypeError) as exc:
        raise Problem(ErrorCode.BAD_MESSAGE, f"action: {exc}") from None
    unknown = sorted(set(raw) - set(action.to_json())) if isinstance(raw, dict) else []
    if unknown:
        raise Problem(ErrorCode.BAD_MESSAGE, f"action: unknown field(s) {', '.join(map(repr, unknown))}")
    version = msg.get("version")
    if version is not None and type(version) is not int:
        raise Problem(ErrorCode.BAD_MESSAGE, "version must be an integer")
    await s.hub.submit(s.table, s.conn.seat, action, version=version, ack=ref, sender=s.conn)


async def on_hint(s: Session, _msg: dict[str, Any], ref: Any) -> None:
    """``hint``: the move advisor's answer for the connection's seat."""
    fields = await hint(s.hub.runner, s.table, s.conn.seat, s.conn.ip)
    s.conn.send(_with_id({"type": "hint", **fields}, ref))


async def on_hand_over(s: Session, msg: dict[str, Any], _ref: Any) -> None:
    """``hand_over``: hand a seat to a computer player (``Hub.hand_over``)."""
    await s.hub.hand_over(s.table, s.conn, msg.get("seat"), msg.get("agent"))


async def on_reclaim(s: Session, _msg: dict[str, Any], _ref: Any) -> None:
    """``reclaim``: take the connection's seat back from its computer player."""
    await s.hub.reclaim(s.table, s.conn)


async def on_rematch(s: Session, _msg: dict[str, Any], ref: Any) -> None:
    """``rematch``: create or find the rematch table; answer with the new seat and token."""
    new_id, seat, token = await s.hub.rematch(s.table, s.conn)
    s.conn.send(_with_id({"type": "rematch", "table_id": new_id, "seat": seat, "token": token}, ref))


async def on_chat(s: Session, msg: dict[str, Any], _ref: Any) -> None:
    """``chat``: a message from the connection's seat to everyone at the table."""
    chat.post(s.table, s.conn, msg.get("text"), s.hub.clock)


async def on_replace(s: Session, msg: dict[str, Any], _ref: Any) -> None:
    """``replace``: the host hands an absent or idle player's seat to a computer player."""
    await host.replace(s.hub, s.table, s.conn, msg.get("seat"), msg.get("agent"))


HANDLERS: dict[str, Handler] = {
    "hello": on_hello,
    "action": on_action,
    "hint": on_hint,
    "hand_over": on_hand_over,
    "reclaim": on_reclaim,
    "rematch": on_rematch,
    "sync": on_sync,
    "chat": on_chat,
    "replace": on_replace,
}
"""The client messages besides ``ping`` (answered at once), by ``type``."""


async def dispatch(s: Session, msg: dict[str, Any], ref: Any) -> None:
    """Run the handler of ``msg``'s type, after the checks every message passes: a known
    type, ``hello`` first, and a ``token`` field (if any) that is the connection's own.

    Raises:
        Problem: ``unknown_type``, ``hello_first``, ``bad_token``, or the handler's.
    """
    kind = msg.get("type")
    if kind == "ping":
        s.conn.send(_with_id({"type": "pong"}, ref))
        return
    handler = HANDLERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise Problem(ErrorCode.UNKNOWN_TYPE, f"unknown message type {kind!r}; see docs/web-api.md")
    if kind != "hello":
        if not s.conn.greeted:
            raise Problem(ErrorCode.HELLO_FIRST, "say hello first: {\"type\": \"hello\", \"token\": ...}")
        token = msg.get("token")
        if token is not None and (
            not isinstance(token, str) or s.conn.token_hash is None or token_hash(token) != s.conn.token_hash
        ):
            raise Problem(ErrorCode.BAD_TOKEN, "this token is not the seat token of this connection")
    await handler(s, msg, ref)


def read_frame(frame: Message, bucket: TokenBucket, max_bytes: int) -> dict[str, Any]:
    """The JSON object of a WebSocket frame, within the connection's rate and size limits.

    A frame within the size limit is parsed before the rate limit is checked, so a
    ``rate_limited`` refusal carries the message's ``id`` (``Problem.ref``).

    Raises:
        Problem: ``too_large``, ``bad_json`` (also: nested deeper than ``MAX_DEPTH``, or a
            string holding a lone surrogate), ``rate_limited``.
    """
    text = frame.get("text")
    data: bytes = b""
    if text is None:
        data = frame.get("bytes") or b""
        size = len(data)
    else:  # a character is 1 to 4 bytes: encode only when it may matter
        size = len(text.encode("utf-8", "surrogatepass")) if len(text) * 4 > max_bytes else len(text)
    if size > max_bytes:
        allowed = bucket.allow()
        raise Problem(ErrorCode.TOO_LARGE if allowed else ErrorCode.RATE_LIMITED,
                      f"message over {max_bytes} bytes" if allowed else "too many messages; slow down")
    try:
        parsed = parse_json(data.decode("utf-8") if text is None else text)
    except ValueError as exc:
        if not bucket.allow():
            raise Problem(ErrorCode.RATE_LIMITED, "too many messages; slow down") from None
        raise Problem(ErrorCode.BAD_JSON, str(exc)) from None
    if not isinstance(parsed, dict):
        if not bucket.allow():
            raise Problem(ErrorCode.RATE_LIMITED, "too many messages; slow down")
        raise Problem(ErrorCode.BAD_JSON, "a message must be a JSON object")
    if not bucket.allow():
        raise Problem(ErrorCode.RATE_LIMITED, "too many messages; slow down", ref=message_id(parsed))
    return parsed


def message_id(msg: dict[str, Any]) -> Any:
    """The message's ``id`` if it is a JSON scalar, else None."""
    ref = msg.get("id")
    return ref if ref is None or isinstance(ref, (str, int, float, bool)) else None


async def _writer(ws: WebSocket, conn: Conn) -> None:
    """Write ``conn``'s outbox to ``ws`` until None (then close with 1008) or the end."""
    try:
        while True:
            item = await conn.queue.get()
            if item is None:
                if ws.application_state == WebSocketState.CONNECTED:
                    await ws.close(code=1008)
                return
            await ws.send_text(item)
            conn.sent(item)
    except (WebSocketDisconnect, RuntimeError, OSError, asyncio.CancelledError):
        return
    except Exception:  # noqa: BLE001 - the sender of a connection already gone  # pragma: no cover
        return


class TableSockets:
    """The endpoint ``/ws/tables/{table_id}``: admits connections (per-address limit,
    known table), reads messages within the per-connection limits, answers each with its
    handler, and releases the seat's presence when the connection ends."""

    def __init__(self, hub: Hub, settings: Settings) -> None:
        self.hub = hub
        self.settings = settings
        self.per_ip: dict[str, int] = {}

    async def serve(self, ws: WebSocket, table_id: str) -> None:
        """Serve one connection until it closes."""
        ip = ws.client.host if ws.client else "?"
        await ws.accept()
        t = await self.hub.get(table_id)
        if t is None:
            await _refuse(ws, Problem(ErrorCode.NOT_FOUND, f"no table {table_id!r}"), 4404)
            return
        session = Session(self.hub, self.settings, t, Conn(ip),
                          TokenBucket(self.settings.sync_rate, 5 * self.settings.sync_rate))
        writer = asyncio.create_task(_writer(ws, session.conn))
        drops: set[asyncio.Task[None]] = set()

        def overflow() -> None:
            drops.add(asyncio.ensure_future(_drop(ws, writer)))

        session.conn.on_overflow = overflow
        counted = False
        try:
            counted = await self._read(ws, session)
        except WebSocketDisconnect:
            counted = session.conn.greeted
        finally:
            await self._release(session, writer, counted)

    async def _read(self, ws: WebSocket, s: Session) -> bool:
        """Read and answer messages until the connection ends; True if it was counted in
        ``per_ip`` (it said ``hello``). A connection without a valid ``hello`` within
        ``HELLO_TIMEOUT`` seconds is closed (4408); the per-address limit counts only
        connections that said ``hello`` (over it: 4429)."""
        bucket = TokenBucket(self.settings.ws_rate, self.settings.ws_burst)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + HELLO_TIMEOUT
        counted = False
        while True:
            try:
                if counted:
                    frame = await ws.receive()
                else:
                    frame = await asyncio.wait_for(ws.receive(), max(0.0, deadline - loop.time()))
            except TimeoutError:
                await _refuse(ws, Problem(ErrorCode.HELLO_FIRST, f"no hello within {HELLO_TIMEOUT:g} s"), 4408)
                return counted
            if frame["type"] == "websocket.disconnect":
                return counted
            try:
                msg = read_frame(frame, bucket, self.settings.max_message_bytes)
            except Problem as p:
                s.conn.send(p.reply(p.ref))
                continue
            full = self.per_ip.get(s.conn.ip, 0) >= self.settings.max_ws_per_ip
            if not counted and msg.get("type") == "hello" and full:
                await _refuse(ws, Problem(ErrorCode.RATE_LIMITED, "too many connections from your address",
                                          ref=message_id(msg)), 4429)
                return counted
            await self._answer(s, msg, message_id(msg))
            if not counted and s.conn.greeted:
                counted = True
                self.per_ip[s.conn.ip] = self.per_ip.get(s.conn.ip, 0) + 1

    @staticmethod
    async def _answer(s: Session, msg: dict[str, Any], ref: Any) -> None:
        try:
            await dispatch(s, msg, ref)
        except Problem as p:
            s.conn.send(p.reply(ref))
            if p.code == ErrorCode.STALE and s.conn.table is not None:
                s.conn.send_state(s.table)
        except Exception:
            log.exception("table %s: error handling a message", s.table.id)
            s.conn.send(Problem(ErrorCode.INTERNAL, "server error; nothing was changed").reply(ref))

    async def _release(self, s: Session, writer: asyncio.Task[None], counted: bool) -> None:
        ip, conn, t = s.conn.ip, s.conn, s.table
        if counted:
            self.per_ip[ip] = self.per_ip.get(ip, 1) - 1
            if self.per_ip[ip] <= 0:
                self.per_ip.pop(ip, None)
        t.conns.discard(conn)
        conn.close()
        writer.cancel()
        if conn.seat is not None:
            seat, conn.seat = conn.seat, None
            await self.hub.presence(t, seat, -1)


async def _refuse(ws: WebSocket, problem: Problem, close_code: int) -> None:
    await ws.send_text(json.dumps(problem.reply(problem.ref)))
    await ws.close(code=close_code)


async def _drop(ws: WebSocket, writer: asyncio.Task[None]) -> None:
    """Disconnect a client that does not read (its outbox overflowed): stop its writer
    and close the connection (code 1008)."""
    writer.cancel()
    with contextlib.suppress(Exception):
        await ws.close(code=1008)
