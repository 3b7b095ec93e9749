"""``coloretto connect``: an external engine program plays a seat over the web API."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_processes import SyncSession
from wsutil import WS

from coloretto.cli.connect import parse_table_url
from coloretto.cli.main import UsageError, main
from coloretto.engine import replay as replay_record

pytestmark = pytest.mark.timeout(120)
BOT = Path(__file__).with_name("first_legal_bot.py")


def test_parse_table_url() -> None:
    assert parse_table_url("http://127.0.0.1:8000/table/Ab3dE9xK") == ("http://127.0.0.1:8000", "ws://127.0.0.1:8000", "Ab3dE9xK")
    assert parse_table_url("https://x.org/api/tables/abc")[1] == "wss://x.org"
    for bad in ("ftp://x/table/a", "http://x/", "table/abc"):
        with pytest.raises(UsageError):
            parse_table_url(bad)
    assert main(["connect", "http://x/nothing", "--engine", "true"]) == 2


def test_connect_plays_a_seat_to_the_end(tmp_path: Path, server_factory: Any) -> None:
    server = server_factory(f"sqlite:///{tmp_path / 'c.db'}").start()
    made = httpx.post(server.url + "/api/tables", json={
        "name": "Ann", "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "computer", "agent": "easy"}]}).json()
    tid = made["table"]["id"]
    ann = WS(SyncSession(f"{server.ws}/ws/tables/{tid}"), 0)
    ann.hello(made["token"])
    ann.send(type="hand_over", seat=0, agent="greedy")  # Ann lets a computer play for her
    ann.until(lambda m: m.get("seats") and m["seats"][0]["kind"] == "computer")
    out = subprocess.run(
        [sys.executable, "-m", "coloretto.cli.main", "connect", f"{server.url}/table/{tid}",
         "--engine", f"{sys.executable} {BOT}", "--name", "Botty", "--json"],
        check=False, capture_output=True, text=True, timeout=90,
    )
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["seat"] == 1 and len(result["scores"]) == 3
    rec = httpx.get(server.url + f"/api/tables/{tid}/record").json()
    assert rec["seats"][1] == "Botty" and replay_record(rec).valid
