"""Print how ``coloretto simulate`` scales from 1 to N worker processes on this machine.

Usage: python benchmarks/simulate_scaling.py [--games 2000] [--fast-games 200000]
       [--agents random,random,random,random] [--workers 1 2] [--paths engine fast] [--json]

For each path (``engine``: the engine and the agents; ``fast``: the fast core's batch
simulator, when installed and it supports the agents) and each worker count: games per
second (process start-up included) and the parallel efficiency ``speed-up / workers``
against the first worker count. A small warm-up run per path and worker count comes first
and is not timed (it fills the compiled core's on-disk cache). Also checks that every worker
count gave the same per-game scores (it must, by construction).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from coloretto.arena.simulate import ENGINE_PATH, simulate
from coloretto.engine import Rules

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import machine, machine_line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per run of the engine path")
    parser.add_argument(
        "--fast-games", type=int, default=200_000, help="games per run of the fast path"
    )
    parser.add_argument("--agents", default="random,random,random,random")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument(
        "--paths", nargs="+", choices=("engine", "fast"), default=["engine", "fast"]
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    specs = args.agents.split(",")
    rules = Rules(players=len(specs))
    rows = []
    if not args.json:
        print(machine_line())
    for path in args.paths:
        engine_only = path == "engine"
        reference = None
        base = None
        for w in args.workers:
            simulate(rules, specs, 2 * w, args.seed + 1, workers=w, engine_only=engine_only)
            games = args.games if engine_only else args.fast_games
            res = simulate(rules, specs, games, args.seed, workers=w, engine_only=engine_only)
            if path == "fast" and res.path == ENGINE_PATH:
                if not args.json:
                    print(f"fast path not used: {res.note}")
                break
            rate = games / res.seconds
            base = base or rate
            same = reference is None or res.scores == reference
            reference = reference or res.scores
            row = {
                "path": res.path,
                "games": games,
                "workers": w,
                "seconds": res.seconds,
                "games_per_s": rate,
                "speedup": rate / base,
                "efficiency": rate / base / (w / args.workers[0]),
                "same_results": same,
            }
            rows.append(row)
            if not args.json:
                print(
                    f"agents={args.agents} games={games} path={res.path} workers={w} "
                    f"seconds={res.seconds:.2f} games_per_s={rate:.1f} "
                    f"speedup={row['speedup']:.2f} efficiency={100 * row['efficiency']:.0f}% "
                    f"same_results={same}",
                    flush=True,
                )
    if args.json:
        print(json.dumps({"machine": machine(), "agents": specs, "runs": rows}))


if __name__ == "__main__":
    main()
