"""Fixtures of the browser end-to-end tests (issue 4): a real ``coloretto serve`` subprocess
on a free port with a temporary SQLite database, and Debian's Chromium driven by Playwright
for Python (never a downloaded browser: ``playwright install`` is not used).

Chromium comes from ``scripts/install-system-deps.sh`` (``apt-get install chromium``). When
it is missing these tests are skipped with that reason (shown by ``-ra``), or fail when
``COLORETTO_REQUIRE_BROWSER=1`` (set it in CI so a missing browser cannot pass silently).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

CHROMIUM = os.environ.get("COLORETTO_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts" / "e2e"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class WebServer:
    """A ``coloretto serve`` subprocess (``url``: http://127.0.0.1:PORT)."""

    def __init__(self, db: Path, log: Path) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        self.args = [
            sys.executable,
            "-m",
            "coloretto.cli.main",
            "serve",
            "--port",
            str(self.port),
            "--database-url",
            str(db),
            "--computer-delay",
            "0",
            "--handover-after",
            "2",
            "--log-level",
            "warning",
            "--no-access-log",
        ]
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start it and wait for ``/api/health`` (fails after 30 s with the server's log)."""
        with open(self.log, "ab") as out:  # the child keeps its own copy of the descriptor
            self.proc = subprocess.Popen(self.args, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                pytest.fail(
                    f"coloretto serve exited ({self.proc.returncode}): {self.log.read_text()[-2000:]}"
                )
            try:
                if httpx.get(self.url + "/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)  # polling a starting process: nothing to wait on
        pytest.fail(f"coloretto serve did not answer within 30 s: {self.log.read_text()[-2000:]}")

    def kill9(self) -> None:
        """SIGKILL it (a crash) and reap it."""
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        """Terminate it (kill after 10 s)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """One server with a fresh SQLite database for the tests of a module."""
    tmp = tmp_path_factory.mktemp("e2e-server")
    server = WebServer(tmp / "coloretto.db", tmp / "server.log")
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """Debian's Chromium under Playwright (headless)."""
    if not os.path.exists(CHROMIUM):
        message = f"Chromium is not installed at {CHROMIUM}: run scripts/install-system-deps.sh"
        if os.environ.get("COLORETTO_REQUIRE_BROWSER") == "1":
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def artifacts() -> Path:
    """test-artifacts/e2e/ (gitignored): screenshots of the end-to-end tests."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def new_page(chromium: Any) -> Iterator[Any]:
    """``new_page(width=1280, height=900) -> Page`` in a fresh browser context (its own
    localStorage, like another person's browser). Page errors fail the test."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(width: int = 1280, height: int = 900, context: Any = None) -> Any:
        if context is None:
            context = chromium.new_context(viewport={"width": width, "height": height})
            context.set_default_timeout(20_000)
            contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        return page

    yield make
    for c in contexts:
        c.close()
    assert not errors, f"JavaScript errors in the page: {errors}"
