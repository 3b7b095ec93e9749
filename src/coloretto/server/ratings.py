"""The leaderboard: OpenSkill (Plackett-Luce) ratings over finished rated games."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from openskill.models import PlackettLuce

from .store import RatedResult, TableStore


def leaderboard(rows: Sequence[RatedResult], computers: bool) -> dict[str, Any]:
    """Rate the players of ``rows`` (``(table_id, seat, name, kind, score, rank,
    account_id)``, grouped by table, oldest game first; as ``Store.rated_results``).

    People are keyed by their account (``account:ID``): only seats held by an account are
    rated, so a name typed by someone else changes nothing. ``computers=False``: only people
    are rated, and only games with at least two of them (their ranks among themselves).
    ``computers=True``: computer players too, under their ``computer:LEVEL`` names.

    Returns:
        ``{"computers", "games", "players": [{"name", "kind", "account", "rating", "mu",
        "sigma", "games", "wins"}]}`` sorted by ``rating`` (mu - 3 sigma), best first;
        ``account`` is the account id of a person, None for a computer player.
    """
    model = PlackettLuce()
    games: dict[str, list[tuple[str, str, int]]] = defaultdict(list)
    order: list[str] = []
    shown: dict[str, str] = {}
    accounts: dict[str, int | None] = {}
    for table_id, _seat, name, kind, _score, rank, account_id in rows:
        if table_id not in games:
            order.append(table_id)
        if kind == "human" and account_id is None:
            continue  # a seat without an account is not rated
        if kind == "human" or computers:
            key = f"account:{account_id}" if kind == "human" else name
            shown[key], accounts[key] = name, account_id if kind == "human" else None
            games[table_id].append((key, kind, rank))
    ratings: dict[str, Any] = {}
    kinds: dict[str, str] = {}
    played: dict[str, int] = defaultdict(int)
    wins: dict[str, int] = defaultdict(int)
    counted = 0
    for table_id in order:
        entries = games[table_id]
        # one entry per player per game (one seat per account; computers of one level count once, at the best rank)
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
            "name": shown[n],
            "kind": kinds[n],
            "account": accounts[n],
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
