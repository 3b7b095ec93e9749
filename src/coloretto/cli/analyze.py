"""``coloretto analyze RECORD [--json] [--budget 600] [--top N] [--seed S]``: review a
finished (or unfinished) game like a chess engine's game review, telling mistakes from noise.

The record is replayed; at every decision whose legal actions lead to more than one position
(so not a placement into one of several empty rows of equal capacity) the move advisor
(``coloretto.agents.advisor``) evaluates the legal actions **from that seat's observation**
(it never sees the draw pile order). Actions that lead to the same position (placing into,
or taking, rows equal in cards and capacity) are evaluated once and listed together. Each
estimate (win chance, margin) comes with its number of samples and its 95% interval. A
draw-and-place entry of the record is two decisions: the turn (draw rather than take) and
the placement (after seeing the card).

**Mistake.** The *loss* of a decision is the best action's estimated win chance minus the
chosen action's. A decision is called a mistake only when the loss lies outside the noise:
the chosen action's whole 95% interval for the win chance lies below the best action's
(``chosen's upper end < best's lower end``; ``coloretto.agents.advisor.is_mistake``). Each
seat's mistakes are listed, largest loss first.

**Reproducible.** The default budget is a number of samples (search iterations) per
decision, so the same record, seed and budget give the same report on any machine. A budget
in seconds (``--budget 0.5s``) is allowed but depends on the machine's speed and load.

Text counts seats, actions, rows and games from 1 (an action also names its index in the
record); the JSON counts seats, rows and action indices from 0, as records do.

Exit status: 0 analysed, 1 the record is invalid (illegal action, inconsistent setup...),
2 the file cannot be read or is not JSON, or bad options.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from rich.console import Console

from ..agents.advisor import EVALUATORS, Advice, advise, is_mistake, same_position_groups
from ..agents.base import Budget
from ..engine import actions as A
from ..engine.actions import Action
from ..engine.cards import CARD_NAMES, COLORS
from ..engine.observation import observe
from ..engine.record import replay
from ..engine.state import PLACE, GameState
from ..text import plural
from .console import StdoutConsole
from .main import DashValue, UsageError
from .replay import action_label, invalid_record_message, read_record_file

DEFAULT_BUDGET = "2000"
"""Samples (search iterations) per decision, shared evenly among its distinct actions."""

MISTAKE_RULE = (
    "A decision is a mistake only when the chosen action's whole 95% interval for the win "
    "chance lies below the best action's (chosen's upper end < best's lower end); smaller "
    "losses are within the noise of the estimates."
)

_CARD_TEXT = {"plus2": '"+2"', "golden_joker": "golden joker"}

Progress = Callable[[int, int], None]
"""``progress(entries_done, entries_total)``, called after each record entry."""


def register(subparsers: Any) -> None:
    """Add the ``analyze`` subcommand."""
    p = subparsers.add_parser(
        "analyze",
        help="review a game record: each seat's mistakes, told apart from noise",
        description=(
            "Replay a coloretto-record/1 file and evaluate every decision with the move "
            "advisor (from the deciding seat's observation only). Each estimate (win chance, "
            "margin) is shown with its samples and 95% interval; actions that lead to the "
            "same position (rows equal in cards and capacity) are evaluated once and listed "
            f"together. {MISTAKE_RULE} The same record, --seed and --budget give the same "
            "report (the default budget counts samples, not seconds). Exit status 1 if the "
            "record is invalid, 2 if it cannot be read."
        ),
    )
    p.add_argument("record", metavar="RECORD", help="the record (JSON)")
    p.add_argument("--json", action="store_true", help="print one JSON object (see docs/agents.md)")
    p.add_argument(
        "--budget",
        action=DashValue,
        default=DEFAULT_BUDGET,
        help="advisor budget per decision: samples (search iterations, shared evenly among "
        f"the actions; reproducible), e.g. '600' (the default is {DEFAULT_BUDGET}), "
        "or seconds ('0.5s', '500ms'; depends on the machine, not reproducible)",
    )
    p.add_argument(
        "--top", type=int, default=3, metavar="N", help="mistakes listed per seat (default 3)"
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the advisor's sampling (default 0)")
    p.add_argument(
        "--evaluator",
        choices=EVALUATORS,
        default="auto",
        help="the advisor's search: auto (the strongest installed, default), ismcts-value, "
        "ismcts (compiled, the 'fast' extra) or mcts (the reference search)",
    )
    p.set_defaults(func=run)


def _row_list(rows: list[int]) -> str:
    """``"row 2"`` or ``"rows 2, 3 and 4"`` (rows given counted from 1)."""
    if len(rows) == 1:
        return f"row {rows[0]}"
    return "rows " + ", ".join(map(str, rows[:-1])) + f" and {rows[-1]}"


def describe(state: GameState, advice: Advice) -> str:
    """Readable text of ``advice``'s action in ``state`` for people (rows counted from 1),
    naming the actions that lead to the same position: ``'place "+2" -> row 1 (same as
    rows 2, 3 and 4)'``, ``"take row 2"``, ``"draw"``, ``"choose green"``."""
    action = advice.action
    same = [a.arg + 1 for a in advice.equivalent]
    if action.kind == "place":
        card = CARD_NAMES[state.drawn] if state.phase == PLACE else "the card"
        text = f"place {_CARD_TEXT.get(card, card)} -> row {action.arg + 1}"
    elif action.kind == "choose_start":
        return f"choose {COLORS[action.arg]}"
    else:
        text = str(action)
    return text + (f" (same as {_row_list(same)})" if same else "")


def _entry_actions(state: GameState, entry: dict[str, Any]) -> list[Action]:
    """The decisions of one (already validated) record entry."""
    kind = entry["action"]
    if kind == "draw":  # a trailing draw may wait for its row (no "row")
        return [A.DRAW_ACTION] + ([Action("place", entry["row"])] if "row" in entry else [])
    if kind == "take":
        return [Action("take", entry["row"])]
    return [Action.from_json(entry)]


def _ci(interval: tuple[float, float] | None, digits: int) -> list[float] | None:
    return None if interval is None else [round(interval[0], digits), round(interval[1], digits)]


def analyze_record(
    record: Any,
    budget: Budget,
    seed: int = 0,
    progress: Progress | None = None,
    evaluator: str = "auto",
) -> dict[str, Any]:
    """Evaluate every decision of a valid ``record`` (module docstring).

    Args:
        record: a coloretto-record/1 object.
        budget: the advisor's budget per decision (``advise``).
        seed: seed of the advisor; decision ``i`` of entry ``k`` uses ``seed + k``.
        progress: called as ``progress(entries_done, entries_total)`` after each entry.
        evaluator: the advisor's search (``advisor.EVALUATORS``).

    Returns:
        ``{"seats": [names], "decisions": [...], "scores": [...] or None}``; each decision
        ``{"action_index", "seat", "game", "round", "decision", "chosen", "best",
        "chosen_action", "best_action", "win_prob_chosen", "win_prob_best",
        "win_prob_chosen_ci95", "win_prob_best_ci95", "win_prob_loss", "margin_chosen",
        "margin_best", "margin_chosen_ci95", "margin_best_ci95", "samples_chosen",
        "samples_best", "evaluator", "same_as_best", "mistake", "legal", "distinct"}``:
        ``same_as_best`` true when the chosen action leads to the best action's position
        (then the loss is 0), ``chosen``/``best`` readable
        (rows from 1), ``*_action`` in JSON form (rows from 0), ``*_ci95`` the 95% intervals
        ``[low, high]`` (a margin's is null with fewer than two samples), ``distinct`` the
        number of different positions the legal actions lead to, ``game`` and ``round``
        counted from 1 as the engine counts them.

    Raises:
        ValueError: the record is invalid (the message is the replay's error).
    """
    res = replay(record)
    if not res.valid or res.game is None:
        where = "" if res.action_index is None else f" ({action_label(res.action_index)})"
        raise ValueError(f"invalid record{where}: {res.error}")
    game = res.game
    assert game.initial is not None
    state = game.initial.copy()
    decisions: list[dict[str, Any]] = []
    entries = record.get("actions", [])
    for index, entry in enumerate(entries):
        for action in _entry_actions(state, entry):
            seat = state.to_move
            legal = state.legal_actions()
            # A decision whose actions all lead to the same position is no choice.
            if len(same_position_groups(state, legal)) > 1:
                advice = advise(
                    observe(state, seat), legal, budget, seed=seed + index, evaluator=evaluator
                )
                best = advice[0]
                mine = next(a for a in advice if a.action == action)
                same = best.same_position(action)
                loss = 0.0 if same else max(0.0, best.win_prob - mine.win_prob)
                decisions.append(
                    {
                        "action_index": index,
                        "seat": seat,
                        "game": state.game + 1,
                        "round": state.round,
                        "decision": state.decision,
                        "chosen": describe(state, mine),
                        "best": describe(state, best),
                        "chosen_action": mine.action.to_json(),
                        "best_action": best.action.to_json(),
                        "win_prob_chosen": round(mine.win_prob, 4),
                        "win_prob_best": round(best.win_prob, 4),
                        "win_prob_chosen_ci95": _ci(mine.win_interval, 4),
                        "win_prob_best_ci95": _ci(best.win_interval, 4),
                        "win_prob_loss": round(loss, 4),
                        "margin_chosen": round(mine.margin, 2),
                        "margin_best": round(best.margin, 2),
                        "margin_chosen_ci95": _ci(mine.margin_interval, 2),
                        "margin_best_ci95": _ci(best.margin_interval, 2),
                        "samples_chosen": mine.samples,
                        "samples_best": best.samples,
                        "evaluator": best.evaluator,
                        "same_as_best": same,
                        "mistake": is_mistake(best, mine),
                        "legal": len(legal),
                        "distinct": len({frozenset((a.action, *a.equivalent)) for a in advice}),
                    }
                )
            state.apply(action)
        if progress is not None:
            progress(index + 1, len(entries))
    return {
        "seats": list(game.seats),
        "decisions": decisions,
        "scores": state.totals() if state.is_over() else None,
    }


def summarize(analysis: dict[str, Any], top: int) -> list[dict[str, Any]]:
    """Per seat: decisions analysed, ``mistakes`` (decisions whose loss lies outside the
    noise) and the win chance they lost (``mistake_win_prob_loss``), the total and mean of
    every decision's estimated loss, noise included (``total_win_prob_loss``,
    ``mean_win_prob_loss``), the ``top`` mistakes with the largest loss (``worst``; ties:
    earlier first) and the decision with the largest loss (``largest``, a mistake or not;
    ``None`` without decisions)."""
    out = []
    for seat, name in enumerate(analysis["seats"]):
        mine = [d for d in analysis["decisions"] if d["seat"] == seat]
        total = sum(d["win_prob_loss"] for d in mine)
        mistakes = [d for d in mine if d["mistake"]]
        ranked = sorted(mine, key=lambda d: (-d["win_prob_loss"], d["action_index"]))
        worst = [d for d in ranked if d["mistake"]][:top]
        out.append(
            {
                "seat": seat,
                "name": name,
                "decisions": len(mine),
                "mistakes": len(mistakes),
                "mistake_win_prob_loss": round(sum(d["win_prob_loss"] for d in mistakes), 4),
                "total_win_prob_loss": round(total, 4),
                "mean_win_prob_loss": round(total / len(mine), 4) if mine else 0.0,
                "worst": worst,
                "largest": ranked[0] if ranked else None,
            }
        )
    return out


def _win_text(p: float, ci: list[float]) -> str:
    return f"{100 * p:.0f}% [{100 * ci[0]:.0f}, {100 * ci[1]:.0f}]"


def _margin_text(m: float, ci: list[float] | None) -> str:
    if ci is None:
        return f"{m:+.1f}"
    return f"{m:+.1f} [{ci[0]:+.1f}, {ci[1]:+.1f}]"


def _print_text(args: argparse.Namespace, budget: Budget, analysis: dict[str, Any]) -> None:
    console = StdoutConsole(highlight=False)
    scores = analysis["scores"]
    if budget.iterations is not None:
        spent = f"{budget.iterations} samples per decision, seed {args.seed}"
    else:
        spent = f"{args.budget} per decision (a time budget: not reproducible), seed {args.seed}"
    spent += f", evaluator {_evaluators(analysis)}"
    console.print(
        f"{args.record}: {plural(len(analysis['decisions']), 'decision')} analysed ({spent})"
        + (
            f"; final scores {', '.join(map(str, scores))}"
            if scores is not None
            else "; game not finished"
        ),
        markup=False,
        soft_wrap=True,
    )
    console.print(
        "Win chance and margin are shown with their 95% interval and samples (n). "
        + MISTAKE_RULE,
        markup=False,
    )
    for s in summarize(analysis, args.top):
        head = f"\nseat {s['seat'] + 1} ({s['name']}): {plural(s['decisions'], 'decision')}, "
        if s["mistakes"]:
            head += (
                f"{plural(s['mistakes'], 'mistake')}, losing "
                f"{100 * s['mistake_win_prob_loss']:.1f} "
                "percentage points of win chance in all"
            )
        else:
            head += "no mistakes"
            if s["largest"] is not None and s["largest"]["win_prob_loss"] > 0:
                d = s["largest"]
                head += (
                    f" (the largest loss, {100 * d['win_prob_loss']:.1f} percentage points of win "
                    f"chance at action "
                    f"{d['action_index'] + 1}, lies within the noise)"
                )
        console.print(head, markup=False, soft_wrap=True)
        for d in s["worst"]:
            where = f"round {d['round']}" + (
                f" of game {d['game']}" if analysis_is_match(analysis) else ""
            )
            console.print(
                f"  action {d['action_index'] + 1} ({where}, {d['decision']}): loss "
                f"{100 * d['win_prob_loss']:.1f} percentage points of win chance",
                markup=False,
                soft_wrap=True,
            )
            width = max(len(d["chosen"]), len(d["best"]))
            for label, key in (("chosen", "chosen"), ("best", "best")):
                console.print(
                    f"    {label:<6}  {d[key]:<{width}}  win "
                    + _win_text(d[f"win_prob_{key}"], d[f"win_prob_{key}_ci95"])
                    + "  margin "
                    + _margin_text(d[f"margin_{key}"], d[f"margin_{key}_ci95"])
                    + f"  n={d[f'samples_{key}']}",
                    markup=False,
                    soft_wrap=True,
                )


def _evaluators(analysis: dict[str, Any]) -> str:
    """The searches that made the analysis' estimates, ``"+"``-joined (``"ismcts-value"``,
    or ``"ismcts-value+mcts"`` with starting-colour choices); ``"none"`` without decisions."""
    names = sorted({d["evaluator"] for d in analysis["decisions"]})
    return "+".join(names) or "none"


def analysis_is_match(analysis: dict[str, Any]) -> bool:
    """True when the analysed record holds more than one game (a match)."""
    return any(d["game"] > 1 for d in analysis["decisions"])


def _analyze_with_progress(
    record: Any, budget: Budget, seed: int, show: bool, evaluator: str = "auto"
) -> dict[str, Any]:
    """``analyze_record`` with a rich progress bar on standard error when ``show``."""
    if not show:
        return analyze_record(record, budget, seed, evaluator=evaluator)
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    with Progress(
        TextColumn("analysing actions"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        entries = record.get("actions", []) if isinstance(record, dict) else []
        task = bar.add_task("actions", total=len(entries) if isinstance(entries, list) else None)

        def step(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return analyze_record(record, budget, seed, step, evaluator)


def run(args: argparse.Namespace) -> int:
    """Analyse ``args.record``; 0 done, 1 invalid record (2 via ``UsageError``)."""
    try:
        budget = Budget.parse(args.budget)
    except ValueError as exc:
        raise UsageError(f"--budget: {exc}") from None
    if args.top < 1:
        raise UsageError(f"--top must be at least 1, not {args.top}")
    record = read_record_file(args.record)
    checked = replay(record)
    if not checked.valid:
        message = invalid_record_message(args.record, record, checked.action_index, str(checked.error))
        print(f"coloretto analyze: {message}", file=sys.stderr)
        return 1
    try:
        analysis = _analyze_with_progress(
            record, budget, args.seed, show=not args.json and sys.stderr.isatty(),
            evaluator=args.evaluator,
        )
    except ValueError as exc:
        print(f"coloretto analyze: {args.record}: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(
            json.dumps(
                {
                    "record": args.record,
                    "budget": args.budget,
                    "reproducible": budget.seconds is None,
                    "seed": args.seed,
                    "evaluator": _evaluators(analysis),
                    "mistake_rule": MISTAKE_RULE,
                    "scores": analysis["scores"],
                    "seats": summarize(analysis, args.top),
                    "decisions": analysis["decisions"],
                }
            )
        )
        return 0
    _print_text(args, budget, analysis)
    return 0
