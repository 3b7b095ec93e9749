"""Scaling of the fast batch simulator from 1 to 2 worker processes.

Plays the same games (same seed) with ``workers=1`` and ``workers=2`` and prints games/s and
the parallel efficiency ``speedup / workers``; it also checks that both runs returned the
same scores (as they must). Process start-up is inside the timed region (it is part of what
a user waits for).

Usage: python benchmarks/fast_scaling.py [--games 400000] [--players 4] [--agents random]
       [--seed 1] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400_000)
    parser.add_argument("--players", type=int, default=4, choices=range(2, 6))
    parser.add_argument(
        "--agents", default="random", help="one spec for every seat: random or greedy"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.games < 2:
        parser.error("--games must be at least 2")
    from coloretto.engine.rules import Rules
    from coloretto.fastcore import warmup
    from coloretto.fastcore.batch import simulate_batch, supports

    if not supports([args.agents]):
        parser.error(f"--agents {args.agents!r} is not supported by the batch simulator")
    warmup()
    rules = Rules(players=args.players)
    simulate_batch(rules, [args.agents], 100, args.seed, workers=1)
    rows = []
    results = {}
    for workers in (1, 2):
        t0 = time.perf_counter()
        results[workers] = simulate_batch(
            rules, [args.agents], args.games, args.seed, workers=workers
        )
        seconds = time.perf_counter() - t0
        rows.append(
            {
                "workers": workers,
                "seconds": round(seconds, 3),
                "games_per_s": round(args.games / seconds),
            }
        )
    speedup = rows[0]["seconds"] / rows[1]["seconds"]
    report = {
        "cpus": os.cpu_count(),
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "games": args.games,
        "players": args.players,
        "agents": args.agents,
        "runs": rows,
        "speedup": round(speedup, 3),
        "efficiency": round(speedup / 2, 3),
        "identical_results": results[1] == results[2],
    }
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        for r in rows:
            print(f"workers={r['workers']}: {r['seconds']} s, {r['games_per_s']:,} games/s")
        print(
            f"speedup {speedup:.2f}x, efficiency {speedup / 2:.0%}, "
            f"identical results: {report['identical_results']}; "
            f"load average after: {report['load_average_after']}"
        )
    return 0 if report["identical_results"] else 1


if __name__ == "__main__":
    sys.exit(main())
