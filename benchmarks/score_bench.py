"""Print optimal scorings per second (docs/rules.md §6) without and with the cache.

Usage: python benchmarks/score_bench.py [--seconds 2] [--seed 0] [--json]
"""

from __future__ import annotations

import argparse
import json
import platform

from coloretto.arena.bench_score import bench_score


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="total measuring time")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random collections")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    result = bench_score(args.seconds, args.seed)
    if args.json:
        print(json.dumps(result))
        return
    print(f"optimal scoring, random collections with 0-3 jokers ({platform.python_version()})")
    print(f"  uncached       {result['uncached_scorings_per_s']:>12,.0f} scorings/s")
    print(f"  cold cache     {result['cold_scorings_per_s']:>12,.0f} scorings/s")
    print(f"  cached         {result['scorings_per_s']:>12,.0f} scorings/s")
    print(
        f"  {result['n']:,} scorings of {result['pool']:,} collections in {result['seconds']:.2f} s"
    )


if __name__ == "__main__":
    main()
