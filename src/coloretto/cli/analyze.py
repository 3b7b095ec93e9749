"""``coloretto analyze RECORD [--json] [--budget 0.2s] [--top N]``: review a finished (or
unfinished) game like a chess engine's game review.

The record is replayed; at every decision with more than one legal action the move advisor
(``coloretto.agents.advisor``) evaluates the legal actions **from that seat's observation**
(it never sees the draw pile order), and the decision's *win probability loss* is the best
action's estimated win probability minus the chosen action's. A draw-and-place entry of the
record is two decisions: the turn (draw rather than take) and the placement (after seeing
the card). Each seat's decisions that lost the most are listed.

Exit status: 0 analysed, 1 the record is invalid (illegal action, inconsistent setup...),
2 the file cannot be read or is not JSON, or bad options.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rich.console import Console
from rich.table import Table

from ..agents.advisor import advise
from ..agents.base import Budget
from ..engine import actions as A
from ..engine.actions import Action
from ..engine.cards import CARD_NAMES, COLORS
from ..engine.observation import observe
from ..engine.record import replay
from ..engine.state import GameState
from .main import UsageError
from .replay import read_record_file

DEFAULT_BUDGET = "0.2s"


def register(subparsers: Any) -> None:
    """Add the ``analyze`` subcommand."""
    p = subparsers.add_parser(
        "analyze",
        help="review a game record: each seat's decisions that lost the most win probability",
        description=(
            "Replay a coloretto-record/1 file and evaluate every decision with the move "
            "advisor (from the deciding seat's observation only); list each seat's decisions "
            "that lost the most estimated win probability. Exit status 1 if the record is "
            "invalid, 2 if it cannot be read."
        ),
    )
    p.add_argument("record", metavar="RECORD", help="the record (JSON)")
    p.add_argument("--json", action="store_true", help="print one JSON object (see docs/agents.md)")
    p.add_argument(
        "--budget",
        default=DEFAULT_BUDGET,
        help=f"advisor budget per decision: seconds ('0.2s', '500ms') or iterations ('300'); default {DEFAULT_BUDGET}",
    )
    p.add_argument(
        "--top", type=int, default=3, metavar="N", help="decisions listed per seat (default 3)"
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the advisor's sampling (default 0)")
    p.set_defaults(func=run)


def _describe(state: GameState, action: Action) -> str:
    if state.phase == 1 and action.kind == "place":  # PLACE
        return f"place {CARD_NAMES[state.drawn]} -> row {action.arg}"
    if action.kind == "choose_start":
        return f"choose {COLORS[action.arg]}"
    return str(action)


def _entry_actions(state: GameState, entry: dict[str, Any]) -> list[Action]:
    """The decisions of one (already validated) record entry."""
    kind = entry["action"]
    if kind == "draw":  # a trailing draw may wait for its row (no "row")
        return [A.DRAW_ACTION] + ([Action("place", entry["row"])] if "row" in entry else [])
    if kind == "take":
        return [Action("take", entry["row"])]
    return [Action.from_json(entry)]


def analyze_record(record: Any, budget: Budget, seed: int = 0) -> dict[str, Any]:
    """Evaluate every decision of a valid ``record``.

    Returns:
        ``{"seats": [names], "decisions": [{"action_index", "seat", "round", "game",
        "decision", "chosen", "best", "win_prob_chosen", "win_prob_best", "win_prob_loss",
        "margin_chosen", "margin_best", "legal"}], "scores": [...] or None}``.

    Raises:
        ValueError: the record is invalid (the message is the replay's error).
    """
    res = replay(record)
    if not res.valid or res.game is None:
        where = "" if res.action_index is None else f" (action {res.action_index})"
        raise ValueError(f"invalid record{where}: {res.error}")
    game = res.game
    assert game.initial is not None
    state = game.initial.copy()
    decisions: list[dict[str, Any]] = []
    for index, entry in enumerate(record.get("actions", [])):
        for action in _entry_actions(state, entry):
            seat = state.to_move
            legal = state.legal_actions()
            if len(legal) > 1:
                advice = advise(observe(state, seat), legal, budget, seed=seed + index)
                best = advice[0]
                mine = next(a for a in advice if a.action == action)
                decisions.append(
                    {
                        "action_index": index,
                        "seat": seat,
                        "game": state.game + 1,
                        "round": state.round,
                        "decision": state.decision,
                        "chosen": _describe(state, action),
                        "best": _describe(state, best.action),
                        "win_prob_chosen": round(mine.win_prob, 4),
                        "win_prob_best": round(best.win_prob, 4),
                        "win_prob_loss": round(max(0.0, best.win_prob - mine.win_prob), 4),
                        "margin_chosen": round(mine.margin, 2),
                        "margin_best": round(best.margin, 2),
                        "legal": len(legal),
                    }
                )
            state.apply(action)
    return {
        "seats": list(game.seats),
        "decisions": decisions,
        "scores": state.totals() if state.is_over() else None,
    }


def summarize(analysis: dict[str, Any], top: int) -> list[dict[str, Any]]:
    """Per seat: decisions analysed, total and mean win probability loss, and the ``top``
    decisions that lost the most (ties: earlier first)."""
    out = []
    for seat, name in enumerate(analysis["seats"]):
        mine = [d for d in analysis["decisions"] if d["seat"] == seat]
        total = sum(d["win_prob_loss"] for d in mine)
        worst = sorted(mine, key=lambda d: (-d["win_prob_loss"], d["action_index"]))[:top]
        out.append(
            {
                "seat": seat,
                "name": name,
                "decisions": len(mine),
                "total_win_prob_loss": round(total, 4),
                "mean_win_prob_loss": round(total / len(mine), 4) if mine else 0.0,
                "worst": worst,
            }
        )
    return out


def run(args: argparse.Namespace) -> int:
    """Analyse ``args.record``; 0 done, 1 invalid record (2 via ``UsageError``)."""
    try:
        budget = Budget.parse(args.budget)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.top < 1:
        raise UsageError(f"--top must be at least 1, not {args.top}")
    record = read_record_file(args.record)
    try:
        analysis = analyze_record(record, budget, args.seed)
    except ValueError as exc:
        print(f"coloretto analyze: {args.record}: {exc}", file=sys.stderr)
        return 1
    seats = summarize(analysis, args.top)
    if args.json:
        print(
            json.dumps(
                {
                    "record": args.record,
                    "budget": args.budget,
                    "scores": analysis["scores"],
                    "seats": seats,
                    "decisions": analysis["decisions"],
                }
            )
        )
        return 0
    console = Console(highlight=False)
    scores = analysis["scores"]
    console.print(
        f"{args.record}: {len(analysis['decisions'])} decisions analysed (budget {args.budget} each)"
        + (f"; final scores {scores}" if scores is not None else "; game not finished"),
        markup=False,
        soft_wrap=True,
    )
    for s in seats:
        console.print(
            f"\nseat {s['seat']} ({s['name']}): {s['decisions']} decisions, "
            f"win probability lost {s['total_win_prob_loss']:.2f} in total, {s['mean_win_prob_loss']:.3f} per decision",
            markup=False,
            soft_wrap=True,
        )
        if not s["worst"]:
            continue
        table = Table(box=None, pad_edge=False)
        for col in ("action", "round", "chosen", "win%", "best", "win%", "loss"):
            table.add_column(
                col, justify="right" if col in ("action", "round", "win%", "loss") else "left"
            )
        for d in s["worst"]:
            table.add_row(
                str(d["action_index"]),
                str(d["round"]),
                d["chosen"],
                f"{100 * d['win_prob_chosen']:.0f}",
                d["best"],
                f"{100 * d['win_prob_best']:.0f}",
                f"{100 * d['win_prob_loss']:.1f}",
            )
        console.print(table)
    return 0
