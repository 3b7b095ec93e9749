"""The hub's parts (docs/server.md): table store, bus, agent runner, clock and computer seats,
each real implementation and its in-memory twin run through the same test body.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from aio import run
from backends import Backend
from wsutil import WS, play

from coloretto.agents.base import Agent
from coloretto.engine import replay as replay_record
from coloretto.engine.actions import Action
from coloretto.engine.observation import Observation, observe
from coloretto.engine.record import Game
from coloretto.engine.rules import Rules
from coloretto.engine.state import new_game
from coloretto.server.bus import MemoryBroker, MemoryBus, Notice, RedisBus
from coloretto.server.clock import ManualClock
from coloretto.server.computer import FAILURE_POLICY, ComputerSeat, computer_action
from coloretto.server.db import SqlTableStore
from coloretto.server.runner import JobOwner, ThreadRunner
from coloretto.server.store import MemoryTableStore, SeatData, TableData, TableStore, now

pytestmark = pytest.mark.timeout(120)


TWO_AND_COMPUTERS = [{"kind": "human"}, {"kind": "human"}, {"kind": "computer", "agent": "easy"},
                     {"kind": "computer", "agent": "greedy"}]


# ----- table store ------------------------------------------------------------------------------
@pytest.fixture(params=["sqlite", "postgresql", "memory"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TableStore]:
    """An empty, opened table store of each kind (closed afterwards)."""
    if request.param == "memory":
        made: TableStore = MemoryTableStore()
        yield made
        return
    if request.param == "sqlite":
        made = SqlTableStore(f"sqlite:///{tmp_path / 'store.db'}")
        run(made.open())
        yield made
        run(made.close())
        return
    made = SqlTableStore(request.getfixturevalue("pg_url"))
    run(made.open())
    yield made
    run(made.close())


def table_data(tid: str, status: str = "playing", seats: Sequence[str] = ("human", "human")) -> TableData:
    return TableData(
        id=tid, title="", status=status, rules={"players": len(seats)}, preset=None, hints=False,
        rated=tid != "unrated", seed=1, setup=[], version=0, created_at=now(), finished_at=None, rematch_id=None,
        seats=[SeatData(i, kind, None if kind == "open" else f"P{i}", None, None if kind == "open" else f"h{i}", False)
               for i, kind in enumerate(seats)],
    )


def test_table_store_contract(store: TableStore) -> None:
    """Both stores keep the same promises: the version guard, seats taken once, the first
    rematch recorded, tokens issued again to their seat's name only, results of rated games, newest tables first, callers' own copies."""

    async def scenario() -> None:
        for tid in ("t1", "t2", "unrated"):
            await store.create_table(table_data(tid))
        await store.create_table(table_data("open", status="open", seats=("human", "open", "open")))
        assert await store.table_ids(["playing"], 10) == ["unrated", "t2", "t1"]
        assert await store.table_ids(["open"], 10) == ["open"]
        assert await store.table_ids(["open", "playing"], 2) == ["open", "unrated"]
        # the version guard: a second writer at the same position loses; nothing else changes
        assert await store.append_action("t1", 0, 0, 7)
        assert not await store.append_action("t1", 0, 1, 8)
        assert not await store.append_action("t1", 5, 1, 8)
        assert not await store.append_action("nope", 0, 0, 0)
        assert await store.append_action("t1", 1, 1, 9)
        assert await store.actions_since("t1", 0) == [7, 9] and await store.actions_since("t1", 1) == [9]
        # the action that ends the game stores the results; a finished table takes no more
        results = [{"seat": 0, "name": "P0", "kind": "human", "score": 10, "rank": 1},
                   {"seat": 1, "name": "P1", "kind": "human", "score": 5, "rank": 2}]
        assert await store.append_action("t1", 2, 0, 3, results)
        assert not await store.append_action("t1", 3, 1, 4)
        assert await store.append_action("unrated", 0, 0, 1, results)
        loaded = await store.load_table("t1")
        assert loaded is not None and loaded.status == "finished" and loaded.version == 3
        assert loaded.codes == [7, 9, 3] and loaded.finished_at is not None
        assert await store.results_count() == 4
        assert [(r[0], r[1], r[2], r[4], r[5]) for r in await store.rated_results()] == [
            ("t1", 0, "P0", 10, 1), ("t1", 1, "P1", 5, 2)]
        # seats: taken once; the last open seat starts the game; a started table seats nobody
        assert await store.take_seat("open", 1, "Bob", "hb") == "open"
        assert await store.take_seat("open", 1, "Cid", "hc") is None
        assert await store.take_seat("open", 2, "Cid", "hc") == "playing"
        assert await store.take_seat("open", 2, "Dan", "hd") is None
        status, rematch, seats = await store.load_seats("open")
        assert status == "playing" and rematch is None and [s.name for s in seats] == ["P0", "Bob", "Cid"]
        await store.set_seat_control("open", 1, "computer", "easy", True)
        seats = (await store.load_seats("open"))[2]
        assert (seats[1].kind, seats[1].agent, seats[1].handed_over, seats[1].name) == ("computer", "easy", True, "Bob")
        # a seat's token is issued again only to the seat held under that name
        assert await store.reissue_token("open", 2, "Cid", "hc2")
        assert await store.reissue_token("open", 1, "Bob", "hb2")  # handed over: still Bob's
        assert not await store.reissue_token("open", 2, "Dan", "hd")
        assert not await store.reissue_token("open", 7, "Cid", "hc3")
        assert not await store.reissue_token("nope", 0, "P0", "x")
        seats = (await store.load_seats("open"))[2]
        assert [s.token_hash for s in seats] == ["h0", "hb2", "hc2"]
        # the first rematch recorded wins
        assert await store.set_rematch("t1", "r1") == "r1"
        assert await store.set_rematch("t1", "r2") == "r1"
        # what a caller gets is its own
        mine = await store.load_table("t2")
        assert mine is not None
        mine.seats[0].name, mine.status = "changed", "finished"
        again = await store.load_table("t2")
        assert again is not None and again.seats[0].name == "P0" and again.status == "playing"
        assert await store.load_table("nope") is None

    run(scenario())


# ----- bus ----------------------------------------------------------------------------------------
def test_notice_wire_form() -> None:
    n = Notice("Ab3", "presence", "A", counts={0: 1, 2: 0})
    assert Notice.from_json(n.to_json()) == n
    assert Notice.from_json('{"t": "x", "k": "seats", "p": "B"}') == Notice("x", "seats", "B")
    for bad in ('[1]', '{"t": "x", "k": "dance", "p": "B"}', '{"t": 1, "k": "seats", "p": "B"}',
                '{"t": "x", "k": "action", "p": "B", "v": "3"}', '{"t": "x", "k": "presence", "p": "B", "c": {"0": []}}',
                "not json"):
        with pytest.raises(ValueError):
            Notice.from_json(bad)


@pytest.mark.parametrize("kind", ["memory", "redis"])
def test_bus_delivers_every_notice_in_order_to_every_hub(kind: str, request: pytest.FixtureRequest) -> None:
    """Two buses of one broker (memory) or one Redis channel: each hub hears every notice,
    its own included, in the order sent; after ``close`` it hears nothing more."""
    if kind == "redis":
        url = request.getfixturevalue("redis_url")
        channel = "coloretto:test:" + secrets.token_hex(4)
        buses: list[RedisBus | MemoryBus] = [RedisBus(url, channel), RedisBus(url, channel)]
    else:
        broker = MemoryBroker()
        buses = [MemoryBus(broker), MemoryBus(broker)]

    async def scenario() -> list[list[Notice]]:
        heard: list[list[Notice]] = [[], []]
        for i, b in enumerate(buses):
            async def handler(n: Notice, i: int = i) -> None:
                heard[i].append(n)
            await b.start(handler)
        sent = [Notice("T", "action", "A", version=v) for v in range(1, 6)] + [Notice("T", "seats", "B")]
        for n in sent:
            await buses[0 if n.process == "A" else 1].publish(n)
        for _ in range(200):
            if all(len(h) == len(sent) for h in heard):
                break
            await asyncio.sleep(0.01)
        assert heard == [sent, sent]
        await buses[1].close()
        await buses[0].publish(Notice("T", "action", "A", version=9))
        await asyncio.sleep(0.1)
        await buses[0].close()
        return heard

    heard = run(scenario())
    assert len(heard[0]) == 7 and len(heard[1]) == 6


@pytest.fixture(params=["postgresql+redis", "memory"])
def shared(request: pytest.FixtureRequest) -> Backend:
    """Parts that two hubs share: one PostgreSQL database with Redis, or one in-memory store
    and broker."""
    if request.param == "memory":
        return Backend("memory")
    return Backend("postgresql", request.getfixturevalue("pg_url"), request.getfixturevalue("redis_url"))


def test_two_hubs_share_one_store_through_the_bus(shared: Backend) -> None:
    """Two hubs (as two server processes) on one store: a join at one starts the game at the
    other, presence and every action reach both, their computer players race and only one
    move per position counts, and both serve the same record."""
    with shared.client(process_id="A") as ca, shared.client(process_id="B") as cb:
        assert ca.get("/api/health").json()["redis"] is (shared.kind != "memory")
        made = ca.post("/api/tables", json={"name": "Ann", "seats": TWO_AND_COMPUTERS}).json()
        tid = made["table"]["id"]
        with ca.websocket_connect(f"/ws/tables/{tid}") as sa:
            a = WS(sa, 0)
            a.hello(made["token"])
            bob = cb.post(f"/api/tables/{tid}/join", json={"name": "Bob"}).json()  # Bob joins at B
            a.until(lambda m: m["type"] == "state" and m["status"] == "playing")
            with cb.websocket_connect(f"/ws/tables/{tid}") as sb:
                b = WS(sb, 1)
                b.hello(bob["token"])
                a.until(lambda m: m.get("seats") and m["seats"][1]["connected"])
                last = play({0: a, 1: b}, choose=random.Random(4).choice)
            a.until(lambda m: m.get("seats") and not m["seats"][1]["connected"])  # Bob left at B
        assert last["status"] == "finished"
        for c in (ca, cb):  # the other hub hears of the last action a moment later
            for _ in range(500):
                if c.get(f"/api/tables/{tid}").json()["status"] == "finished":
                    break
                time.sleep(0.02)
        records = [c.get(f"/api/tables/{tid}/record").json() for c in (ca, cb)]
        assert records[0] == records[1] and replay_record(records[0]).valid
        assert [c.get(f"/api/tables/{tid}").json()["version"] for c in (ca, cb)] == [last["version"]] * 2


# ----- clock ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["sqlite", "memory"])
def test_hand_over_and_computer_delay_follow_the_clock(kind: str, tmp_path: Path) -> None:
    """With a manual clock: another player's seat can be handed over only once its person
    has been away ``handover_after`` seconds by the hub's clock, and a computer player waits
    ``computer_delay`` on it before moving."""
    backend = Backend(kind, f"sqlite:///{tmp_path / 'clock.db'}")
    clock = ManualClock()
    with backend.client(clock, handover_after=15, computer_delay=2) as c:
        made = c.post("/api/tables", json={"name": "Ann", "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
        tid = made["table"]["id"]
        bob = c.post(f"/api/tables/{tid}/join", json={"name": "Bob"}).json()
        with c.websocket_connect(f"/ws/tables/{tid}") as sa:
            a = WS(sa, 0)
            a.hello(made["token"])
            with c.websocket_connect(f"/ws/tables/{tid}") as sb:
                WS(sb, 1).hello(bob["token"])
                a.until(lambda m: m.get("seats") and m["seats"][1]["connected"])
            m = a.until(lambda m: m.get("seats") and not m["seats"][1]["connected"])
            assert m["seats"][1]["away_seconds"] == 0
            clock.advance(14.5)
            assert c.get(f"/api/tables/{tid}").json()["seats"][1]["away_seconds"] == 14.5
            a.send(type="hand_over", seat=1, agent="random")
            assert a.error()["message"] == "the player of seat 2 must be disconnected for 15 s first"
            clock.advance(0.5)
            a.send(type="hand_over", seat=1, agent="random")
            a.until(lambda m: m["type"] == "state" and m["seats"][1]["kind"] == "computer")
            # play Ann's moves until the computer is to move; it waits for the clock
            while True:
                a.send(type="sync", id="s")
                st = a.until(lambda m: m.get("id") == "s")
                if st["observation"]["to_move"] == 1:
                    break
                a.send(type="action", action=st["legal"][0], version=st["version"], id="go")
                a.until(lambda m: m.get("id") == "go")
            version = st["version"]
            hub = c.app.state.hub  # type: ignore[attr-defined]
            for _ in range(500):
                if clock.sleepers:
                    break
                clock_wait()
            assert clock.sleepers == 1 and hub.tables[tid].version == version
            clock.advance(1.9)
            clock_wait()
            assert hub.tables[tid].version == version  # not yet: 2 s are not over
            clock.advance(0.1)
            a.until(lambda m: m["type"] == "state" and m["version"] > version)


def clock_wait() -> None:
    """Give the server's event loop (another thread) a moment."""
    time.sleep(0.01)


# ----- agent runner -------------------------------------------------------------------------------------
def test_thread_runner_runs_jobs_and_refuses_after_close() -> None:
    async def scenario() -> None:
        runner = ThreadRunner(2)
        owner = JobOwner("T", "127.0.0.1")
        assert await runner.run(owner, sum, [1, 2, 3]) == 6
        assert await runner.run(owner, int, "7", base=8) == 7
        with pytest.raises(ZeroDivisionError):
            await runner.run(owner, divmod, 1, 0)
        await runner.close()
        with pytest.raises(RuntimeError):
            await runner.run(owner, sum, [1])

    run(scenario())
    with pytest.raises(ValueError):
        ThreadRunner(0)


# ----- computer seats and their failure policy -------------------------------------------------------
class Raising(Agent):
    """A computer player that always fails."""

    name = "raising"

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        raise RuntimeError("the search blew up")


class Illegal(Agent):
    """A computer player that answers an action it was not offered."""

    name = "illegal"

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        return Action("take", 99)


class Last(Agent):
    """A computer player that takes the last legal action."""

    name = "last"

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        return legal[-1]


def test_computer_action_applies_the_failure_policy(caplog: pytest.LogCaptureFixture) -> None:
    state = new_game(Rules(players=3), 5)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    seat, legal = state.to_move, state.legal_actions()
    obs = observe(state, seat)

    async def decide(agent: Agent, legal: Sequence[Action] = legal) -> Action:
        runner = ThreadRunner(1)
        try:
            return await computer_action(runner, JobOwner("T"), ComputerSeat(seat, agent.name, agent), obs, legal)
        finally:
            await runner.close()

    with caplog.at_level(logging.WARNING, logger="coloretto.server"):
        assert run(decide(Last())) == legal[-1]
        assert not caplog.records
        assert run(decide(Raising())) == legal[0]
        assert run(decide(Illegal())) == legal[0]
        assert run(decide(Raising(), legal[1:2])) == legal[1]  # one choice: nobody asked
    texts = [r.getMessage() for r in caplog.records]
    assert len(texts) == 2
    assert f"table T seat {seat + 1}: computer player raising failed (RuntimeError: the search blew up)" in texts[0]
    assert "not legal" in texts[1] and f"seat {seat + 1}" in texts[1]
    assert all(f"failure policy: {FAILURE_POLICY}" in t for t in texts)


def test_a_failing_computer_seat_plays_the_first_legal_action(backend: Backend, caplog: pytest.LogCaptureFixture) -> None:
    """A seat handed to a computer player whose agent fails: the game goes on to the end,
    that seat playing the first legal action at each of its decisions, each failure logged."""
    with backend.client() as c, caplog.at_level(logging.WARNING, logger="coloretto.server"):
        made = c.post("/api/tables", json={"name": "Ann", "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
        tid = made["table"]["id"]
        bob = c.post(f"/api/tables/{tid}/join", json={"name": "Bob"}).json()
        hub = c.app.state.hub  # type: ignore[attr-defined]
        t = hub.tables[tid]
        t.computers[1] = ComputerSeat(1, "random", Raising())  # what Bob's seat will get
        with c.websocket_connect(f"/ws/tables/{tid}") as sa, c.websocket_connect(f"/ws/tables/{tid}") as sb:
            a, b = WS(sa, 0), WS(sb, 1)
            a.hello(made["token"])
            b.hello(bob["token"])
            b.send(type="hand_over", seat=1, agent="random")
            b.until(lambda m: m["type"] == "state" and m["seats"][1]["kind"] == "computer")
            last = play({0: a}, choose=lambda legal: legal[-1])
        assert last["status"] == "finished"
        assert replay_record(c.get(f"/api/tables/{tid}/record").json()).valid
        initial, log = t.game.initial, list(t.log)
    failures = [r.getMessage() for r in caplog.records if "computer player random failed" in r.getMessage()]
    assert failures and all(f"table {tid} seat 2:" in f and "RuntimeError" in f for f in failures)
    # every decision of seat 2 (JSON seat 1) was its first legal action; one failure per real choice
    game = Game(initial.copy(), ["Ann", "Bob"])
    choices = 0
    for entry in log:
        action = Action.from_json(entry["action"])
        if entry["seat"] == 1:
            legal = game.state.legal_actions()
            assert action == legal[0], entry
            choices += len(legal) > 1
        game.play(action)
    assert choices == len(failures) > 0
