"""The leaderboard: OpenSkill (Plackett-Luce) ratings over finished rated games."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from openskill.models import PlackettLuce

from .store import TableStore


def leaderboard(rows: Sequence[tuple[str, int, str, str, int, int]], computers: bool) -> dict[str, Any]:
    """Rate the players of ``rows`` (``(table_id, seat, name, kind, score, rank)``, grouped
    by table, oldest game first; as ``Store.rated_results``).

    ``computers=False``: only people are rated, and only games with at least two of them
    (their ranks among themselves). ``computers=True``: everyone in every game; computer
    players are rated under their ``computer:LEVEL`` names.

    Returns:
        ``{"computers", "games", "players": [{"name", "kind", "rating", "mu", "sigma",
        "games", "wins"}]}`` sorted by ``rating`` (mu - 3 sigma), best first.
    """
    model = PlackettLuce()
    games: dict[str, list[tuple[str, str, int]]] = defaultdict(list)
    order: list[str] = []
    for table_id, _seat, name, kind, _score, rank in rows:
        if table_id not in games:
            order.append(table_id)
        if computers or kind == "human":
            games[table_id].append((name, kind, rank))
    ratings: dict[str, Any] = {}
    kinds: dict[str, str] = {}
    played: dict[str, int] = defaultdict(int)
    wins: dict[str, int] = defaultdict(int)
    counted = 0
    for table_id in order:
        entries = games[table_id]
        # one entry per name per game (a person in two seats counts once, at the better rank)
        best: dict[str, tuple[str, int]] = {}
        for name, kind, rank in entries:
            if name not in best or rank < best[name][1]:
                best[name] = (kind, rank)
        if len(best) < 2:
            continue
        counted += 1
        names = list(best)
        teams = [[ratings.get(n) or model.rating(name=n)] for n in names]
        ranks = [best[n][1] for n in names]
        new = model.rate(teams, ranks=[float(r) for r in ranks])
        top = min(ranks)
        for n, team in zip(names, new):
            ratings[n] = team[0]
            kinds[n] = best[n][0]
            played[n] += 1
            if best[n][1] == top:
                wins[n] += 1
    players = [
        {
            "name": n,
            "kind": kinds[n],
            "rating": round(r.ordinal(), 2),
            "mu": round(r.mu, 2),
            "sigma": round(r.sigma, 2),
            "games": played[n],
            "wins": wins[n],
        }
        for n, r in ratings.items()
    ]
    players.sort(key=lambda p: (-p["rating"], p["name"]))
    return {"computers": computers, "games": counted, "players": players}


class Leaderboards:
    """The two leaderboards (with and without computer players), rebuilt only when the
    store holds new results."""

    def __init__(self) -> None:
        self._cache: dict[bool, tuple[int, dict[str, Any]]] = {}

    async def get(self, store: TableStore, computers: bool) -> dict[str, Any]:
        """``leaderboard`` of ``store``'s rated results."""
        count = await store.results_count()
        cached = self._cache.get(computers)
        if cached is None or cached[0] != count:
            rows = await store.rated_results()
            cached = self._cache[computers] = (count, leaderboard(rows, computers))
        return cached[1]
