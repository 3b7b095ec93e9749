"""``coloretto perft RECORD --depth d [--json]``: count legal action sequences from the state
at the end of a record, to compare rule implementations.

A draw-and-place counts as one action per row choice; the record's draw pile fixes every
revealed card (``coloretto.engine.perft``). Prints the count for every depth 1..d with the
time taken; ``--divide`` adds the count below each first action (as chess perft tools do).
The text counts rows and seats from 1, as people do, and says when the game is over; the
JSON counts them from 0, as records do.

Exit status: 0 ok, 1 the record is invalid, 2 unreadable file, not JSON or bad depth.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, Final

from ..engine import actions as A
from ..engine.cards import CARD_NAMES
from ..engine.errors import InvalidRecordError
from ..engine.perft import perft, perft_moves
from ..engine.record import load_game
from ..engine.state import GameState
from .main import UsageError
from .replay import invalid_record_message, read_record_file


def register(subparsers: Any) -> None:
    """Add the ``perft`` subcommand."""
    p = subparsers.add_parser(
        "perft",
        help="count legal action sequences from the end of a record",
        description=(
            "Count the distinct legal action sequences of length 1..DEPTH from the state at "
            "the end of RECORD (a draw-and-place is one action per row choice)."
        ),
    )
    p.add_argument("record", metavar="RECORD", help="a coloretto-record/1 file")
    p.add_argument("--depth", type=int, required=True, metavar="D", help=f"sequence length (0 to {MAX_DEPTH})")
    p.add_argument("--divide", action="store_true", help="also count below each first action")
    p.add_argument(
        "--json",
        action="store_true",
        help='print {"depth", "nodes", "per_depth", "seconds", "decision", "to_move", '
        '"actions_in_record", "divide"}; "to_move" and the "divide" entries\' rows count from '
        '0 as in records (-1: nobody, the game is over); each "divide" entry also has its '
        '"text" as the table shows it',
    )
    p.set_defaults(func=run)


def first_moves(state: GameState) -> list[tuple[dict[str, Any], str, GameState]]:
    """Each first action (a draw expanded into its placements) with the state after it, as
    ``(entry, text, state)``: ``entry`` the record-entry form with rows counted from 0 as in
    records (``{"action": "draw", "card": "green", "row": 2}``, ``{"action": "take",
    "row": 0}``), ``text`` the readable form with rows counted from 1 as people count
    (``"draw green -> row 3"``, ``"take row 1"``)."""
    out: list[tuple[dict[str, Any], str, GameState]] = []
    for code, drawn, child in perft_moves(state):
        if drawn is not None:
            name = CARD_NAMES[drawn]
            row = code - A.PLACE0
            entry = {"action": "draw", "card": name, "row": row}
            out.append((entry, f"draw {name} -> row {row + 1}", child))
        else:
            action = A.decode(code)
            out.append((action.to_json(), str(action), child))
    return out


def status_text(state: GameState) -> str:
    """Whose decision it is, for people (seats counted from 1), or that the game is over."""
    if state.is_over():
        return "the game is over"
    return f"{state.decision}, seat {state.to_move + 1} to move"


MAX_DEPTH: Final = 12
"""Deepest ``--depth``: each depth multiplies the sequences by about 5 (a mid-game position,
4 players: depth 6 in 0.17 s, so depth 12 in about 45 minutes on this project's benchmark
machine), and a mistyped large depth would otherwise run for ever."""


def run(args: argparse.Namespace) -> int:
    """Run perft; 1 for an invalid record (2 via ``UsageError`` for bad input)."""
    if not 0 <= args.depth <= MAX_DEPTH:
        raise UsageError(
            f"--depth must be 0 to {MAX_DEPTH}, not {args.depth}: each depth multiplies the "
            f"count and the time by about 5 (depth {MAX_DEPTH} takes most of an hour)"
        )
    record = read_record_file(args.record)
    try:
        game = load_game(record)
    except InvalidRecordError as exc:
        message = invalid_record_message(args.record, record, exc.action_index, str(exc))
        print(f"coloretto perft: {message}", file=sys.stderr)
        return 1
    state = game.state
    per_depth: list[dict[str, Any]] = []
    start_all = time.perf_counter()
    nodes = 1
    for d in range(1, args.depth + 1):
        t0 = time.perf_counter()
        nodes = perft(state, d)
        per_depth.append(
            {"depth": d, "nodes": nodes, "seconds": round(time.perf_counter() - t0, 6)}
        )
    divide: list[dict[str, Any]] = []
    if args.divide and args.depth >= 1:
        for entry, text, child in first_moves(state):
            divide.append({"action": entry, "text": text, "nodes": perft(child, args.depth - 1)})
    seconds = time.perf_counter() - start_all
    out: dict[str, Any] = {
        "depth": args.depth,
        "nodes": nodes if args.depth > 0 else 1,
        "per_depth": per_depth,
        "seconds": round(seconds, 6),
        "decision": state.decision,
        "to_move": state.to_move,
        "actions_in_record": len(game.entries),
    }
    if args.divide:
        out["divide"] = divide
    if args.json:
        print(json.dumps(out))
        return 0
    print(
        f"perft from the end of {args.record} ({len(game.entries)} actions; "
        f"{status_text(state)})"
    )
    for row in per_depth:
        d, n, s = row["depth"], row["nodes"], row["seconds"]
        rate = f", {n / s:,.0f} nodes/s" if s > 0 else ""
        print(f"  depth {d}: {n:>14,} sequences  ({s:.3f} s{rate})")
    if args.divide:
        print(f"divide (depth {args.depth - 1} below each first action):")
        for row in divide:
            print(f"  {row['text']:<28} {row['nodes']:,}")
    print(f"nodes: {out['nodes']}  total time: {seconds:.3f} s")
    return 0
