"""Coverage of the tournament ratings' 95% intervals where the true rating is known.

Plays ``--runs`` tournaments (seeds 0, 1, ...) of ``--players`` copies of one agent
(``--agent``, default ``random``), ``--deals`` duplicate deals each, with
``coloretto.arena.tournament.run_tournament``. The agents are identical, so every entry's
true rating is the field mean, 0 Elo points; the script prints how often an entry's
interval (``arena.ratings``: percentile bootstrap over deals) contains 0 (target about
0.95), how often all of a run's intervals do, and the mean interval width; for
comparison, how often the win-share intervals of the same runs (normal approximation over
deals, ``arena.stats``) contain par ``1/players``; and, as a check of the bootstrap's
spread, the standard deviation of the ratings over the runs beside the mean of
``interval width / 3.92`` (what a normal sd would give).

Usage: python benchmarks/rating_coverage.py [--runs 200] [--deals 10] [--players 4]
       [--agent random] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from coloretto.arena.tournament import TournamentConfig, run_tournament
from coloretto.engine.rules import preset


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--agent", default="random")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    t0 = time.perf_counter()
    covered = all_covered = share_covered = 0
    widths: list[float] = []
    elos: list[float] = []
    for seed in range(args.runs):
        config = TournamentConfig(
            agents=(args.agent,) * args.players,
            games=args.deals * args.players,
            rules=preset("classic", args.players),
            seed=seed,
        )
        summaries = run_tournament(config, workers=1).entries
        ratings = [s.rating for s in summaries]
        par = 1.0 / args.players
        for s in summaries:
            assert s.win_share.half_width is not None
            share_covered += abs(s.win_share.mean - par) <= s.win_share.half_width
        inside = 0
        for r in ratings:
            assert r is not None and r.low is not None and r.high is not None
            inside += r.low <= 0.0 <= r.high
            widths.append(r.high - r.low)
            elos.append(r.elo)
        covered += inside
        all_covered += inside == len(ratings)
    entries = args.runs * args.players
    out = {
        "agent": args.agent,
        "players": args.players,
        "deals": args.deals,
        "runs": args.runs,
        "entry_coverage": covered / entries,
        "run_coverage": all_covered / args.runs,
        "win_share_coverage": share_covered / entries,
        "mean_width_elo": sum(widths) / len(widths),
        "sd_of_ratings": statistics.pstdev(elos),
        "mean_width_over_3_92": sum(widths) / len(widths) / 3.92,
        "seconds": time.perf_counter() - t0,
    }
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print(
            f"{args.runs} runs of {args.players} x {args.agent}, {args.deals} deals each: "
            f"entry intervals containing 0: {out['entry_coverage']:.3f} "
            f"({covered}/{entries}); runs with all containing 0: {out['run_coverage']:.3f}; "
            f"mean width {out['mean_width_elo']:.0f} Elo points; win-share intervals "
            f"containing par: {out['win_share_coverage']:.3f}; sd of the ratings over runs "
            f"{out['sd_of_ratings']:.1f} against mean width / 3.92 "
            f"{out['mean_width_over_3_92']:.1f}; {out['seconds']:.0f} s"
        )


if __name__ == "__main__":
    main()
