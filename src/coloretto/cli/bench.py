"""``coloretto bench``: speed figures (never asserted in tests; see docs/benchmarks.md).

- ``coloretto bench playout --players 4 --games N [--seed S] [--json] [--fast] [--no-limit]``:
  benchmark-policy playouts of the engine (``coloretto.arena.bench``), with limit.c compiled
  and run in the same run for the ratio.
- ``coloretto bench score [--seconds S] [--json]``: optimal scorings per second.
- ``coloretto bench env [--envs 4096] [--players 4] [--edition E] [--seconds 5] [--threads T]
  [--json]``: steps per second of the batched environment (``coloretto.envs.vector``).
- ``coloretto bench mcts [--players 4] [--positions 6] [--seconds 2] [--evaluation E]
  [--reference] [--json] [--no-limit]``: iterations per second of the compiled search
  (``coloretto.arena.bench_search``), with limit.c's games per second from the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from .._optional import MissingExtra
from ..agents.compiled_names import LEAF_EVALUATIONS
from ..arena.bench import (
    LIMIT_C_DEFAULT,
    LIMIT_C_ENV,
    LimitUnavailable,
    compile_limit_c,
    find_compiler,
    playout_report,
)
from ..engine.errors import ColorettoError
from .main import UsageError

MAX_SCORE_SECONDS = 3600
"""Longest ``bench score --seconds`` accepted (one hour)."""
MAX_PLAYOUTS = 10**7
"""Most games ``bench playout`` plays in one run, ours or limit.c's (minutes at the
engine's speed, docs/benchmarks.md)."""


def register(subparsers: Any) -> None:
    """Add the ``bench`` parser and its ``playout`` and ``score`` subcommands."""
    p = subparsers.add_parser("bench", help="speed benchmarks (playouts, scoring)")
    sub = p.add_subparsers(dest="bench_command", metavar="BENCHMARK")
    sub.required = True

    po = sub.add_parser(
        "playout",
        help="games per second of random playouts, with limit.c's in the same run",
        description=(
            "Play full games with the benchmark policy (uniform over {draw} and {take row r}; "
            "a drawn card goes to a uniform legal row; classic edition, brown table, optimal "
            "final scoring) and print games per second. Also compiles limit.c with cc -O2 and "
            "runs it for the ratio ours / limit.c."
        ),
    )
    po.add_argument("--players", type=int, default=4, help="2 to 5 (limit.c: 4 or 5; default 4)")
    po.add_argument(
        "--games", type=int, default=2000,
        help=f"games the engine plays, 1 to {MAX_PLAYOUTS:,} (default 2000)",
    )
    po.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    po.add_argument(
        "--fast", action="store_true", help="also measure the fast core (coloretto.fastcore)"
    )
    po.add_argument("--no-limit", action="store_true", help="do not compile and run limit.c")
    po.add_argument(
        "--limit-c",
        metavar="PATH",
        default=None,
        help=f"path of limit.c; must exist (default ${LIMIT_C_ENV} if set, else the "
        "copy shipped with coloretto)",
    )
    po.add_argument(
        "--limit-games",
        type=int,
        default=None,
        help=f"games limit.c plays, 1 to {MAX_PLAYOUTS:,} (default max(GAMES, 100000))",
    )
    po.add_argument("--json", action="store_true", help="print one JSON object")
    po.set_defaults(func=run_playout)

    sc = sub.add_parser("score", help="optimal scorings per second on random collections")
    sc.add_argument(
        "--seconds",
        type=float,
        default=2.0,
        help=f"measuring time in seconds, above 0 and at most {MAX_SCORE_SECONDS} (default 2)",
    )
    sc.add_argument(
        "--seed", type=int, default=0, help="seed of the random collections (default 0)"
    )
    sc.add_argument("--json", action="store_true", help="print one JSON object")
    sc.set_defaults(func=run_score)

    mc = sub.add_parser(
        "mcts",
        help="iterations per second of the compiled search, with limit.c's games/s",
        description=(
            "Search a fixed set of positions (decisions of heuristic self-play games) with "
            "the compiled information-set MCTS (spec ismcts) on one core and print its "
            "iterations per second; limit.c runs in the same run (before and after)."
        ),
    )
    mc.add_argument("--players", type=int, default=4, help="2 to 5 (default 4)")
    mc.add_argument("--positions", type=int, default=6, help="positions searched (default 6)")
    mc.add_argument(
        "--seconds",
        type=float,
        default=2.0,
        help=f"search time per position, above 0 and at most {MAX_SCORE_SECONDS} (default 2)",
    )
    mc.add_argument(
        "--evaluation",
        choices=LEAF_EVALUATIONS,
        default="rollout",
        help="leaf evaluation (default rollout: the hybrid rollout policy)",
    )
    mc.add_argument(
        "--reference",
        action="store_true",
        help="also time the Python reference search (mcts-v1) on the same positions",
    )
    mc.add_argument("--no-limit", action="store_true", help="do not compile and run limit.c")
    mc.add_argument(
        "--limit-c",
        metavar="PATH",
        default=None,
        help=f"path of limit.c; must exist (default ${LIMIT_C_ENV} if set, else the "
        "copy shipped with coloretto)",
    )
    mc.add_argument("--json", action="store_true", help="print one JSON object")
    mc.set_defaults(func=run_mcts)
    ev = sub.add_parser(
        "env",
        help="steps per second of the batched environment (observations and masks)",
        description=(
            "Step N games at once in the batched environment (coloretto.envs.vector) with "
            "random legal actions (drawn by a separate compiled kernel inside the timed "
            "loop) and report environment steps per second, each with the observation "
            "tensor and the action mask of the seat to move."
        ),
    )
    ev.add_argument("--envs", type=int, default=4096, help="games stepped at once (default 4096)")
    ev.add_argument("--players", type=int, default=4, help="players, 2 to 5 (default 4)")
    ev.add_argument(
        "--edition", choices=("classic", "modern"), default="classic", help="default classic"
    )
    ev.add_argument("--seconds", type=float, default=5.0, help="timed seconds (default 5)")
    ev.add_argument(
        "--threads",
        type=int,
        default=1,
        help="Numba threads (default 1; more pay only on an idle machine)",
    )
    ev.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    ev.add_argument("--json", action="store_true", help="print one JSON object")
    ev.set_defaults(func=run_env)


def _check_limit_c(explicit: str | None) -> None:
    """Refuse a limit.c the user named (``--limit-c``, else ``$COLORETTO_LIMIT_C``) that is
    missing or does not compile, before anything is measured: a figure without the ratio
    the user asked for would pass unnoticed. Only the default location may be absent, and a
    missing compiler is stated in the report (neither is the named file's fault).

    Raises:
        UsageError: the option or variable, the path, and the compiler's first errors.
    """
    env = os.environ.get(LIMIT_C_ENV)
    if explicit is not None:
        named, source, hint = f"--limit-c {explicit}", Path(explicit), ""
    elif env:
        named, source, hint = f"{LIMIT_C_ENV}={env}", Path(env), f" (unset it to use the default {LIMIT_C_DEFAULT})"
    else:
        return
    if not source.is_file():
        raise UsageError(f"{named}: no such file{hint}")
    if find_compiler() is None:
        return
    with tempfile.TemporaryDirectory(prefix="coloretto-limit-") as tmp:
        try:
            compile_limit_c(source, Path(tmp))
        except LimitUnavailable as exc:
            raise UsageError(f"{named}: {exc}") from None


def run_playout(args: argparse.Namespace) -> int:
    """``bench playout``: exit 0 with the figures (the default limit.c missing is stated,
    not an error); exit 2 on bad input, a named limit.c that is missing or does not compile
    (``_check_limit_c``), or ``--fast`` without Numba (``MissingExtra``)."""
    if not 0 < args.games <= MAX_PLAYOUTS:
        raise UsageError(f"--games must be 1 to {MAX_PLAYOUTS:,}, not {args.games:,}")
    if not 2 <= args.players <= 5:
        raise UsageError(f"--players must be 2 to 5, not {args.players}")
    if args.limit_games is not None and not 0 < args.limit_games <= MAX_PLAYOUTS:
        raise UsageError(f"--limit-games must be 1 to {MAX_PLAYOUTS:,}, not {args.limit_games:,}")
    if not args.no_limit:
        _check_limit_c(args.limit_c)
    try:
        report = playout_report(
            args.players,
            args.games,
            args.seed,
            limit=not args.no_limit,
            limit_c=args.limit_c,
            limit_games=args.limit_games,
            fast=args.fast,
        )
    except MissingExtra:
        raise
    except (ValueError, ColorettoError) as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        print(json.dumps(report))
        return 0
    print(
        f"engine playout: players={report['players']} games={report['games']} "
        f"seconds={report['seconds']:.3f} games_per_s={report['games_per_s']:.1f} "
        f"mean_winner_score={report['mean_winner_score']:.2f}"
    )
    if report["ratio"] is not None:
        print(
            f"limit.c:        players={report['players']} games={report['limit_games']} "
            f"games_per_s={report['limit_games_per_s']:.0f} "
            f"mean_winner_score={report['limit_mean_winner_score']:.2f}"
        )
        print(f"ratio engine / limit.c: {report['ratio']:.4f} ({100 * report['ratio']:.2f}%)")
    else:
        print(f"limit.c: not measured: {report['limit_note']}; no ratio reported")
    fast = report.get("fast")
    if fast is not None:
        line = (
            f"fast playout:   games_per_s={fast['games_per_s']:.0f} "
            f"mean_winner_score={fast['mean_winner_score']:.2f} "
            f"compile_seconds={fast['compile_seconds']:.2f}"
        )
        if fast.get("ratio") is not None:
            line += f" ratio fast / limit.c: {fast['ratio']:.4f} ({100 * fast['ratio']:.1f}%)"
        print(line)
    return 0


def run_score(args: argparse.Namespace) -> int:
    """``bench score``: optimal scorings per second (``coloretto.arena.bench_score``)."""
    _check_seconds(args.seconds)
    try:
        from ..arena.bench_score import bench_score
    except ModuleNotFoundError as exc:
        if exc.name == "coloretto.arena.bench_score":
            raise UsageError(
                "the scoring benchmark is not available in this installation"
            ) from None
        raise
    report = bench_score(args.seconds, args.seed)
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"optimal scoring: scorings_per_s={report['scorings_per_s']:.0f}")
    for key, value in report.items():
        if key != "scorings_per_s":
            print(f"  {key}={value:.4g}" if isinstance(value, float) else f"  {key}={value}")
    return 0


def run_mcts(args: argparse.Namespace) -> int:
    """``bench mcts``: exit 0 with the figures (the default limit.c missing is stated, not
    an error); exit 2 on bad input, a named limit.c that is missing or does not compile
    (``_check_limit_c``), or without the fast core."""
    if not 2 <= args.players <= 5:
        raise UsageError(f"--players must be 2 to 5, not {args.players}")
    if not 1 <= args.positions <= 1000:
        raise UsageError(f"--positions must be 1 to 1000, not {args.positions}")
    _check_seconds(args.seconds)
    if not args.no_limit:
        _check_limit_c(args.limit_c)
    try:
        from ..arena.bench_search import bench_search

        report = bench_search(
            args.players,
            args.positions,
            args.seconds,
            evaluation=args.evaluation,
            reference=args.reference,
            limit=not args.no_limit,
            limit_c=args.limit_c,
        )
    except ModuleNotFoundError as exc:
        if exc.name in ("numba", "coloretto.fastcore") or (exc.name or "").startswith("numba"):
            raise UsageError("the compiled search needs the fast core (the 'fast' extra)") from None
        raise
    except (ValueError, ColorettoError) as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        print(json.dumps(report))
        return 0
    print(
        f"compiled search: players={report['players']} positions={report['positions']} "
        f"seconds/position={report['seconds_per_position']:g} evaluation={report['evaluation']} "
        f"iterations_per_s={report['iterations_per_s']:.0f} "
        f"(per CPU second {report['iterations_per_cpu_s']:.0f})"
    )
    if "reference_iterations_per_s" in report:
        print(
            f"reference search (mcts-v1): iterations_per_s="
            f"{report['reference_iterations_per_s']:.0f} factor x{report['factor']:.1f}"
        )
    if report["limit_games_per_s"] is not None:
        print(
            f"limit.c: games={report['limit_games']} "
            f"games_per_s={report['limit_games_per_s']:.0f}"
        )
    else:
        print(f"limit.c: not measured: {report['limit_note']}")
    load = report["load_average"]
    if load is not None:
        print(f"load average during the run: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    return 0


def run_env(args: argparse.Namespace) -> int:
    """``bench env``: exit 0 with the figures; 2 on bad input."""
    if not 1 <= args.envs <= 1 << 22:
        raise UsageError(f"--envs must be 1 to {1 << 22}, not {args.envs}")
    if not 2 <= args.players <= 5:
        raise UsageError(f"--players must be 2 to 5, not {args.players}")
    _check_seconds(args.seconds)
    if not 1 <= args.threads <= 256:
        raise UsageError(f"--threads must be 1 to 256, not {args.threads}")
    from ..envs.vector import bench_vector

    try:
        report = bench_vector(
            args.envs,
            args.players,
            args.seconds,
            seed=args.seed,
            threads=args.threads,
            edition=args.edition,
        )
    except ColorettoError as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        print(json.dumps(report))
        return 0
    print(
        f"batched environment: envs={report['envs']} players={report['players']} "
        f"threads={report['threads']} steps_per_s={report['steps_per_s']:.0f} "
        f"(step alone {report['step_steps_per_s']:.0f}) games_per_s={report['games_per_s']:.0f}"
    )
    print(f"actions: {report['actions']}")
    load = report["load_average"]
    if isinstance(load, list):
        print(f"load average during the run: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    return 0


def _check_seconds(seconds: float) -> None:
    """Refuse a ``--seconds`` outside (0, ``MAX_SCORE_SECONDS``], nan and inf included.

    Raises:
        UsageError: the value, said in the message.
    """
    if not 0 < seconds <= MAX_SCORE_SECONDS:
        raise UsageError(
            f"--seconds must be a number of seconds above 0 and at most {MAX_SCORE_SECONDS}, "
            f"not {seconds}"
        )
