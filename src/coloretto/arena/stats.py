"""Statistics of many games: win shares, ranks, means with 95% confidence intervals.

Method (documented in ``coloretto simulate --help`` and docs/benchmarks.md):

- Each game gives, per seat, three numbers: its **win share** (1 for a sole winner; ties
  split the win, so each of ``k`` tied winners gets ``1/k``; docs/rules.md §6.5), its **score**
  (the final total) and its **rank** (competition ranking as ``GameState.ranks``: 1 = best,
  tied seats share the better rank, e.g. 1, 2, 2, 4).
- A mean over ``n`` games comes with a 95% confidence interval by the normal
  approximation: ``mean +- 1.959964 * s / sqrt(n)`` with ``s`` the sample standard deviation
  (divisor ``n - 1``). For win shares the per-game share values (0, 1/k or 1) are the
  samples. With fewer than two games there is no interval (``half_width`` is ``None``).
- An interval never leaves the range the quantity can take: win shares lie in [0, 1] and
  ranks in [1, players], so their interval ends are clipped there (a normal-approximation
  interval around a win share of 0.02 would otherwise start below 0). ``half_width`` stays
  the unclipped ``1.959964 * s / sqrt(n)``; ``low`` and ``high`` are the clipped ends that
  the JSON, CSV, table and plot show.
- A game forfeited by a seat (its external engine failed, ``arena.failures``): that seat
  has win share 0 and the last rank; the others are ranked by their scores at the forfeit
  (``game_outcome``).
- An agent spec that sits in several seats also gets an aggregate: per game, the mean of
  its seats' values (one sample per game, so games stay independent samples), then the
  mean and interval over games as above. Its win share is thus comparable with one seat's
  (e.g. 1/4 is par in a 4-player game).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

Z95 = 1.959963984540054
"""Two-sided 95% quantile of the standard normal distribution."""


WIN_SHARE_RANGE = (0.0, 1.0)
"""The values a win share (and a mean of win shares) can take."""


@dataclass(frozen=True)
class Estimate:
    """A sample mean with its 95% normal-approximation confidence interval.

    Attributes:
        mean: the sample mean.
        half_width: ``Z95 * s / sqrt(n)`` (``s`` the sample standard deviation), or ``None``
            when ``n < 2``; before clipping to ``bounds``.
        sd: the sample standard deviation (divisor ``n - 1``), ``None`` when ``n < 2``.
        n: number of samples.
        bounds: ``(least, greatest)`` value the quantity can take (e.g. ``(0, 1)`` for a win
            share), or ``None`` when unbounded; the interval ends are clipped to it.
    """

    mean: float
    half_width: float | None
    sd: float | None
    n: int
    bounds: tuple[float, float] | None = None

    @property
    def low(self) -> float | None:
        """Lower end of the 95% interval, at least ``bounds[0]`` (``None`` without an
        interval)."""
        if self.half_width is None:
            return None
        low = self.mean - self.half_width
        return low if self.bounds is None else max(self.bounds[0], low)

    @property
    def high(self) -> float | None:
        """Upper end of the 95% interval, at most ``bounds[1]`` (``None`` without an
        interval)."""
        if self.half_width is None:
            return None
        high = self.mean + self.half_width
        return high if self.bounds is None else min(self.bounds[1], high)

    @property
    def clipped(self) -> bool:
        """True when ``bounds`` cut the interval (it is then not symmetric about the mean)."""
        if self.half_width is None or self.bounds is None:
            return False
        return (
            self.mean - self.half_width < self.bounds[0]
            or self.mean + self.half_width > self.bounds[1]
        )

    def to_json(self) -> dict[str, Any]:
        """``{"mean", "ci95": [low, high] or null, "half_width", "sd", "n"}``."""
        return {
            "mean": self.mean,
            "ci95": None if self.half_width is None else [self.low, self.high],
            "half_width": self.half_width,
            "sd": self.sd,
            "n": self.n,
        }

    def format(self, digits: int = 3) -> str:
        """``"0.412 ± 0.031"``; an interval clipped to ``bounds`` as its ends,
        ``"0.012 [0.000, 0.042]"``; the mean alone without an interval."""
        if self.half_width is None:
            return f"{self.mean:.{digits}f}"
        if self.clipped:
            return f"{self.mean:.{digits}f} [{self.low:.{digits}f}, {self.high:.{digits}f}]"
        return f"{self.mean:.{digits}f} ± {self.half_width:.{digits}f}"


def mean_ci(values: Sequence[float], bounds: tuple[float, float] | None = None) -> Estimate:
    """Mean of ``values`` with a 95% confidence interval (normal approximation, sample sd),
    its ends clipped to ``bounds`` (the range the values can take) when given.

    Raises:
        ValueError: ``values`` is empty.
    """
    n = len(values)
    if n == 0:
        raise ValueError("no values to average")
    mean = math.fsum(values) / n
    if n < 2:
        return Estimate(mean, None, None, n, bounds)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    sd = math.sqrt(var)
    return Estimate(mean, Z95 * sd / math.sqrt(n), sd, n, bounds)


def win_shares(scores: Sequence[int]) -> list[float]:
    """Per seat, its share of the win in one game: ``1/k`` for each of ``k`` seats tied on the
    highest score, 0 for the others (docs/rules.md §6.5: tied players share the win).

    Raises:
        ValueError: ``scores`` is empty.
    """
    if not scores:
        raise ValueError("no scores")
    best = max(scores)
    k = sum(1 for s in scores if s == best)
    return [1.0 / k if s == best else 0.0 for s in scores]


def ranks(scores: Sequence[int]) -> list[int]:
    """Competition ranks of one game (1 = best; ties share the better rank: 1, 2, 2, 4), the
    same as ``GameState.ranks``."""
    return [1 + sum(1 for u in scores if u > t) for t in scores]


def game_outcome(
    scores: Sequence[int], forfeit: int | None = None
) -> tuple[list[float], list[int]]:
    """Win shares and competition ranks of one game. With ``forfeit`` (the seat whose
    external engine failed under the ``forfeit`` policy, ``arena.failures``) that seat gets
    win share 0 and the last rank (the number of seats); the others are ranked, and share
    the win, by their scores at the forfeit.

    Raises:
        ValueError: ``scores`` is empty.
    """
    if forfeit is None:
        return win_shares(scores), ranks(scores)
    n = len(scores)
    others = [s for s in range(n) if s != forfeit]
    shares = [0.0] * n
    places = [n] * n
    if others:
        sub_shares = win_shares([scores[s] for s in others])
        sub_ranks = ranks([scores[s] for s in others])
        for k, s in enumerate(others):
            shares[s] = sub_shares[k]
            places[s] = sub_ranks[k]
    return shares, places


@dataclass(frozen=True)
class AgentSummary:
    """Results of one seat, or of one agent spec over all its seats.

    Attributes:
        agent: the agent spec (e.g. ``"greedy"``).
        seats: the seats it played (one for a per-seat summary).
        win_share: mean win share per game (ties split).
        score: mean final score.
        rank: mean competition rank.
    """

    agent: str
    seats: tuple[int, ...]
    win_share: Estimate
    score: Estimate
    rank: Estimate

    def to_json(self) -> dict[str, Any]:
        """JSON form: ``agent``, ``seats``, and an ``Estimate`` object each for
        ``win_share``, ``mean_score`` and ``mean_rank``."""
        return {
            "agent": self.agent,
            "seats": list(self.seats),
            "win_share": self.win_share.to_json(),
            "mean_score": self.score.to_json(),
            "mean_rank": self.rank.to_json(),
        }


def _summary(
    agent: str,
    seats: Sequence[int],
    per_game: Sequence[Sequence[int]],
    forfeits: Sequence[int | None] | None = None,
) -> AgentSummary:
    shares: list[float] = []
    points: list[float] = []
    places: list[float] = []
    k = len(seats)
    for i, scores in enumerate(per_game):
        w, r = game_outcome(scores, None if forfeits is None else forfeits[i])
        shares.append(math.fsum(w[s] for s in seats) / k)
        points.append(sum(scores[s] for s in seats) / k)
        places.append(sum(r[s] for s in seats) / k)
    players = float(len(per_game[0]))
    return AgentSummary(
        agent,
        tuple(seats),
        mean_ci(shares, WIN_SHARE_RANGE),
        mean_ci(points),
        mean_ci(places, (1.0, players)),
    )


def summarize_seats(
    agents: Sequence[str],
    per_game: Sequence[Sequence[int]],
    forfeits: Sequence[int | None] | None = None,
) -> list[AgentSummary]:
    """One summary per seat (``agents[seat]`` its spec) from the final scores of each game.

    Args:
        agents: agent spec per seat.
        per_game: one list of final scores (one per seat) per game.
        forfeits: per game, the seat that forfeited it or ``None`` (``game_outcome``);
            default: no forfeits.

    Raises:
        ValueError: no games, a game whose score list does not have one score per seat, or
            ``forfeits`` not one per game.
    """
    _check(agents, per_game, forfeits)
    return [_summary(spec, [seat], per_game, forfeits) for seat, spec in enumerate(agents)]


def summarize_agents(
    agents: Sequence[str],
    per_game: Sequence[Sequence[int]],
    forfeits: Sequence[int | None] | None = None,
) -> list[AgentSummary]:
    """One summary per distinct agent spec (in order of first seat), each averaging its seats
    within a game first (module docstring).

    Raises:
        ValueError: as ``summarize_seats``.
    """
    _check(agents, per_game, forfeits)
    seats_of: dict[str, list[int]] = {}
    for seat, spec in enumerate(agents):
        seats_of.setdefault(spec, []).append(seat)
    return [_summary(spec, seats, per_game, forfeits) for spec, seats in seats_of.items()]


def _check(
    agents: Sequence[str],
    per_game: Sequence[Sequence[int]],
    forfeits: Sequence[int | None] | None = None,
) -> None:
    if not per_game:
        raise ValueError("no games to summarise")
    if forfeits is not None and len(forfeits) != len(per_game):
        raise ValueError(f"{len(forfeits)} forfeit entries for {len(per_game)} games")
    for i, scores in enumerate(per_game):
        if len(scores) != len(agents):
            raise ValueError(f"game {i} has {len(scores)} scores for {len(agents)} seats")
