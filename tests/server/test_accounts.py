"""Accounts behind the leaderboard (docs/web-api.md, "Accounts"), on SQLite, PostgreSQL and
the in-memory parts: unique names compared after case folding and look-alike letters,
Argon2 passwords, signed HttpOnly SameSite session cookies, rated games only between
account holders (one seat per account, no hints), reserved computer names, and a
leaderboard keyed by account. Also the migration of a database made before accounts.
"""

from __future__ import annotations

import random
from http.cookies import SimpleCookie
from typing import Any

import pytest
from aio import run
from backends import Backend
from fastapi.testclient import TestClient
from sqlalchemy import insert, inspect, select
from wsutil import WS, play

from coloretto.server.accounts import (
    SESSION_COOKIE,
    Accounts,
    MemoryAccountStore,
    SessionSigner,
    check_reserved,
    name_keys,
)
from coloretto.server.config import Settings
from coloretto.server.db import Store, make_engine
from coloretto.server.errors import Problem
from coloretto.server.models import AccountRow, ResultRow, SeatRow, TableRow
from coloretto.server.store import now

pytestmark = pytest.mark.timeout(180)

PASSWORD = "correct horse battery"
RATED = [{"kind": "human"}, {"kind": "human"}, {"kind": "computer", "agent": "random"}]


def err(r: Any, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code, r.text


def _signed(c: TestClient, path: str, status: int, name: str, password: str) -> dict[str, Any]:
    """Sign up or log in as ``name`` on ``c`` (its cookie jar then holds only that session)."""
    c.cookies.clear()
    r = c.post(path, json={"name": name, "password": password})
    assert r.status_code == status, r.text
    account: dict[str, Any] = r.json()["account"]
    return account


def sign_up(c: TestClient, name: str, password: str = PASSWORD) -> dict[str, Any]:
    return _signed(c, "/api/accounts", 201, name, password)


def log_in(c: TestClient, name: str, password: str = PASSWORD) -> dict[str, Any]:
    return _signed(c, "/api/session", 200, name, password)


def session_cookie(r: Any) -> SimpleCookie:
    cookie: SimpleCookie = SimpleCookie()
    cookie.load(r.headers["set-cookie"])
    return cookie


# ----- names, without a server ---------------------------------------------------------------
def test_look_alike_names_share_a_key_and_computer_names_are_reserved() -> None:
    ann = set(name_keys("Ann"))
    for same in ("ann", "ANN", "\u0410nn", "\uff21\uff4e\uff4e", " Ann "):  # Cyrillic А; fullwidth Ａｎｎ
        assert ann & set(name_keys(same)), same
    assert not ann & set(name_keys("Anna"))
    assert set(name_keys("Bob_1")) & set(name_keys("Bob_l"))  # 1 and l look alike
    for reserved in ("Computer", "Computer 2 (hard)", "easy", "EXPERT", "Medium", "mcts-v1", "random",
                     "C\u043emputer"):  # the last with a Cyrillic о
        with pytest.raises(Problem) as exc:
            check_reserved(name_keys(reserved))
        assert exc.value.code == "bad_name", reserved
    for fine in ("Ann", "Hardy", "Марія", "Easyrider"):
        check_reserved(name_keys(fine))
    with pytest.raises(Problem, match="look alike"):
        name_keys("1l1l1l1l1l1l")  # 4**12 readings: refused before they are listed


def test_session_signatures_and_secrets() -> None:
    signer = SessionSigner("s" * 40)
    value = signer.dumps(7, 2)
    assert signer.loads(value) == (7, 2)
    assert SessionSigner("t" * 40).loads(value) is None  # another server's secret
    assert signer.loads(value[:-2] + ("AA" if not value.endswith("AA") else "BB")) is None
    assert signer.loads("") is None and signer.loads("not.a.cookie") is None
    with pytest.raises(ValueError, match="32 characters"):
        SessionSigner("short")
    with pytest.raises(ValueError, match="COLORETTO_SESSION_SECRET"):
        Settings(session_secret="short")

    async def kept() -> None:
        store = MemoryAccountStore()
        a, b = Accounts(store), Accounts(store)
        ann = await a.sign_up("Ann", PASSWORD)
        assert await b.from_cookie(await a.session_cookie(ann)) == ann  # one secret per store
        assert await Accounts(MemoryAccountStore()).from_cookie(await a.session_cookie(ann)) is None

    run(kept())


# ----- the HTTP API -----------------------------------------------------------------------------
def test_sign_up_log_in_log_out_and_cookie_flags(backend: Backend) -> None:
    with backend.client() as c:
        assert c.get("/api/session").json() == {"account": None}
        r = c.post("/api/accounts", json={"name": "Ann", "password": PASSWORD})
        assert r.status_code == 201, r.text
        ann = r.json()["account"]
        assert ann["name"] == "Ann" and type(ann["id"]) is int
        morsel = session_cookie(r)[SESSION_COOKIE]
        assert morsel["httponly"] is True and morsel["samesite"].lower() == "lax" and morsel["path"] == "/"
        assert int(morsel["max-age"]) == 30 * 86400 and not morsel["secure"]  # plain HTTP here
        assert c.get("/api/session").json() == {"account": ann}
        # the password is stored as an Argon2id hash only
        if backend.kind != "memory":
            engine = make_engine(backend.db_url or "")
            with engine.connect() as conn:
                stored = conn.execute(select(AccountRow.password_hash)).scalar_one()
            engine.dispose()
            assert stored.startswith("$argon2id$") and PASSWORD not in stored
        # names colliding after case folding and look-alike letters
        for same in ("ann", "\u0410nn", "\uff21nn", "ANN "):
            c.cookies.clear()
            err(c.post("/api/accounts", json={"name": same, "password": PASSWORD}), 409, "name_taken")
        for reserved in ("Computer", "Computer 2 (hard)", "hard", "Expert", "greedy"):
            err(c.post("/api/accounts", json={"name": reserved, "password": PASSWORD}), 400, "bad_name")
        err(c.post("/api/accounts", json={"name": "Bob", "password": "short"}), 400, "bad_password")
        err(c.post("/api/accounts", json={"name": "B", "password": PASSWORD}), 400, "bad_name")
        err(c.post("/api/accounts", json={"name": "Bob", "password": 12345678}), 400, "bad_request")
        err(c.post("/api/accounts", json={"name": "Bob", "password": PASSWORD, "admin": True}), 400, "bad_request")
        # wrong password and unknown name: the same refusal, and no cookie
        for name, password in (("Ann", "wrong password"), ("Nobody", PASSWORD), ("Ann", "")):
            r = c.post("/api/session", json={"name": name, "password": password})
            err(r, 401, "bad_login")
            assert r.json()["error"]["message"] == "wrong name or password" and "set-cookie" not in r.headers
        assert c.get("/api/session").json() == {"account": None}
        # the right password, under any spelling of the name
        assert log_in(c, "\u0410NN") == ann
        assert c.get("/api/session").json() == {"account": ann}
        # a forged or altered cookie is no session
        good = c.cookies[SESSION_COOKIE]
        c.cookies.clear()
        c.cookies.set(SESSION_COOKIE, good[:-3] + "xyz")
        assert c.get("/api/session").json() == {"account": None}
        assert log_in(c, "Ann") == ann
        # another server process on the same database accepts the cookie (the secret is shared)
        with backend.client() as other:
            other.cookies.set(SESSION_COOKIE, good)
            assert other.get("/api/session").json() == {"account": ann}
            # log out: the cookie is cleared, and a copy of it kept elsewhere ends too
            r = c.delete("/api/session")
            assert r.status_code == 200 and r.json() == {"account": None}
            gone = session_cookie(r)[SESSION_COOKIE]
            assert gone.value in ("", '""') and gone["httponly"] is True
            assert c.get("/api/session").json() == {"account": None}
            assert other.get("/api/session").json() == {"account": None}
        # logging in again gives a new session that works
        assert log_in(c, "Ann") == ann and c.get("/api/session").json() == {"account": ann}


def rated_game(c: TestClient, first: str, second: str, seed: int, rematch: bool = False) -> str:
    """``first`` creates a rated table (two people and a random computer), ``second`` joins,
    both play it to the end at random (then, with ``rematch``, both ask for the rematch).
    Returns the table id (of the rematch with ``rematch``)."""
    log_in(c, first)
    made = c.post("/api/tables", json={"seats": RATED, "rated": True})
    assert made.status_code == 201, made.text
    tid = made.json()["table"]["id"]
    log_in(c, second)
    joined = c.post(f"/api/tables/{tid}/join", json={}).json()
    rng = random.Random(seed)
    with c.websocket_connect(f"/ws/tables/{tid}") as s0, c.websocket_connect(f"/ws/tables/{tid}") as s1:
        a, b = WS(s0, 0), WS(s1, 1)
        a.hello(made.json()["token"])
        b.hello(joined["token"])
        assert play({0: a, 1: b}, choose=lambda legal: rng.choice(legal))["status"] == "finished"
        if rematch:
            got = []
            for w in (b, a):
                w.send(type="rematch", id="r")
                got.append(w.until(lambda m: m["type"] in ("rematch", "error")))
            assert [m["type"] for m in got] == ["rematch", "rematch"], got
            assert got[0]["table_id"] == got[1]["table_id"] and [m["seat"] for m in got] == [1, 0]
            return str(got[0]["table_id"])
    return str(tid)


def guest_game(c: TestClient, names: tuple[str, str], seed: int) -> None:
    """Two guests (named as they like) play an unrated table to the end."""
    c.cookies.clear()
    made = c.post("/api/tables", json={"name": names[0], "seats": RATED}).json()
    assert made["table"]["rated"] is False  # unrated unless asked, exactly as for guests before
    tid = made["table"]["id"]
    joined = c.post(f"/api/tables/{tid}/join", json={"name": names[1]}).json()
    rng = random.Random(seed)
    with c.websocket_connect(f"/ws/tables/{tid}") as s0, c.websocket_connect(f"/ws/tables/{tid}") as s1:
        a, b = WS(s0, 0), WS(s1, 1)
        a.hello(made["token"])
        b.hello(joined["token"])
        assert play({0: a, 1: b}, choose=lambda legal: rng.choice(legal))["status"] == "finished"


def by_account(board: dict[str, Any]) -> dict[int | None, dict[str, Any]]:
    return {p["account"]: p for p in board["players"] if p["kind"] == "human"}


def test_rated_games_are_for_accounts_one_seat_each_without_hints(backend: Backend) -> None:
    with backend.client() as c:
        ann, bob = sign_up(c, "Ann"), sign_up(c, "Bob")
        # a guest cannot create a rated table, nor take a seat at one
        c.cookies.clear()
        err(c.post("/api/tables", json={"name": "Ann", "seats": RATED, "rated": True}), 401, "account_required")
        log_in(c, "Ann")
        err(c.post("/api/tables", json={"seats": RATED, "rated": True, "hints": True}), 400, "bad_request")
        one_person = [{"kind": "human"}, {"kind": "computer", "agent": "random"}]
        err(c.post("/api/tables", json={"seats": one_person, "rated": True}), 400, "bad_request")
        made = c.post("/api/tables", json={"name": "Computer 3 (hard)", "seats": RATED, "rated": True}).json()
        t = made["table"]
        assert t["rated"] is True and t["hints"] is False
        assert made["seat"] == 0 and t["seats"][0]["name"] == "Ann"  # the account's name, not the one sent
        tid = t["id"]
        # one seat per account: Ann cannot take the second seat as well
        err(c.post(f"/api/tables/{tid}/join", json={"name": "Ann2", "seat": 1}), 409, "already_seated")
        c.cookies.clear()
        err(c.post(f"/api/tables/{tid}/join", json={"name": "Guest"}), 401, "account_required")
        assert c.get(f"/api/tables/{tid}").json()["seats"][1]["kind"] == "open"
        log_in(c, "Bob")
        joined = c.post(f"/api/tables/{tid}/join", json={"name": "Mallory"}).json()
        assert joined["seat"] == 1 and joined["table"]["seats"][1]["name"] == "Bob"
        # no hints in a rated game
        with c.websocket_connect(f"/ws/tables/{tid}") as s0:
            a = WS(s0, 0)
            a.hello(made["token"])
            a.send(type="hint", id="h")
            e = a.error()
            assert e["code"] == "hints_disabled" and e["id"] == "h"
        # guests still play unrated with any name, a computer's included
        c.cookies.clear()
        guest = c.post("/api/tables", json={"name": "Computer 2 (hard)", "seats": RATED, "hints": True}).json()
        assert guest["table"]["rated"] is False and guest["table"]["seats"][0]["name"] == "Computer 2 (hard)"
        assert c.post(f"/api/tables/{guest['table']['id']}/join", json={"name": "Ann"}).status_code == 200
    assert ann["id"] != bob["id"]


def test_the_leaderboard_is_keyed_by_account(backend: Backend) -> None:
    with backend.client() as c:
        ann, bob, cid = sign_up(c, "Ann"), sign_up(c, "Bob"), sign_up(c, "Cid")
        rated_game(c, "Ann", "Bob", seed=1)
        board = c.get("/api/leaderboard").json()
        people = by_account(board)
        assert board["games"] == 1 and set(people) == {ann["id"], bob["id"]}
        assert people[ann["id"]]["name"] == "Ann" and people[ann["id"]]["games"] == 1
        with_computers = c.get("/api/leaderboard?computers=true").json()
        assert {p["name"] for p in with_computers["players"]} == {"Ann", "Bob", "computer:random"}
        assert next(p for p in with_computers["players"] if p["kind"] == "computer")["account"] is None
        # guests calling themselves Ann and Bob change nothing
        guest_game(c, ("Ann", "Bob"), seed=2)
        assert c.get("/api/leaderboard").json() == board
        # a rated game of Ann and Cid changes Ann's entry and adds Cid's; Bob's stays
        rated_game(c, "Cid", "\u0430nn", seed=3)  # Ann logs in with a Cyrillic а
        after = c.get("/api/leaderboard").json()
        now_people = by_account(after)
        assert after["games"] == 2 and set(now_people) == {ann["id"], bob["id"], cid["id"]}
        assert now_people[bob["id"]] == people[bob["id"]]
        assert now_people[ann["id"]]["games"] == 2 and now_people[ann["id"]]["mu"] != people[ann["id"]]["mu"]
        assert [p["name"] for p in after["players"]].count("Ann") == 1


def test_the_store_holds_one_seat_per_account(backend: Backend) -> None:
    """The store itself refuses a second seat of one account at a table (a race between
    two server processes ends there), and keeps the account of each seat."""
    with backend.client() as c:
        ann = sign_up(c, "Ann")
        made = c.post("/api/tables", json={"seats": [{"kind": "human"}] * 3, "rated": True}).json()
        hub = c.app.state.hub  # type: ignore[attr-defined]
        tid = made["table"]["id"]

        async def race() -> tuple[str | None, str | None]:
            again = await hub.store.take_seat(tid, 1, "Ann", "h1", ann["id"])
            other = await hub.store.take_seat(tid, 2, "Ann", "h2", None)
            return again, other

        again, other = c.portal.call(race)  # type: ignore[union-attr]
        assert again is None and other == "open"
        seats = c.portal.call(hub.store.load_seats, tid)  # type: ignore[union-attr]
        assert [s.account_id for s in seats[2]] == [ann["id"], None, None]


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_database_made_before_accounts_is_migrated(kind: str, tmp_path: Any, request: pytest.FixtureRequest) -> None:
    """A database at the schema before accounts, holding a finished rated game of two names, is
    upgraded: accounts appear, its results stay (with no account, so they are not rated)."""
    from alembic import command
    from alembic.config import Config

    from coloretto.server.db import MIGRATIONS_DIR, upgrade

    url = f"sqlite:///{tmp_path / 'old.db'}" if kind == "sqlite" else request.getfixturevalue("pg_url")
    engine = make_engine(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0002")
    assert "accounts" not in inspect(engine).get_table_names()
    stamp = now()
    with engine.begin() as conn:
        conn.execute(insert(TableRow.__table__).values(
            id="old", title="", status="finished", rules={"players": 2}, preset=None, hints=False, rated=True, seed=1,
            setup=[], version=1, created_at=stamp, finished_at=stamp, rematch_id=None))
        conn.execute(insert(SeatRow.__table__), [
            {"table_id": "old", "seat": i, "kind": "human", "name": n, "agent": None, "token_hash": None,
             "handed_over": False} for i, n in enumerate(("Ann", "Bob"))])
        conn.execute(insert(ResultRow.__table__), [
            {"table_id": "old", "seat": i, "name": n, "kind": "human", "score": 10 - i, "rank": i + 1,
             "finished_at": stamp} for i, n in enumerate(("Ann", "Bob"))])
    upgrade(engine)
    upgrade(engine)  # idempotent
    names = inspect(engine).get_table_names()
    assert {"accounts", "account_names", "server_keys"} <= set(names)
    store = Store(engine)
    assert [(r[2], r[6]) for r in store.rated_results()] == [("Ann", None), ("Bob", None)]
    loaded = store.load_table("old")
    assert loaded is not None and [s.account_id for s in loaded.seats] == [None, None]
    # downgrade and upgrade again: the migration runs both ways
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0002")
    assert "accounts" not in inspect(engine).get_table_names()
    upgrade(engine)
    assert "accounts" in inspect(engine).get_table_names()
    engine.dispose()


def test_a_rated_rematch_seats_the_same_accounts(backend: Backend) -> None:
    with backend.client() as c:
        ann, bob = sign_up(c, "Ann"), sign_up(c, "Bob")
        new = rated_game(c, "Ann", "Bob", seed=4, rematch=True)
        t = c.get(f"/api/tables/{new}").json()
        assert t["rated"] is True and t["hints"] is False and t["status"] == "playing"
        assert [s["name"] for s in t["seats"][:2]] == ["Ann", "Bob"]
        hub = c.app.state.hub  # type: ignore[attr-defined]
        seats = c.portal.call(hub.store.load_seats, new)[2]  # type: ignore[union-attr]
        assert [s.account_id for s in seats] == [ann["id"], bob["id"], None]
