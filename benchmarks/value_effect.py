"""What the learned value brings: the compiled search with and without it, at equal time.

Usage: python benchmarks/value_effect.py [--players 2] [--deals 100] [--seconds 0.05]
       [--with value] [--without rollout] [--table brown] [--seed 0] [--json]

Entry A is ``ismcts`` with leaf evaluation ``--with`` (``value``: the learned value at the
leaf; ``round_value``: ``threshold`` to the end of the round, then the value), entry B the
same search with ``--without`` (default ``rollout``, the ``hybrid`` rollout). Both get the
same seconds per decision. With 2 players it is a heads-up; with more, A sits with
``players - 1`` copies of B. Every deal is played once per seat of A (duplicate deals).
Prints A's and B's win shares (ties split) with 95% intervals over deals, and the mean
iterations per decision of each.
"""

from __future__ import annotations

import argparse
import json
import time

from coloretto.agents.base import Budget
from coloretto.agents.ismcts import ISMCTSAgent, ISMCTSParams
from coloretto.arena.driver import play_out, start_game
from coloretto.arena.stats import mean_ci, win_shares
from coloretto.engine import Rules


class _Counting(ISMCTSAgent):
    """``ismcts`` that remembers its iterations per decision."""

    def __init__(self, seed: int, budget: Budget, params: ISMCTSParams) -> None:
        super().__init__(seed, budget, params)
        self.iterations: list[int] = []

    def act(self, observation, legal):  # type: ignore[no-untyped-def]
        action = super().act(observation, legal)
        if self.last is not None:
            self.iterations.append(self.last.iterations)
        return action


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=0.05)
    parser.add_argument("--with", dest="with_", default="value", help="evaluation of entry A")
    parser.add_argument("--without", default="rollout", help="evaluation of entry B")
    parser.add_argument("--table", default="brown", help="score table (brown or violet)")
    parser.add_argument("--edition", default="classic")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    n = args.players
    rules = Rules(players=n, table=args.table, edition=args.edition)
    budget = Budget(seconds=args.seconds)
    a_share: list[float] = []
    b_share: list[float] = []
    its_a: list[int] = []
    its_b: list[int] = []
    t0 = time.perf_counter()
    for d in range(args.deals):
        deal_a = 0.0
        deal_b = 0.0
        for seat_a in range(n):
            agents = [
                _Counting(
                    1000 * d + s,
                    budget,
                    ISMCTSParams(evaluation=args.with_ if s == seat_a else args.without),
                )
                for s in range(n)
            ]
            game = start_game(rules, args.seed * 100_003 + d, ["x"] * n)
            play_out(game, agents)
            shares = win_shares(game.state.totals())
            deal_a += shares[seat_a]
            deal_b += sum(shares[s] for s in range(n) if s != seat_a) / (n - 1)
            its_a += agents[seat_a].iterations
            for s in range(n):
                if s != seat_a:
                    its_b += agents[s].iterations
        a_share.append(deal_a / n)
        b_share.append(deal_b / n)
    ea = mean_ci(a_share)
    eb = mean_ci(b_share)
    result = {
        "players": n,
        "rules": rules.to_dict(),
        "deals": args.deals,
        "games": args.deals * n,
        "seconds_per_decision": args.seconds,
        "a": {"evaluation": args.with_, "win_share": ea.to_json(),
              "mean_iterations": sum(its_a) / max(1, len(its_a))},
        "b": {"evaluation": args.without, "win_share": eb.to_json(),
              "mean_iterations": sum(its_b) / max(1, len(its_b))},
        "par": 1.0 / n,
        "wall_seconds": time.perf_counter() - t0,
    }
    if args.json:
        print(json.dumps(result))
        return
    print(
        f"{n} players, {args.table} table, {args.edition}, {args.deals} deals x {n} seats, "
        f"{args.seconds:g} s per decision (par {1 / n:.3f})"
    )
    for key in ("a", "b"):
        e = ea if key == "a" else eb
        r = result[key]
        assert isinstance(r, dict)
        print(
            f"  {key.upper()} ismcts evaluation={r['evaluation']:<12} win share {e.format()}  "
            f"(mean {r['mean_iterations']:.0f} iterations per decision)"
        )


if __name__ == "__main__":
    main()
