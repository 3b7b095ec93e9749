"""The playout benchmark and the C yardstick ``limit.c``.

The benchmark policy, exactly: at each decision the player to move chooses uniformly among
{draw, when legal} and {take row r, for each legal r}; after a draw the card goes to a
uniformly chosen legal row. Classic edition, brown table, every player scored optimally at
the end. ``limit.c`` (shipped as ``coloretto/arena/data/limit.c``) plays the same policy as tight C (4 and 5 players).

Our playout uses the engine's fast path (``GameState.legal_codes``, ``apply_code``,
``totals``), no agents or observations. Each game is dealt by ``new_game`` from
``derive_seed(seed, GAME, i)`` (the deal is inside the timed region, as limit.c's shuffle
is), and the policy's choices come from one
``SmallChoices(Rng(derive_seed(seed, AGENT))).below`` (``engine.seeds``: exactly uniform).
"""

from __future__ import annotations

import importlib
import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .._optional import MissingExtra, optional, require
from ..engine.rules import Rules
from ..engine.seeds import AGENT, GAME, Rng, SmallChoices, derive_seed
from ..engine.state import OVER, GameState, new_game

LIMIT_C_DEFAULT = Path(__file__).resolve().parent / "data" / "limit.c"
"""limit.c as shipped with the package (``coloretto/arena/data/limit.c``)."""

LIMIT_C_ENV = "COLORETTO_LIMIT_C"
"""Environment variable naming limit.c; when set it comes before ``LIMIT_C_DEFAULT``."""

LIMIT_PLAYERS = (4, 5)
"""Player counts limit.c models (it removes no colour)."""


def bench_rules(players: int) -> Rules:
    """Rules of the benchmark: classic edition, brown table, ``players`` players.

    Raises:
        ConfigurationError: ``players`` outside 2 to 5.
    """
    return Rules(players=players, edition="classic", table="brown")


Below = Callable[[int], int]
"""``below(n)``: a uniform integer in ``0 .. n - 1`` (``SmallChoices.below``, ``Rng.below``)."""


def bench_choice(codes: list[int], below: Below) -> int:
    """The benchmark policy's choice among ``codes`` (``GameState.legal_codes()``):
    ``codes[below(len(codes))]``.

    At a turn the legal codes are exactly {draw, if legal} and {take row r, each legal r}; at
    a placement they are the legal rows; either way the policy is uniform over them.

    Raises:
        ValueError: ``codes`` is empty (the game is over).
    """
    return codes[below(len(codes))]


def playout(state: GameState, below: Below) -> GameState:
    """Play ``state`` to its end with the benchmark policy (in place); return it."""
    while state.phase != OVER:
        codes = state.legal_codes()
        state.apply_code(codes[below(len(codes))])
    return state


def bench_playout(players: int = 4, games: int = 2000, seed: int = 0) -> dict[str, Any]:
    """Time ``games`` benchmark playouts of the engine (deal + play + final optimal scoring).

    Returns:
        ``{"players", "games", "seed", "seconds", "games_per_s", "mean_winner_score"}``
        (``mean_winner_score``: the mean of each game's highest final score).

    Raises:
        ValueError: ``games`` is not positive.
        ConfigurationError: ``players`` outside 2 to 5.
    """
    if games <= 0:
        raise ValueError(f"the number of games must be positive, not {games}")
    rules = bench_rules(players)
    below = SmallChoices(Rng(derive_seed(seed, AGENT))).below
    winner_sum = 0
    start = time.perf_counter()
    for i in range(games):
        state = playout(new_game(rules, derive_seed(seed, GAME, i)), below)
        winner_sum += max(state.totals())
    seconds = time.perf_counter() - start
    return {
        "players": players,
        "games": games,
        "seed": seed,
        "seconds": seconds,
        "games_per_s": games / seconds,
        "mean_winner_score": winner_sum / games,
    }


class LimitUnavailable(Exception):
    """limit.c cannot be run here (file or compiler missing, compile or run failure)."""


def find_limit_c(explicit: str | os.PathLike[str] | None = None) -> Path | None:
    """The path of limit.c: ``explicit`` if given, else ``$COLORETTO_LIMIT_C`` if set and not
    empty (either even if missing, so the caller can say so), else the copy shipped with the
    package (``LIMIT_C_DEFAULT``). ``None`` if that copy is missing (a broken install)."""
    if explicit is not None:
        return Path(explicit)
    env = os.environ.get(LIMIT_C_ENV)
    if env:
        return Path(env)
    return LIMIT_C_DEFAULT if LIMIT_C_DEFAULT.is_file() else None


def find_compiler() -> str | None:
    """The C compiler: ``$CC`` if set, else ``cc``, ``gcc`` or ``clang`` on the PATH."""
    env = os.environ.get("CC")
    if env:
        return shutil.which(env) or None
    for name in ("cc", "gcc", "clang"):
        found = shutil.which(name)
        if found:
            return found
    return None


_LIMIT_LINE = re.compile(r"(\w+)=([-+0-9.eE]+)")


def compile_limit_c(source: Path, directory: Path) -> Path:
    """Compile ``source`` with ``cc -O2`` into ``directory``; return the executable.

    Raises:
        LimitUnavailable: the file or a compiler is missing, or compiling fails.
    """
    if not source.is_file():
        raise LimitUnavailable(f"limit.c not found at {source}")
    cc = find_compiler()
    if cc is None:
        raise LimitUnavailable("no C compiler found (set CC or install cc)")
    exe = directory / "limit"
    built = subprocess.run(
        [cc, "-O2", "-o", str(exe), str(source)], capture_output=True, text=True, check=False
    )
    if built.returncode != 0:
        raise LimitUnavailable(
            f"compiling {source} with {cc} -O2 failed: {built.stderr.strip()[:500]}"
        )
    return exe


def limit_exe(explicit: str | os.PathLike[str] | None, players: int, directory: Path) -> Path:
    """Find limit.c (``find_limit_c``), check that it models ``players``, and compile it
    into ``directory``; returns the executable.

    Raises:
        LimitUnavailable: no limit.c, a player count it does not model, or no compiler.
    """
    source = find_limit_c(explicit)
    if source is None:
        raise LimitUnavailable(
            f"limit.c not found (looked for {LIMIT_C_DEFAULT}; give --limit-c PATH or set {LIMIT_C_ENV})"
        )
    if players not in LIMIT_PLAYERS:
        raise LimitUnavailable(f"limit.c models only {' and '.join(map(str, LIMIT_PLAYERS))} players")
    return compile_limit_c(source, directory)


def run_limit_exe(exe: Path, players: int, games: int, timeout: float = 600.0) -> dict[str, Any]:
    """Run a compiled limit.c for ``players`` and ``games``.

    Returns:
        ``{"players", "games", "seconds", "games_per_s", "mean_winner_score"}`` parsed from
        its output line.

    Raises:
        LimitUnavailable: ``players`` is not 4 or 5, or the run fails or prints no figures.
    """
    if players not in LIMIT_PLAYERS:
        raise LimitUnavailable(
            f"limit.c models only {' and '.join(map(str, LIMIT_PLAYERS))} players"
        )
    try:
        ran = subprocess.run(
            [str(exe), str(players), str(games)],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise LimitUnavailable(f"limit.c did not finish within {timeout:.0f} s") from None
    if ran.returncode != 0:
        raise LimitUnavailable(
            f"limit.c exited with status {ran.returncode}: {ran.stderr.strip()[:500]}"
        )
    fields = {k: float(v) for k, v in _LIMIT_LINE.findall(ran.stdout)}
    if "games_per_s" not in fields:
        raise LimitUnavailable(f"unexpected limit.c output: {ran.stdout.strip()[:200]!r}")
    return {
        "players": int(fields.get("players", players)),
        "games": int(fields.get("games", games)),
        "seconds": fields.get("seconds"),
        "games_per_s": fields["games_per_s"],
        "mean_winner_score": fields.get("mean_winner_score"),
    }


def run_limit_c(source: Path, players: int, games: int, timeout: float = 600.0) -> dict[str, Any]:
    """Compile ``source`` with ``cc -O2`` in a temporary directory and run it once
    (``compile_limit_c`` then ``run_limit_exe``; same result keys).

    Raises:
        LimitUnavailable: as those two functions.
    """
    if players not in LIMIT_PLAYERS:
        raise LimitUnavailable(
            f"limit.c models only {' and '.join(map(str, LIMIT_PLAYERS))} players"
        )
    with tempfile.TemporaryDirectory(prefix="coloretto-limit-") as tmp:
        exe = compile_limit_c(source, Path(tmp))
        return run_limit_exe(exe, players, games, timeout)


def _combine(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Two limit.c runs as one: total games over total seconds, each run's seconds taken as
    its games over its own printed ``games_per_s`` (limit.c prints ``seconds`` rounded to
    milliseconds, too coarse for runs of a fraction of a second; its rate is exact to one
    game per second). This is the games-weighted harmonic mean of the two rates."""
    games = a["games"] + b["games"]
    if a["games_per_s"] > 0 and b["games_per_s"] > 0:
        seconds = a["games"] / a["games_per_s"] + b["games"] / b["games_per_s"]
    else:  # a rate printed as 0 (a run too short to measure): fall back on printed seconds
        seconds = (a["seconds"] or 0.0) + (b["seconds"] or 0.0)
    rate = games / seconds if seconds > 0 else (a["games_per_s"] + b["games_per_s"]) / 2
    mean = None
    if a["mean_winner_score"] is not None and b["mean_winner_score"] is not None:
        mean = (a["mean_winner_score"] * a["games"] + b["mean_winner_score"] * b["games"]) / games
    return {"games": games, "seconds": seconds, "games_per_s": rate, "mean_winner_score": mean}


def limit_games_for(games: int) -> int:
    """Games for limit.c in a run where the engine plays ``games``: at least 100 000 (about
    0.6 s at ~160 000 games/s, so its rate is measured precisely), or ``games`` if larger."""
    return max(games, 100_000)


def fast_bench_module() -> Any | None:
    """``coloretto.fastcore.bench`` if it is usable (Numba imports), else ``None``."""
    if optional("numba", "fast") is None:
        return None
    return importlib.import_module("coloretto.fastcore.bench")


def playout_report(
    players: int = 4,
    games: int = 2000,
    seed: int = 0,
    *,
    limit: bool = True,
    limit_c: str | os.PathLike[str] | None = None,
    limit_games: int | None = None,
    fast: bool = False,
) -> dict[str, Any]:
    """The whole ``coloretto bench playout`` measurement: the engine playout, limit.c in the
    same run (unless ``limit`` is false) and, with ``fast``, ``fast_playout_bench`` of
    ``coloretto.fastcore.bench``.

    limit.c is found by ``find_limit_c(limit_c)``, compiled once (``cc -O2``, outside any
    timed region) and run in two halves of ``limit_games`` (default
    ``limit_games_for(games)``), one before and one after our measurements; its rate is
    their total games over their total seconds (``_combine``: from each run's printed rate). Bracketing the
    engine's run this way keeps the ratio fair when the machine's load changes during the run.

    Returns:
        The engine's figures (``bench_playout``) plus ``limit_games_per_s``,
        ``limit_mean_winner_score``, ``limit_games`` and ``ratio`` (ours / limit.c; ``None``
        when limit.c was not run, with ``limit_note`` saying why), and with ``fast`` a
        ``fast`` object (its figures and ``ratio`` to limit.c).

    Raises:
        ValueError: ``games`` not positive.
        MissingExtra: ``fast`` and Numba cannot be imported.
    """
    if games <= 0:
        raise ValueError(f"the number of games must be positive, not {games}")
    fast_mod = None
    if fast:
        fast_mod = fast_bench_module()
        if fast_mod is None:
            feature = "bench playout --fast"
            require("numba", "fast", feature)  # raises with the import error when there is one
            raise MissingExtra(feature, "fast", "numba", "cannot be imported")
    report: dict[str, Any] = {}
    note: str | None = "limit.c not run (--no-limit)"
    limit_runs: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="coloretto-limit-") as tmp:
        exe: Path | None = None
        n_limit = limit_games if limit_games is not None else limit_games_for(games)
        first_half = max(1, n_limit // 2)
        if limit:
            try:
                exe = limit_exe(limit_c, players, Path(tmp))
                limit_runs.append(run_limit_exe(exe, players, first_half))
                note = None
            except LimitUnavailable as exc:
                note = str(exc)
                exe = None
        report.update(bench_playout(players, games, seed))
        fast_report = None
        if fast_mod is not None:
            fast_report = dict(fast_mod.fast_playout_bench(players, games, seed))
        if exe is not None and n_limit - first_half > 0:
            try:
                limit_runs.append(run_limit_exe(exe, players, n_limit - first_half))
            except LimitUnavailable as exc:
                note = str(exc)
                limit_runs = []
    report["limit_games_per_s"] = None
    report["limit_mean_winner_score"] = None
    report["limit_games"] = None
    report["ratio"] = None
    report["limit_note"] = note
    if limit_runs:
        lim = limit_runs[0] if len(limit_runs) == 1 else _combine(limit_runs[0], limit_runs[1])
        report["limit_games_per_s"] = lim["games_per_s"]
        report["limit_mean_winner_score"] = lim["mean_winner_score"]
        report["limit_games"] = lim["games"]
        report["ratio"] = report["games_per_s"] / lim["games_per_s"]
        report["limit_runs_games_per_s"] = [r["games_per_s"] for r in limit_runs]
    if fast_report is not None:
        lim_rate = report["limit_games_per_s"]
        fast_report["ratio"] = fast_report["games_per_s"] / lim_rate if lim_rate else None
        report["fast"] = fast_report
    return report
