"""Run independent tasks (games) in parallel: in this process, a local process pool, or a Ray
cluster.

Every backend returns the results **in task order**, whatever order they finished in, so a
caller that derives everything from the task list gets the same output for any backend and
worker count.
"""

from __future__ import annotations

import logging
import multiprocessing
import multiprocessing.connection
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from multiprocessing import get_context
from typing import Any, Final, TypeVar

from .._optional import require
from ..engine.errors import ConfigurationError

T = TypeVar("T")
R = TypeVar("R")

BACKENDS: Final = ("process", "ray")
RAY_OBJECT_STORE_BYTES: Final = 100 * 1024 * 1024
"""Object store of a local Ray started for one run (small: results are small)."""


def exit_with_parent() -> None:
    """Initializer of a pool's worker processes: the worker ends as soon as the process that
    started it has ended, however it ended (also ``kill -9``, which gives the pool no chance
    to stop its workers: they would otherwise live on as orphans). Nothing in a process that
    no ``multiprocessing`` parent started."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return
    sentinel = parent.sentinel

    def watch() -> None:
        multiprocessing.connection.wait([sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def default_workers() -> int:
    """The machine's usable cores (``os.sched_getaffinity`` where available)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def run_tasks(
    fn: Callable[[T], R],
    tasks: Sequence[T],
    *,
    workers: int | None = None,
    backend: str = "process",
    address: str | None = None,
    on_done: Callable[[R], None] | None = None,
) -> list[R]:
    """``[fn(t) for t in tasks]``, computed in parallel, in task order.

    Args:
        fn: a module-level function (it is pickled by reference for worker processes).
        tasks: picklable task values.
        workers: parallel workers (default: the machine's cores). With the process backend,
            1 runs everything in this process (no pool).
        backend: ``"process"`` (local processes, started with ``spawn``) or ``"ray"``
            (``address`` of a running cluster, or a local Ray started for this call with
            ``workers`` CPUs and shut down afterwards).
        address: Ray cluster address (``"auto"``, ``"ray://host:10001"``, ...).
        on_done: called in this process with each result as it arrives (progress bars).

    Raises:
        ConfigurationError: unknown backend, bad worker count, Ray not installed, or
            ``address`` given for the process backend.
        Exception: the first exception a task raised (remaining tasks are cancelled).
    """
    if backend not in BACKENDS:
        raise ConfigurationError(f"unknown backend {backend!r}; known: {', '.join(BACKENDS)}")
    if workers is not None and workers < 1:
        raise ConfigurationError(f"workers must be at least 1, not {workers}")
    if address is not None and backend != "ray":
        raise ConfigurationError("--address needs --backend ray")
    n = workers or default_workers()
    if backend == "ray":
        return _run_ray(fn, tasks, n, address, on_done)
    if n == 1 or len(tasks) <= 1:
        results = []
        for t in tasks:
            r = fn(t)
            if on_done is not None:
                on_done(r)
            results.append(r)
        return results
    return _run_pool(fn, tasks, min(n, len(tasks)), on_done)


def _run_pool(
    fn: Callable[[T], R], tasks: Sequence[T], workers: int, on_done: Callable[[R], None] | None
) -> list[R]:
    results: list[R | None] = [None] * len(tasks)
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn"),
                             initializer=exit_with_parent) as pool:
        futures: dict[Future[R], int] = {pool.submit(fn, t): i for i, t in enumerate(tasks)}
        pending = set(futures)
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    r = fut.result()
                    results[futures[fut]] = r
                    if on_done is not None:
                        on_done(r)
        except BaseException:
            for fut in pending:
                fut.cancel()
            pool.shutdown(wait=True, cancel_futures=True)
            raise
    return results  # type: ignore[return-value]


def _run_ray(
    fn: Callable[[T], R],
    tasks: Sequence[T],
    workers: int,
    address: str | None,
    on_done: Callable[[R], None] | None,
) -> list[R]:
    ray = require("ray", "ray", "the Ray backend (--backend ray)")
    started = False
    if not ray.is_initialized():
        common: dict[str, Any] = {
            "log_to_driver": False,
            "logging_level": logging.WARNING,
            "configure_logging": True,
        }
        if address is not None:
            try:
                ray.init(address=address, **common)
            except (ConnectionError, ValueError, RuntimeError) as exc:
                raise ConfigurationError(
                    f"cannot connect to the Ray cluster at {address!r}: {exc}"
                ) from None
        else:
            ray.init(
                num_cpus=workers,
                include_dashboard=False,
                object_store_memory=RAY_OBJECT_STORE_BYTES,
                **common,
            )
        started = True
    try:
        remote = ray.remote(num_cpus=1, max_retries=0)(fn)
        refs = [remote.remote(t) for t in tasks]
        index = {ref: i for i, ref in enumerate(refs)}
        results: list[R | None] = [None] * len(tasks)
        pending = list(refs)
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    try:
                        r = ray.get(ref)
                    except ray.exceptions.RayTaskError as exc:
                        raise exc.as_instanceof_cause() from None
                    results[index[ref]] = r
                    if on_done is not None:
                        on_done(r)
        except BaseException:
            for ref in pending:
                ray.cancel(ref, force=True)
            raise
        return results  # type: ignore[return-value]
    finally:
        if started:
            ray.shutdown()
