"""Quotas and expiry of tables: waiting tables nobody comes to expire, games nobody attends
are finished by computer players, idle tables leave memory (bounded), and the lobby comes a
page at a time. Time is a ``ManualClock``; the sweeper's pass (``expiry.sweep``) runs on the
application's event loop."""

from __future__ import annotations

import time
from typing import Any

import pytest
from backends import Backend
from fastapi.testclient import TestClient

from coloretto.server.clock import ManualClock
from coloretto.server.expiry import sweep

pytestmark = pytest.mark.timeout(120)

TWO = [{"kind": "human"}, {"kind": "human"}]


def run_sweep(c: TestClient) -> None:
    hub = c.app.state.hub  # type: ignore[attr-defined]
    assert c.portal is not None
    c.portal.call(sweep, hub)


def test_a_waiting_table_nobody_comes_to_expires(backend: Backend) -> None:
    clock = ManualClock()
    with backend.client(clock, open_table_expiry=1800) as c:
        made = c.post("/api/tables", json={"name": "Ann", "seats": TWO}).json()
        tid = made["table"]["id"]
        clock.advance(1799)
        run_sweep(c)
        assert c.get(f"/api/tables/{tid}").json()["status"] == "open"
        clock.advance(1)
        run_sweep(c)
        hub = c.app.state.hub  # type: ignore[attr-defined]
        assert tid not in hub.tables  # left memory
        assert tid not in [t["id"] for t in c.get("/api/tables").json()["tables"]]
        assert c.get(f"/api/tables/{tid}").json()["status"] == "expired"
        r = c.post(f"/api/tables/{tid}/join", json={"name": "Bob"})
        assert r.status_code == 409 and r.json()["error"]["code"] == "not_open"


def test_a_watched_waiting_table_does_not_expire() -> None:
    clock = ManualClock()
    with Backend("memory").client(clock, open_table_expiry=60) as c:
        made = c.post("/api/tables", json={"name": "Ann", "seats": TWO}).json()
        tid = made["table"]["id"]
        with c.websocket_connect(f"/ws/tables/{tid}") as s:
            s.send_json({"type": "hello", "token": made["token"]})
            s.receive_json()
            clock.advance(120)
            run_sweep(c)
            assert c.get(f"/api/tables/{tid}").json()["status"] == "open"


def test_an_abandoned_game_is_finished_by_computers_and_leaves_memory() -> None:
    clock = ManualClock()
    with Backend("memory").client(clock, abandoned_after=600) as c:
        made = c.post("/api/tables", json={"name": "Ann", "seats": TWO}).json()
        tid = made["table"]["id"]
        c.post(f"/api/tables/{tid}/join", json={"name": "Bob"})
        assert c.get(f"/api/tables/{tid}").json()["status"] == "playing"
        clock.advance(599)
        run_sweep(c)
        assert [s["kind"] for s in c.get(f"/api/tables/{tid}").json()["seats"]] == ["human", "human"]
        clock.advance(1)
        run_sweep(c)
        deadline = time.monotonic() + 60
        while c.get(f"/api/tables/{tid}").json()["status"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        hub = c.app.state.hub  # type: ignore[attr-defined]
        deadline = time.monotonic() + 10
        while tid in hub.tables:
            assert time.monotonic() < deadline
            run_sweep(c)
            time.sleep(0.05)
        assert c.get(f"/api/tables/{tid}/replay").status_code == 200


def test_the_lobby_is_paginated_and_memory_bounded() -> None:
    with Backend("memory").client(max_tables_in_memory=3) as c:
        ids = [c.post("/api/tables", json={"name": "Ann", "seats": TWO}).json()["table"]["id"] for _ in range(7)]
        pages: list[Any] = []
        offset: int | None = 0
        while offset is not None:
            page = c.get("/api/tables", params={"limit": 3, "offset": offset}).json()
            pages.append([t["id"] for t in page["tables"]])
            offset = page["next_offset"]
        assert pages == [ids[::-1][:3], ids[::-1][3:6], ids[::-1][6:]]
        run_sweep(c)
        hub = c.app.state.hub  # type: ignore[attr-defined]
        assert len(hub.tables) <= 3
        assert {c.get(f"/api/tables/{t}").json()["status"] for t in ids} == {"open"}  # loaded again
