"""``benchmarks/load.py`` refuses bad arguments with a clear
message and exit status 2, before starting anything; and a server that cannot open its
database says so briefly. No load is generated here (the figures come from running the
script itself, docs/benchmarks.md)."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(120)
LOAD = Path(__file__).resolve().parents[2] / "benchmarks" / "load.py"


def _closed_port() -> int:
    """A port nothing listens on right now (bound, read, released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _load(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(LOAD), *args], capture_output=True, text=True, timeout=60, check=False)


def test_help() -> None:
    out = _load("--help")
    assert out.returncode == 0 and "--tables" in out.stdout and "--think-ms MIN MAX" in out.stdout


@pytest.mark.parametrize(("args", "says"), [
    (["--tables", "0"], "--tables must be at least 1"),
    (["--tables", "many"], "argument --tables: invalid int value"),
    (["--seconds", "0"], "--seconds must be a number above 0"),
    (["--seconds", "nan"], "--seconds must be a number above 0"),
    (["--warmup", "-1"], "--warmup must be a number of seconds"),
    (["--think-ms", "5", "1"], "--think-ms MIN MAX needs 0 <= MIN <= MAX"),
    (["--think-ms", "-1", "2"], "--think-ms MIN MAX needs 0 <= MIN <= MAX"),
    (["--url", "localhost:8000"], "--url must be a server's http:// or https:// address"),
    (["--url", "http://127.0.0.1:8000", "--database-url", "sqlite:///x.db"], "does not go with --url"),
])
def test_bad_arguments(args: list[str], says: str) -> None:
    out = _load(*args)
    assert out.returncode == 2, out
    assert says in out.stderr and "Traceback" not in out.stderr, out.stderr


def test_unreachable_server_and_bad_database() -> None:
    out = _load("--url", f"http://127.0.0.1:{_closed_port()}", "--tables", "1", "--seconds", "1")
    assert out.returncode == 2 and "no coloretto server answers at" in out.stderr and "Traceback" not in out.stderr, out
    out = _load("--database-url", "sqlite:////nonexistent/dir/x.db", "--tables", "1", "--seconds", "1", "--warmup", "0")
    assert out.returncode != 0 and "coloretto serve exited with status" in out.stderr, out.stderr
    # the server's own report is short: what failed, without the database driver's frames
    assert "cannot open the database given by --database-url: unable to open database file" in out.stderr, out.stderr
    assert "Traceback" not in out.stderr, out.stderr
    assert "sqlalchemy/pool" not in out.stderr, out.stderr
