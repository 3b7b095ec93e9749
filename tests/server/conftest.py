"""Fixtures of the server tests: databases (SQLite and PostgreSQL), Redis, the hub's parts
(real or in memory: ``backend``), and real ``coloretto serve`` subprocesses.

PostgreSQL (127.0.0.1:5432) and Redis (127.0.0.1:6379) run on the CI machine. A test that
needs one starts it when it is down and FAILS with a clear message when it still cannot be
reached: such tests are never skipped silently.
"""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from backends import Backend
from serverproc import FAST_TEST_FLAGS, ServerProcess

PG_ADMIN_URL = os.environ.get("COLORETTO_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("COLORETTO_TEST_REDIS", "redis://127.0.0.1:6379/0")


def _port_open(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


def ensure_postgres() -> None:
    """Make sure PostgreSQL answers on 127.0.0.1:5432 (start the cluster if needed), else fail."""
    if _port_open("127.0.0.1", 5432):
        return
    versions = sorted(os.listdir("/etc/postgresql")) if os.path.isdir("/etc/postgresql") else []
    if versions and shutil.which("pg_ctlcluster"):
        subprocess.run(["pg_ctlcluster", "--skip-systemctl-redirect", versions[-1], "main", "start"],
                       check=False, capture_output=True, timeout=60)
        for _ in range(50):
            if _port_open("127.0.0.1", 5432):
                return
            time.sleep(0.2)
    pytest.fail("PostgreSQL is not reachable on 127.0.0.1:5432 and could not be started "
                "(pg_ctlcluster --skip-systemctl-redirect VERSION main start); these tests need it")


def ensure_redis() -> None:
    """Make sure Redis answers on 127.0.0.1:6379 (start redis-server if needed), else fail."""
    if _port_open("127.0.0.1", 6379):
        return
    if shutil.which("redis-server"):
        subprocess.Popen(["redis-server", "--port", "6379", "--bind", "127.0.0.1", "--daemonize", "yes"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).wait(timeout=30)
        for _ in range(50):
            if _port_open("127.0.0.1", 6379):
                return
            time.sleep(0.2)
    pytest.fail("Redis is not reachable on 127.0.0.1:6379 and could not be started; these tests need it")


def fresh_pg_database() -> tuple[str, str]:
    """Create an empty PostgreSQL database; returns ``(url, name)``."""
    from sqlalchemy import create_engine, text

    ensure_postgres()
    name = "coloretto_t_" + secrets.token_hex(5)
    admin = create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return PG_ADMIN_URL.rsplit("/", 1)[0] + "/" + name, name


def drop_pg_database(name: str) -> None:
    """Drop a database made by ``fresh_pg_database`` (closing leftover sessions)."""
    from sqlalchemy import create_engine, text

    admin = create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database: a SQLite file, then an empty PostgreSQL database."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'coloretto.db'}"
        return
    url, name = fresh_pg_database()
    try:
        yield url
    finally:
        drop_pg_database(name)


@pytest.fixture(params=["sqlite", "postgresql", "memory"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    """The hub's parts: a SQLite file, an empty PostgreSQL database, then the in-memory
    store and bus (the same test body runs on each)."""
    if request.param == "memory":
        yield Backend("memory")
    elif request.param == "sqlite":
        yield Backend("sqlite", f"sqlite:///{tmp_path / 'coloretto.db'}")
    else:
        url, name = fresh_pg_database()
        try:
            yield Backend("postgresql", url)
        finally:
            drop_pg_database(name)


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh PostgreSQL database only."""
    url, name = fresh_pg_database()
    try:
        yield url
    finally:
        drop_pg_database(name)


@pytest.fixture
def redis_url() -> str:
    """The Redis URL, after making sure it runs."""
    ensure_redis()
    return REDIS_URL


@pytest.fixture
def server_factory(tmp_path: Path) -> Iterator[Any]:
    """``make(db_url, *flags, port=None) -> ServerProcess`` (not started); all are stopped at the end."""
    made: list[ServerProcess] = []

    def make(db: str, *extra: str, port: int | None = None) -> ServerProcess:
        s = ServerProcess(db, tmp_path / f"server{len(made)}.log", *FAST_TEST_FLAGS, *extra, port=port)
        made.append(s)
        return s

    yield make
    for s in made:
        s.stop()
