"""A real ``coloretto serve`` subprocess for tests: shared by the server tests' fixtures
(tests/server/conftest.py) and the browser end-to-end tests (tests/server/e2e/conftest.py)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

# How long a test waits for a server to start answering. Start-up takes about 2 s on a quiet
# machine; on a 2-core machine shared with other jobs it has taken over 30 s, which is load,
# not a fault of the server, so the wait is generous.
STARTUP_WAIT_S = 120.0


FAST_TEST_FLAGS = ("--computer-delay", "0", "--handover-after", "0", "--ws-rate", "1000", "--ws-burst", "1000",
                   "--ip-rate", "1000", "--ip-burst", "1000", "--max-computer-tables", "1000", "--max-open-tables", "1000",
                   "--sync-rate", "1000")
"""Flags of the test servers: computers act at once, limits out of the way (the limits have
their own tests)."""


def free_port() -> int:
    """A TCP port free right now on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """A ``coloretto serve`` subprocess on a free port (``url``: http://127.0.0.1:PORT); ``extra``
    flags are appended to ``serve --port P --database-url DB --log-level warning``."""

    def __init__(self, db_url: str, log_path: Path, *extra: str, port: int | None = None) -> None:
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}"
        self.log_path = log_path
        self.args = [sys.executable, "-m", "coloretto.cli.main", "serve", "--port", str(self.port),
                     "--database-url", db_url, "--log-level", "warning", *extra]
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> ServerProcess:
        """Start and wait until ``/api/health`` answers (fails after ``STARTUP_WAIT_S``)."""
        with open(self.log_path, "ab") as log:  # the child keeps its own copy of the file
            self.proc = subprocess.Popen(self.args, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + STARTUP_WAIT_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                pytest.fail(f"coloretto serve exited with {self.proc.returncode}: {self.log_path.read_text()[-2000:]}")
            try:
                if httpx.get(self.url + "/api/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        pytest.fail(f"coloretto serve did not answer within {STARTUP_WAIT_S:.0f} s: {self.log_path.read_text()[-2000:]}")

    def kill9(self) -> None:
        """SIGKILL the process and reap it."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        """Terminate (if running)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
