"""OpenSkill ratings over a run of games (the ``openskill`` package, Plackett-Luce model).

Each game is one rating update with every seat a one-player team and the game's
competition ranks (1 = best, ties share a rank). Games are processed in the order given
(the tournament passes them sorted by game index), so ratings are deterministic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .._optional import require


@dataclass(frozen=True)
class Rating:
    """An OpenSkill rating.

    Attributes:
        mu: mean skill (starts at 25).
        sigma: uncertainty (starts at 25/3).
        ordinal: a conservative single number, ``mu - 3 * sigma``.
    """

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """``mu - 3 * sigma``."""
        return self.mu - 3.0 * self.sigma

    def to_json(self) -> dict[str, Any]:
        """``{"mu", "sigma", "ordinal"}``."""
        return {"mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal}


def rate_games(players: int, games: Sequence[tuple[Sequence[int], Sequence[int]]]) -> list[Rating]:
    """Ratings of ``players`` players (numbered ``0..players-1``) after ``games``.

    Args:
        players: number of distinct players (tournament entries).
        games: per game, ``(who, ranks)``: ``who[seat]`` the player in that seat and
            ``ranks[seat]`` its rank (1 = best; equal ranks are ties).

    Returns:
        One ``Rating`` per player; players who never played keep the initial rating.

    Raises:
        MissingExtra: ``openskill`` (the ``arena`` extra) is not installed.
        ValueError: a game whose ``who`` and ``ranks`` differ in length, a player out of range,
            or a player twice in one game.
    """
    model = require("openskill.models", "arena", "ratings").PlackettLuce()
    current = [model.rating(name=str(p)) for p in range(players)]
    for i, (who, ranks) in enumerate(games):
        if len(who) != len(ranks):
            raise ValueError(f"game {i}: {len(who)} players but {len(ranks)} ranks")
        if len(set(who)) != len(who) or any(not 0 <= p < players for p in who):
            raise ValueError(
                f"game {i}: players {list(who)} must be distinct and in 0..{players - 1}"
            )
        teams = [[current[p]] for p in who]
        updated = model.rate(teams, ranks=[float(r) for r in ranks])
        for p, team in zip(who, updated):
            current[p] = team[0]
    return [Rating(float(r.mu), float(r.sigma)) for r in current]
