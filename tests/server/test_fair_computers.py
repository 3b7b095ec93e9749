"""Fair computer players: decisions and hints run in a bounded pool of worker processes
(``pool.ProcessRunner``), served in turn by address and table (``pool.FairScheduler``),
with a per-decision budget; an address may run only a few tables without a person, and
such tables are never rated."""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any

import pytest
from aio import run
from backends import Backend

from coloretto.server.expiry import forget
from coloretto.server.pool import FairScheduler, ProcessRunner, _Job
from coloretto.server.runner import JobOwner

pytestmark = pytest.mark.timeout(120)


def test_the_scheduler_serves_addresses_then_tables_in_turn() -> None:
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        q = FairScheduler()
        for table in range(20):
            for _ in range(5):
                q.push("10.0.0.1", f"spam{table}", _Job(lambda: None, loop.create_future()))
        mine = _Job(lambda: None, loop.create_future())
        q.push("10.0.0.2", "mine", mine)
        assert q.pop() is not mine and q.pop() is mine  # second, behind 100 queued jobs
        assert len(q) == 99

    run(scenario())


def test_the_scheduler_rotates_the_tables_of_one_address() -> None:
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        q = FairScheduler()
        jobs = {}
        for table in ("a", "b"):
            for i in range(3):
                jobs[table, i] = _Job(lambda: None, loop.create_future())
                q.push("x", table, jobs[table, i])
        got = [q.pop() for _ in range(6)]
        assert got == [
            jobs["a", 0],
            jobs["b", 0],
            jobs["a", 1],
            jobs["b", 1],
            jobs["a", 2],
            jobs["b", 2],
        ]
        assert q.pop() is None

    run(scenario())


def test_the_process_runner_is_parallel_fair_and_budgeted() -> None:
    async def scenario() -> None:
        runner = ProcessRunner(2, decision_seconds=1.5)
        try:
            pids = await asyncio.gather(*(runner.run(JobOwner("t"), os.getpid) for _ in range(4)))
            assert os.getpid() not in pids  # worker processes, not threads of this one
            spam = [
                asyncio.ensure_future(
                    runner.run(JobOwner(f"spam{i % 5}", "10.0.0.1"), time.sleep, 0.3)
                )
                for i in range(20)
            ]
            await asyncio.sleep(0.05)
            started = time.monotonic()
            assert await runner.run(JobOwner("mine", "10.0.0.2"), sum, [1, 2]) == 3
            waited = time.monotonic() - started
            assert waited < 1.0, (
                f"a bystander waited {waited:.2f} s behind 20 queued jobs"
            )  # FIFO: 3 s
            with pytest.raises(TimeoutError):
                await runner.run(JobOwner("slow"), time.sleep, 3)
            with pytest.raises(ZeroDivisionError):
                await runner.run(JobOwner("t"), divmod, 1, 0)
            await asyncio.gather(*spam)
        finally:
            await runner.close()
        with pytest.raises(RuntimeError):
            await runner.run(JobOwner("t"), sum, [1])

    run(scenario())


def seats(*kinds: str) -> list[dict[str, Any]]:
    return [{"kind": k, **({"agent": "random"} if k == "computer" else {})} for k in kinds]


def test_quotas_on_tables_without_people_and_waiting_tables() -> None:
    with Backend("memory").client(max_computer_tables=2, max_open_tables=3, computer_delay=5) as c:
        for _ in range(2):
            r = c.post("/api/tables", json={"seats": seats("computer", "computer"), "rated": True})
            assert r.status_code == 201, r.text
            assert r.json()["table"]["rated"] is False  # nobody to rate
        r = c.post("/api/tables", json={"seats": seats("computer", "computer")})
        assert (
            r.status_code == 429
            and r.json()["error"]["code"] == "rate_limited"
            and "at most 2" in r.text
        )
        for _ in range(3):
            r = c.post("/api/tables", json={"name": "Ann", "seats": seats("human", "human"), "rated": False})
            assert r.status_code == 201, r.text
        r = c.post("/api/tables", json={"name": "Ann", "seats": seats("human", "human"), "rated": False})
        assert r.status_code == 429 and "at most 3" in r.text


@pytest.mark.slow
def test_a_served_game_of_computers_runs_in_the_worker_processes(tmp_path: Any) -> None:
    with Backend("sqlite", f"sqlite:///{tmp_path / 'c.db'}").client(agent_processes=1) as c:
        made = c.post("/api/tables", json={"seats": seats("computer", "computer")}).json()
        tid = made["table"]["id"]
        hub = c.app.state.hub  # type: ignore[attr-defined]
        assert isinstance(hub.runner, ProcessRunner)
        deadline = time.monotonic() + 90
        while c.get(f"/api/tables/{tid}").json()["status"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.2)


def test_simultaneous_creations_cannot_pass_the_quota(tmp_path: Any) -> None:
    with Backend("sqlite", f"sqlite:///{tmp_path / 'q.db'}").client(max_computer_tables=2, computer_delay=5) as c:
        hub = c.app.state.hub  # type: ignore[attr-defined]

        async def many() -> list[Any]:
            return await asyncio.gather(*(
                hub.create_table(name=None, seats=seats("computer", "computer"), seat=None, rules={}, preset=None,
                                 hints=False, rated=True, title="", address="10.0.0.7")
                for _ in range(6)), return_exceptions=True)

        assert c.portal is not None
        results = c.portal.call(many)
        assert sum(not isinstance(r, Exception) for r in results) == 2, results
        assert len(hub.creating) == 0  # the locks go once no creation is under way


def test_quotas_hold_over_server_processes_and_forgotten_tables(backend: Backend) -> None:
    """Two server processes on one store count an address's tables together, and a table
    this process no longer holds in memory still counts until it is over."""
    limits = {"max_computer_tables": 2, "max_open_tables": 2, "computer_delay": 30}
    with backend.client(**limits) as first, backend.client(**limits) as second:
        made = [first.post("/api/tables", json={"seats": seats("computer", "computer")}) for _ in range(2)]
        assert [r.status_code for r in made] == [201, 201], [r.text for r in made]
        r = second.post("/api/tables", json={"seats": seats("computer", "computer")})
        assert r.status_code == 429 and "already runs 2 tables of computer players only" in r.text
        waiting = first.post("/api/tables", json={"name": "Ann", "seats": seats("human", "human")})
        assert waiting.status_code == 201, waiting.text
        forget(first.app.state.hub, waiting.json()["table"]["id"])  # type: ignore[attr-defined]
        assert second.post("/api/tables", json={"name": "Ann", "seats": seats("human", "human")}).status_code == 201
        r = second.post("/api/tables", json={"name": "Ann", "seats": seats("human", "human")})
        assert r.status_code == 429 and "already has 2 tables waiting" in r.text
        # another address is not held to this one's count
        hub = second.app.state.hub  # type: ignore[attr-defined]

        async def elsewhere() -> Any:
            return await hub.create_table(name="Bo", seats=seats("human", "human"), seat=0, rules={},
                                          preset=None, hints=False, rated=False, title="", address="10.1.2.3")

        assert second.portal is not None
        table, seat, _token = second.portal.call(elsewhere)
        assert seat == 0 and table.status == "open"
