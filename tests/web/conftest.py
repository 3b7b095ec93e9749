"""Fixtures of the browser-module tests: Node.js runs the client's plain ES modules."""

from __future__ import annotations

import pytest
from nodeutil import find_node


@pytest.fixture(scope="session")
def node() -> str:
    """The ``node`` executable (scripts/install-system-deps.sh installs Node.js)."""
    return find_node()
