"""``coloretto tournament``: measure agents against each other with duplicate deals.

Every deal is replayed with the agents rotated through the seats; results per agent entry
(and per distinct agent) with 95% intervals, ratings ordered as the win shares, JSON/CSV/PNG reports.
Method: ``coloretto.arena.tournament`` (module docstring).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, Final

from ..agents.base import Budget
from ..agents.registry import check_spec
from ..engine.actions import short_repr
from ..engine.errors import ConfigurationError
from ..engine.rules import PRESETS, TABLES
from ..engine.rules import preset as make_preset
from ..text import plural
from .main import DashValue, UsageError
from .simulate import run_secret

MAX_GAMES: Final = 1_000_000
"""The most games of one run: every game's result stays in memory for the report."""

EPILOG = """\
Method: deal d is played once per rotation of the agents through the seats (duplicate
deals), so --games is rounded up to a multiple of the player count. Win share counts a
tie as a split win; intervals are 95% normal-approximation intervals over deals, clipped
to the possible values (win share 0 to 1, rank 1 to players). Seconds per decision are
wall-clock per asked decision (mean and p95).

Rating: one maximum-likelihood fit over all games at once (so the order of the games does
not matter) of a Luce choice model of who wins each game: an entry's chance to win at a
table is its strength over the sum of the table's strengths; k tied winners get 1/k of a
win each; one virtual game whose win is split equally keeps an entry that never won
finite. Since every entry sits at every table, the ratings are ordered exactly as the win
shares. Ratings are Elo points relative to the field mean (+100: wins a heads-up against
an average entry 64% of the time; +200: 76%); the 95% interval is a percentile bootstrap
over deals (1000 resamples, seeded from --seed). The same --seed gives the same results
for any --workers and --backend (timings aside).

The table fits the terminal's width: on a narrow one the columns p95, s/decision,
score, margin, rank and rating are left out in that order (the caption names them; the
JSON and CSV reports hold every value). The table and messages count entries, games and
seats from 1; the JSON and CSV count from 0.

External engines: --agents 'cmd:python3 my_bot.py' (coloretto-engine/1, see
docs/engine-protocol.md). Answers are due within the budget's time (default 1000 ms)
plus --engine-grace-ms. On a malformed, illegal or late answer or an exited engine the
seat forfeits the game (--on-engine-failure forfeit) or a built-in agent finishes it
(fallback:random); every failure is reported. Exit status 1 when an entry forfeited
every one of its games (its engine never finished one), after writing the reports.

Output files are checked before the first game (an existing file must be writable, a new
one's directory too). A report that still cannot be written at the end (a full disk) is
named on standard error, exit status 1; with --checkpoint the games stay in its file and
the same command writes the reports without playing them again.

Ray: --backend ray --address ADDR uses a running cluster (coloretto must be installed on
its nodes, with the same version); without --address a local Ray is started for the run.

Example:
  coloretto tournament --agents mcts,heuristic,heuristic,heuristic --games 400 \\
      --budget 0.5s --json out.json --csv out.csv --plot out.png
"""


def register(subparsers: Any) -> None:
    """Add the ``tournament`` parser."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "tournament",
        help="play agents against each other with duplicate deals and rate them",
        description="Measure agents against each other with duplicate deals; rate them.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--agents",
        required=True,
        metavar="A,B,...",
        help="one agent spec per seat, comma-separated (random, greedy, heuristic, mcts, "
        "mcts-v1, ismcts, ismcts-value, oracle, oracle-value, policy, policy:FILE, easy..expert, "
        "cmd:COMMAND)",
    )
    p.add_argument(
        "--players", type=int, default=None, help="players per game (default: number of agents)"
    )
    p.add_argument(
        "--games",
        type=int,
        default=100,
        help=f"games to play, 1 to {MAX_GAMES:,} (rounded up to whole deals; default 100)",
    )
    p.add_argument(
        "--budget",
        action=DashValue,
        default=None,
        help="thinking budget per decision: 0.5s, 500ms, 2000 (iterations), or 0.5s-cpu "
        "(CPU time of the searching thread: as strong on a busy machine; mcts, mcts-v1, oracle)",
    )
    p.add_argument("--seed", type=int, default=0, help="root seed (default 0)")
    p.add_argument("--engine-secret", default=None, metavar="SECRET", help=(
        "secret of a run with external engines (cmd:...): their deals and hello seeds come from --seed "
        "sealed with it; default: drawn at random and published in the report (give both to replay a run)"))
    p.add_argument(
        "--preset", default="classic", help=f"rules preset: {', '.join(PRESETS)} (default classic)"
    )
    p.add_argument(
        "--table",
        choices=TABLES,
        default=None,
        help="score table, brown or violet (default: the preset's; docs/rules.md §6)",
    )
    p.add_argument(
        "--workers", type=int, default=None, help="parallel workers (default: all cores)"
    )
    p.add_argument(
        "--backend",
        choices=("process", "ray"),
        default="process",
        help="process: local processes (default); ray: a Ray cluster",
    )
    p.add_argument(
        "--address",
        default=None,
        help="Ray cluster address (default: start a local Ray for the run)",
    )
    p.add_argument(
        "--json",
        nargs="?",
        const="-",
        default=None,
        metavar="FILE",
        help="write the results as JSON to FILE (no FILE: to standard output instead of the table)",
    )
    p.add_argument("--csv", default=None, metavar="FILE", help="write the per-agent summary as CSV")
    p.add_argument(
        "--plot",
        default=None,
        metavar="FILE",
        help="write a PNG of win shares and ratings with their intervals",
    )
    p.add_argument(
        "--records",
        default=None,
        metavar="FILE",
        help="write every game's coloretto-record/1, one JSON object per line",
    )
    p.add_argument(
        "--on-engine-failure",
        default="forfeit",
        metavar="POLICY",
        help="forfeit (default) or fallback:AGENT (e.g. fallback:random)",
    )
    p.add_argument(
        "--engine-grace-ms",
        type=int,
        default=1000,
        help="grace after time_ms before an external engine's answer is late (default 1000)",
    )
    p.add_argument(
        "--engine-log",
        default=None,
        metavar="FILE",
        help="append external engines' standard error to FILE",
    )
    p.add_argument(
        "--checkpoint",
        default=None,
        metavar="FILE",
        help="append each finished game to FILE; run again with the same options and FILE to "
        "go on after an interruption (the games in FILE are not played again; a larger "
        "--games extends a finished run)",
    )
    p.add_argument(
        "--overwrite",
        action="store_true",
        help="replace existing --json, --csv, --plot and --records files (without it an "
        "existing file is refused before any game is played)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar or notes")
    p.set_defaults(func=run)


REPORT_OPTIONS = ("--json", "--csv", "--plot", "--records")
"""The outputs a run writes anew; an existing file is replaced only with ``--overwrite``
(``--checkpoint`` and ``--engine-log`` are appended to)."""


def _check_output(path: str | None, option: str, overwrite: bool = False) -> None:
    """``path`` (an ``option``'s value) can be written at the end of the run (``-``:
    standard output).

    Raises:
        UsageError: an empty name, a missing directory, a directory given as a file, a
            file or directory this user cannot write (``arena.report.output_problem``), or
            an existing file for one of ``REPORT_OPTIONS`` without ``overwrite``.
    """
    from ..arena.report import output_problem

    if path is None or path == "-":
        return
    if not path:
        raise UsageError(f"{option} needs a file name")
    problem = output_problem(
        path, replaced=option == "--records", read=option == "--checkpoint"
    )
    if problem is not None:
        raise UsageError(f"{option} {path!r}: {problem}")
    if option in REPORT_OPTIONS and not overwrite and os.path.lexists(path):
        raise UsageError(
            f"{option} {path!r}: the file exists; give a new name, or --overwrite to replace it"
        )


def _check_outputs(args: argparse.Namespace) -> None:
    """Each output file can be written (an existing one is writable, a new one's directory
    is), and no two output options name the same file (a report written over the
    checkpoint would lose its games).

    Raises:
        UsageError: an output that cannot be written, or one file named twice.
    """
    outputs = [
        (args.json, "--json"),
        (args.csv, "--csv"),
        (args.plot, "--plot"),
        (args.records, "--records"),
        (args.engine_log, "--engine-log"),
        (args.checkpoint, "--checkpoint"),
    ]
    named: dict[str, str] = {}
    for path, option in outputs:
        _check_output(path, option, args.overwrite)
        if path is None or path == "-":
            continue
        real = os.path.realpath(path)
        if real in named:
            raise UsageError(f"{named[real]} and {option} name the same file {path!r}: give each its own")
        named[real] = option


def _check_agent(spec: str) -> None:
    """Check the ``--agents`` entry ``spec`` (``registry.check_spec``).

    Raises:
        UsageError: an unknown agent, a bad budget or a program that cannot run; the
            message starts with ``--agents``.
    """
    try:
        check_spec(spec)
    except ConfigurationError as exc:
        raise UsageError(f"--agents: {exc}") from None


def build_config(args: argparse.Namespace) -> Any:
    """The ``TournamentConfig`` for parsed ``args``; a note about rounding goes to stderr.

    Raises:
        UsageError: any bad value (exit status 2).
    """
    from ..arena.tournament import TournamentConfig, parse_failure_policy, rounded_games

    agents = tuple(a.strip() for a in args.agents.split(","))
    if any(not a for a in agents):
        raise UsageError(
            f"--agents {short_repr(args.agents)}: empty agent name (give specs separated by commas)"
        )
    # each spec is checked before their number: "--agents foo" is a typo, not a short list
    for spec in dict.fromkeys(agents):
        _check_agent(spec)
    players = args.players if args.players is not None else len(agents)
    if players != len(agents):
        raise UsageError(
            f"--agents names {len(agents)} agents but --players is {players}: give one agent per seat"
        )
    if args.preset not in PRESETS:
        raise UsageError(f"unknown preset {short_repr(args.preset)}; known: {', '.join(PRESETS)}")
    try:
        overrides = {} if args.table is None else {"table": args.table}
        rules = make_preset(args.preset, players, **overrides)
    except ConfigurationError as exc:
        raise UsageError(str(exc)) from None
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, not {args.games}")
    if args.games > MAX_GAMES:
        raise UsageError(f"--games must be at most {MAX_GAMES:,} in one run, not {args.games:,}")
    if args.workers is not None and args.workers < 1:
        raise UsageError(f"--workers must be at least 1, not {args.workers}")
    if args.address is not None and args.backend != "ray":
        raise UsageError("--address needs --backend ray")
    if args.engine_grace_ms < 0:
        raise UsageError(f"--engine-grace-ms must not be negative, not {args.engine_grace_ms}")
    try:
        budget = Budget.parse(args.budget, cpu_ok=True)
    except ValueError as exc:
        raise UsageError(f"--budget: {exc}") from None
    try:
        policy = parse_failure_policy(args.on_engine_failure)
    except ConfigurationError as exc:
        raise UsageError(str(exc)) from None
    _check_outputs(args)
    games = rounded_games(args.games, players)
    if games != args.games and not args.quiet:
        from ..arena.report import deals_text

        print(
            f"note: --games {args.games} rounded up to {games} "
            f"({deals_text(games // players)} x {players} rotations)",
            file=sys.stderr,
        )
    return TournamentConfig(
        agents=agents,
        games=games,
        rules=rules,
        seed=args.seed,
        budget=budget,
        preset=args.preset,
        on_engine_failure=policy,
        engine_grace_ms=args.engine_grace_ms,
        engine_log=os.path.abspath(args.engine_log) if args.engine_log else None,
        keep_records=args.records is not None,
        games_requested=args.games,
        engine_secret=run_secret(agents, _secret(args)),
    )


def _secret(args: argparse.Namespace) -> str | None:
    """``--engine-secret``, else the secret of the ``--checkpoint`` run being continued.

    Raises:
        UsageError: the checkpoint file is not a tournament checkpoint.
    """
    given: str | None = args.engine_secret
    if given is not None or args.checkpoint is None:
        return given
    from ..arena.checkpoint import read_secret

    try:
        return read_secret(args.checkpoint)
    except ConfigurationError as exc:
        raise UsageError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    """Run the tournament and write the reports; 0 on success (engine failures included:
    they are reported, not fatal), 1 when an entry forfeited every one of its games, 2 on
    bad input."""
    config = build_config(args)
    checkpoint, done = _load_checkpoint(args, config)
    try:
        result = _play(args, config, checkpoint, done)
    except KeyboardInterrupt:
        # the workers have stopped; closing the file counts the games it really holds
        if checkpoint is not None:
            checkpoint.close()
            print(
                f"\ninterrupted: {_games(checkpoint.held)} in {args.checkpoint}; the same "
                "command goes on from there",
                file=sys.stderr,
            )
        else:
            print("\ninterrupted: no report written (--checkpoint FILE keeps finished games)",
                  file=sys.stderr)
        raise
    finally:
        if checkpoint is not None:
            checkpoint.close()
    written = _write_files(args, result)
    _write_stdout(args, result)
    return max(written, _check_forfeits(result))


def _games(count: int) -> str:
    """``"1 finished game is"``, ``"4 finished games are"``."""
    return plural(count, "finished game is", "finished games are")


def _load_checkpoint(args: argparse.Namespace, config: Any) -> tuple[Any, list[Any]]:
    """The ``--checkpoint`` file opened for this run and the games it already holds (None
    and none without the option); a note on standard error says how many.

    Raises:
        UsageError: the file is not this tournament's checkpoint, or ``--records`` is asked
            for games that were played without it.
    """
    if args.checkpoint is None:
        return None, []
    from ..arena.checkpoint import Checkpoint

    checkpoint = Checkpoint(args.checkpoint, config)
    try:
        done = checkpoint.resume()
    except ConfigurationError as exc:
        checkpoint.close()
        raise UsageError(str(exc)) from None
    missing = sum(g.record is None for g in done)
    if args.records is not None and missing:
        checkpoint.close()
        raise UsageError(
            f"--records: {missing} of the games in --checkpoint {args.checkpoint!r} were "
            "played without --records, so their records were not kept (use another "
            "checkpoint file)"
        )
    if done and not args.quiet:
        more = checkpoint.held - len(done)
        beyond = f" (it holds {more} more, of a run with more games)" if more else ""
        rest = config.games - len(done)
        todo = f"playing the other {rest}" if rest else "nothing left to play"
        print(
            f"note: {len(done)} of the {config.games} games are in {args.checkpoint}{beyond}; "
            f"{todo}",
            file=sys.stderr,
        )
    return checkpoint, done


def _play(args: argparse.Namespace, config: Any, checkpoint: Any, done: list[Any]) -> Any:
    """Play the games of ``config`` not in ``done`` (progress bar, failure notes, each game
    appended to ``checkpoint``); return the ``TournamentResult``."""
    from ..arena.tournament import run_tournament

    show_progress = not args.quiet and sys.stderr.isatty()
    failures_seen: list[str] = []

    def note_failures(game: Any) -> None:
        if checkpoint is not None:
            checkpoint.append(game)
        for f in game.failures:
            failures_seen.append(
                f"game {f['game'] + 1} seat {f['seat'] + 1} "
                f"(entry {f['entry'] + 1} {config.agents[f['entry']]}): "
                f"{f['kind']}: {f['detail']} -> {f['handling']}"
            )

    if show_progress:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        with Progress(
            TextColumn("games"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=Console(stderr=True),
        ) as progress:
            bar = progress.add_task("games", total=config.games, completed=len(done))

            def on_game(game: Any) -> None:
                note_failures(game)
                progress.advance(bar)

            result = run_tournament(
                config,
                workers=args.workers,
                backend=args.backend,
                address=args.address,
                on_game=on_game,
                done=done,
            )
    else:
        result = run_tournament(
            config,
            workers=args.workers,
            backend=args.backend,
            address=args.address,
            on_game=note_failures,
            done=done,
        )

    if failures_seen and not args.quiet:
        print(f"{len(failures_seen)} engine failure(s):", file=sys.stderr)
        for line in failures_seen[:20]:
            print("  " + line, file=sys.stderr)
        if len(failures_seen) > 20:
            print(
                f"  ... and {len(failures_seen) - 20} more (see the JSON report)", file=sys.stderr
            )

    return result


def _write_files(args: argparse.Namespace, result: Any) -> int:
    """Write the ``--json`` (to a file), ``--csv``, ``--plot`` and ``--records`` files; 0,
    or 1 when one could not be written (each such file is named in one line on standard
    error, which says whether the games are kept in the checkpoint). Standard output comes
    after the files (``_write_stdout``), so a reader that stops early loses none of them."""
    from ..arena import report
    from ..engine.record import save_records

    outputs: list[tuple[str, str | None, Any]] = [
        ("--json", args.json, report.write_json),
        ("--csv", args.csv, report.write_csv),
        ("--plot", args.plot, report.write_plot),
        # every game keeps its record when --records is given (keep_records)
        ("--records", args.records, lambda res, path: save_records(
            path, [game.record for game in res.games if game.record is not None])),
    ]
    status = 0
    for option, path, write in outputs:
        if path is None or path == "-":
            continue
        try:
            write(result, path)
        except OSError as exc:
            status = 1
            print(
                f"coloretto tournament: error: cannot write {option} {path!r}: "
                f"{exc.strerror or exc}; {_kept(args, result)}",
                file=sys.stderr,
            )
    return status


def _kept(args: argparse.Namespace, result: Any) -> str:
    """Where the games of a run whose reports could not all be written are."""
    if args.checkpoint is None:
        return "the games are not kept (--checkpoint FILE keeps them)"
    return (
        f"the {len(result.games)} games are kept in {args.checkpoint}: run the same command "
        "again with --overwrite, once the file can be written, to write the reports without "
        "playing them again"
    )


def _write_stdout(args: argparse.Namespace, result: Any) -> None:
    """Write the JSON (``--json`` without a file) or the table to standard output; a reader
    that stops early (a closed pipe) is not an error."""
    from ..arena import report
    from .main import silence_stdout

    try:
        if args.json == "-":
            report.write_json(result, "-")
        else:
            from .console import StdoutConsole

            console = StdoutConsole(highlight=False)
            console.print(report.fitted_table(result, console))
        sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()


def _check_forfeits(result: Any) -> int:
    """1 (a failed check) when an entry forfeited every one of its games: the results then
    measure a broken engine, not a player; the reason goes to standard error. Else 0."""
    status = 0
    for s in result.entries:
        if s.games and s.forfeits == s.games:
            entry = s.entries[0]
            print(
                f"coloretto tournament: entry {entry + 1} ({s.agent}) forfeited all {s.games} "
                "of its games: its engine failed in every game (see the failures reported "
                "above or in the JSON report), so these results measure nothing about it",
                file=sys.stderr,
            )
            status = 1
    return status
