"""Records of terminal games: where they go, how they are written and read back.

``coloretto play`` keeps its record on disk after every action (docs/terminal.md, "Saving
and resuming"), in ``coloretto-record/1`` (docs/record-format.md) with the play program's
extra keys ``human_seats``, ``agents``, ``agents_folder`` and ``seed``, written by
``coloretto.engine.record.save_record`` (a card drawn but not yet placed is the record's
trailing draw entry).

The default folder is ``<user data dir>/coloretto/games`` (``platformdirs``), or
``$COLORETTO_DATA_DIR/games`` when that environment variable is set.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import platformdirs

from ..engine.record import Game

DATA_DIR_VARIABLE = "COLORETTO_DATA_DIR"
"""Environment variable naming the data folder (records go to its ``games`` sub-folder)."""


def data_directory() -> Path:
    """The folder of the program's data: ``$COLORETTO_DATA_DIR`` when set and not empty,
    else the user's data folder from ``platformdirs`` (on Linux
    ``$XDG_DATA_HOME/coloretto``, by default ``~/.local/share/coloretto``). Not created."""
    given = os.environ.get(DATA_DIR_VARIABLE, "")
    if given.strip():
        return Path(given).expanduser()
    return Path(platformdirs.user_data_dir("coloretto", appauthor=False))


def games_directory() -> Path:
    """Where saved games go by default: ``data_directory() / "games"`` (not created)."""
    return data_directory() / "games"


# ----- the record of a session ------------------------------------------------------------------
def session_record(
    game: Game,
    human_seats: list[int],
    agent_specs: list[str | None],
    seed: int | None,
    agents_folder: str | None = None,
) -> dict[str, Any]:
    """The ``coloretto-record/1`` object of ``game`` with the play program's keys: the seats
    played by people, the computer players' specs (``None`` for a person's seat), the
    folder their external engines (``cmd:``) run in when there are any, and the deal's seed
    when known."""
    rec = game.to_record()
    rec["human_seats"] = list(human_seats)
    rec["agents"] = list(agent_specs)
    if agents_folder is not None:
        rec["agents_folder"] = agents_folder
    if seed is not None:
        rec["seed"] = seed
    return rec


def finished_game_scores(game: Game) -> list[list[int]]:
    """Per finished game of a match that is followed by another game, each seat's score:
    one list per game, in order (the game in progress, or the last game once the match is
    over, is not included). Read from the state's results of finished games
    (``GameState.results``)."""
    st = game.state
    return [list(r.scores) for r in st.results[: st.game]]
