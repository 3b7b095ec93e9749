"""Records and record files for the tests of the record commands (``show``, ``perft``,
``replay``): games played to the end by seeded random players, through the driver."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from coloretto.agents import make_agent
from coloretto.arena.driver import play_out, start_game
from coloretto.engine import Rules


def record(players: int = 4, seed: int = 1, cut: int | None = None, **rules: Any) -> dict[str, Any]:
    """The ``coloretto-record/1`` of a game of ``players`` random players (seeds ``seed +
    seat``) dealt from ``seed`` under ``Rules(players=players, **rules)``; with ``cut``
    only its first ``cut`` actions (and no result)."""
    game = start_game(Rules(players=players, **rules), seed, [f"p{s}" for s in range(players)])
    play_out(game, [make_agent("random", seed=seed + s) for s in range(players)])
    rec = game.to_record()
    if cut is not None:
        rec["actions"] = rec["actions"][:cut]
        del rec["result"]
    return rec


def write(tmp_path: Path, data: Any, name: str = "r.json") -> str:
    """Write ``data`` (a string as it is, anything else as JSON) to ``tmp_path / name``;
    its path."""
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)
