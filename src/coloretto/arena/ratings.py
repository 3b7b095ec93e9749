"""Batch ratings of a tournament's entries: Bradley-Terry over pairwise results (``choix``).

Model
-----
- **Data.** Every game gives one comparison per pair of entries at its table: the entry
  with the better rank (``arena.stats.ranks``; a forfeiting seat is last) wins it; two
  entries with equal ranks tie, and a tie counts as half a win each way. ``W[i, j]`` is the
  number of comparisons ``i`` won against ``j`` over all games.
- **Bradley-Terry.** Entry ``i`` has a strength ``theta[i]``; ``i`` finishes ahead of ``j``
  with probability ``1 / (1 + exp(theta[j] - theta[i]))``. The strengths are the maximum
  of the likelihood of ``W`` (``choix.ilsr_pairwise_dense``: iterative Luce spectral
  ranking, whose fixed point is the maximum-likelihood estimate; Maystre and Grossglauser,
  NIPS 2015), with **one virtual tie per pair of entries** added to ``W`` (half a win each
  way) so that an entry that never lost still gets a finite strength. Against ``G`` real
  games per pair that prior weighs ``1 / (G + 1)``.
- **Scale.** Strengths are centred on the field mean and shown as Elo points
  (``400 / ln 10`` points per unit of ``theta``): ``+100`` means finishing ahead of an
  entry of average strength with probability ``1 / (1 + 10 ** (-100 / 400))`` = 0.64
  (``Rating.p_ahead``). These are Elo-scale points from one fit over all games, not Elo's
  game-by-game update.
- **Order of games.** ``W`` is a sum over games, so the estimate does not depend on the
  order of the games (an online rating such as OpenSkill, updated game by game, weighs
  the last games most and does).
- **Agreement with the results.** When every entry sits at every table (as in a
  tournament, where entries are seats), every pair meets equally often, and then the
  likelihood equations order the strengths exactly as the entries' **pairwise shares**
  (comparisons won, ties half, over comparisons played; for ``n`` seats this is
  ``(n - mean fractional rank) / (n - 1)``). The virtual ties add the same to every entry
  and keep that order.
- **Intervals.** 95% percentile bootstrap over **deals**: ``replicates`` resamples of the
  deals with replacement (each deal keeps all its games: the same cards played with the
  seats rotated), a fit per resample, and the 2.5th and 97.5th percentiles of each entry's
  Elo points. Resampling deals, not games or comparisons, keeps the two dependences a
  Fisher-information interval would ignore: the comparisons of one game share one
  outcome, and the rotations of one deal share its cards. Deals are put in a canonical
  order (by their comparison counts) before resampling and the generator is seeded
  (``seed``), so the intervals too depend only on the games, not on their order or deal
  numbers. With fewer than two deals there is no interval.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

from .._optional import require

ELO_PER_NAT: Final = 400.0 / math.log(10.0)
"""Elo points per unit of Bradley-Terry strength (natural log odds)."""
VIRTUAL_TIES: Final = 1.0
"""Virtual tied comparisons added per pair of entries (half a win each way)."""
REPLICATES: Final = 1000
"""Bootstrap resamples of the deals for the 95% intervals."""


@dataclass(frozen=True)
class Rating:
    """A Bradley-Terry rating on the Elo scale, relative to the field mean.

    Attributes:
        elo: Elo points above (negative: below) the field mean.
        low, high: ends of the 95% bootstrap interval over deals, in Elo points; ``None``
            with fewer than two deals.
        pairwise_share: comparisons won (ties count half) over comparisons played, in
            [0, 1]; the ratings of a complete design are ordered as these shares.
    """

    elo: float
    low: float | None
    high: float | None
    pairwise_share: float

    @property
    def p_ahead(self) -> float:
        """Probability of finishing ahead of an entry of average strength (model value)."""
        return p_ahead(self.elo)

    def to_json(self) -> dict[str, Any]:
        """``{"elo", "ci95": [low, high] or null, "p_ahead", "p_ahead_ci95", "pairwise_share"}``
        (``p_ahead_ci95`` is the interval's ends mapped by ``p_ahead``)."""
        has_ci = self.low is not None and self.high is not None
        return {
            "elo": self.elo,
            "ci95": [self.low, self.high] if has_ci else None,
            "p_ahead": self.p_ahead,
            "p_ahead_ci95": [p_ahead(self.low), p_ahead(self.high)]  # type: ignore[arg-type]
            if has_ci
            else None,
            "pairwise_share": self.pairwise_share,
        }

    def format(self) -> str:
        """``"+112 [+80, +140]"`` (Elo points, 95% interval), or ``"+112"`` without one."""
        if self.low is None or self.high is None:
            return _points(self.elo)
        return f"{_points(self.elo)} [{_points(self.low)}, {_points(self.high)}]"


def _points(x: float) -> str:
    """Whole Elo points with a sign, ``"+0"`` rather than ``"-0"``."""
    return f"{round(x):+d}"


def p_ahead(elo: float) -> float:
    """``1 / (1 + 10 ** (-elo / 400))``: the Bradley-Terry probability of finishing ahead of
    an entry ``elo`` points weaker."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def method(seed: int, replicates: int = REPLICATES) -> dict[str, Any]:
    """A JSON description of the rating method (module docstring) for reports."""
    return {
        "model": "Bradley-Terry over pairwise results, maximum likelihood (choix I-LSR)",
        "ties": "half a win each way",
        "prior": f"{VIRTUAL_TIES:g} virtual tie per pair of entries",
        "scale": "Elo points relative to the field mean (400 per factor 10 in odds)",
        "interval": "95% percentile bootstrap over deals",
        "replicates": replicates,
        "seed": seed,
    }


def pairwise_counts(
    players: int, who: Sequence[int], ranks: Sequence[int]
) -> np.ndarray[Any, np.dtype[np.float64]]:
    """The ``players x players`` matrix of one game's comparisons: ``[i, j]`` is 1 when
    ``i`` ranked better than ``j``, 0.5 each way for a tie (module docstring).

    Args:
        who: the player in each seat; ranks: its rank (1 = best; equal ranks tie).
    """
    m = np.zeros((players, players))
    for a in range(len(who)):
        for b in range(a + 1, len(who)):
            i, j = who[a], who[b]
            if ranks[a] < ranks[b]:
                m[i, j] += 1.0
            elif ranks[a] > ranks[b]:
                m[j, i] += 1.0
            else:
                m[i, j] += 0.5
                m[j, i] += 0.5
    return m


def rate_games(
    players: int,
    games: Sequence[tuple[int, Sequence[int], Sequence[int]]],
    *,
    seed: int = 0,
    replicates: int = REPLICATES,
) -> list[Rating]:
    """Bradley-Terry ratings of ``players`` players (numbered ``0..players-1``) from
    ``games`` with 95% bootstrap intervals over deals (module docstring).

    Args:
        players: number of distinct players (tournament entries), at least 2.
        games: per game, ``(deal, who, ranks)``: the deal it was played on (games of one
            deal are resampled together), ``who[seat]`` the player in that seat and
            ``ranks[seat]`` its rank (1 = best; equal ranks are ties). Any order.
        seed: seed of the bootstrap's generator.
        replicates: bootstrap resamples (at least 1).

    Returns:
        One ``Rating`` per player; their ``elo`` values sum to 0.

    Raises:
        MissingExtra: ``choix`` (the ``arena`` extra) is not installed.
        ValueError: fewer than 2 players or 1 replicate, a game whose ``who`` and ``ranks``
            differ in length or seat fewer than 2, a player out of range or twice in one
            game, or a player in no game.
    """
    choix = require("choix", "arena", "ratings")
    if players < 2:
        raise ValueError(f"ratings need at least 2 players, not {players}")
    if replicates < 1:
        raise ValueError(f"replicates must be at least 1, not {replicates}")
    by_deal: dict[int, np.ndarray[Any, np.dtype[np.float64]]] = {}
    for k, (deal, who, ranks) in enumerate(games):
        if len(who) != len(ranks):
            raise ValueError(f"game {k}: {len(who)} players but {len(ranks)} ranks")
        if len(who) < 2:
            raise ValueError(f"game {k}: {len(who)} player(s); a game needs at least 2")
        if len(set(who)) != len(who) or any(not 0 <= p < players for p in who):
            raise ValueError(
                f"game {k}: players {list(who)} must be distinct and in 0..{players - 1}"
            )
        counts = pairwise_counts(players, who, ranks)
        by_deal[deal] = by_deal[deal] + counts if deal in by_deal else counts
    # Canonical order: the deals' comparison counts, not their numbers or the games' order.
    deals = np.array(sorted((m for m in by_deal.values()), key=lambda m: tuple(m.ravel())))
    observed = deals.sum(axis=0)
    played = observed + observed.T
    absent = [p for p in range(players) if played[p].sum() == 0]
    if absent:
        raise ValueError(f"player(s) {absent} played no game")
    prior = (VIRTUAL_TIES / 2.0) * (1.0 - np.eye(players))
    theta = np.asarray(choix.ilsr_pairwise_dense(observed + prior), dtype=float)
    elo = (theta - theta.mean()) * ELO_PER_NAT
    share = observed.sum(axis=1) / played.sum(axis=1)
    if len(deals) < 2:
        return [Rating(float(elo[p]), None, None, float(share[p])) for p in range(players)]
    rng = np.random.default_rng(seed)
    d = len(deals)
    draws = rng.multinomial(d, np.full(d, 1.0 / d), size=replicates)
    resampled = (draws @ deals.reshape(d, -1)).reshape(replicates, players, players)
    boot = np.empty((replicates, players))
    for r in range(replicates):
        # started from the full fit; converged to 1e-6 (L1, in units of theta: < 0.001 Elo)
        fit = choix.ilsr_pairwise_dense(resampled[r] + prior, initial_params=theta, tol=1e-6)
        t = np.asarray(fit, dtype=float)
        boot[r] = (t - t.mean()) * ELO_PER_NAT
    low, high = np.percentile(boot, [2.5, 97.5], axis=0)
    return [
        Rating(float(elo[p]), float(low[p]), float(high[p]), float(share[p]))
        for p in range(players)
    ]
