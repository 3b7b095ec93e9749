"""Suite-wide settings.

With ``COLORETTO_NO_SKIPS=1`` (set by ``make test``, and so in CI) a skipped test counts as a
failure: a green run then means every test really ran. Skips stay available for people
running single files on machines without, say, a browser or a C compiler.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Generator
from typing import Any

import pytest

# A suite started in the background (`nohup make test &` from a script) inherits an ignored
# SIGINT, and so would every command it starts: Ctrl-C in the tests of the commands would do
# nothing. Python's own handler here is reset to the default in each command it starts.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: Any) -> Generator[None, Any, None]:
    outcome = yield
    report = outcome.get_result()
    if report.skipped and os.environ.get("COLORETTO_NO_SKIPS") == "1" and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"skipped, but COLORETTO_NO_SKIPS=1 forbids skips: {reason}"


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Generator[None, Any, None]:
    outcome = yield
    report = outcome.get_result()
    if report.skipped and os.environ.get("COLORETTO_NO_SKIPS") == "1":
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"module skipped, but COLORETTO_NO_SKIPS=1 forbids skips: {reason}"


@pytest.fixture(autouse=True, scope="session")
def _records_in_a_temporary_data_folder(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Games saved without --save go to $COLORETTO_DATA_DIR/games: during the tests a
    temporary folder, never the user's own data folder (unless the variable is already set)."""
    os.environ.setdefault("COLORETTO_DATA_DIR", str(tmp_path_factory.mktemp("data")))
