"""docs/rl.md tells the truth about the environments: its observation index table is
``FEATURES``, its sizes are the code's, and README links it."""

from __future__ import annotations

import re
from pathlib import Path

from coloretto.engine.actions import NUM_DISTINCT_ACTIONS
from coloretto.envs.encoding import DECK_SIZE, FEATURES, OBSERVATION_HIGH, OBSERVATION_SIZE

REPO = Path(__file__).resolve().parents[2]
DOC = (REPO / "docs" / "rl.md").read_text()


def _index_table() -> list[tuple[str, int, int, str]]:
    head = DOC.index("| field | start | length | description |")
    rows = []
    for line in DOC[head:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        name, start, length, description = (cell.strip() for cell in line.strip("|").split(" | "))
        rows.append((name.strip("`"), int(start), int(length), description))
    return rows


def test_the_index_table_is_features() -> None:
    assert _index_table() == [tuple(f) for f in FEATURES]


def test_sizes_in_the_doc_are_the_codes() -> None:
    assert f"`({OBSERVATION_SIZE},)`" in DOC and f"Discrete({NUM_DISTINCT_ACTIONS})" in DOC
    assert f"{OBSERVATION_SIZE} numbers" in DOC and f"{DECK_SIZE} cards" in DOC
    assert f"0 to {int(OBSERVATION_HIGH.max())}" in DOC


def test_doc_sections_and_readme_link() -> None:
    for heading in (
        "## Actions",
        "## Observation",
        "## Rewards",
        "## PettingZoo",
        "## Gymnasium",
        "## OpenSpiel",
        "## Batched environment and training",
        "## Version history",
    ):
        assert heading in DOC
    assert re.search(r"\| `coloretto_v0` \|", DOC)
    assert "docs/rl.md" in (REPO / "README.md").read_text()
