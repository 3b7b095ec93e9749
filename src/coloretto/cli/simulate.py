"""``coloretto simulate``: many games between agents, with win shares, scores and ranks.

Example: ``coloretto simulate --players 4 --agents greedy,random,random,random --games 1000``.
Statistics and their 95% intervals: see ``coloretto.arena.stats``.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..agents import Budget
from ..agents.registry import check_spec, is_external
from ..arena.failures import DEFAULT_FAILURE_POLICY, parse_failure_policy
from ..arena.simulate import ENGINE_PATH, SimulationResult, simulate
from ..arena.stats import AgentSummary, summarize_agents, summarize_seats
from ..engine.actions import short_repr
from ..engine.errors import ColorettoError
from ..engine.rules import PRESETS, Rules, preset
from ..engine.seeds import new_secret, seal
from .console import StdoutConsole
from .main import DashValue, UsageError

MAX_GAMES = 10**9
"""Most games one run accepts."""

METHOD = (
    "win share: 1 per win, ties split (1/k each of k tied winners); rank: competition rank "
    "(1 = best, ties share the better rank); intervals: 95% normal approximation, "
    "mean +- 1.96 * sample sd / sqrt(games); a spec in several seats is averaged over its "
    "seats within each game first; a seat whose external engine failed forfeits that game "
    "(win share 0, last rank; the others ranked by their scores at that moment) unless a "
    "fallback agent finishes it"
)


def register(subparsers: Any) -> None:
    """Add the ``simulate`` parser."""
    p = subparsers.add_parser(
        "simulate",
        help="play many games between agents and report win shares, scores and ranks",
        description=(
            "Play many games between computer players. Per seat (and per agent spec that "
            "sits in several seats): win share, mean score and mean rank with 95% "
            "confidence intervals. " + METHOD + "."
        ),
    )
    p.add_argument("--players", type=int, default=4, help="number of players, 2 to 5 (default 4)")
    p.add_argument(
        "--agents",
        default=None,
        help="comma-separated agent spec per seat, e.g. greedy,random,random,random "
        "(default: greedy then random in the other seats)",
    )
    p.add_argument(
        "--games",
        type=int,
        default=1000,
        help=f"number of games, 1 to {MAX_GAMES:,} (default 1000)",
    )
    p.add_argument(
        "--seed", type=int, default=None, help="root seed (default: a random one, printed)"
    )
    p.add_argument("--engine-secret", default=None, metavar="SECRET", help=(
        "secret of a run with external engines (cmd:...): their deals and hello seeds come from --seed "
        "sealed with it; default: drawn at random and published in the report (give both to replay a run)"))
    p.add_argument(
        "--preset", default="classic", help=f"rules preset: {', '.join(PRESETS)} (default classic)"
    )
    p.add_argument(
        "--edition", choices=("classic", "modern"), default=None, help="override the edition"
    )
    p.add_argument(
        "--table", choices=("brown", "violet"), default=None, help="override the score table"
    )
    p.add_argument("--workers", type=int, default=1, help="processes to play in (default 1)")
    p.add_argument(
        "--budget",
        action=DashValue,
        default=None,
        help="thinking budget per decision for every agent: 0.5s, 500ms, 2000 (iterations), or "
        "0.5s-cpu (CPU time of the searching thread; mcts, mcts-v1, oracle)",
    )
    p.add_argument(
        "--save-records", metavar="DIR", default=None, help="write each game's record into DIR"
    )
    p.add_argument(
        "--on-engine-failure",
        default=DEFAULT_FAILURE_POLICY,
        metavar="POLICY",
        help=f"when an external engine (cmd:) fails: {DEFAULT_FAILURE_POLICY} (default; the "
        "seat forfeits that game: win share 0, last rank) or fallback:AGENT (e.g. "
        "fallback:random finishes the game); failures are reported and the run goes on",
    )
    p.add_argument("--engine-only", action="store_true", help="never use the fast batch simulator")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def _rules(args: argparse.Namespace) -> Rules:
    overrides: dict[str, Any] = {}
    if args.edition is not None:
        overrides["edition"] = args.edition
    if args.table is not None:
        overrides["table"] = args.table
    try:
        return preset(args.preset, args.players, **overrides)
    except ColorettoError as exc:
        raise UsageError(str(exc)) from None


def _specs(args: argparse.Namespace) -> list[str]:
    """The agent spec of every seat: ``--agents``, or greedy then random.

    Raises:
        UsageError: an empty spec, a spec that does not make an agent (``check_spec``: an
            unknown agent, a bad budget, a program that cannot run; the message starts with
            ``--agents``), or, every spec being good, not one spec per player.
    """
    if args.agents is None:
        return ["greedy"] + ["random"] * (args.players - 1)
    specs = [s.strip() for s in args.agents.split(",")]
    if any(not s for s in specs):
        raise UsageError(f"--agents {short_repr(args.agents)}: an agent spec is empty")
    # each spec is checked before their number: "--agents foo" is a typo, not a short list
    for spec in dict.fromkeys(specs):
        try:
            check_spec(spec)
        except ColorettoError as exc:
            raise UsageError(f"--agents: {exc}") from None
    if len(specs) != args.players:
        raise UsageError(f"--agents names {len(specs)} agent(s) but --players is {args.players}")
    return specs


def run(args: argparse.Namespace) -> int:
    """Run the simulation and print the report (exit 0), or raise ``UsageError`` (exit 2)."""
    if args.games <= 0:
        raise UsageError(f"--games must be positive, not {args.games}")
    if args.games > MAX_GAMES:
        raise UsageError(f"--games must be at most {MAX_GAMES:,} in one run, not {args.games:,}")
    if args.workers <= 0:
        raise UsageError(f"--workers must be positive, not {args.workers}")
    rules = _rules(args)
    specs = _specs(args)
    try:
        budget = Budget.parse(args.budget, cpu_ok=True) if args.budget else None
    except ValueError as exc:
        raise UsageError(f"--budget: {exc}") from None
    try:
        policy = parse_failure_policy(args.on_engine_failure)
    except ColorettoError as exc:
        raise UsageError(str(exc)) from None
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    secret = run_secret(specs, args.engine_secret)
    dealt_from = seed if secret is None else seal(seed, secret)
    save_dir = _records_dir(args.save_records)

    show_progress = not args.json and sys.stderr.isatty()
    try:
        result = _run_with_progress(rules, specs, args, dealt_from, budget, save_dir, show_progress, policy)
    except KeyboardInterrupt:
        kept = f"; the finished games' records are in {save_dir}" if save_dir is not None else ""
        print(f"\ninterrupted: no report{kept}", file=sys.stderr)
        raise
    seats = summarize_seats(specs, result.scores, result.forfeits)
    aggregates = summarize_agents(specs, result.scores, result.forfeits)
    forfeited = [(g, s) for g, s in enumerate(result.forfeits) if s is not None]
    report = {
        "rules": rules.to_dict(),
        "preset": args.preset,
        "agents": specs,
        "games": len(result.scores),
        "seed": seed,
        "engine_secret": secret,
        "workers": args.workers,
        "path": result.path,
        "path_note": result.note,
        "seconds": result.seconds,
        "games_per_s": len(result.scores) / result.seconds if result.seconds > 0 else None,
        "method": METHOD,
        "seats": [
            dict(
                s.to_json(),
                seat=s.seats[0],
                forfeits=sum(1 for _, f in forfeited if f == s.seats[0]),
            )
            for s in seats
        ],
        "by_agent": [a.to_json() for a in aggregates],
        "on_engine_failure": policy,
        "forfeited_games": [g for g, _ in forfeited],
        "failures": result.failures,
    }
    if args.json:
        print(json.dumps(report))
    else:
        _print_report(report, seats, aggregates, repeated=len(set(specs)) < len(specs))
    return 0


def run_secret(specs: Sequence[str], given: str | None) -> str | None:
    """The run's secret (``seeds.seal``): ``given``, else a new one when an agent is an
    external engine, else None (the run deals from ``--seed`` itself).

    Raises:
        UsageError: ``given`` is empty.
    """
    if given is not None:
        if not given.strip():
            raise UsageError("--engine-secret cannot be empty")
        return given
    return new_secret() if any(is_external(spec) for spec in specs) else None


def _records_dir(text: str | None) -> Path | None:
    """The ``--save-records`` directory, created now (before any game is played) in a
    directory that exists.

    Raises:
        UsageError: the path is empty, is a file, lies under a file or under a directory
            that does not exist, already holds records (``game-*.json``), or cannot be
            created.
    """
    if text is None:
        return None
    if not text.strip():
        raise UsageError("--save-records needs a directory name (it is empty)")
    save_dir = Path(text)
    if save_dir.exists() and not save_dir.is_dir():
        raise UsageError(f"--save-records {save_dir}: not a directory")
    held = sorted(p.name for p in save_dir.glob("game-*.json")) if save_dir.is_dir() else []
    if held:
        raise UsageError(
            f"--save-records {save_dir} already holds records ({held[0]} and {len(held) - 1} "
            "more): give a new or empty directory (records are never overwritten)"
        )
    for parent in save_dir.parents:
        if parent.exists() and not parent.is_dir():
            raise UsageError(f"--save-records {save_dir}: {parent} is a file, not a directory")
    if not save_dir.parent.is_dir():
        # only the last part is made: a mistyped path builds no tree of directories
        raise UsageError(f"--save-records {save_dir}: no directory {save_dir.parent}")
    try:
        save_dir.mkdir(exist_ok=True)
    except OSError as exc:
        raise UsageError(
            f"--save-records {save_dir}: cannot create it: {exc.strerror or exc}"
        ) from None
    return save_dir


def _run_with_progress(
    rules: Rules,
    specs: list[str],
    args: argparse.Namespace,
    seed: int,
    budget: Budget | None,
    save_dir: Path | None,
    show: bool,
    policy: str = DEFAULT_FAILURE_POLICY,
) -> SimulationResult:
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    kwargs: dict[str, Any] = {
        "workers": args.workers,
        "budget": budget,
        "preset_name": args.preset,
        "save_dir": save_dir,
        "engine_only": args.engine_only,
        "on_engine_failure": policy,
    }
    if not show:
        try:
            return simulate(rules, specs, args.games, seed, **kwargs)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    with Progress(
        TextColumn("simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task("games", total=args.games)
        try:
            return simulate(
                rules,
                specs,
                args.games,
                seed,
                progress=lambda n: bar.update(task, completed=n),
                **kwargs,
            )
        except ValueError as exc:
            raise UsageError(str(exc)) from None


def _print_report(
    report: dict[str, Any],
    seats: list[AgentSummary],
    aggregates: list[AgentSummary],
    repeated: bool,
) -> None:
    from rich.table import Table

    console = StdoutConsole()
    path = report["path"]
    note = f" ({report['path_note']})" if report["path_note"] and path == ENGINE_PATH else ""
    rate = report["games_per_s"]
    console.print(
        f"{report['games']} games, {report['rules']['players']} players, preset {report['preset']}, "
        f"edition {report['rules']['edition']}, table {report['rules']['table']}, seed {report['seed']}"
    )
    console.print(
        f"path: {path}{note}; {report['workers']} worker(s); {report['seconds']:.2f} s"
        + (f" ({rate:.1f} games/s)" if rate else "")
    )

    def table(title: str, rows: list[AgentSummary], first: str) -> Table:
        t = Table(title=title)
        t.add_column(first)
        t.add_column("agent")
        t.add_column("win share", justify="right")
        t.add_column("mean score", justify="right")
        t.add_column("mean rank", justify="right")
        for r in rows:
            t.add_row(
                ",".join(str(seat + 1) for seat in r.seats),  # people count seats from 1
                r.agent,
                r.win_share.format(3),
                r.score.format(2),
                r.rank.format(3),
            )
        return t

    console.print(table("per seat (95% confidence intervals)", seats, "seat"))
    if repeated:
        console.print(table("per agent (seats averaged within each game)", aggregates, "seats"))
    failures = report["failures"]
    if failures:
        forfeited = report["forfeited_games"]
        console.print(
            f"{len(failures)} engine failure(s), policy {report['on_engine_failure']}; "
            f"{len(forfeited)} game(s) forfeited:",
            highlight=False,
        )
        for f in failures[:20]:
            console.print(
                f"  game {f['game'] + 1} seat {f['seat'] + 1} ({f['engine']}): {f['kind']}: "
                f"{f['detail']} -> {f['handling']}",
                markup=False,
                highlight=False,
            )
        if len(failures) > 20:
            console.print(f"  ... and {len(failures) - 20} more (see --json)", highlight=False)
    console.print(METHOD, style="dim", highlight=False)
