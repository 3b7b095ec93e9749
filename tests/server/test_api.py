"""HTTP and WebSocket API of the server (docs/web-api.md), on SQLite, PostgreSQL and the
in-memory parts (the same assertions on each).

Every message type is exercised, with each kind of bad input; after every refused
message the connection still answers and the table has not changed.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from backends import Backend
from fastapi.testclient import TestClient
from wsutil import WS, play

from coloretto.engine import replay as replay_record
from coloretto.engine.actions import Action
from coloretto.engine.cards import CARD_NAMES
from coloretto.server.live import action_text

pytestmark = pytest.mark.timeout(120)

FOUR = [{"kind": "human"}, {"kind": "human"}, {"kind": "computer", "agent": "easy"}, {"kind": "computer", "agent": "greedy"}]


def make_client(backend: Backend, **kw: Any) -> TestClient:
    """A client of an application on ``backend`` (``backends.FAST`` settings, then ``kw``)."""
    return backend.client(**kw)


@pytest.fixture
def client(backend: Backend) -> Iterator[TestClient]:
    with make_client(backend) as c:
        yield c


def create(client: TestClient, seats: list[dict[str, Any]] = FOUR, **body: Any) -> dict[str, Any]:
    r = client.post("/api/tables", json={"name": "Ann", "seats": seats, **body})
    assert r.status_code == 201, r.text
    return r.json()


def err(r: Any, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code, r.text


# ----- HTTP ---------------------------------------------------------------------------------------------
def test_create_join_lobby_and_bad_requests(client: TestClient) -> None:
    assert client.get("/api/health").json()["status"] == "ok"
    opts = client.get("/api/options").json()
    assert "medium" in opts["agents"] and opts["rules"]["edition"]["default"] == "classic"
    made = create(client, rules={"edition": "modern", "table": "violet"}, hints=True, title="Friday")
    t = made["table"]
    assert made["seat"] == 0 and made["token"] and t["status"] == "open"
    assert t["rules"]["edition"] == "modern" and t["rules"]["players"] == 4 and t["invite_url"] == f"/table/{t['id']}"
    assert [s["kind"] for s in t["seats"]] == ["human", "open", "computer", "computer"]
    assert t["id"] in [x["id"] for x in client.get("/api/tables?status=open").json()["tables"]]
    # bad creations
    err(client.post("/api/tables", json={"name": "A", "seats": [{"kind": "human"}]}), 400, "bad_request")
    err(client.post("/api/tables", json={"name": "A", "seats": [{"kind": "robot"}] * 3}), 400, "bad_request")
    err(client.post("/api/tables", json={"name": "A", "seats": [{"kind": "human"}, {"kind": "computer", "agent": "oracle"}]}), 400, "bad_agent")
    err(client.post("/api/tables", json={"name": "A", "seats": FOUR, "rules": {"edition": "deluxe"}}), 400, "bad_rules")
    err(client.post("/api/tables", json={"name": "A", "seats": FOUR, "rules": {"players": 3}}), 400, "bad_rules")
    err(client.post("/api/tables", json={"name": "A", "seats": FOUR, "preset": "nope"}), 400, "bad_rules")
    err(client.post("/api/tables", json={"name": "  ", "seats": FOUR}), 400, "bad_name")
    err(client.post("/api/tables", json={"name": "computer:x", "seats": FOUR}), 400, "bad_name")
    nameless = client.post("/api/tables", json={"seats": FOUR})
    err(nameless, 400, "bad_name")
    assert nameless.json()["error"]["message"] == "name is missing: give a name of 1 to 24 characters"
    err(client.post("/api/tables", json={"name": "ｃｏｍｐｕｔｅｒ:x", "seats": FOUR}), 400, "bad_name")
    err(client.post("/api/tables", json={"name": "A", "seats": FOUR, "seat": 2}), 400, "bad_request")
    err(client.post("/api/tables", content=b"{not json", headers={"content-type": "application/json"}), 400, "bad_request")
    err(client.post("/api/tables", content=b"x" * 20000, headers={"content-type": "application/json"}), 413, "too_large")
    err(client.get("/api/tables/nope"), 404, "not_found")
    # joining
    err(client.post(f"/api/tables/{t['id']}/join", json={"name": "Bob", "seat": 0}), 409, "seat_taken")
    err(client.post(f"/api/tables/{t['id']}/join", json={"name": "Bob", "seat": 9}), 400, "bad_request")
    err(client.post(f"/api/tables/{t['id']}/join", json={"name": ""}), 400, "bad_name")
    missing = client.post(f"/api/tables/{t['id']}/join", json={})
    err(missing, 400, "bad_name")
    assert missing.json()["error"]["message"] == "name is missing: give a name of 1 to 24 characters"
    # a computer player's name, in any width
    for fake in ("computer:easy", "ｃｏｍｐｕｔｅｒ:easy", "ｃｏｍｐｕｔｅｒ：ｅａｓｙ"):
        err(client.post(f"/api/tables/{t['id']}/join", json={"name": fake}), 400, "bad_name")
    # a name seated at the table already, in any case or width or with look-alike letters
    for twin in ("Ann", "ANN", " ann ", "Ａｎｎ", "\u0410nn"):
        same = client.post(f"/api/tables/{t['id']}/join", json={"name": twin})
        err(same, 409, "name_taken")
        assert same.json()["error"]["message"] == "'Ann' already sits at this table (seat 1); choose another name"
    err(client.post("/api/tables/nope/join", json={"name": "Bob"}), 404, "not_found")
    j = client.post(f"/api/tables/{t['id']}/join", json={"name": "Bob"})
    assert j.status_code == 200 and j.json()["seat"] == 1 and j.json()["token"] != made["token"]
    assert j.json()["table"]["status"] == "playing"
    err(client.post(f"/api/tables/{t['id']}/join", json={"name": "Cid"}), 409, "not_open")
    err(client.post(f"/api/tables/{t['id']}/join", json={"name": "Bob"}), 409, "not_open")
    assert t["id"] in [x["id"] for x in client.get("/api/tables?status=playing").json()["tables"]]
    err(client.get(f"/api/tables/{t['id']}/record"), 409, "game_not_over")
    err(client.get(f"/api/tables/{t['id']}/replay"), 409, "game_not_over")
    full = create(client, seats=[{"kind": "human"}, {"kind": "computer"}])
    err(client.post(f"/api/tables/{full['table']['id']}/join", json={"name": "Bob"}), 409, "not_open")
    spec = client.get("/openapi.json").json()
    assert "/api/tables" in spec["paths"] and "/api/tables/{table_id}/join" in spec["paths"]


def test_http_rate_limit(backend: Backend) -> None:
    with make_client(backend, ip_rate=1, ip_burst=5) as c:
        codes = [c.get("/api/health").status_code for _ in range(8)]
        assert codes[:5] == [200] * 5 and codes[-1] == 429
        r = c.get("/api/health")
        err(r, 429, "rate_limited")
        assert int(r.headers["Retry-After"]) >= 1


def test_request_bodies_take_strict_types(tmp_path: Any) -> None:
    """A value of the wrong JSON type is refused (400 bad_request naming the field), never
    converted: "0" or true for a seat, "yes" or 1 for a flag; unknown fields are refused."""
    with make_client(Backend("sqlite", f"sqlite:///{tmp_path / 'strict.db'}")) as c:
        two = [{"kind": "human"}, {"kind": "human"}]
        bad: list[tuple[dict[str, Any], str]] = [
            ({"seat": "0"}, "seat"),
            ({"seat": True}, "seat"),
            ({"seat": 0.0}, "seat"),
            ({"hints": "yes"}, "hints"),
            ({"hints": 1}, "hints"),
            ({"rated": "false"}, "rated"),
            ({"rated": 0}, "rated"),
            ({"title": 7}, "title"),
            ({"preset": 1}, "preset"),
            ({"rules": [["edition", "modern"]]}, "rules"),
            ({"seats": [{"kind": "human", "agent": 3}, {"kind": "human"}]}, "seats.0.agent"),
            ({"seats": [{"kind": "human", "color": "red"}, {"kind": "human"}]}, "seats.0.color"),
            ({"hint": True}, "hint"),  # a misspelt field is not silently ignored
        ]
        for fields, name in bad:
            r = c.post("/api/tables", json={"name": "Ann", "seats": two, **fields})
            err(r, 400, "bad_request")
            assert r.json()["error"]["message"].startswith(f"{name}: "), (fields, r.text)
        err(c.post("/api/tables", json={"name": "Ann", "seats": two, "rules": {"players": 2.0}}), 400, "bad_rules")
        assert c.get("/api/tables?status=open").json()["tables"] == []  # nothing was created
        tid = create(c, seats=two, seat=1, hints=True, rated=False)["table"]["id"]
        for fields, name in [({"seat": "0"}, "seat"), ({"seat": True}, "seat"), ({"seat": 0.0}, "seat"),
                             ({"name": 5}, "name"), ({"token": "x"}, "token")]:
            r = c.post(f"/api/tables/{tid}/join", json={"name": "Bob", **fields})
            err(r, 400, "bad_request")
            assert r.json()["error"]["message"].startswith(f"{name}: "), (fields, r.text)
        t = c.get(f"/api/tables/{tid}").json()
        assert t["status"] == "open" and [s["kind"] for s in t["seats"]] == ["open", "human"]
        assert t["hints"] is True and t["rated"] is False
        assert c.post(f"/api/tables/{tid}/join", json={"name": "Bob", "seat": 0}).status_code == 200


def test_ws_fields_take_strict_types(tmp_path: Any) -> None:
    """WebSocket fields are as strictly typed: "1", true or 1.0 is never taken for 1."""
    with make_client(Backend("sqlite", f"sqlite:///{tmp_path / 'strict.db'}")) as c:
        made = create(c, seats=[{"kind": "human"}, {"kind": "human"}])
        tid = made["table"]["id"]
        bob = c.post(f"/api/tables/{tid}/join", json={"name": "Bob"}).json()
        with c.websocket_connect(f"/ws/tables/{tid}") as s0, c.websocket_connect(f"/ws/tables/{tid}") as s1:
            a, b = WS(s0, 0), WS(s1, 1)
            a.hello(made["token"])
            b.hello(bob["token"])
            a.send(type="sync", id="s")
            st = a.until(lambda m: m["type"] == "state" and m.get("id") == "s")
            mover = a if st["observation"]["to_move"] == 0 else b
            mover.send(type="hello", token=12345)
            assert mover.error()["code"] == "bad_token"
            mover.hello(made["token"] if mover is a else bob["token"])
            version = st["version"]
            bad: list[dict[str, Any]] = [
                {"type": "action", "action": {"action": "take", "row": "0"}},
                {"type": "action", "action": {"action": "take", "row": True}},
                {"type": "action", "action": {"action": "take", "row": False}},
                {"type": "action", "action": {"action": "take", "row": 0.0}},
                {"type": "action", "action": {"action": "place", "row": "1"}},
                {"type": "action", "action": {"action": "choose_start", "color": 1}},
                {"type": "action", "action": {"action": "draw"}, "version": True},
                {"type": "action", "action": {"action": "draw"}, "version": float(version)},
                {"type": "action", "action": {"action": "draw"}, "version": str(version)},
                {"type": "hand_over", "seat": "1"},
                {"type": "hand_over", "seat": True},
                {"type": "hand_over", "seat": 1.0},
                {"type": "hand_over", "seat": mover.seat, "agent": 5},
            ]
            for msg in bad:
                mover.send(**msg)
                e = mover.error()
                assert e["code"] == "bad_message", (msg, e)
                mover.ping()
            mover.send(type=1)
            assert mover.error()["code"] == "unknown_type"
            mover.send(type="action", action={"action": "draw"}, token=7)
            assert mover.error()["code"] == "bad_token"
            t = c.get(f"/api/tables/{tid}").json()
            assert t["version"] == version and [s["kind"] for s in t["seats"]] == ["human", "human"]
            mover.send(type="action", action={"action": "draw"}, version=version, id="ok")
            assert mover.until(lambda m: m["type"] == "state" and m.get("id") == "ok")["version"] == version + 1


# ----- WebSocket ------------------------------------------------------------------------------------------
def test_every_bad_message_is_refused_and_connection_survives(client: TestClient) -> None:
    made = create(client)
    tid, tok0 = made["table"]["id"], made["token"]
    with client.websocket_connect(f"/ws/tables/{tid}") as s:
        a = WS(s)
        a.send(type="action", action={"action": "draw"})
        assert a.error()["code"] == "hello_first"
        a.send(type="hello", token="not-a-token")
        assert a.error()["code"] == "bad_token"
        w = a.hello(tok0)
        assert w["seat"] == 0 and w["role"] == "player"
        a.send(type="action", action={"action": "draw"}, id=1)
        e = a.error()
        assert e["code"] == "not_started" and e["id"] == 1
        j = client.post(f"/api/tables/{tid}/join", json={"name": "Bob"}).json()
        tok1 = j["token"]
        st = a.until(lambda m: m["type"] == "state" and m["status"] == "playing")
        hub = client.app.state.hub  # type: ignore[attr-defined]
        table = hub.tables[tid]
        # make sure a human is to move: wait for a state in which seat 0 or 1 must decide
        with client.websocket_connect(f"/ws/tables/{tid}") as s1:
            b = WS(s1)
            b.hello(tok1)
            st = a.until(lambda m: m["type"] == "state" and m["observation"]["to_move"] in (0, 1)) if st["observation"]["to_move"] not in (0, 1) else st
            mover, other = (a, b) if st["observation"]["to_move"] == 0 else (b, a)
            other_tok = tok1 if mover is a else tok0
            version = table.version
            bad: list[tuple[Any, str]] = [
                ("this is not json", "bad_json"),
                ("[1, 2]", "bad_json"),
                (json.dumps({"type": "action", "action": {"action": "draw"}, "pad": "x" * 5000}), "too_large"),
                (json.dumps({"type": "dance"}), "unknown_type"),
                (json.dumps({"no": "type"}), "unknown_type"),
                (json.dumps({"type": "action", "action": {"action": "fly"}}), "bad_message"),
                (json.dumps({"type": "action", "action": {"action": "take", "row": "one"}}), "bad_message"),
                (json.dumps({"type": "action", "action": "draw"}), "bad_message"),
                (json.dumps({"type": "action", "action": {"action": "draw"}, "version": "x"}), "bad_message"),
                (json.dumps({"type": "action", "action": {"action": "draw"}, "version": version + 5}), "stale"),
                (json.dumps({"type": "action", "action": {"action": "draw"}, "token": other_tok}), "bad_token"),
                (json.dumps({"type": "action", "action": {"action": "place", "row": 0}}), "illegal_action"),
                (json.dumps({"type": "action", "action": {"action": "take", "row": 5}}), "illegal_action"),
                (json.dumps({"type": "action", "action": {"action": "take", "row": 99}}), "illegal_action"),
                (json.dumps({"type": "hint"}), "hints_disabled"),
                (json.dumps({"type": "reclaim"}), "not_allowed"),
                (json.dumps({"type": "rematch"}), "not_allowed"),
                (json.dumps({"type": "hand_over", "seat": 2}), "not_allowed"),
                (json.dumps({"type": "hand_over", "seat": 7}), "bad_message"),
                (json.dumps({"type": "hand_over", "seat": 1 if mover is a else 0, "agent": "oracle"}), "bad_agent"),
            ]
            for text, code in bad:
                mover.send_text(text)
                e = mover.error()
                assert e["code"] == code, (text, e)
                if code == "illegal_action":
                    assert e["rule"]
                if '"row": 99' in text:
                    assert e["message"].startswith("there is no row 100: this table has rows 1 to "), e
                mover.ping()
            other.send(type="action", action={"action": "draw"}, id="x")
            e = other.error()
            assert e["code"] == "not_your_turn" and e["id"] == "x"
            other.ping()
            assert table.version == version and table.status == "playing"
            # a spectator cannot act
            with client.websocket_connect(f"/ws/tables/{tid}") as s2:
                c = WS(s2)
                w = c.hello()
                assert w["role"] == "spectator" and w["seat"] is None
                c.send(type="action", action={"action": "draw"})
                assert c.error()["code"] == "not_seated"
                c.send(type="hand_over", seat=0)
                assert c.error()["code"] == "not_seated"
                c.ping()
            # a good action from the mover is accepted and acknowledged
            mover.send(type="sync", id="s0")
            legal = mover.until(lambda m: m["type"] == "state" and m.get("id") == "s0")["legal"]
            assert legal
            mover.send(type="action", action=legal[0], version=version, id="go")
            ack = mover.until(lambda m: m["type"] == "state" and m.get("id") == "go")
            assert ack["version"] == version + 1 and ack["log"][-1]["action"] == legal[0]
            other.until(lambda m: m["type"] == "state" and m["version"] == version + 1)
            mover.send(type="sync", id="s")
            full = mover.until(lambda m: m["type"] == "state" and m.get("id") == "s")
            assert full["log_from"] == 0 and len(full["log"]) == full["version"]


def test_unknown_table_socket_is_closed(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    with client.websocket_connect("/ws/tables/nope") as s:
        assert s.receive_json()["code"] == "not_found"
        with pytest.raises(WebSocketDisconnect) as exc:
            s.receive_json()
        assert exc.value.code == 4404


def test_ws_rate_limit(backend: Backend) -> None:
    with make_client(backend, ws_rate=1, ws_burst=3) as c:
        made = create(c)
        with c.websocket_connect(f"/ws/tables/{made['table']['id']}") as s:
            a = WS(s)
            for i in range(6):
                a.send(type="ping", id=i)
            got = [a.recv() for _ in range(6)]
            assert [m["type"] for m in got[:3]] == ["pong"] * 3
            assert all(m["type"] == "error" and m["code"] == "rate_limited" for m in got[3:])


def secret_pile(client: TestClient, tid: str) -> list[str]:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    initial = hub.tables[tid].game.initial
    return [CARD_NAMES[c] for c in reversed(initial.pile)]


def leaks(msg: Any, pile: list[str], seed: int) -> list[str]:
    """Ways a message could reveal the draw pile order (empty: none)."""
    text = json.dumps(msg)
    found = [k for k in ("pile_top_first", "shuffle_seed", '"setup"', '"draw_pile": [') if k in text]
    if str(seed) in text:
        found.append("seed")
    windows = {tuple(pile[i:i + 6]) for i in range(len(pile) - 5)}
    windows |= {tuple(reversed(w)) for w in windows}

    def walk(x: Any) -> None:
        if isinstance(x, list):
            if len(x) >= 6 and all(isinstance(v, str) for v in x):
                for i in range(len(x) - 5):
                    if tuple(x[i:i + 6]) in windows:
                        found.append(f"pile slice {x[i:i + 6]}")
            for v in x:
                walk(v)
        elif isinstance(x, dict):
            for v in x.values():
                walk(v)

    walk(msg)
    return found


def test_full_game_result_record_replay_leaderboard_and_pile_secrecy(client: TestClient) -> None:
    # a rated game (for the leaderboard): between two accounts
    assert client.post("/api/accounts", json={"name": "Ann", "password": "Ann's password"}).status_code == 201
    made = create(client, rules={"edition": "modern"}, rated=True)
    tid = made["table"]["id"]
    client.cookies.clear()
    assert client.post("/api/accounts", json={"name": "Bob", "password": "Bob's password"}).status_code == 201
    j = client.post(f"/api/tables/{tid}/join", json={"name": "Bob"}).json()
    hub = client.app.state.hub  # type: ignore[attr-defined]
    pile, seed = secret_pile(client, tid), hub.tables[tid].data.seed
    assert len(pile) > 50
    # the detector works: a message holding the pile is caught
    assert leaks({"x": pile[3:12]}, pile, seed)
    http_during = [client.get(f"/api/tables/{tid}").json(), client.get("/api/tables").json()]
    rng = random.Random(5)
    with client.websocket_connect(f"/ws/tables/{tid}") as s0, client.websocket_connect(f"/ws/tables/{tid}") as s1, \
            client.websocket_connect(f"/ws/tables/{tid}") as s2:
        a, b, spec = WS(s0, 0), WS(s1, 1), WS(s2)
        a.hello(made["token"])
        b.hello(j["token"])
        spec.hello()
        last = play({0: a, 1: b}, choose=lambda legal: rng.choice(legal))
        assert last["status"] == "finished"
        http_during.append(client.get(f"/api/tables/{tid}").json())
        for w in (b, spec):
            w.until(lambda m: m["type"] == "state" and m["status"] == "finished")
        for w in (a, b, spec):
            for m in w.seen:
                if m["type"] == "state" and m["status"] == "finished":
                    continue
                assert not leaks(m, pile, seed), (m, leaks(m, pile, seed))
        for m in http_during[:2]:
            assert not leaks(m, pile, seed)
        res = last["result"]
        assert len(res["breakdowns"]) == 4 and min(res["ranks"]) == 1
        for bd, score in zip(res["breakdowns"], res["scores"]):
            assert bd["total"] == score == sum(bd["positive"].values()) + sum(bd["negative"].values()) + bd["plus2"]
        # spectators saw seat null, players their own seat
        assert all(m["observation"]["seat"] is None for m in spec.seen if m["type"] == "state")
        assert all(m["observation"]["seat"] == 1 for m in b.seen if m["type"] == "state")
        # nothing is accepted after the end
        a.send(type="action", action={"action": "draw"})
        assert a.error()["code"] == "game_over"
    rec = client.get(f"/api/tables/{tid}/record")
    assert rec.status_code == 200 and "attachment" in rec.headers["content-disposition"]
    record = rec.json()
    check = replay_record(record)
    assert check.valid and check.finished and record["result"]["scores"] == res["scores"]
    assert record["seats"][:2] == ["Ann", "Bob"] and record["setup"]["draw_pile"] == pile
    rp = client.get(f"/api/tables/{tid}/replay").json()
    assert len(rp["steps"]) == last["version"] + 1
    assert rp["steps"][-1]["observation"]["decision"] == "over" and rp["steps"][0]["action"] is None
    lb = client.get("/api/leaderboard").json()
    assert lb["games"] == 1 and {p["name"] for p in lb["players"]} == {"Ann", "Bob"}
    lbc = client.get("/api/leaderboard?computers=true").json()
    assert {p["name"] for p in lbc["players"]} == {"Ann", "Bob", "computer:easy", "computer:greedy"}


def test_reconnect_presence_hand_over_reclaim(client: TestClient) -> None:
    made = create(client)
    tid = made["table"]["id"]
    j = client.post(f"/api/tables/{tid}/join", json={"name": "Bob"}).json()
    with client.websocket_connect(f"/ws/tables/{tid}") as s0:
        a = WS(s0, 0)
        a.hello(made["token"])
        with client.websocket_connect(f"/ws/tables/{tid}") as s1:
            b = WS(s1, 1)
            b.hello(j["token"])
            a.until(lambda m: m["type"] == "seats" and m["seats"][1]["connected"])
            play({0: a, 1: b}, stop_at=10)
        # Bob left: the others see it
        m = a.until(lambda m: m.get("seats") and not m["seats"][1]["connected"])
        assert m["seats"][1]["away_seconds"] is not None
        # Bob comes back with his token (reload): same seat, the game where it was
        with client.websocket_connect(f"/ws/tables/{tid}") as s1:
            b = WS(s1, 1)
            w = b.hello(j["token"])
            assert w["seat"] == 1 and w["table"]["version"] >= 10
            a.until(lambda m: m.get("seats") and m["seats"][1]["connected"])
            a.send(type="hand_over", seat=1)
            assert a.error()["code"] == "not_allowed"  # Bob is connected
        a.until(lambda m: m.get("seats") and not m["seats"][1]["connected"])
        a.send(type="hand_over", seat=1, agent="greedy")
        m = a.until(lambda m: m["type"] == "state" and m["seats"][1]["kind"] == "computer")
        assert m["seats"][1]["handed_over"] and m["seats"][1]["name"] == "Bob"
        # with seats 1..3 played by computers, Ann's moves are all that is needed
        with client.websocket_connect(f"/ws/tables/{tid}") as s1:
            b = WS(s1, 1)
            b.hello(j["token"])
            b.send(type="reclaim")
            b.until(lambda m: m["type"] == "state" and m["seats"][1]["kind"] == "human")
            a.send(type="hand_over", seat=1)
            assert a.error()["code"] == "not_allowed"
            b.send(type="hand_over", seat=1, agent="easy")  # own seat: any time
            b.until(lambda m: m["type"] == "state" and m["seats"][1]["kind"] == "computer")
        last = play({0: a})
        assert last["status"] == "finished"


def test_rematch(client: TestClient) -> None:
    made = create(client, seats=[{"kind": "human"}, {"kind": "computer", "agent": "easy"}])
    tid = made["table"]["id"]
    with client.websocket_connect(f"/ws/tables/{tid}") as s0:
        a = WS(s0, 0)
        a.hello(made["token"])
        play({0: a})
        a.send(type="rematch", id="r")
        r = a.until(lambda m: m["type"] == "rematch")
        assert r["id"] == "r" and r["seat"] == 0 and r["table_id"] != tid
        # asking again (the reply was lost, another tab): the same seat, with a new token
        a.send(type="rematch", id="again")
        again = a.until(lambda m: m["type"] in ("rematch", "error"))
        assert again["type"] == "rematch", again
        assert (again["id"], again["table_id"], again["seat"]) == ("again", r["table_id"], 0)
        assert again["token"] != r["token"]
    with client.websocket_connect(f"/ws/tables/{r['table_id']}") as s1:
        assert WS(s1, 0).hello(again["token"])["seat"] == 0
    with client.websocket_connect(f"/ws/tables/{r['table_id']}") as s2:
        old = WS(s2, 0)
        old.send(type="hello", token=r["token"])  # the earlier token no longer opens the seat
        assert old.until(lambda m: m["type"] == "error")["code"] == "bad_token"
    t2 = client.get(f"/api/tables/{r['table_id']}").json()
    assert t2["status"] == "playing" and t2["seats"][1]["agent"] == "easy"
    assert client.get(f"/api/tables/{tid}").json()["rematch"] == r["table_id"]


def test_hints(client: TestClient) -> None:
    made = create(client, seats=[{"kind": "human"}, {"kind": "computer", "agent": "easy"}], hints=True)
    tid = made["table"]["id"]
    with client.websocket_connect(f"/ws/tables/{tid}") as s0:
        a = WS(s0, 0)
        a.hello(made["token"])
        a.send(type="sync")
        m = a.until(lambda m: m["type"] == "state" and m["legal"])
        a.send(type="hint", id="h")
        reply = a.until(lambda m: m["type"] in ("hint", "error"))
        assert reply["type"] == "hint" and reply["action"] in m["legal"] and reply["id"] == "h"
        assert len(reply["options"]) == len(m["legal"]) and reply["explanation"]
        assert {o["action"]["action"] for o in reply["options"]} == {x["action"] for x in m["legal"]}


def test_messages_for_people_count_seats_and_rows_from_one(client: TestClient) -> None:
    """Every error message and hint text that names a seat or a row counts from 1 (the
    browser shows them as they are); the JSON fields keep counting from 0."""
    assert [action_text(Action.from_json(a)) for a in (
        {"action": "draw"}, {"action": "place", "row": 0}, {"action": "take", "row": 5},
        {"action": "choose_start", "color": "green"})] == [
        "draw a card", "place the card in row 1", "take row 6", "start with green"]
    made = create(client, hints=True)
    tid = made["table"]["id"]
    r = client.post(f"/api/tables/{tid}/join", json={"name": "Bob", "seat": 0})
    assert r.json()["error"]["message"] == "seat 1 is not open"
    assert client.post(f"/api/tables/{tid}/join", json={"name": "Bob", "seat": 9}).json()["error"]["message"] \
        == "seat: must be 0 to 3, not 9"
    j = client.post(f"/api/tables/{tid}/join", json={"name": "Bob", "seat": 1}).json()
    with client.websocket_connect(f"/ws/tables/{tid}") as s0, client.websocket_connect(f"/ws/tables/{tid}") as s1:
        people = {0: WS(s0, 0), 1: WS(s1, 1)}
        people[0].hello(made["token"])
        people[1].hello(j["token"])
        people[0].send(type="sync")
        st = people[0].until(lambda m: m["type"] == "state" and m["observation"]["to_move"] in (0, 1))
        mover = st["observation"]["to_move"]
        other = 1 - mover
        waiting = people[other]
        waiting.send(type="action", action={"action": "draw"})
        assert waiting.error()["message"] == f"seat {mover + 1} is to move, not seat {other + 1}"
        waiting.send(type="hint")
        assert waiting.error()["message"] == f"seat {mover + 1} is to move"
        waiting.send(type="hand_over", seat=2)
        assert waiting.error()["message"] == "seat 3 is not played by a person"
        waiting.send(type="hand_over", seat=mover)
        assert waiting.error()["message"] == f"the player of seat {mover + 1} must be disconnected for 0 s first"
        waiting.send(type="hand_over", seat=9)
        assert waiting.error()["message"] == "seat: must be 0 to 3, not 9"
        # the hint names rows as people count them, the action keeps the JSON row
        ws = people[mover]
        for _ in range(6):
            ws.send(type="sync")
            st = ws.until(lambda m: m["type"] == "state" and m["legal"])
            ws.send(type="hint")
            hint = ws.until(lambda m: m["type"] == "hint")
            for o in hint["options"]:
                a = o["action"]
                want = {"draw": "draw a card", "place": f"place the card in row {a.get('row', 0) + 1}",
                        "take": f"take row {a.get('row', 0) + 1}"}[a["action"]]
                assert o["text"] == want, o
            assert hint["explanation"].startswith(hint["options"][0]["text"] + ": chance to win ")
            # how sure: the interval and the samples, and the search (the strongest installed)
            best = hint["options"][0]
            assert "(95% interval " in hint["explanation"]
            assert f"{best['samples']} samples ({best['evaluator']})" in hint["explanation"]
            assert {o["evaluator"] for o in hint["options"]} <= {"ismcts-value", "mcts"}
            version = st["version"]
            ws.send(type="action", action=hint["action"], version=version)
            after = ws.until(lambda m, v=version: m["type"] == "state" and m["version"] > v)
            if after["observation"]["to_move"] != mover:
                break


def test_restart_continues_from_the_database(backend: Backend) -> None:
    with make_client(backend) as c:
        made = create(c)
        tid = made["table"]["id"]
        j = c.post(f"/api/tables/{tid}/join", json={"name": "Bob"}).json()
        with c.websocket_connect(f"/ws/tables/{tid}") as s0, c.websocket_connect(f"/ws/tables/{tid}") as s1:
            a, b = WS(s0, 0), WS(s1, 1)
            a.hello(made["token"])
            b.hello(j["token"])
            st = play({0: a, 1: b}, stop_at=20)
        before = c.get(f"/api/tables/{tid}").json()["version"]
        assert before >= st["version"]
    with make_client(backend) as c:
        t = c.get(f"/api/tables/{tid}").json()
        assert t["version"] == before and t["status"] == "playing"
        with c.websocket_connect(f"/ws/tables/{tid}") as s0, c.websocket_connect(f"/ws/tables/{tid}") as s1:
            a, b = WS(s0, 0), WS(s1, 1)
            assert a.hello(made["token"])["seat"] == 0
            b.hello(j["token"])
            last = play({0: a, 1: b})
        assert last["status"] == "finished"
        assert replay_record(c.get(f"/api/tables/{tid}/record").json()).valid


def test_match_of_computers_log_rounds_games_and_result(client: TestClient) -> None:
    seats = [{"kind": "computer", "agent": "random"} for _ in range(3)]
    made = create(client, seats, rules={"edition": "modern", "match_games": 2, "extra_card": "first_out_draws"})
    tid = made["table"]["id"]
    assert made["seat"] is None
    hub = client.app.state.hub  # type: ignore[attr-defined]
    pile, seed = secret_pile(client, tid), hub.tables[tid].data.seed
    with client.websocket_connect(f"/ws/tables/{tid}") as s:
        spec = WS(s)
        spec.hello()
        spec.until(lambda m: m["type"] == "state" and m["status"] == "finished")
    log: dict[int, dict[str, Any]] = {}
    for m in spec.seen:
        if m["type"] != "state":
            continue
        if m["status"] != "finished":
            assert not leaks(m, pile, seed), leaks(m, pile, seed)
            assert m["observation"]["game"] in (1, 2) and len(m["observation"]["match_totals"]) == 3
        for e in m["log"]:
            log[e["i"]] = e
    entries = [log[i] for i in range(len(log))]
    assert entries and all(e["game"] in (1, 2) and e["round"] >= 1 for e in entries)
    assert [e["game"] for e in entries if e.get("last_round")] == [1, 2]
    assert any(e.get("bonus_cards") for e in entries)  # first_out_draws: every round
    ends = [e for e in entries if "game_scores" in e]
    assert [e["game"] for e in ends] == [1, 2] and ends[-1] is entries[-1]
    res = client.get(f"/api/tables/{tid}").json()
    assert res["status"] == "finished"
    rp = client.get(f"/api/tables/{tid}/replay").json()
    result = rp["result"]
    assert result["match_games"] == 2 and result["game_scores"] == [e["game_scores"] for e in ends]
    assert [a + b for a, b in zip(*result["game_scores"])] == result["scores"]
    assert result["ranks"] == [1 + sum(u > t for u in result["scores"]) for t in result["scores"]]
    # the replay steps carry the log fields
    assert [{k: v for k, v in st.items() if k not in ("observation", "i")} for st in rp["steps"][1:]] == [
        {**{k: v for k, v in e.items() if k != "i"}, "card": e.get("card")} for e in entries]
    for bd in result["breakdowns"]:
        assert set(bd["golden_jokers"]) <= set(bd["jokers"])


def test_trained_policy_plays_a_computer_seat(client: TestClient) -> None:
    """The lobby offers the trained policy (``policy``, the shipped ``policy:builtin``) as a
    computer player, and it plays a whole game at a table."""
    assert "policy" in client.get("/api/options").json()["agents"]
    made = create(client, seats=[{"kind": "human"}, {"kind": "computer", "agent": "policy"}])
    tid = made["table"]["id"]
    with client.websocket_connect(f"/ws/tables/{tid}") as s0:
        a = WS(s0, 0)
        a.hello(made["token"])
        last = play({0: a})
    assert last["status"] == "finished"
    assert client.get(f"/api/tables/{tid}").json()["seats"][1]["agent"] == "policy"


def test_pages_and_health_answer_head_requests(client: TestClient) -> None:
    """HEAD (uptime monitors, ``curl -I``) gets the headers of GET and no body."""
    tid = create(client)["table"]["id"]
    for path in ("/", f"/table/{tid}", f"/replay/{tid}", "/rules", "/score", "/score-sw.js", "/api/health"):
        got, head = client.get(path), client.head(path)
        assert head.status_code == got.status_code == 200, path
        assert head.headers["content-type"] == got.headers["content-type"], path
        assert head.content == b"", path
    for path in ("/api/tables", "/api/options", f"/api/tables/{tid}", "/static/app.js"):
        got, head = client.get(path), client.head(path)
        assert head.status_code == got.status_code == 200, path
        assert head.content == b"" and head.headers["content-length"] == got.headers["content-length"], path
    assert client.head("/api/score").status_code == 405  # no GET there, so no HEAD either
    assert client.get("/api/health").json()["status"] == "ok"  # GET still has its body
