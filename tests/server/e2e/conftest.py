"""Fixtures of the browser end-to-end tests: a real ``coloretto serve`` subprocess
on a free port with a temporary SQLite database, and Debian's Chromium driven by Playwright
for Python (never a downloaded browser: ``playwright install`` is not used).

Chromium comes from ``scripts/install-system-deps.sh`` (``apt-get install chromium``). When
it is missing these tests are skipped with that reason (shown by ``-ra``), or fail when
``COLORETTO_REQUIRE_BROWSER=1`` (set it in CI so a missing browser cannot pass silently).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serverproc import ServerProcess

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
SCREENSHOTS = Path(__file__).resolve().parents[3] / "test-artifacts" / "screenshots"


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server with a fresh SQLite database for the tests of a module."""
    tmp = tmp_path_factory.mktemp("e2e-server")
    server = ServerProcess(
        str(tmp / "coloretto.db"), tmp / "server.log",
        "--computer-delay", "0", "--handover-after", "2", "--no-access-log",
        # every browser of these tests is on 127.0.0.1: the per-address quotas, meant for
        # one person each, would count a whole module's tables and sockets as one person's
        "--max-open-tables", "1000", "--max-computer-tables", "1000", "--max-ws-per-ip", "1000",
        "--ip-rate", "1000", "--ip-burst", "2000",
    )
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
def screenshots() -> Path:
    """test-artifacts/screenshots/ (gitignored): the table and the end breakdown at desktop
    and phone sizes, for people to look at."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture
def new_page(chromium: Any) -> Iterator[Any]:
    """``new_page(width=1280, height=900) -> Page`` in a fresh browser context (its own
    localStorage, like another person's browser). Page errors fail the test."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(width: int = 1280, height: int = 900, context: Any = None) -> Any:
        if context is None:
            # Playwright's wait_for_function polls with eval, which the server's
            # Content-Security-Policy forbids; test_csp.py checks the policy in contexts
            # that keep it
            context = chromium.new_context(bypass_csp=True, viewport={"width": width, "height": height})
            context.set_default_timeout(20_000)
            contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        return page

    yield make
    for c in contexts:
        c.close()
    assert not errors, f"JavaScript errors in the page: {errors}"
