"""Records of terminal games: where they go, how they are written and read back.

``coloretto play`` keeps its record on disk after every action (docs/terminal.md, "Saving
and resuming"), in ``coloretto-record/1`` (docs/record-format.md) with the play program's
extra keys ``human_seats``, ``agents``, ``seed`` and ``pending_draw``. Every read and write of
those extra keys goes through the functions here, so a change of how an unplaced draw is
recorded touches this module only.

The default folder is ``<user data dir>/coloretto/games`` (``platformdirs``), or
``$COLORETTO_DATA_DIR/games`` when that environment variable is set.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import platformdirs

from ..engine import actions as A
from ..engine.cards import CARD_NAMES, card_code
from ..engine.record import Game, apply_entry
from ..engine.state import PLACE

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
    game: Game, human_seats: list[int], agent_specs: list[str | None], seed: int | None
) -> dict[str, Any]:
    """The ``coloretto-record/1`` object of ``game`` with the play program's keys: the seats
    played by people, the computer players' specs (``None`` for a person's seat), the deal's
    seed when known, and a drawn card that waits for its row (``pending_draw``)."""
    rec = game.to_record()
    rec["human_seats"] = list(human_seats)
    rec["agents"] = list(agent_specs)
    if seed is not None:
        rec["seed"] = seed
    st = game.state
    if st.phase == PLACE:
        rec["pending_draw"] = {"seat": st.to_move, "card": CARD_NAMES[st.drawn]}
    return rec


def pending_draw_of(record: dict[str, Any]) -> dict[str, Any] | None:
    """The record's ``pending_draw`` entry (``{"seat": s, "card": name}``) if it is
    well-formed, else ``None``."""
    pd = record.get("pending_draw")
    if isinstance(pd, dict) and type(pd.get("seat")) is int:
        try:
            card_code(pd.get("card"))  # type: ignore[arg-type]
        except (ValueError, RecursionError):  # RecursionError: a deeply nested "card"
            return None
        return pd
    return None


def redo_pending_draw(game: Game, pending: dict[str, Any] | None) -> int | None:
    """Draw again the card of ``pending`` (from ``pending_draw_of``) so that a game resumed
    between a draw and its placement shows the same card (docs/record-format.md).

    Returns the seat that drew, or ``None`` when nothing was drawn: no pending draw, the
    seat is not the one to move, drawing is not legal now, or the draw pile reveals another
    card than the record names (then ``game`` is left as it was)."""
    if pending is None:
        return None
    st = game.state
    seat = pending.get("seat")
    if seat != st.to_move or st.decision != "turn" or A.DRAW_ACTION not in st.legal_actions():
        return None
    before = st.copy()
    game.play(A.DRAW_ACTION)
    if game.state.drawn != card_code(pending["card"]):
        game.state = before
        return None
    return before.to_move


def finished_game_scores(game: Game) -> list[list[int]]:
    """Per finished game of a match that is followed by another game, each seat's score:
    one list per game, in order (the game in progress, or the last game once the match is
    over, is not included). Rebuilt by replaying ``game.entries`` from ``game.initial``."""
    if game.initial is None or game.state.game == 0:
        return []
    replay = Game(game.initial.copy(), list(game.seats))
    out: list[list[int]] = []
    for entry in game.entries:
        number = replay.state.game
        totals = list(replay.state.match_totals)
        apply_entry(replay, entry)
        if replay.state.game != number:
            out.append([b - a for a, b in zip(totals, replay.state.match_totals)])
    return out


# ----- writing --------------------------------------------------------------------------------
def write_record(path: Path, record: dict[str, Any]) -> None:
    """Write ``record`` as JSON (one action per line) to ``path`` atomically: a temporary
    file in the same folder is written, flushed to disk and renamed over ``path``, so the
    file always holds either the previous record or the new one, whole.

    Raises:
        OSError: the file cannot be written.
    """
    text = dumps_record(record)
    directory = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=".coloretto-", suffix=".json", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def dumps_record(record: dict[str, Any]) -> str:
    """JSON text of a record: one top-level key per line and one action per line."""
    items = []
    for key, value in record.items():
        if key == "actions" and value:
            inner = ",\n".join("    " + json.dumps(e) for e in value)
            items.append(f"  {json.dumps(key)}: [\n{inner}\n  ]")
        else:
            items.append(f"  {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(items) + "\n}\n"
