"""Engine test configuration; shared helpers live in ``engine_helpers.py``."""

from __future__ import annotations

import pytest

from coloretto.engine import Rules


@pytest.fixture
def rules4() -> Rules:
    """Default rules: four players, classic edition, brown table."""
    return Rules(players=4)
