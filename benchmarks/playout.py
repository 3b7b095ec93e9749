"""Print benchmark-policy playout speed of the engine, with limit.c measured in the same run.

Usage: python benchmarks/playout.py [--players 4 5] [--games 5000] [--seed 0] [--repeat 3]
       [--fast] [--json]

For each player count: the engine playout (``coloretto.arena.bench``), then limit.c
(compiled with ``cc -O2``), repeated ``--repeat`` times; prints every run and the median
ratio. Same figures as ``coloretto bench playout``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

from coloretto.arena.bench import playout_report

sys.path.insert(0, str(Path(__file__).resolve().parent))
from machine import machine, machine_line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[4, 5])
    parser.add_argument("--games", type=int, default=5000, help="engine games per run")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3, help="runs per player count")
    parser.add_argument("--fast", action="store_true", help="also the fast core (if installed)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    results: dict[str, list[dict[str, object]]] = {}
    if not args.json:
        print(machine_line())
    for players in args.players:
        runs = []
        for r in range(args.repeat):
            rep = playout_report(players, args.games, args.seed + r, fast=args.fast)
            runs.append(rep)
            if not args.json:
                ratio = rep["ratio"]
                line = (
                    f"players={players} run={r + 1} engine games_per_s={rep['games_per_s']:.0f} "
                    f"mean_winner_score={rep['mean_winner_score']:.2f}"
                )
                if ratio is not None:
                    line += (
                        f" | limit.c games_per_s={rep['limit_games_per_s']:.0f} "
                        f"mean_winner_score={rep['limit_mean_winner_score']:.2f}"
                        f" | ratio={100 * ratio:.2f}%"
                    )
                else:
                    line += f" | limit.c: {rep['limit_note']}"
                if "fast" in rep:
                    fast = rep["fast"]
                    line += f" | fast games_per_s={fast['games_per_s']:.0f}"
                    if fast.get("ratio") is not None:
                        line += f" ({100 * fast['ratio']:.1f}% of limit.c)"
                print(line, flush=True)
        ratios = [float(x["ratio"]) for x in runs if x["ratio"] is not None]
        if ratios and not args.json:
            print(
                f"players={players} median ratio engine/limit.c: {100 * statistics.median(ratios):.2f}%"
            )
        results[str(players)] = runs
    if args.json:
        print(json.dumps({"machine": machine(), "runs": results}))


if __name__ == "__main__":
    main()
