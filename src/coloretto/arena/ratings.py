"""Batch ratings of a tournament's entries: a Luce choice model of who wins each game.

Model
-----
- **Data.** Every game counts one win, given to the entry with the best rank at its table
  (``arena.stats.ranks``; a forfeiting seat is last); ``k`` entries tied for the best rank
  get ``1 / k`` of a win each, as in the win share (docs/rules.md §6.5).
- **Luce choice (Plackett-Luce, first place only).** Entry ``i`` has a strength
  ``theta[i]``; at a table of entries ``S`` it wins with probability
  ``exp(theta[i]) / sum(exp(theta[j]) for j in S)``. The strengths maximise the likelihood of
  the wins (tied wins weighted by their fractions), plus **one virtual game** with every
  entry at the table whose win is split equally, so that an entry that never won still gets
  a finite strength. The fit is the minorization-maximization iteration of Hunter (Annals of
  Statistics 32, 2004), which converges to the maximum-likelihood estimate; without ties it
  agrees with ``choix.ilsr_top1`` (the test's twin).
- **Agreement with the results.** The likelihood equations say: for every entry, the wins the
  model expects equal the wins observed. When every entry sits at every table (a tournament,
  where entries are seats) every game has the same table, so the model's win probabilities
  *are* the observed win shares (with the virtual game) and the ratings are ordered exactly
  as the win shares: the best win share has the best rating, equal shares equal ratings.
  Unlike Bradley-Terry over pairwise places, only first places count.
- **Scale.** Strengths are centred on the field mean and shown as Elo points
  (``400 / ln 10`` points per unit of ``theta``): ``+100`` means winning a heads-up against
  an entry of average strength with probability ``1 / (1 + 10 ** (-100 / 400))`` = 0.64
  (``Rating.p_ahead``); at a table of ``n`` the model's win chance against ``n - 1`` average
  entries is ``Rating.p_win(n)``.
- **Order of games.** The fit uses sums over games, so it does not depend on their order
  (an online rating such as OpenSkill, updated game by game, weighs the last games most).
- **Intervals.** 95% percentile bootstrap over **deals**: ``replicates`` resamples of the
  deals with replacement (each deal keeps all its games: the same cards played with the
  seats rotated), a fit per resample, and the 2.5th and 97.5th percentiles of each entry's
  Elo points. Deals are put in a canonical order (by their counts) before resampling and the
  generator is seeded from ``seed`` by the one seed scheme (``engine.seeds``:
  ``derive_seed(seed, BOOTSTRAP)``; a tournament's ``seed`` is its run's), so the intervals
  depend only on the games and the seed, not on the games' order or deal numbers. With fewer than two deals there is no interval.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

from ..engine.seeds import BOOTSTRAP, derive_seed

ELO_PER_NAT: Final = 400.0 / math.log(10.0)
"""Elo points per unit of Luce strength (natural log odds)."""
VIRTUAL_GAMES: Final = 1.0
"""Virtual games with every entry at the table and the win split equally (the prior)."""
REPLICATES: Final = 1000
"""Bootstrap resamples of the deals for the 95% intervals."""
TOLERANCE: Final = 1e-10
"""Convergence of the fit: largest change of a strength in one iteration (units of theta)."""
MAX_ITERATIONS: Final = 10_000

FloatArray = np.ndarray[Any, np.dtype[np.float64]]


@dataclass(frozen=True)
class Rating:
    """A Luce-choice rating on the Elo scale, relative to the field mean.

    Attributes:
        elo: Elo points above (negative: below) the field mean.
        low, high: ends of the 95% bootstrap interval over deals, in Elo points; ``None``
            with fewer than two deals.
        win_share: wins (ties split) over games played, in [0, 1]; the ratings of a
            tournament (every entry at every table) are ordered as these shares.
        games: games the entry played.
    """

    elo: float
    low: float | None
    high: float | None
    win_share: float
    games: int

    @property
    def p_ahead(self) -> float:
        """Model probability of winning a heads-up against an entry of average strength."""
        return p_ahead(self.elo)

    def p_win(self, players: int) -> float:
        """Model probability of winning at a table of ``players`` with ``players - 1``
        entries of average strength."""
        return p_win(self.elo, players)

    def to_json(self) -> dict[str, Any]:
        """``{"elo", "ci95": [low, high] or null, "p_ahead", "p_ahead_ci95", "win_share",
        "games"}`` (``p_ahead_ci95`` is the interval's ends mapped by ``p_ahead``)."""
        has_ci = self.low is not None and self.high is not None
        return {
            "elo": self.elo,
            "ci95": [self.low, self.high] if has_ci else None,
            "p_ahead": self.p_ahead,
            "p_ahead_ci95": [p_ahead(self.low), p_ahead(self.high)]  # type: ignore[arg-type]
            if has_ci
            else None,
            "win_share": self.win_share,
            "games": self.games,
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
    """``1 / (1 + 10 ** (-elo / 400))``: the model probability of winning a heads-up against
    an entry ``elo`` points weaker."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def p_win(elo: float, players: int) -> float:
    """The model probability of winning at a table of ``players`` (at least 1) against
    ``players - 1`` entries ``elo`` points weaker."""
    if players < 1:
        raise ValueError(f"a table has at least 1 player, not {players}")
    strength = math.exp(elo / ELO_PER_NAT)
    return strength / (strength + players - 1)


def method(seed: int, replicates: int = REPLICATES) -> dict[str, Any]:
    """A JSON description of the rating method (module docstring) for reports; ``seed``:
    the bootstrap's root seed, as given to ``rate_games``."""
    return {
        "model": "Luce choice (Plackett-Luce, first place) of the winner of each game, "
        "maximum likelihood",
        "ties": "k tied winners get 1/k of a win each",
        "prior": f"{VIRTUAL_GAMES:g} virtual game with every entry, its win split equally",
        "scale": "Elo points relative to the field mean (400 per factor 10 in odds)",
        "agreement": "with every entry at every table, ordered as the win shares",
        "interval": "95% percentile bootstrap over deals",
        "replicates": replicates,
        "seed": seed,
    }


def winner_shares(players: int, who: Sequence[int], ranks: Sequence[int]) -> FloatArray:
    """One game's win of each of ``players`` players: ``1 / k`` for each of the ``k``
    players with the best (lowest) rank, 0 for the others and for players not at the table.

    Args:
        who: the player in each seat; ranks: its rank (1 = best; equal ranks tie).
    """
    best = min(ranks)
    winners = [p for p, r in zip(who, ranks) if r == best]
    w = np.zeros(players)
    w[winners] = 1.0 / len(winners)
    return w


def fit(
    tables: FloatArray, counts: FloatArray, wins: FloatArray, initial: FloatArray | None = None
) -> FloatArray:
    """Maximum-likelihood Luce strengths, for one data set or a batch of them.

    Args:
        tables: ``(T, players)`` 0/1 membership of each distinct table (set of entries).
        counts: ``(..., T)`` games played at each table (weights, may be fractional).
        wins: ``(..., players)`` wins of each player (ties split), with every player's total
            positive (the caller adds the virtual game).
        initial: ``(..., players)`` starting strengths (default 0).

    Returns:
        ``(..., players)`` strengths ``theta`` centred on their mean.

    Hunter's minorization-maximization step: ``gamma[i] <- wins[i] / sum over tables t with
    i of counts[t] / sum(gamma[j] for j in t)``, until no strength moves more than
    ``TOLERANCE`` (or ``MAX_ITERATIONS``).
    """
    theta = np.zeros(wins.shape) if initial is None else np.array(initial, dtype=float)
    log_wins = np.log(wins)
    for _ in range(MAX_ITERATIONS):
        gamma = np.exp(theta)
        per_table = counts / (gamma @ tables.T)
        new = log_wins - np.log(per_table @ tables)
        new -= new.mean(axis=-1, keepdims=True)
        moved = float(np.max(np.abs(new - theta)))
        theta = new
        if moved < TOLERANCE:
            break
    return theta


def rate_games(
    players: int,
    games: Sequence[tuple[int, Sequence[int], Sequence[int]]],
    *,
    seed: int = 0,
    replicates: int = REPLICATES,
    virtual_games: float = VIRTUAL_GAMES,
) -> list[Rating]:
    """Luce-choice ratings of ``players`` players (numbered ``0..players-1``) from ``games``
    with 95% bootstrap intervals over deals (module docstring).

    Args:
        players: number of distinct players (tournament entries), at least 2.
        games: per game, ``(deal, who, ranks)``: the deal it was played on (games of one
            deal are resampled together), ``who[seat]`` the player in that seat and
            ``ranks[seat]`` its rank (1 = best; equal ranks are ties). Any order.
        seed: root seed of the bootstrap (any integer): its resamples are drawn by NumPy's
            generator seeded with ``derive_seed(seed, BOOTSTRAP)`` (``engine.seeds``).
        replicates: bootstrap resamples (at least 1).
        virtual_games: weight of the prior (``VIRTUAL_GAMES``; positive).

    Returns:
        One ``Rating`` per player; their ``elo`` values sum to 0.

    Raises:
        ValueError: fewer than 2 players or 1 replicate, a prior that is not positive, a game
            whose ``who`` and ``ranks`` differ in length or seat fewer than 2, a player out
            of range or twice in one game, or a player in no game.
    """
    if players < 2:
        raise ValueError(f"ratings need at least 2 players, not {players}")
    if replicates < 1:
        raise ValueError(f"replicates must be at least 1, not {replicates}")
    if not virtual_games > 0:
        raise ValueError(f"virtual_games must be positive, not {virtual_games}")
    table_index: dict[tuple[int, ...], int] = {}
    by_deal: dict[int, tuple[dict[int, int], FloatArray]] = {}
    for k, (deal, who, ranks) in enumerate(games):
        if len(who) != len(ranks):
            raise ValueError(f"game {k}: {len(who)} players but {len(ranks)} ranks")
        if len(who) < 2:
            raise ValueError(f"game {k}: {len(who)} player(s); a game needs at least 2")
        if len(set(who)) != len(who) or any(not 0 <= p < players for p in who):
            raise ValueError(
                f"game {k}: players {list(who)} must be distinct and in 0..{players - 1}"
            )
        t = table_index.setdefault(tuple(sorted(who)), len(table_index))
        tables_of_deal, wins = by_deal.setdefault(deal, ({}, np.zeros(players)))
        tables_of_deal[t] = tables_of_deal.get(t, 0) + 1
        wins += winner_shares(players, who, ranks)
    # every player's table plus the virtual game's table (everyone)
    everyone = table_index.setdefault(tuple(range(players)), len(table_index))
    tables = np.zeros((len(table_index), players))
    for members, t in table_index.items():
        tables[t, list(members)] = 1.0
    rows = []
    for tables_of_deal, wins in by_deal.values():
        c = np.zeros(len(table_index))
        for t, n in tables_of_deal.items():
            c[t] = n
        rows.append(np.concatenate([c, wins]))
    # Canonical order: the deals' counts, not their numbers or the games' order.
    deals = np.array(sorted(rows, key=tuple))
    observed = deals.sum(axis=0)
    counts, wins = observed[: len(table_index)], observed[len(table_index) :]
    played = counts @ tables
    absent = [p for p in range(players) if played[p] == 0]
    if absent:
        raise ValueError(f"player(s) {absent} played no game")
    prior_counts = np.zeros(len(table_index))
    prior_counts[everyone] = virtual_games
    prior_wins = np.full(players, virtual_games / players)
    theta = fit(tables, counts + prior_counts, wins + prior_wins)
    elo = theta * ELO_PER_NAT
    share = wins / played

    def rating(p: int, low: float | None, high: float | None) -> Rating:
        return Rating(float(elo[p]), low, high, float(share[p]), round(played[p]))

    if len(deals) < 2:
        return [rating(p, None, None) for p in range(players)]
    rng = np.random.default_rng(derive_seed(seed, BOOTSTRAP))
    d = len(deals)
    draws = rng.multinomial(d, np.full(d, 1.0 / d), size=replicates)
    resampled = draws @ deals
    boot = fit(
        tables,
        resampled[:, : len(table_index)] + prior_counts,
        resampled[:, len(table_index) :] + prior_wins,
        initial=np.broadcast_to(theta, (replicates, players)),
    )
    low, high = np.percentile(boot * ELO_PER_NAT, [2.5, 97.5], axis=0)
    return [rating(p, float(low[p]), float(high[p])) for p in range(players)]
