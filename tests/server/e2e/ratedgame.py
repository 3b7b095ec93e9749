"""A rated game between two accounts, played to the end through the real HTTP and WebSocket
API of a running server (for the browser tests that show the leaderboard)."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
from websockets.sync.client import connect

PASSWORD = "a long enough password"
PACE = 0.07
"""Seconds between a connection's actions: under the server's per-connection rate (20 per second)."""
RATED_SEATS = [{"kind": "human"}, {"kind": "human"}, {"kind": "computer", "agent": "random"}]


def account_client(base: str, name: str, password: str = PASSWORD) -> httpx.Client:
    """An HTTP client signed up as ``name`` (its cookie jar holds the session)."""
    client = httpx.Client(base_url=base, timeout=10)
    r = client.post("/api/accounts", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    return client


def _until(ws: Any, pred: Any) -> dict[str, Any]:
    for _ in range(5000):
        m: dict[str, Any] = json.loads(ws.recv(timeout=60))
        assert m["type"] != "error", m  # a refused action would leave the game waiting
        if pred(m):
            return m
    raise AssertionError("expected message never came")


def play_rated_game(base: str, names: tuple[str, str]) -> str:
    """Sign ``names`` up, seat them at a rated table with a ``random`` computer player and
    play both seats (first legal action) to the end. Returns the table id."""
    first, second = account_client(base, names[0]), account_client(base, names[1])
    try:
        made = first.post("/api/tables", json={"seats": RATED_SEATS, "rated": True})
        assert made.status_code == 201, made.text
        tid = made.json()["table"]["id"]
        joined = second.post(f"/api/tables/{tid}/join", json={})
        assert joined.status_code == 200, joined.text
        tokens = {0: made.json()["token"], 1: joined.json()["token"]}
    finally:
        first.close()
        second.close()
    url = base.replace("http://", "ws://") + f"/ws/tables/{tid}"
    with connect(url) as s0, connect(url) as s1:
        socks = {0: s0, 1: s1}
        last: dict[int, dict[str, Any]] = {}

        def state(seat: int, pred: Any) -> dict[str, Any]:
            """The seat's latest state if it satisfies ``pred``, else the next one that does."""
            if seat in last and pred(last[seat]):
                return last[seat]
            m = _until(socks[seat], lambda x: x["type"] == "state" and (last.__setitem__(seat, x) or pred(x)))
            return m

        for seat, ws in socks.items():
            ws.send(json.dumps({"type": "hello", "token": tokens[seat]}))
            state(seat, lambda m: True)
        done = -1
        while True:
            m = state(0, lambda m, done=done: m["status"] == "finished" or (
                m["version"] > done and m["observation"]["to_move"] in socks))
            if m["status"] == "finished":
                return str(tid)
            v, seat = m["version"], m["observation"]["to_move"]
            st = state(seat, lambda x, v=v: x["version"] >= v)
            time.sleep(PACE)
            socks[seat].send(json.dumps({"type": "action", "action": st["legal"][0], "version": v, "id": f"a{v}"}))
            state(seat, lambda x, v=v: x.get("id") == f"a{v}")  # accepted
            done = v
