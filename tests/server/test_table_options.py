"""Table options over the HTTP and WebSocket API (docs/web-api.md): time controls (with a
manual clock, so a clock runs out exactly when the test says), private tables and the
lobby, the host replacing a player, the table chat, and two players pressing Rematch at once.
The twin with the real clock, in a real browser, is tests/server/e2e/test_tables.py."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from backends import Backend
from fastapi.testclient import TestClient
from wsutil import WS, play

from coloretto.server.chat import MAX_CHARS, RATE_COUNT, RATE_WINDOW
from coloretto.server.clock import ManualClock

pytestmark = pytest.mark.timeout(120)

TWO = [{"kind": "human"}, {"kind": "human"}]


@pytest.fixture(params=["sqlite", "memory"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    return Backend(request.param, f"sqlite:///{tmp_path / 'options.db'}")


def create(c: TestClient, seats: list[dict[str, Any]] = TWO, **body: Any) -> dict[str, Any]:
    r = c.post("/api/tables", json={"name": "Ann", "seats": seats, **body})
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


def err(r: Any, status: int, code: str) -> str:
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code, r.text
    message: str = r.json()["error"]["message"]
    return message


def settle(pred: Any, tries: int = 500) -> None:
    """Wait (a real moment at a time) until ``pred()`` holds on the server's thread."""
    for _ in range(tries):
        if pred():
            return
        time.sleep(0.01)
    raise AssertionError("the server never got there")


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def client(backend: Backend, clock: ManualClock) -> Iterator[TestClient]:
    with backend.client(clock, handover_after=30) as c:
        yield c


def two_players(c: TestClient, **body: Any) -> tuple[str, dict[str, Any], dict[str, Any]]:
    made = create(c, **body)
    tid = made["table"]["id"]
    bob = c.post(f"/api/tables/{tid}/join", json={"name": "Bob"}).json()
    return tid, made, bob


# ----- time controls -----------------------------------------------------------------------------
def test_time_control_choices_and_bad_ones(client: TestClient) -> None:
    opts = client.get("/api/options").json()["time_controls"]
    assert opts["kinds"] == ["none", "move", "day"] and opts["move_seconds"] == [20, 45, 90]
    assert opts["day_seconds"] == 86400 and opts["default_agent"] in opts["agents"]
    for seconds in (20, 45, 90):
        t = create(client, time_control={"kind": "move", "seconds": seconds, "agent": "easy"})["table"]
        assert t["time_control"] == {"kind": "move", "seconds": seconds, "agent": "easy"}
    assert create(client)["table"]["time_control"] == {"kind": "none"}
    day = create(client, time_control={"kind": "day"})["table"]["time_control"]
    assert day == {"kind": "day", "seconds": 86400, "agent": "medium"}
    for bad, code in [
        ({"kind": "move", "seconds": 30}, "bad_request"),
        ({"kind": "move"}, "bad_request"),
        ({"kind": "move", "seconds": True}, "bad_request"),
        ({"kind": "blitz"}, "bad_request"),
        ({"kind": "day", "seconds": 60}, "bad_request"),
        ({"kind": "none", "seconds": 20}, "bad_request"),
        ({"kind": "move", "seconds": 20, "colour": "red"}, "bad_request"),
        ({"kind": "move", "seconds": 20, "agent": "oracle"}, "bad_agent"),
    ]:
        err(client.post("/api/tables", json={"name": "Ann", "seats": TWO, "time_control": bad}), 400, code)


def test_the_clock_runs_out_and_a_computer_moves(backend: Backend, clock: ManualClock) -> None:
    """A 20 s clock: everyone sees it; at 19.9 s nothing happens; at 20 s the seat is handed to
    the table's computer, which plays that move (its log entry says so), and the person takes
    the seat back. After a restart the log still says so."""
    with backend.client(clock) as c:
        tid, ann, bob = two_players(c, time_control={"kind": "move", "seconds": 20, "agent": "easy"})
        hub = c.app.state.hub  # type: ignore[attr-defined]
        with c.websocket_connect(f"/ws/tables/{tid}") as sa, c.websocket_connect(f"/ws/tables/{tid}") as sb:
            a, b = WS(sa, 0), WS(sb, 1)
            a.hello(ann["token"])
            b.hello(bob["token"])
            b.send(type="sync", id="s")
            st = b.until(lambda m: m.get("id") == "s")
            mover = st["observation"]["to_move"]
            assert st["clock"] == {"kind": "move", "seat": mover, "seconds": 20, "left": 20, "agent": "easy"}
            person = a if mover == 0 else b
            other = b if person is a else a
            settle(lambda: clock.sleepers >= 1)
            clock.advance(19.9)
            time.sleep(0.05)
            assert hub.tables[tid].version == 0 and hub.tables[tid].data.seats[mover].kind == "human"
            other.send(type="sync", id="s2")
            assert other.until(lambda m: m.get("id") == "s2")["clock"]["left"] == pytest.approx(0.1, abs=0.01)
            clock.advance(0.1)
            moved = other.until(lambda m: m["type"] == "state" and m["version"] == 1)
            entry = moved["log"][-1]
            assert entry["seat"] == mover and entry["timeout"] is True and entry["agent"] == "easy"
            seat = moved["seats"][mover]
            assert seat["kind"] == "computer" and seat["handed_over"] and seat["agent"] == "easy"
            # the person takes the seat back
            person.send(type="reclaim")
            back = person.until(lambda m: m["type"] == "state" and m["seats"][mover]["kind"] == "human")
            assert not back["seats"][mover]["handed_over"]
            version = back["version"]
    with backend.client(clock) as c2:  # a restart: the log still marks the computer's move
        st = c2.get(f"/api/tables/{tid}").json()
        assert st["time_control"]["kind"] == "move"
        with c2.websocket_connect(f"/ws/tables/{tid}") as s:
            w = WS(s)
            w.send(type="hello", token=None)
            full = w.until(lambda m: m["type"] == "state")
            assert full["version"] == version and full["log"][0]["timeout"] is True
            assert all("timeout" not in e for e in full["log"][1:])


def test_a_move_in_time_restarts_the_clock(client: TestClient, clock: ManualClock) -> None:
    """Moving before the clock runs out: no computer plays, and the next person gets a full clock."""
    tid, ann, bob = two_players(client, time_control={"kind": "move", "seconds": 45})
    hub = client.app.state.hub  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/tables/{tid}") as sa, client.websocket_connect(f"/ws/tables/{tid}") as sb:
        wss = {0: WS(sa, 0), 1: WS(sb, 1)}
        wss[0].hello(ann["token"])
        wss[1].hello(bob["token"])
        for step in range(4):
            settle(lambda: clock.sleepers >= 1)
            clock.advance(44)
            last = play(wss, stop_at=step + 1)
            assert last["clock"]["left"] == 45 and "timeout" not in last["log"][-1]
        assert all(s.kind == "human" for s in hub.tables[tid].data.seats)


def test_turn_based_tables_say_whose_turn(client: TestClient, clock: ManualClock) -> None:
    """A day per move: the clock shows a day; ``/api/tables/mine`` tells each browser whether
    it is its turn (private tables too); a day later the computer moves."""
    tid, ann, bob = two_players(client, time_control={"kind": "day"}, private=True)
    mine = client.post("/api/tables/mine", json={"tokens": {tid: ann["token"], "nope": "x"}}).json()["tables"]
    assert [(m["table"]["id"], m["seat"]) for m in mine] == [(tid, 0)]
    to_move = mine[0]["table"]["to_move"]
    assert mine[0]["your_turn"] == (to_move == 0)
    theirs = client.post("/api/tables/mine", json={"tokens": {tid: bob["token"]}}).json()["tables"][0]
    assert theirs["your_turn"] == (to_move == 1)
    assert client.post("/api/tables/mine", json={"tokens": {tid: "wrong"}}).json()["tables"] == []
    err(client.post("/api/tables/mine", json={"tokens": {str(i): "x" for i in range(101)}}), 400, "bad_request")
    with client.websocket_connect(f"/ws/tables/{tid}") as s:
        w = WS(s)
        w.send(type="hello", token=None)
        st = w.until(lambda m: m["type"] == "state")
        assert st["clock"]["kind"] == "day" and st["clock"]["left"] == 86400
        settle(lambda: clock.sleepers >= 1)
        clock.advance(86400)
        moved = w.until(lambda m: m["type"] == "state" and m["version"] == 1)
        assert moved["log"][0]["timeout"] is True


# ----- private tables, the lobby and the host ------------------------------------------------------
def lobby_ids(c: TestClient, query: str = "") -> list[str]:
    return [t["id"] for t in c.get(f"/api/tables{query}").json()["tables"]]


def test_the_lobby_lists_public_tables_only(client: TestClient) -> None:
    public = create(client)["table"]
    private = create(client, private=True)["table"]
    assert public["private"] is False and private["private"] is True
    assert public["host"] == 0 and private["host"] == 0
    assert public["id"] in lobby_ids(client) and private["id"] not in lobby_ids(client)
    assert private["id"] not in lobby_ids(client, "?status=open")
    # a private game in progress is not listed to watch either, a public one is
    started = {}
    for made in (public, private):
        client.post(f"/api/tables/{made['id']}/join", json={"name": "Bob"})
        started[made["id"]] = client.get(f"/api/tables/{made['id']}").json()["status"]
    assert set(started.values()) == {"playing"}
    assert public["id"] in lobby_ids(client, "?status=playing") and private["id"] not in lobby_ids(client, "?status=playing")
    # ... but its invite link works for anyone
    assert client.get(f"/api/tables/{private['id']}").json()["id"] == private["id"]
    err(client.post("/api/tables", json={"name": "Ann", "seats": TWO, "private": "yes"}), 400, "bad_request")
    nobody = client.post("/api/tables", json={"seats": [{"kind": "computer"}] * 2}).json()["table"]
    assert nobody["host"] is None


def test_the_host_replaces_an_absent_or_idle_player(client: TestClient, clock: ManualClock) -> None:
    """Only the host may; not their own seat; not a connected player before ``handover_after``
    seconds on their turn; an absent one at once; the replaced person takes the seat back."""
    made = create(client, [{"kind": "human"}] * 3, private=True)
    tid = made["table"]["id"]
    bob = client.post(f"/api/tables/{tid}/join", json={"name": "Bob"}).json()
    cid = client.post(f"/api/tables/{tid}/join", json={"name": "Cid"}).json()
    with client.websocket_connect(f"/ws/tables/{tid}") as sa, client.websocket_connect(f"/ws/tables/{tid}") as sb:
        a, b = WS(sa, 0), WS(sb, 1)
        a.hello(made["token"])
        b.hello(bob["token"])
        b.send(type="replace", seat=2, agent="easy")
        assert "only the host" in b.error()["message"]
        a.send(type="replace", seat=0)
        assert a.error()["code"] == "not_allowed"
        for bad in ({"seat": 7}, {"seat": "1"}, {"seat": 1, "agent": 3}):
            a.send(type="replace", **bad)
            assert a.error()["code"] == "bad_message"
        a.send(type="replace", seat=1, agent="oracle")
        assert a.error()["code"] == "bad_agent"
        with client.websocket_connect(f"/ws/tables/{tid}") as spectator:
            s = WS(spectator)
            s.hello(None)
            s.send(type="replace", seat=1)
            assert s.error()["code"] == "not_seated"
        st = client.get(f"/api/tables/{tid}").json()
        to_move = st["to_move"]
        # Bob is here: not before he has been idle 30 s on his turn
        a.send(type="replace", seat=1)
        assert "is here" in a.error()["message"]
        if to_move == 1:
            settle(lambda: client.app.state.hub.tables[tid].turn is not None)  # type: ignore[attr-defined]
            clock.advance(30)
            a.send(type="replace", seat=1, agent="easy")
            a.until(lambda m: m["type"] == "state" and m["seats"][1]["kind"] == "computer")
            b.send(type="reclaim")
            b.until(lambda m: m["type"] == "state" and m["seats"][1]["kind"] == "human")
        # Cid never came: absent, replaced at once
        a.send(type="replace", seat=2, agent="easy")
        m = a.until(lambda m: m["type"] == "state" and m["seats"][2]["kind"] == "computer")
        assert m["seats"][2]["handed_over"] and m["seats"][2]["agent"] == "easy"
        a.send(type="replace", seat=2)
        assert "not played by a person" in a.error()["message"]
        with client.websocket_connect(f"/ws/tables/{tid}") as sc:  # Cid comes and takes it back
            cw = WS(sc, 2)
            cw.hello(cid["token"])
            cw.send(type="reclaim")
            cw.until(lambda m: m["type"] == "state" and m["seats"][2]["kind"] == "human")


# ----- chat ---------------------------------------------------------------------------------------
def test_chat_limits_and_history(client: TestClient, clock: ManualClock) -> None:
    tid, ann, bob = two_players(client)
    with client.websocket_connect(f"/ws/tables/{tid}") as sa, client.websocket_connect(f"/ws/tables/{tid}") as ss:
        a, s = WS(sa, 0), WS(ss)
        a.hello(ann["token"])
        s.hello(None)
        assert a.until(lambda m: m["type"] == "chat_history")["messages"] == []
        evil = '<script>alert(1)</script> <img src=x onerror="alert(2)">'
        a.send(type="chat", text=f"  {evil}\n ")
        got = s.until(lambda m: m["type"] == "chat")
        assert got == {"type": "chat", "n": 0, "seat": 0, "name": "Ann", "text": evil}
        s.send(type="chat", text="hello")
        assert s.error()["code"] == "not_seated"
        for bad in ("", "   ", "x" * (MAX_CHARS + 1), "bell\x07", 42, None):
            a.send(type="chat", text=bad)
            assert a.error()["code"] == "bad_message"
        a.send(type="chat", text="y" * MAX_CHARS)
        for k in range(RATE_COUNT - 2):
            a.send(type="chat", text=f"m{k}")
        assert a.until(lambda m: m["type"] == "chat" and m["n"] == RATE_COUNT - 1)
        a.send(type="chat", text="one too many")
        assert a.error()["code"] == "rate_limited"
        clock.advance(RATE_WINDOW)
        a.send(type="chat", text="later")
        assert a.until(lambda m: m["type"] == "chat")["text"] == "later"
        with client.websocket_connect(f"/ws/tables/{tid}") as sb:
            b = WS(sb, 1)
            b.hello(bob["token"])
            hist = b.until(lambda m: m["type"] == "chat_history")["messages"]
            assert [m["text"] for m in hist] == [evil, "y" * MAX_CHARS, *[f"m{k}" for k in range(RATE_COUNT - 2)], "later"]


# ----- rematch --------------------------------------------------------------------------------------
def test_rematch_pressed_at_once_makes_one_table(client: TestClient) -> None:
    """Both players press Rematch in the same moment: one new (private) table, both seated
    there at their old seats."""
    tid, ann, bob = two_players(client)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/tables/{tid}") as sa, client.websocket_connect(f"/ws/tables/{tid}") as sb:
        wss = {0: WS(sa, 0), 1: WS(sb, 1)}
        wss[0].hello(ann["token"])
        wss[1].hello(bob["token"])
        assert play(wss)["status"] == "finished"
        before = set(client.app.state.hub.tables)  # type: ignore[attr-defined]
        go = threading.Barrier(2)
        answers: dict[int, dict[str, Any]] = {}

        def press(seat: int) -> None:
            go.wait()
            wss[seat].send(type="rematch", id=f"r{seat}")

        threads = [threading.Thread(target=press, args=(seat,)) for seat in (0, 1)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        for seat in (0, 1):
            answers[seat] = wss[seat].until(lambda m, seat=seat: m.get("id") == f"r{seat}")
        assert [answers[s]["type"] for s in (0, 1)] == ["rematch", "rematch"], answers
        assert answers[0]["table_id"] == answers[1]["table_id"]
        assert {answers[0]["seat"], answers[1]["seat"]} == {0, 1}
        new = set(hub.tables) - before
        assert new == {answers[0]["table_id"]}
        rematch = client.get(f"/api/tables/{answers[0]['table_id']}").json()
        assert rematch["private"] is True and rematch["status"] == "playing"
        assert [s["name"] for s in rematch["seats"]] == ["Ann", "Bob"]
