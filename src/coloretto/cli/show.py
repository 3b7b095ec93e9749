"""``coloretto show RECORD [--seat S] [--json]``: the table at the end of a record as one
seat sees it (``--seat`` counts seats from 1, as the screens do: ``--seat 1`` is the first
seat).

The view is that seat's observation (``coloretto.engine.observation``): never the order of the
draw pile. ``--json`` prints the ``coloretto-observation/1`` object. A record saved by
``coloretto play`` between a draw and its placement (its trailing draw entry, or the older
``pending_draw`` key) is shown with the drawn card waiting for its row, as
``coloretto play --resume`` continues it.

Exit status: 0 ok, 1 the record is invalid, 2 unreadable file, not JSON, or a bad ``--seat``.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..engine.errors import InvalidRecordError
from ..engine.observation import observe
from ..engine.record import load_game
from ..tui import render
from .console import StdoutConsole
from .play import seat_option
from .replay import invalid_record_message, read_record_file


def register(subparsers: Any) -> None:
    """Add the ``show`` subcommand."""
    p = subparsers.add_parser(
        "show",
        help="show the table at the end of a record, as one seat sees it",
        description=(
            "Replay RECORD and show the table at its end from one seat's point of view "
            "(default: the seat to move, or seat 1 when the game is over)."
        ),
    )
    p.add_argument("record", metavar="RECORD", help="a coloretto-record/1 file")
    p.add_argument(
        "--seat",
        type=int,
        metavar="S",
        help="the seat whose view to show, counted from 1 (1 is the first seat)",
    )
    p.add_argument("--json", action="store_true", help="print the coloretto-observation/1 object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Show the view; 1 for an invalid record (2 via ``UsageError`` for bad input)."""
    record = read_record_file(args.record)
    try:
        game = load_game(record)
    except InvalidRecordError as exc:
        message = invalid_record_message(args.record, record, exc.action_index, str(exc))
        print(f"coloretto show: {message}", file=sys.stderr)
        return 1
    st = game.state
    seat = max(st.to_move, 0) if args.seat is None else seat_option("--seat", args.seat, st.n)
    obs = observe(st, seat)
    if args.json:
        print(json.dumps(obs.to_json()))
        return 0
    console = StdoutConsole(highlight=False)
    console.print(render.board(obs.state, game.seats, viewer=seat, viewer_suffix=" (this view)"))
    if st.is_over():
        bds = [st.breakdown(s) for s in range(st.n)]
        title = "Final scores" if st.rules.match_games == 1 else "Last game of the match"
        console.print(render.breakdown_table(bds, game.seats, title=title, ranks=st.ranks()))
        console.print(render.winners_text(st.winners(), st.totals(), game.seats))
    else:
        legal = ", ".join(render.describe(a) for a in st.legal_actions())
        console.print(
            f"{game.seats[st.to_move]} to decide: {legal}",
            markup=False,
            soft_wrap=True,
        )
    return 0
