"""The agent runner of a ``coloretto serve`` process: computer players' decisions and move
hints computed in a bounded pool of worker processes (real parallelism: a search holds the
GIL), scheduled fairly, with a time budget per decision.

Fair scheduling (``FairScheduler``): jobs wait in one queue per address, and inside it one
queue per table; whenever a worker is free the next address in turn gives the next of its
tables in turn one job. So an address running many busy tables gets the same share of the
workers as a person asking for one hint, and the tables of one address share its part.

The jobs must be picklable (a module-level function and its arguments): ``decide`` is the
one entry point of a computer seat's decision.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import multiprocessing
import os
import threading
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, ParamSpec, TypeVar

from ..agents.base import Agent
from ..agents.registry import make_agent
from ..arena.driver import FIRST_LEGAL, Decision, FailurePolicy, decide_with
from ..arena.parallel import exit_with_parent
from ..engine.actions import Action
from ..engine.observation import Observation
from ..engine.rules import Rules
from .runner import JobOwner

P = ParamSpec("P")
T = TypeVar("T")

log = logging.getLogger("coloretto.server")

_AGENTS: OrderedDict[tuple[str, int, int, Rules], Agent] = OrderedDict()
"""A worker process's computer players, by (spec, seed, seat, rules), newest last."""
AGENTS_KEPT = 64
"""Computer players a worker process keeps between decisions (least recently used go)."""


def decide(
    spec: str, seed: int, seat: int, rules: Rules, observation: Observation, legal: Sequence[Action],
    policy: FailurePolicy = FIRST_LEGAL,
) -> Decision:
    """The driver's decision (``arena.driver.decide_with`` under ``policy``) of the
    computer player ``spec`` (seeded ``seed``, reset for ``seat`` and ``rules``) for the
    decision in ``observation``; runs in a worker process, which keeps
    the player for its next decisions (``AGENTS_KEPT``).

    Raises:
        ConfigurationError: unknown spec; whatever the agent raises.
    """
    key = (spec, seed, seat, rules)
    agent = _AGENTS.pop(key, None)
    if agent is None:
        agent = make_agent(spec, seed)
        agent.reset(seat, rules)
    _AGENTS[key] = agent
    while len(_AGENTS) > AGENTS_KEPT:
        _, old = _AGENTS.popitem(last=False)
        old.close()
    return decide_with(agent, observation, legal, policy)


@dataclass
class _Job:
    call: Callable[[], Any]
    future: asyncio.Future[Any]


@dataclass
class _Address:
    tables: OrderedDict[str, deque[_Job]] = field(default_factory=OrderedDict)


class FairScheduler:
    """Queues of jobs by address, then by table, served in turn (module docstring).

    ``push(address, table, job)`` queues; ``pop()`` the next job in turn (None when empty).
    """

    def __init__(self) -> None:
        self._addresses: OrderedDict[str, _Address] = OrderedDict()

    def __len__(self) -> int:
        return sum(len(q) for a in self._addresses.values() for q in a.tables.values())

    def push(self, address: str, table: str, job: _Job) -> None:
        """Queue ``job`` of ``table`` for ``address``."""
        a = self._addresses.setdefault(address, _Address())
        a.tables.setdefault(table, deque()).append(job)

    def pop(self) -> _Job | None:
        """The next job in turn: the first address's first table's oldest job; that table
        then goes to the end of its address's tables, and the address to the end of the
        addresses."""
        while self._addresses:
            address, a = next(iter(self._addresses.items()))
            self._addresses.move_to_end(address)
            while a.tables:
                table, q = next(iter(a.tables.items()))
                job = q.popleft()
                if q:
                    a.tables.move_to_end(table)
                else:
                    del a.tables[table]
                if not a.tables:
                    del self._addresses[address]
                if job.future.cancelled():
                    break
                return job
            else:
                self._addresses.pop(address, None)
        return None


class ProcessRunner:
    """``runner.AgentRunner`` on ``workers`` worker processes, served by ``FairScheduler``.

    Args:
        workers: worker processes (at least 1): at most that many jobs run at once.
        decision_seconds: the budget of one job once it runs; a job still running then is
            given up (``TimeoutError``; the worker finishes it and is then free again).
        executor: the pool to run jobs on (default a ``ProcessPoolExecutor`` of ``workers``
            processes started with ``spawn``, which end with this process however it ends,
            ``parallel.exit_with_parent``; a worker loads the fast core when its first
            search player needs it).

    A job's address is its owner's ``address``, or ``table:ID`` when there is none.
    """

    def __init__(
        self, workers: int, decision_seconds: float = 10.0, executor: Executor | None = None
    ) -> None:
        if workers < 1:
            raise ValueError(f"an agent runner needs at least one worker, not {workers}")
        if decision_seconds <= 0:
            raise ValueError(f"the decision budget must be positive, not {decision_seconds}")
        self.workers = workers
        self.decision_seconds = decision_seconds
        self._executor = executor or ProcessPoolExecutor(
            workers, mp_context=multiprocessing.get_context("spawn"), initializer=exit_with_parent
        )
        self._queue = FairScheduler()
        self._running = 0
        self._closed = False
        self._ready: asyncio.Task[None] | None = None

    async def run(
        self, owner: JobOwner, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs
    ) -> T:
        """See ``AgentRunner.run``.

        Raises:
            RuntimeError: the runner is closed.
            TimeoutError: the job ran longer than ``decision_seconds``.
        """
        if self._closed:
            raise RuntimeError("the agent runner is closed")
        loop = asyncio.get_running_loop()
        if self._ready is None:
            self._ready = loop.create_task(self._start_workers())
        job = _Job(functools.partial(fn, *args, **kwargs), loop.create_future())
        self._queue.push(owner.address or f"table:{owner.table_id}", owner.table_id, job)
        self._dispatch()
        result: T = await job.future
        return result

    def _dispatch(self) -> None:
        while self._running < self.workers and not self._closed:
            job = self._queue.pop()
            if job is None:
                return
            self._running += 1
            asyncio.get_running_loop().create_task(self._execute(job))

    async def _start_workers(self) -> None:
        """Start every worker, so that no job's budget pays for a worker's start."""
        loop = asyncio.get_running_loop()
        await asyncio.gather(
            *(loop.run_in_executor(self._executor, os.getpid) for _ in range(self.workers))
        )

    async def _execute(self, job: _Job) -> None:
        loop = asyncio.get_running_loop()
        try:
            if self._ready is not None:
                await asyncio.shield(self._ready)
            running = loop.run_in_executor(self._executor, job.call)
        except RuntimeError as exc:  # the executor was shut down
            self._running -= 1
            if not job.future.done():
                job.future.set_exception(exc)
            return
        try:
            result = await asyncio.wait_for(asyncio.shield(running), self.decision_seconds)
        except TimeoutError:
            if not job.future.done():
                job.future.set_exception(
                    TimeoutError(f"no answer within {self.decision_seconds:g} s")
                )
            with contextlib.suppress(
                Exception
            ):  # the worker is busy until it finishes: keep its slot till then
                await running
        except Exception as exc:  # noqa: BLE001 - the job's own failure goes to its caller
            if not job.future.done():
                job.future.set_exception(exc)
        else:
            if not job.future.done():
                job.future.set_result(result)
        finally:
            self._running -= 1
            self._dispatch()

    async def close(self) -> None:
        """See ``AgentRunner.close``. Waits up to ``decision_seconds`` for the jobs still
        running, so that the pool ends its workers and frees its queues' semaphores (else
        ``multiprocessing`` warns of leaked semaphores at exit); a worker still busy after
        that ends with this process."""
        self._closed = True
        while (job := self._queue.pop()) is not None:
            job.future.cancel()
        loop = asyncio.get_running_loop()
        done = loop.create_future()

        def finished() -> None:
            if not done.done():
                done.set_result(None)

        def shut() -> None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(finished)

        # a daemon thread: a worker that never answers does not hold up the exit
        threading.Thread(target=shut, name="agent-pool-close", daemon=True).start()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(done), self.decision_seconds)
