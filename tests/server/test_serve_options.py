"""Options of ``coloretto serve`` and ``coloretto connect`` that the other server tests leave
at their defaults, each run through the real command against a real server."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_connect import _open_table
from test_processes import SyncSession
from websockets.exceptions import ConnectionClosed

pytestmark = pytest.mark.timeout(180)


def _wait_finished(url: str, table_id: str, seconds: float = 90) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        t: dict[str, Any] = httpx.get(f"{url}/api/tables/{table_id}").json()
        if t["status"] == "finished":
            return t
        time.sleep(0.2)
    raise AssertionError(f"table {table_id} did not finish within {seconds} s")


def test_max_ws_per_ip_agent_threads_and_access_log(tmp_path: Path, server_factory: Any) -> None:
    server = server_factory(
        f"sqlite:///{tmp_path / 's.db'}", "--max-ws-per-ip", "1", "--agent-processes", "1",
        "--access-log", "--log-level", "info",
    ).start()
    # A table of computer players only (nobody sits): one agent thread plays it to the end.
    made = httpx.post(server.url + "/api/tables", json={
        "name": "Ann", "seats": [{"kind": "computer", "agent": "easy"}, {"kind": "computer", "agent": "medium"}]})
    assert made.status_code == 201, made.text
    tid = made.json()["table"]["id"]
    assert len(_wait_finished(server.url, tid)["seats"]) == 2
    # One WebSocket per address that said hello: the second hello is refused with
    # rate_limited and its connection closed.
    first = SyncSession(f"{server.ws}/ws/tables/{tid}")
    try:
        first.send_json({"type": "hello"})
        assert first.receive_json()["type"] == "welcome"
        second = SyncSession(f"{server.ws}/ws/tables/{tid}")
        second.send_json({"type": "hello"})
        refusal = second.receive_json()
        assert refusal["type"] == "error" and refusal["code"] == "rate_limited", refusal
        with pytest.raises(ConnectionClosed) as closed:
            second.receive_json()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
    finally:
        first.close()
    httpx.get(server.url + "/api/health")
    server.stop()
    log = server.log_path.read_text()
    assert '"GET /api/health HTTP/1.1" 200' in log  # --access-log: every request is logged


def test_no_access_log(tmp_path: Path, server_factory: Any) -> None:
    server = server_factory(f"sqlite:///{tmp_path / 's.db'}", "--no-access-log", "--log-level", "info").start()
    assert httpx.get(server.url + "/api/health").status_code == 200
    server.stop()
    log = server.log_path.read_text()
    assert "/api/health" not in log and "Uvicorn running" in log


TIMED_BOT = """\
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        print(json.dumps({"type": "ready", "name": "timed"}), flush=True)
    elif msg["type"] == "decide":
        with open(sys.argv[1], "a") as asked:
            print(msg["time_ms"], file=asked)
        print(json.dumps({"type": "action", "action": msg["legal"][0]}), flush=True)
    elif msg["type"] == "quit":
        break
"""


def test_connect_takes_the_seat_it_is_told_with_the_time_it_is_told(tmp_path: Path, server_factory: Any) -> None:
    server = server_factory(f"sqlite:///{tmp_path / 'c.db'}").start()
    tid, _ = _open_table(server)  # the second seat (JSON seat 1) is open
    bot = tmp_path / "timed_bot.py"
    bot.write_text(TIMED_BOT)
    out = subprocess.run(
        [sys.executable, "-m", "coloretto.cli.main", "connect", f"{server.url}/table/{tid}",
         "--engine", f"{sys.executable} {bot} {tmp_path / 'asked.txt'}", "--seat", "2", "--time", "250ms", "--name", "Timed", "--json"],
        check=False, capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["outcome"] == "finished" and result["seat"] == 1  # the JSON counts from 0
    asked = set((tmp_path / "asked.txt").read_text().split())
    assert asked == {"250"}, asked  # every decision was asked with --time
    table = httpx.get(server.url + f"/api/tables/{tid}").json()
    assert table["seats"][1]["name"] == "Timed"
