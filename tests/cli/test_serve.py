"""`coloretto serve` refuses an unusable database with a clear message and exit status 2."""

from __future__ import annotations

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
