"""``coloretto replay FILE [--json]``: check every action of a game record against the rules
and print the final (or current) scores (docs/record-format.md).

The text counts seats and actions from 1, as people do (an action also names its index in
the record's ``actions``); the JSON counts from 0, as records do.

Exit status: 0 the record is valid, 1 it is not (illegal action, inconsistent setup, a
``result`` that disagrees), 2 the file cannot be read or is not JSON.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from rich.table import Table
from rich.text import Text

from ..engine.errors import UnreadableRecordError
from ..engine.record import load_record_json, replay
from ..text import plural
from ..tui.render import seat_name
from .console import StdoutConsole
from .main import UsageError


def read_record_file(path: str) -> Any:
    """The JSON value of the record file ``path``, read by ``engine.record.load_record_json``
    (any JSON value: ``replay`` checks that it is a record, so a wrong one is reported as an
    invalid record, exit 1).

    Raises:
        UsageError: the engine's ``UnreadableRecordError``, with its message: the file is
            missing or unreadable, a directory, not UTF-8 text, not JSON, nested too deeply
            for the JSON reader, or holds an integer too large to read (more than Python's
            4300 digits) (exit 2).
    """
    try:
        return load_record_json(path)
    except UnreadableRecordError as exc:
        raise UsageError(str(exc)) from None


def action_label(index: int) -> str:
    """How people are told which record entry is meant: counted from 1, with the JSON index
    (counted from 0) to find it in the file, e.g. ``"action 4 (actions[3] in the record)"``."""
    return f"action {index + 1} (actions[{index}] in the record)"


def invalid_record_message(path: object, record: object, action_index: int | None, error: str) -> str:
    """The one sentence every command prints for an invalid record: where the error is (as
    :func:`action_label` numbers it; the header or setup, or the result) and what it is,
    e.g. ``"g.json is not a valid record at action 8 (actions[7] in the record): ..."``.

    Args:
        record: the record as read (to tell an error in its ``result`` from one in its
            last action); action_index: the replay's ``action_index`` (0-based, or None).
    """
    actions = record.get("actions") if isinstance(record, dict) else None
    if action_index is None:
        where = "in its header or setup"
    elif isinstance(actions, list) and action_index == len(actions):
        where = "in its result"
    else:
        where = f"at {action_label(action_index)}"
    return f"{path} is not a valid record {where}: {error}"


def register(subparsers: Any) -> None:
    """Add the ``replay`` subcommand."""
    p = subparsers.add_parser(
        "replay",
        help="check a game record action by action and print its scores",
        description=(
            "Replay a coloretto-record/1 file, checking every action against the rules, and "
            "print the final (or current) scores. Exit status 1 if the record is invalid."
        ),
    )
    p.add_argument("file", metavar="FILE", help="the record (JSON)")
    p.add_argument(
        "--json",
        action="store_true",
        help='print {"valid": true, "finished", "scores", "winners"} or {"valid": false, "action_index", "error"}',
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Replay ``args.file``; 0 valid, 1 invalid (2 via ``UsageError`` for an unreadable file)."""
    record = read_record_file(args.file)
    result = replay(record)
    if args.json:
        print(json.dumps(result.to_json()))
        return 0 if result.valid else 1
    console = StdoutConsole(highlight=False)
    if not result.valid:
        message = invalid_record_message(args.file, record, result.action_index, str(result.error))
        console.print(f"INVALID: {message}", markup=False, soft_wrap=True)
        return 1
    assert result.game is not None
    game = result.game
    st = game.state
    n_actions = len(game.entries)
    status = (
        "finished"
        if st.is_over()
        else f"not finished ({st.decision}, seat {st.to_move + 1} to move)"
    )
    console.print(
        f"{args.file}: valid, {plural(n_actions, 'action')}, {status}", markup=False, soft_wrap=True
    )
    table = Table(box=None, pad_edge=False)
    table.add_column("seat", justify="right")
    table.add_column("player")
    table.add_column("score" if st.rules.match_games == 1 else "match total", justify="right")
    table.add_column("rank", justify="right")
    totals, ranks = st.totals(), st.ranks()
    for s, name in enumerate(game.seats):
        table.add_row(str(s + 1), Text(name), str(totals[s]), str(ranks[s]))
    console.print(table)
    winners = ", ".join(seat_name(game.seats, s) for s in st.winners())
    label = "Winner" if len(st.winners()) == 1 else "Shared win"
    console.print(
        f"{label}{'' if st.is_over() else ' (so far)'}: {winners}", markup=False, soft_wrap=True
    )
    return 0
