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


EXAMPLE_ENGINE = Path(__file__).resolve().parents[2] / "examples" / "random_engine.py"


@pytest.mark.parametrize("engine", [BOT, EXAMPLE_ENGINE], ids=["first-legal-test-program", "examples-random-engine"])
def test_connect_plays_a_seat_to_the_end(tmp_path: Path, server_factory: Any, engine: Path) -> None:
    """A program plays a seat to the end: the test's own minimal program, and its twin, the
    example engine the docs tell engine authors to start from."""
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
         "--engine", f"{sys.executable} {engine}", "--name", "Botty", "--json"],
        check=False, capture_output=True, text=True, timeout=90,
    )
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["outcome"] == "finished" and result["seat"] == 1 and len(result["scores"]) == 3
    rec = httpx.get(server.url + f"/api/tables/{tid}/record").json()
    assert rec["seats"][1] == "Botty" and replay_record(rec).valid


BROKEN = Path(__file__).with_name("broken_bot.py")


def _open_table(server: Any) -> tuple[str, str]:
    """A table with Ann at seat 0 (her seat handed to a computer player), seat 1 open and a
    computer at seat 2; returns ``(table_id, Ann's token)``."""
    made = httpx.post(server.url + "/api/tables", json={
        "name": "Ann", "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "computer", "agent": "easy"}]}).json()
    tid = made["table"]["id"]
    ann = WS(SyncSession(f"{server.ws}/ws/tables/{tid}"), 0)
    ann.hello(made["token"])
    ann.send(type="hand_over", seat=0, agent="greedy")
    ann.until(lambda m: m.get("seats") and m["seats"][0]["kind"] == "computer")
    ann.s.close()
    return tid, made["token"]


def test_connect_starts_the_engine_before_taking_a_seat(tmp_path: Path, server_factory: Any,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """An engine that cannot start (missing program, empty command, garbage at hello), a
    bad --fallback and a bad --seat (counted from 1): exit 2 and the seat stays open
    (nothing was joined)."""
    server = server_factory(f"sqlite:///{tmp_path / 'c.db'}").start()
    tid, ann_token = _open_table(server)
    link = f"{server.url}/table/{tid}"
    cases = [
        (["--engine", "/nonexistent/prog", "--fallback", "random"], "start"),
        (["--engine", "", "--fallback", "random"], None),
        (["--engine", f"{sys.executable} {BROKEN} garbage-hello"], "malformed"),
        (["--engine", f"{sys.executable} {BOT}", "--fallback", "oracle"], None),  # not offered to people
        (["--engine", f"{sys.executable} {BOT}", "--fallback", "nobody"], None),
        # --seat counts from 1: seat 1 is Ann's (a computer's now), the table has 3 seats
        (["--engine", f"{sys.executable} {BOT}", "--seat", "0"], None),
        (["--engine", f"{sys.executable} {BOT}", "--seat", "1"], None),
        (["--engine", f"{sys.executable} {BOT}", "--seat", "4"], None),
    ]
    said = {
        "0": "--seat 0: seats are counted from 1 (seat 1 is the first seat)",
        "1": "seat 1 is not open at table " + tid + " (open seats: 2)",
        "4": "--seat 4: table " + tid + " has 3 seats (seat 1 is the first seat)",
    }
    for extra, kind in cases:
        capsys.readouterr()
        assert main(["connect", link, "--name", "Botty", "--json", *extra]) == 2, extra
        out, err = capsys.readouterr()
        assert "coloretto connect: error:" in err and "seated at table" not in err, (extra, err)
        if "--seat" in extra:
            assert said[extra[-1]] in err, err
        if extra[1] == "":
            assert "--engine: the engine's command line is empty" in err and "cmd:" not in err, err
        if kind is not None:  # the engine was tried: the JSON outcome says so
            report = json.loads(out)
            assert report["outcome"] == "engine_failed" and report["joined"] is False, report
            assert report["failure"]["kind"] == kind and report["hand_over"] is None, report
            assert "not joined" in err
        table = httpx.get(f"{server.url}/api/tables/{tid}").json()
        assert table["status"] == "open" and table["seats"][1]["kind"] == "open", (extra, table["seats"])
    # with --token (a seat already held) the handshake comes before any decision; a failed
    # one leaves the seat as it was
    capsys.readouterr()
    assert main(["connect", link, "--token", ann_token, "--engine", "/nonexistent/prog", "--json"]) == 2
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert report["seat"] == 0 and report["joined"] is True and report["hand_over"] is None, report
    assert report["failure"]["kind"] == "start" and "seat left as it was" in err
    table = httpx.get(f"{server.url}/api/tables/{tid}").json()
    assert table["status"] == "open" and [s["kind"] for s in table["seats"]] == ["computer", "open", "computer"]


def test_connect_hands_the_seat_over_when_the_engine_fails_mid_game(
        tmp_path: Path, server_factory: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """The engine answers hello, then dies at its first decision: the seat goes to --fallback,
    the game goes on to its end, --json reports the failure and the hand-over, exit 1.
    ``--seat 2`` is the seat at index 1 (people count from 1, the JSON from 0)."""
    server = server_factory(f"sqlite:///{tmp_path / 'c.db'}").start()
    tid, _ = _open_table(server)
    watch = WS(SyncSession(f"{server.ws}/ws/tables/{tid}"))
    watch.hello()
    code = main(["connect", f"{server.url}/table/{tid}", "--engine", f"{sys.executable} {BROKEN} exit-on-decide",
                 "--name", "Botty", "--fallback", "greedy", "--seat", "2", "--json"])
    out, err = capsys.readouterr()
    assert code == 1, err
    report = json.loads(out)
    assert report["outcome"] == "engine_failed" and report["table"] == tid and report["seat"] == 1, report
    assert report["joined"] is True and report["failure"]["kind"] == "exited", report
    assert report["hand_over"] == {"agent": "greedy", "done": True, "error": None}, report
    assert report["table_url"] == f"{server.url}/table/{tid}" and report["result"] is None
    # people count seats from 1 (--seat 2, the messages), the JSON from 0 ("seat": 1)
    assert "ready for seat 2" in err and f"seated at table {tid}, seat 2 " in err
    assert "handing seat 2 to greedy" in err and "seat 2 is now played by greedy" in err
    seat = httpx.get(f"{server.url}/api/tables/{tid}").json()["seats"][1]
    assert seat["kind"] == "computer" and seat["agent"] == "greedy" and seat["handed_over"] and seat["name"] == "Botty"
    end = watch.until(lambda m: m["type"] == "state" and m["status"] == "finished")
    assert len(end["result"]["scores"]) == 3
    watch.s.close()
