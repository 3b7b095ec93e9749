"""Fast playout speed against the C yardstick ``limit.c``, measured in the same run.

Compiles ``src/coloretto/arena/data/limit.c`` (``--limit-c``) with ``cc -O2`` in a temporary
directory, then for 4 and 5 players runs ``limit PLAYERS GAMES`` and
``coloretto.fastcore.bench.fast_playout_bench(PLAYERS, GAMES, SEED)`` (limit.c in two
halves of GAMES / 2, one before and one after the fast core) and prints both figures and
their ratio (target: fast core >= 30% of limit.c). With
``--compile`` it also measures the first-call cost of the fast core (``warmup()``) in fresh
processes, with an empty Numba cache (cold: compilation) and with the normal cache (warm).

Usage: python benchmarks/fast_playout.py [--games 200000] [--repeat 1] [--seed 1] [--compile]
       [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

DEFAULT_LIMIT_C = Path(__file__).resolve().parents[1] / "src" / "coloretto" / "arena" / "data" / "limit.c"
FIRST_CALL = (
    "import time; t0 = time.perf_counter(); import coloretto.fastcore as f; f.warmup(); "
    "print(time.perf_counter() - t0)"
)


def run_limit(binary: Path, players: int, games: int) -> dict[str, float]:
    out = subprocess.run(
        [str(binary), str(players), str(games)], check=True, capture_output=True, text=True
    ).stdout
    fields = dict(re.findall(r"(\w+)=([\d.]+)", out))
    return {
        "games_per_s": float(fields["games_per_s"]),
        "mean_winner_score": float(fields["mean_winner_score"]),
    }


def first_call_seconds(cold: bool) -> float:
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as cache:
        if cold:
            env["NUMBA_CACHE_DIR"] = cache
        out = subprocess.run(
            [sys.executable, "-c", FIRST_CALL], check=True, capture_output=True, text=True, env=env
        ).stdout
    return float(out.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=1, help="runs per player count")
    parser.add_argument("--limit-c", type=Path, default=DEFAULT_LIMIT_C)
    parser.add_argument("--compile", action="store_true", help="measure cold/warm first-call cost")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.games < 2 or args.repeat < 1:
        parser.error("--games must be at least 2 and --repeat positive")
    if not args.limit_c.is_file():
        parser.error(f"no such file: {args.limit_c}")
    cc = shutil.which("cc")
    if cc is None:
        parser.error("no C compiler 'cc' on PATH")
    from coloretto.fastcore.bench import fast_playout_bench

    report: dict[str, object] = {
        "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cpus, "
        f"Python {platform.python_version()}",
        "games": args.games,
        "load_average_before": [round(x, 2) for x in os.getloadavg()],
        "results": [],
    }
    with tempfile.TemporaryDirectory() as tmp:
        binary = Path(tmp) / "limit"
        subprocess.run([cc, "-O2", "-o", str(binary), str(args.limit_c)], check=True)
        for players in (4, 5):
            for run in range(1, args.repeat + 1):
                # limit.c in two halves bracketing the fast core (cancels some machine noise)
                half = max(args.games // 2, 1)
                c1 = run_limit(binary, players, half)
                fast = fast_playout_bench(players, args.games, args.seed + run)
                c2 = run_limit(binary, players, half)
                c_rate = 2 / (1 / c1["games_per_s"] + 1 / c2["games_per_s"])
                row = {
                    "players": players,
                    "run": run,
                    "limit_c_games_per_s": round(c_rate),
                    "fast_games_per_s": round(fast["games_per_s"]),
                    "ratio": fast["games_per_s"] / c_rate,
                    "limit_c_mean_winner": c1["mean_winner_score"],
                    "fast_mean_winner": round(fast["mean_winner_score"], 2),
                    "fast_first_call_s_this_process": round(fast["compile_seconds"], 3),
                }
                report["results"].append(row)  # type: ignore[union-attr]
    if args.compile:
        report["first_call_cold_cache_s"] = round(first_call_seconds(cold=True), 2)
        report["first_call_warm_cache_s"] = round(first_call_seconds(cold=False), 2)
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    print(
        f"machine: {report['machine']}; games per measurement: {args.games}; "
        f"load average before: {report['load_average_before']}"
    )
    for row in report["results"]:  # type: ignore[union-attr]
        print(
            f"{row['players']} players, run {row['run']}: limit.c {row['limit_c_games_per_s']:>9,} games/s  "
            f"fast core {row['fast_games_per_s']:>9,} games/s  ratio {row['ratio']:.0%}  "
            f"(mean winner {row['limit_c_mean_winner']:.2f} vs {row['fast_mean_winner']:.2f})"
        )
    if args.compile:
        print(
            f"first call (warmup): cold cache {report['first_call_cold_cache_s']} s, "
            f"warm cache {report['first_call_warm_cache_s']} s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
