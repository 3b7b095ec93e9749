"""OpenSkill ratings over a run: ordering, ties, determinism, bad input."""

from __future__ import annotations

import math

import pytest

from coloretto.arena.ratings import Rating, rate_games


def test_consistent_winner_rates_highest() -> None:
    games = [((0, 1, 2), (1, 2, 3)), ((2, 0, 1), (3, 1, 2)), ((1, 2, 0), (2, 3, 1))] * 5
    r = rate_games(3, games)
    assert r[0].mu > r[1].mu > r[2].mu
    assert all(x.sigma < 25 / 3 for x in r)


def test_ties_rate_equally_and_unplayed_stay_initial() -> None:
    r = rate_games(4, [((0, 1, 2), (1, 1, 3))])
    assert math.isclose(r[0].mu, r[1].mu) and r[0].mu > r[2].mu
    assert r[3] == Rating(25.0, 25.0 / 3.0)


def test_deterministic_and_order_dependent() -> None:
    games = [((0, 1), (1, 2)), ((0, 1), (1, 2)), ((1, 0), (1, 2))]
    assert rate_games(2, games) == rate_games(2, games)
    assert rate_games(2, games) != rate_games(2, games[::-1])


def test_ordinal_and_json() -> None:
    r = Rating(30.0, 2.0)
    assert r.ordinal == 24.0
    assert r.to_json() == {"mu": 30.0, "sigma": 2.0, "ordinal": 24.0}


@pytest.mark.parametrize(
    "games",
    [
        [((0, 1), (1,))],
        [((0, 0), (1, 2))],
        [((0, 5), (1, 2))],
    ],
)
def test_bad_games_are_refused(games) -> None:
    with pytest.raises(ValueError):
        rate_games(2, games)
