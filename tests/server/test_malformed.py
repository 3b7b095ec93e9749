"""Malformed and hostile input gets a clean error and changes nothing: deeply nested JSON,
lone surrogates, rate-limited messages (their ``id`` comes back), chunked bodies over the
size cap, unknown action fields; and the security headers, the private SQLite file and
``X-Forwarded-For`` trusted only from ``--forwarded-allow-ips`` (docs/deploy.md)."""

from __future__ import annotations

import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from backends import Backend
from fastapi.testclient import TestClient
from wsutil import WS

from coloretto.server.db import make_engine
from coloretto.server.ratelimit import MAX_BODY

pytestmark = pytest.mark.timeout(120)

TWO = [{"kind": "human"}, {"kind": "human"}]


@pytest.fixture
def client() -> Iterator[TestClient]:
    with Backend("memory").client() as c:
        yield c


def create(client: TestClient, seats: list[dict[str, Any]] = TWO) -> dict[str, Any]:
    r = client.post("/api/tables", json={"name": "Ann", "seats": seats})
    assert r.status_code == 201, r.text
    return r.json()


def deep(n: int) -> str:
    return '{"type": "ping", "x": ' + "[" * n + "]" * n + "}"


def test_deep_json_and_lone_surrogates_over_the_websocket(client: TestClient) -> None:
    made = create(client)
    with client.websocket_connect(f"/ws/tables/{made['table']['id']}") as s:
        a = WS(s)
        a.send_text(deep(1900))  # under the 4 KiB message cap
        m = a.error()
        assert m["code"] == "bad_json" and "deeper" in m["message"]
        a.send_text('{"type": "hello", "token": "\\ud800abc", "id": 5}')
        m = a.error()
        assert m["code"] == "bad_json" and "surrogate" in m["message"]
        a.send_text(
            '{"type": "hello", "token": "t\\u00e9st", "id": 6}'
        )  # not one of the server's tokens
        m = a.error()
        assert (m["code"], m["id"]) == ("bad_token", 6)
        a.hello(made["token"])
        a.ping()


def test_rate_limited_errors_carry_the_message_id() -> None:
    with Backend("memory").client(ws_rate=0.01, ws_burst=2) as c:
        made = create(c)
        with c.websocket_connect(f"/ws/tables/{made['table']['id']}") as s:
            a = WS(s)
            for i in range(4):
                a.send(type="ping", id=f"m{i}")
            got = [a.recv() for _ in range(4)]
            assert [m["type"] for m in got[:2]] == ["pong", "pong"]
            assert [(m["code"], m["id"]) for m in got[2:]] == [
                ("rate_limited", "m2"),
                ("rate_limited", "m3"),
            ]


def test_actions_with_unknown_fields_are_refused(client: TestClient) -> None:
    made = create(client)
    tid = made["table"]["id"]
    j = client.post(f"/api/tables/{tid}/join", json={"name": "Bob"}).json()
    tokens = {made["seat"]: made["token"], j["seat"]: j["token"]}
    with client.websocket_connect(f"/ws/tables/{tid}") as s:
        a = WS(s)
        a.send(type="hello", token=tokens[0])
        a.until(lambda m: m["type"] == "welcome")
        st = a.until(lambda m: m["type"] == "state")
        to_move = st["observation"]["to_move"]
        a.send(type="hello", token=tokens[to_move])
        st = a.until(lambda m: m["type"] == "state")
        legal = st["legal"][0]
        a.send(type="action", action={**legal, "also": 1}, version=st["version"], id="x")
        m = a.error()
        assert (m["code"], m["id"]) == ("bad_message", "x") and "'also'" in m["message"]
        assert client.get(f"/api/tables/{tid}").json()["version"] == st["version"]
        a.send(type="action", action=legal, version=st["version"], id="y")
        assert a.until(lambda m: m.get("id") == "y")["type"] == "state"


def test_http_bodies_deep_surrogate_and_chunked(client: TestClient) -> None:
    r = client.post("/api/tables", content=deep(3000), headers={"content-type": "application/json"})
    assert (
        r.status_code == 400 and r.json()["error"]["code"] == "bad_request" and "deeper" in r.text
    )
    r = client.post(
        "/api/tables",
        content='{"name": "\\udc80", "seats": [{"kind": "human"}, {"kind": "human"}]}',
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 400 and "surrogate" in r.text

    def chunks() -> Iterator[bytes]:
        for _ in range(MAX_BODY // 1024 + 2):
            yield b" " * 1024

    r = client.post("/api/tables", content=chunks(), headers={"content-type": "application/json"})
    assert "content-length" not in r.request.headers
    assert r.status_code == 413 and r.json()["error"]["code"] == "too_large"
    assert client.get("/api/health").status_code == 200


def test_security_headers_on_every_response(client: TestClient) -> None:
    for path in ("/", "/api/health", "/api/tables/nope", "/static/app.js"):
        h = client.get(path).headers
        assert "frame-ancestors 'none'" in h["content-security-policy"]
        assert "script-src 'self'" in h["content-security-policy"]
        assert h["x-frame-options"] == "DENY"
        assert h["x-content-type-options"] == "nosniff"


def test_the_sqlite_file_is_private(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    engine = make_engine(f"sqlite:///{path}")
    with engine.connect():
        pass
    engine.dispose()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    with Backend("sqlite", f"sqlite:///{tmp_path / 'served.db'}").client() as c:
        create(c)
    for f in tmp_path.glob("served.db*"):
        assert stat.S_IMODE(f.stat().st_mode) & 0o077 == 0, f


@pytest.mark.slow
def test_forwarded_for_is_trusted_only_from_the_given_proxies(
    server_factory: Any, tmp_path: Path
) -> None:
    limits = ("--ip-rate", "0.01", "--ip-burst", "3")
    plain = server_factory(str(tmp_path / "a.db"), *limits).start()
    codes = [
        httpx.get(plain.url + "/api/health", headers={"X-Forwarded-For": f"10.0.0.{i}"}).status_code
        for i in range(6)
    ]
    assert codes[0] == 200 and codes[3:] == [429] * 3, (
        codes
    )  # one token went on the start-up health check
    proxied = server_factory(
        str(tmp_path / "b.db"), *limits, "--forwarded-allow-ips", "127.0.0.1"
    ).start()
    codes = [
        httpx.get(
            proxied.url + "/api/health", headers={"X-Forwarded-For": f"10.0.0.{i}"}
        ).status_code
        for i in range(6)
    ]
    assert codes == [200] * 6, codes


def test_an_id_that_is_not_a_scalar_counts_as_none() -> None:
    """docs/web-api.md: an ``id`` is any JSON scalar; an array or an object there is no id
    (the reply carries none), not an error."""
    from coloretto.server.ws import message_id

    assert [message_id({"type": "hint", "id": ref}) for ref in ("a", 3, 1.5, True, None)] == ["a", 3, 1.5, True, None]
    assert message_id({"type": "hint", "id": [1, 2]}) is None and message_id({"id": {"a": 1}}) is None
    assert message_id({"type": "hint"}) is None
