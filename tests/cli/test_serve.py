"""`coloretto serve` refuses an unusable database, an unreachable Redis and an address in use
with a clear message and exit status 2, before it opens anything."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path


def run_serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "coloretto.cli.main", "serve", "--port", "0", *args],
        capture_output=True, text=True, timeout=60, check=False,
    )


def test_unopenable_sqlite_file_is_a_usage_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    res = run_serve("--database-url", str(blocker / "x.db"))
    assert res.returncode == 2
    assert "cannot open the database" in res.stderr
    assert "Traceback" not in res.stderr


def test_unreachable_postgresql_is_a_usage_error_without_the_password() -> None:
    res = run_serve("--database-url", "postgresql://someone:s3cret-pw@127.0.0.1:1/nothing")
    assert res.returncode == 2
    assert "cannot open the database" in res.stderr
    assert "s3cret-pw" not in res.stderr
    assert "Traceback" not in res.stderr


def test_bad_port_is_a_usage_error() -> None:
    res = run_serve("--port", "70000")
    assert res.returncode == 2
    assert "--port" in res.stderr


def test_bad_move_clocks_are_a_usage_error() -> None:
    for bad in ("", "fast", "20,-5", "0", "86400"):
        res = run_serve("--move-clocks", bad)
        assert res.returncode == 2, bad
        assert "--move-clocks" in res.stderr and "Traceback" not in res.stderr, res.stderr


def test_unreachable_redis_is_a_usage_error_without_the_password(tmp_path: Path) -> None:
    res = run_serve("--database-url", f"sqlite:///{tmp_path / 'x.db'}",
                    "--redis-url", "redis://:s3cret-pw@127.0.0.1:1/0")
    assert res.returncode == 2, res.stderr
    assert res.stderr.startswith("coloretto serve: error: cannot reach the Redis server given by --redis-url")
    assert "s3cret-pw" not in res.stderr and "Traceback" not in res.stderr
    res = run_serve("--database-url", f"sqlite:///{tmp_path / 'x.db'}", "--redis-url", "http://nowhere")
    assert res.returncode == 2 and "--redis-url" in res.stderr and "Traceback" not in res.stderr


def test_an_address_in_use_is_refused_before_the_database_is_opened(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        res = subprocess.run(
            [sys.executable, "-m", "coloretto.cli.main", "serve", "--port", str(port),
             "--database-url", f"sqlite:///{tmp_path / 'x.db'}"],
            capture_output=True, text=True, timeout=60, check=False,
        )
    assert res.returncode == 2, res.stderr
    assert res.stderr == (
        f"coloretto serve: error: cannot listen on 127.0.0.1:{port}: Address already in use "
        "(another server there? choose another --port)\n"
    )
    assert not (tmp_path / "x.db").exists()  # nothing was opened, no game resumed


def test_a_host_that_does_not_resolve_is_a_usage_error() -> None:
    res = subprocess.run(
        [sys.executable, "-m", "coloretto.cli.main", "serve", "--host", "no-such-host.invalid", "--port", "8123"],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert res.returncode == 2, res.stderr
    assert res.stderr.startswith("coloretto serve: error: --host 'no-such-host.invalid': ")
