"""Real ``coloretto serve`` processes: a SIGKILL mid-game and a restart (SQLite and
PostgreSQL), and two processes sharing one PostgreSQL database through Redis pub/sub."""

from __future__ import annotations

import json
import random
import signal
import time
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect
from wsutil import WS, play

from coloretto.engine import replay as replay_record

pytestmark = pytest.mark.timeout(180)


class SyncSession:
    """The ``websockets`` sync client with the TestClient session interface of ``WS``."""

    def __init__(self, url: str) -> None:
        self.ws = connect(url, open_timeout=10).__enter__()

    def send_json(self, msg: Any) -> None:
        self.ws.send(json.dumps(msg))

    def send_text(self, text: str) -> None:
        self.ws.send(text)

    def receive_json(self) -> Any:
        return json.loads(self.ws.recv(timeout=30))

    def close(self) -> None:
        self.ws.close()


def open_ws(server: Any, table_id: str, token: str | None, seat: int | None = None) -> WS:
    w = WS(SyncSession(f"{server.ws}/ws/tables/{table_id}"), seat)
    w.hello(token)
    return w


SEATS = [{"kind": "human"}, {"kind": "human"}, {"kind": "computer", "agent": "easy"}, {"kind": "computer", "agent": "greedy"}]


def new_table(server: Any) -> tuple[str, str, str]:
    made = httpx.post(server.url + "/api/tables", json={"name": "Ann", "seats": SEATS}).json()
    tid = made["table"]["id"]
    bob = httpx.post(server.url + f"/api/tables/{tid}/join", json={"name": "Bob"}).json()
    return tid, made["token"], bob["token"]


def test_sigkill_and_restart_continue_the_game(db_url: str, server_factory: Any) -> None:
    # computer players wait 3 s, so the kill lands while one of them is to move
    first = server_factory(db_url, "--computer-delay", "3").start()
    tid, tok_a, tok_b = new_table(first)
    a, b = open_ws(first, tid, tok_a, 0), open_ws(first, tid, tok_b, 1)
    rng = random.Random(3)
    seen = play({0: a, 1: b}, choose=rng.choice, stop_at=1)
    while not (seen["status"] == "playing" and seen["seats"][seen["observation"]["to_move"]]["kind"] == "computer"):
        # play the people's moves until a computer player is to move
        to_move = seen["observation"]["to_move"]
        w = a if to_move == 0 else b
        w.send(type="sync", id="s")
        st = w.until(lambda m: m.get("id") == "s")
        w.send(type="action", action=rng.choice(st["legal"]), version=st["version"], id="x")
        seen = w.until(lambda m: m.get("id") == "x")
    acked = seen["version"]
    log_before = seen["log"]
    a.send(type="sync", id="full")
    log_before = a.until(lambda m: m.get("id") == "full")["log"]
    first.kill9()
    # the same address, so browsers reconnect by themselves
    second = server_factory(db_url, "--computer-delay", "0", port=first.port).start()
    t = httpx.get(second.url + f"/api/tables/{tid}").json()
    assert t["status"] == "playing" and t["version"] >= acked
    # the computer player to move resumes by itself
    spec = WS(SyncSession(f"{second.ws}/ws/tables/{tid}"))
    spec.send(type="hello")
    spec.until(lambda m: m["type"] == "state" and m["version"] > acked)
    a, b = open_ws(second, tid, tok_a, 0), open_ws(second, tid, tok_b, 1)
    a.send(type="sync", id="full")
    log_after = a.until(lambda m: m.get("id") == "full")["log"]
    assert log_after[: len(log_before)] == log_before  # nothing accepted was lost
    last = play({0: a, 1: b}, choose=rng.choice)
    assert last["status"] == "finished"
    rec = httpx.get(second.url + f"/api/tables/{tid}/record").json()
    assert replay_record(rec).valid and len(rec["actions"]) > 0


def test_two_processes_share_postgresql_through_redis(pg_url: str, redis_url: str, server_factory: Any) -> None:
    pa = server_factory(pg_url, "--redis-url", redis_url, "--process-id", "A").start()
    pb = server_factory(pg_url, "--redis-url", redis_url, "--process-id", "B").start()
    assert httpx.get(pb.url + "/api/health").json()["redis"] is True
    made = httpx.post(pa.url + "/api/tables", json={"name": "Ann", "seats": SEATS}).json()
    tid = made["table"]["id"]
    a = open_ws(pa, tid, made["token"], 0)  # Ann at process A
    bob = httpx.post(pb.url + f"/api/tables/{tid}/join", json={"name": "Bob"}).json()  # Bob joins at B
    # A's client learns of the join at B and of Bob's connection at B
    a.until(lambda m: m["type"] == "state" and m["status"] == "playing")
    b = open_ws(pb, tid, bob["token"], 1)
    a.until(lambda m: m.get("seats") and m["seats"][1]["connected"])
    # an action accepted at one process reaches the client of the other
    rng = random.Random(9)
    for _ in range(6):
        for me, other in ((a, b), (b, a)):
            me.send(type="sync", id="s")
            st = me.until(lambda m: m.get("id") == "s")
            if st["legal"]:
                me.send(type="action", action=rng.choice(st["legal"]), version=st["version"], id="go")
                v = me.until(lambda m: m.get("id") == "go" or m["type"] == "error")
                assert v["type"] == "state", v
                got = other.until(lambda m, v=v: m["type"] == "state" and m["version"] >= v["version"])
                assert got["version"] > v["version"] or got["log"][-1:] == v["log"][-1:], (got["version"], got["log"], v["log"])
    last = play({0: a, 1: b}, choose=rng.choice)
    assert last["status"] == "finished"
    for server in (pa, pb):
        rec = httpx.get(server.url + f"/api/tables/{tid}/record").json()
        assert replay_record(rec).valid
    assert httpx.get(pa.url + f"/api/tables/{tid}/record").json() == httpx.get(pb.url + f"/api/tables/{tid}/record").json()


def test_a_stopped_server_ends_its_computer_players_cleanly(server_factory: Any, tmp_path: Any) -> None:
    """SIGTERM while computer players search in the worker processes: the server waits for
    the pool to end its workers, so it exits within seconds and ``multiprocessing``
    does not warn of leaked semaphores."""
    server = server_factory(f"sqlite:///{tmp_path / 'stop.db'}").start()
    seats = [{"kind": "computer", "agent": "expert"}, {"kind": "computer", "agent": "medium"}]
    made = httpx.post(server.url + "/api/tables", json={"name": "Ann", "seats": seats}, timeout=10)
    assert made.status_code == 201, made.text
    table = made.json()["table"]["id"]
    # the computer players have played through the pool before the server is stopped
    for _ in range(200):
        record = httpx.get(f"{server.url}/api/tables/{table}", timeout=10).json()
        if record["status"] == "finished" or record["version"] > 2:
            break
        time.sleep(0.05)
    server.proc.terminate()
    # uvicorn shuts down, then ends by the signal it caught (status -15)
    assert server.proc.wait(timeout=30) in (0, -signal.SIGTERM)
    # multiprocessing's resource tracker, a process of its own, writes its warning as it
    # ends, just after the server
    time.sleep(3)
    log = server.log_path.read_text()
    assert "leaked semaphore" not in log, log
    assert "Traceback" not in log, log
