"""Slow and idle clients cannot hold the server: half-sent HTTP requests time out (headers
and body), a WebSocket without ``hello`` is closed, the per-address connection limit counts
only connections that said ``hello``, ``sync`` is rate-limited, and a client that does not
read is disconnected once its outbox is full."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aio import run
from backends import Backend
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from wsutil import WS

from coloretto.server import ws as ws_module
from coloretto.server.conn import Conn
from coloretto.server.ratelimit import BODY_TIMEOUT
from coloretto.server.slowclients import HEADER_TIMEOUT

pytestmark = pytest.mark.timeout(120)

TWO = [{"kind": "human"}, {"kind": "human"}]


@pytest.fixture
def client() -> Iterator[TestClient]:
    with Backend("memory").client(max_ws_per_ip=2, sync_rate=1) as c:
        yield c


def create(c: TestClient) -> dict[str, Any]:
    r = c.post("/api/tables", json={"name": "Ann", "seats": TWO})
    assert r.status_code == 201, r.text
    return r.json()


def test_a_socket_without_hello_is_closed(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ws_module, "HELLO_TIMEOUT", 0.3)
    tid = create(client)["table"]["id"]
    with client.websocket_connect(f"/ws/tables/{tid}") as s:
        s.send_json({"type": "ping", "id": 1})
        assert s.receive_json()["type"] == "pong"  # a ping is no hello
        m = s.receive_json()
        assert (m["type"], m["code"]) == ("error", "hello_first") and "no hello" in m["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            s.receive_json()
        assert closed.value.code == 4408


def test_a_body_too_slow_is_answered_request_timeout(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A body that stops arriving is answered 408 ``request_timeout`` (its own code, with its
    status) and the connection is to be closed; the application never sees the request."""
    import asyncio
    import json

    from coloretto.server import ratelimit

    monkeypatch.setattr(ratelimit, "BODY_TIMEOUT", 0.2)
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
        "scheme": "http", "path": "/api/tables", "raw_path": b"/api/tables", "query_string": b"",
        "root_path": "", "client": ("127.0.0.9", 5000), "server": ("testserver", 80),
        "headers": [(b"host", b"testserver"), (b"content-type", b"application/json"), (b"content-length", b"100")],
    }
    sent: list[dict[str, Any]] = []
    chunks = [{"type": "http.request", "body": b'{"seats":', "more_body": True}]

    async def receive() -> dict[str, Any]:
        if chunks:
            return chunks.pop()
        await asyncio.sleep(3600)  # the rest of the body never comes
        raise AssertionError("unreachable")

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    run(asyncio.wait_for(client.app(scope, receive, send), 10))
    start = sent[0]
    assert start["status"] == 408
    assert (b"connection", b"close") in [(k.lower(), v) for k, v in start["headers"]]
    body = json.loads(b"".join(m.get("body", b"") for m in sent[1:]))
    assert body["error"]["code"] == "request_timeout" and "over 0.2 s" in body["error"]["message"]


def test_only_connections_that_said_hello_count_against_the_address(client: TestClient) -> None:
    made = create(client)
    tid = made["table"]["id"]
    url = f"/ws/tables/{tid}"
    with client.websocket_connect(url) as i1, client.websocket_connect(url) as i2, \
            client.websocket_connect(url) as i3, client.websocket_connect(url) as a, client.websocket_connect(url) as b:
        for idle in (i1, i2, i3):
            WS(idle).ping()  # open, silent: they do not count
        WS(a).hello(made["token"])
        WS(b).hello()
        with client.websocket_connect(url) as c:
            c.send_json({"type": "hello", "id": "h"})
            m = c.receive_json()
            assert (m["code"], m["id"]) == ("rate_limited", "h")
            with pytest.raises(WebSocketDisconnect) as closed:
                c.receive_json()
            assert closed.value.code == 4429
    with client.websocket_connect(url) as again:  # the household's slots are free again
        WS(again).hello()


def test_sync_is_rate_limited(client: TestClient) -> None:
    tid = create(client)["table"]["id"]
    with client.websocket_connect(f"/ws/tables/{tid}") as s:
        a = WS(s)
        a.hello()
        for i in range(8):
            a.send(type="sync", id=i)
        got = [a.until(lambda m, i=i: m.get("id") == i) for i in range(8)]
        assert [m["type"] for m in got[:5]] == ["state"] * 5 and [m["id"] for m in got[:5]] == list(range(5))
        assert [(m["code"], m["id"]) for m in got[5:]] == [("rate_limited", 5), ("rate_limited", 6), ("rate_limited", 7)]


def test_a_full_outbox_disconnects_its_client() -> None:
    conn = Conn("10.0.0.9")
    dropped: list[bool] = []
    conn.on_overflow = lambda: dropped.append(True)
    big = {"type": "x", "pad": "y" * 100_000}
    sent = 0
    while not dropped:
        conn.send(big)
        sent += 1
        assert sent <= Conn.MAX_QUEUE_BYTES // 100_000 + 1
    assert conn.overflowed and conn.queue.qsize() == 1 and conn.queue.get_nowait() is None
    conn.send(big)
    assert dropped == [True] and conn.queue.empty()  # nothing more is queued for it


def read_all(sock: socket.socket, limit: float) -> bytes:
    sock.settimeout(limit)
    out = b""
    try:
        while chunk := sock.recv(65536):
            out += chunk
    except TimeoutError:
        return out + b"<still open>"
    return out


@pytest.mark.slow
def test_half_sent_requests_time_out(server_factory: Any, tmp_path: Path) -> None:
    server = server_factory(
        str(tmp_path / "s.db"), "--max-connections", "500", "--agent-processes", "1", "--decision-seconds", "5",
        "--max-computer-tables", "2", "--max-open-tables", "20", "--open-table-expiry", "1800",
        "--abandoned-after", "600", "--max-tables-in-memory", "100",
    ).start()
    headers = socket.create_connection(("127.0.0.1", server.port))
    headers.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")  # never finished
    body = socket.create_connection(("127.0.0.1", server.port))
    body.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                 b"Content-Length: 100\r\n\r\n{\"seats\":")
    started = time.monotonic()
    assert read_all(headers, HEADER_TIMEOUT + 5) == b""  # closed without an answer
    assert HEADER_TIMEOUT - 1 <= time.monotonic() - started <= HEADER_TIMEOUT + 5
    answer = read_all(body, BODY_TIMEOUT + 5)
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert b'"code":"request_timeout"' in answer, answer[:400]
    for s in (headers, body):
        s.close()


@pytest.mark.slow
def test_a_websocket_outlives_the_header_deadline(server_factory: Any, tmp_path: Path) -> None:
    """The header deadline is for HTTP requests: a WebSocket that said hello stays open
    past it and keeps getting answers (a real server process, a real socket)."""
    import json

    import httpx
    from websockets.sync.client import connect

    server = server_factory(str(tmp_path / "w.db")).start()
    made = httpx.post(server.url + "/api/tables", json={"name": "Ann", "seats": TWO}, timeout=30)
    assert made.status_code == 201, made.text
    table, token = made.json()["table"]["id"], made.json()["token"]
    with connect(f"{server.ws}/ws/tables/{table}") as sock:
        sock.send(json.dumps({"type": "hello", "token": token}))
        first = json.loads(sock.recv(timeout=30))
        assert first["type"] != "error", first
        time.sleep(HEADER_TIMEOUT + 3)
        sock.send(json.dumps({"type": "ping", "id": "p"}))
        answers = []
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not any(m.get("id") == "p" for m in answers):
            answers.append(json.loads(sock.recv(timeout=30)))
        assert any(m.get("id") == "p" for m in answers), answers
