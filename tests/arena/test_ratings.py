"""Luce-choice ratings of a tournament: the fit, its agreement with the win shares, its
independence of the order of games, the bootstrap over deals, and bad input."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coloretto.arena.ratings import (
    ELO_PER_NAT,
    VIRTUAL_GAMES,
    Rating,
    p_ahead,
    p_win,
    rate_games,
    winner_shares,
)
from coloretto.arena.tournament import TournamentConfig, run_tournament
from coloretto.engine.rules import preset
from coloretto.engine.seeds import BOOTSTRAP, STREAMS, derive_seed

pytestmark = pytest.mark.timeout(300)


def rotated(
    deal: int, rotation: int, ranks_by_entry: list[int]
) -> tuple[int, list[int], list[int]]:
    """One game of ``deal`` in ``rotation`` (entry ``e`` in seat ``(e + rotation) % n``)
    with the given rank of each entry."""
    n = len(ranks_by_entry)
    who = [(s - rotation) % n for s in range(n)]
    return deal, who, [ranks_by_entry[e] for e in who]


def test_winner_shares_of_one_game() -> None:
    # seats hold players 2, 0, 3, 1 with competition ranks 2, 1, 1, 4: 0 and 3 share the win
    assert winner_shares(4, [2, 0, 3, 1], [2, 1, 1, 4]).tolist() == [0.5, 0.0, 0.0, 0.5]
    assert winner_shares(5, [4, 1], [1, 2]).tolist() == [0.0, 0.0, 0.0, 0.0, 1.0]


def test_two_players_match_the_closed_form() -> None:
    """With two entries the maximum-likelihood odds are the ratio of wins (with the virtual
    game's half win each): 7 wins, 2 losses and 1 tie."""
    outcomes = [(1, 2)] * 7 + [(2, 1)] * 2 + [(1, 1)]
    games = [(k, [0, 1], list(r)) for k, r in enumerate(outcomes)]
    a, b = rate_games(2, games, replicates=50)
    wins, losses = 7 + 0.5 + VIRTUAL_GAMES / 2, 2 + 0.5 + VIRTUAL_GAMES / 2
    assert a.elo - b.elo == pytest.approx(ELO_PER_NAT * math.log(wins / losses), abs=1e-4)
    assert a.elo == pytest.approx(-b.elo)
    assert a.win_share == pytest.approx(7.5 / 10) and a.games == 10


def _random_tables(seed: int, players: int, count: int) -> list[tuple[int, list[int], list[int]]]:
    """``count`` games of 2 to ``players`` random players, entry 0 a place better."""
    rng = random.Random(seed)
    games = []
    for g in range(count):
        who = rng.sample(range(players), rng.randint(2, players))
        ranks = [rng.randint(1, len(who)) - (p == 0) for p in who]
        games.append((g, who, ranks))
    return games


def test_the_fit_solves_the_likelihood_equations() -> None:
    """Maximum likelihood: each entry's expected wins under the fitted strengths equal its
    observed wins (with the virtual game), here for 5 entries at random tables of 2 to 5."""
    games = _random_tables(4, 5, 60)
    ratings = rate_games(5, games, replicates=10)
    theta = np.array([r.elo for r in ratings]) / ELO_PER_NAT
    expected = np.full(5, VIRTUAL_GAMES) * np.exp(theta) / np.exp(theta).sum()
    observed = np.full(5, VIRTUAL_GAMES / 5)
    for _, who, ranks in games:
        e = np.exp(theta[who])
        expected[who] += e / e.sum()
        observed += winner_shares(5, who, ranks)
    assert np.allclose(expected, observed, atol=1e-6)
    assert abs(sum(r.elo for r in ratings)) < 1e-6
    assert max(ratings, key=lambda r: r.elo) is ratings[0]


def test_the_fit_agrees_with_choix_without_ties() -> None:
    """The twin: without ties, our fit and ``choix``'s maximum-likelihood top-1 fit
    (iterative Luce spectral ranking) give the same strengths. The prior of ``n`` virtual
    games is ``n`` real games, one won by each entry, at the full table."""
    import choix

    rng = random.Random(9)
    games, data = [], []
    for g in range(80):
        who = rng.sample(range(4), rng.randint(2, 4))
        winner = who[0] if rng.random() < 0.5 else rng.choice(who)
        ranks = [1 if p == winner else 2 for p in who]
        games.append((g, who, ranks))
        data.append((winner, [p for p in who if p != winner]))
    data += [(p, [q for q in range(4) if q != p]) for p in range(4)]
    ours = np.array([r.elo for r in rate_games(4, games, replicates=1, virtual_games=4)])
    theirs = np.asarray(choix.ilsr_top1(4, data, tol=1e-12), dtype=float)
    assert np.allclose(ours / ELO_PER_NAT, theirs - theirs.mean(), atol=1e-6)


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(2, 5),
    data=st.data(),
)
def test_ratings_are_ordered_as_the_win_shares(n: int, data: st.DataObject) -> None:
    """Every entry at every table (a tournament): for any result table the ratings follow
    the win shares exactly, equal shares giving equal ratings, whatever the ranks and ties."""
    games = data.draw(
        st.lists(st.lists(st.integers(1, n), min_size=n, max_size=n), min_size=1, max_size=40)
    )
    played = [rotated(k // n, k % n, ranks) for k, ranks in enumerate(games)]
    ratings = rate_games(n, played, replicates=20)
    shares = [0.0] * n
    for _, who, ranks in played:
        for p, w in enumerate(winner_shares(n, who, ranks)):
            shares[p] += w / len(played)
    for r, share in zip(ratings, shares):
        assert r.win_share == pytest.approx(share)
    for a, b in itertools.combinations(ratings, 2):
        if math.isclose(a.win_share, b.win_share, abs_tol=1e-12):
            assert a.elo == pytest.approx(b.elo, abs=1e-6)
        else:
            assert (a.elo > b.elo) == (a.win_share > b.win_share)


def test_the_best_win_share_gets_the_best_rating() -> None:
    """A 100-game run (25 deals of 4 rotations) where entry 0 wins 37% of the games and the
    others 14%, 28% and 21%, the places behind the winner shuffled: entry 0 gets the best
    rating and the others follow their win shares."""
    rng = random.Random(5)
    games = []
    for g in range(100):
        first = 0 if g < 37 else 1 + (g - 37) % 3  # wins: 37, 21, 21, 21
        if g >= 58 + 21:  # the last 21 wins of entries 1..3 go 2, 3, 3 to make them unequal
            first = 2 if g % 3 else 3
        others = [e for e in range(4) if e != first]
        rng.shuffle(others)
        order = [first] + others
        ranks_by_entry = [order.index(e) + 1 for e in range(4)]
        games.append(rotated(g // 4, g % 4, ranks_by_entry))
    ratings = rate_games(4, games, seed=3, replicates=200)
    shares = [r.win_share for r in ratings]
    assert shares[0] == pytest.approx(0.37)
    assert max(range(4), key=lambda e: ratings[e].elo) == 0
    assert sorted(range(4), key=lambda e: ratings[e].elo) == sorted(
        range(4), key=lambda e: shares[e]
    )


def _trap() -> list[tuple[int, list[int], list[int]]]:
    """100 games (25 deals of 4 rotations): entry 0 wins its first 60 games and finishes
    last in the other 40; the others share the remaining places evenly. Entry 0 has the
    best win share (60%) and mean rank (2.2) over the run."""
    games = []
    orders = list(itertools.permutations([0, 1, 2]))
    for g in range(100):
        r0 = 1 if g < 60 else 4
        others = [r for r in (1, 2, 3, 4) if r != r0]
        ranks = [r0] + [others[i] for i in orders[g % 6]]
        games.append(rotated(g // 4, g % 4, ranks))
    return games


def test_order_of_games_does_not_change_the_ratings() -> None:
    """The case an online rating gets wrong: OpenSkill, updated game by game, puts the
    entry with the best results last when its losses come last; the batch fit puts it
    first, and shuffling the games or renumbering the deals changes nothing, intervals
    included."""
    from openskill.models import PlackettLuce

    games = _trap()

    def online(order: list[tuple[int, list[int], list[int]]]) -> list[float]:
        model = PlackettLuce()
        current = [model.rating() for _ in range(4)]
        for _, who, ranks in order:
            new = model.rate([[current[p]] for p in who], ranks=[float(r) for r in ranks])
            for p, team in zip(who, new):
                current[p] = team[0]
        return [float(r.mu) for r in current]

    mu = online(games)
    assert min(range(4), key=mu.__getitem__) == 0  # the trap is real
    assert online(games[::-1]) != mu  # and depends on the order

    ratings = rate_games(4, games, seed=7, replicates=200)
    assert max(range(4), key=lambda e: ratings[e].elo) == 0
    shuffled = games[:]
    random.Random(1).shuffle(shuffled)
    renumber = list(range(25))
    random.Random(2).shuffle(renumber)
    relabelled = [(renumber[d] + 100, who, ranks) for d, who, ranks in shuffled]
    assert rate_games(4, shuffled, seed=7, replicates=200) == ratings
    assert rate_games(4, relabelled, seed=7, replicates=200) == ratings
    assert rate_games(4, games[::-1], seed=7, replicates=200) == ratings


def test_the_bootstrap_resamples_deals_not_games() -> None:
    """Two entries; in every deal each wins one of the two rotations. Per game the results
    vary, per deal they do not: resampling deals gives no spread at all."""
    games = [(d, [0, 1], [1, 2] if r == 0 else [2, 1]) for d in range(20) for r in range(2)]
    a, b = rate_games(2, games)
    assert (a.elo, a.low, a.high) == pytest.approx((0.0, 0.0, 0.0), abs=1e-9)
    assert (b.low, b.high) == pytest.approx((0.0, 0.0), abs=1e-9)
    # the same games on 40 separate deals do vary: the interval opens
    apart = [(k, who, ranks) for k, (_, who, ranks) in enumerate(games)]
    c, _ = rate_games(2, apart)
    assert c.low is not None and c.high is not None
    assert c.low < -50 and c.high > 50


def test_seeded_bootstrap_is_reproducible() -> None:
    games = _trap()
    first = rate_games(4, games, seed=3, replicates=200)
    assert rate_games(4, games, seed=3, replicates=200) == first
    other = rate_games(4, games, seed=4, replicates=200)
    assert [r.elo for r in other] == [r.elo for r in first]
    assert [r.low for r in other] != [r.low for r in first]


def test_one_deal_has_no_interval() -> None:
    games = [rotated(0, r, [1, 2, 3]) for r in range(3)]
    ratings = rate_games(3, games)
    assert all(r.low is None and r.high is None for r in ratings)
    assert ratings[0].elo > ratings[1].elo == ratings[2].elo  # only the winner counts
    assert ratings[0].to_json()["ci95"] is None and ratings[0].format().startswith("+")


def test_all_ties_rate_equally() -> None:
    games = [rotated(d, r, [2, 2, 2]) for d in range(3) for r in range(3)]
    ratings = rate_games(3, games)
    for r in ratings:
        assert r.elo == pytest.approx(0.0, abs=1e-9) and r.win_share == pytest.approx(1 / 3)


def test_an_entry_that_never_loses_gets_a_finite_rating() -> None:
    games = [rotated(d, r, [1, 2, 3]) for d in range(5) for r in range(3)]
    ratings = rate_games(3, games)
    assert all(math.isfinite(r.elo) for r in ratings)
    assert ratings[0].win_share == 1.0 and ratings[0].elo > 300


def test_p_ahead_and_json() -> None:
    assert p_ahead(0.0) == 0.5
    assert p_ahead(100.0) == pytest.approx(0.640, abs=5e-4)
    assert p_ahead(-200.0) == pytest.approx(1 - p_ahead(200.0))
    assert p_win(0.0, 4) == 0.25 and p_win(0.0, 1) == 1.0
    assert p_win(ELO_PER_NAT * math.log(3.0), 4) == pytest.approx(0.5)
    with pytest.raises(ValueError, match="at least 1 player"):
        p_win(0.0, 0)
    r = Rating(100.0, 40.0, 160.0, 0.6, 20)
    assert r.p_win(2) == pytest.approx(r.p_ahead)
    assert r.to_json() == {
        "elo": 100.0,
        "ci95": [40.0, 160.0],
        "p_ahead": p_ahead(100.0),
        "p_ahead_ci95": [p_ahead(40.0), p_ahead(160.0)],
        "win_share": 0.6,
        "games": 20,
    }
    assert r.format() == "+100 [+40, +160]"
    assert Rating(-0.3, -20.4, 19.6, 0.5, 8).format() == "+0 [-20, +20]"


@pytest.mark.parametrize(
    "players, games, message",
    [
        (2, [(0, (0, 1), (1,))], "2 players but 1 ranks"),
        (2, [(0, (0, 0), (1, 2))], "distinct"),
        (2, [(0, (0, 5), (1, 2))], "distinct"),
        (2, [(0, (0,), (1,))], "at least 2"),
        (3, [(0, (0, 1), (1, 2))], r"player\(s\) \[2\] played no game"),
        (1, [(0, (0,), (1,))], "at least 2 players"),
    ],
)
def test_bad_games_are_refused(players, games, message) -> None:
    with pytest.raises(ValueError, match=message):
        rate_games(players, games)


def test_bad_settings_are_refused() -> None:
    games = [(0, [0, 1], [1, 2])]
    with pytest.raises(ValueError, match="replicates"):
        rate_games(2, games, replicates=0)
    with pytest.raises(ValueError, match="virtual_games"):
        rate_games(2, games, virtual_games=0.0)


# ----- real tournaments -------------------------------------------------------------------------
def _tournament(agents: tuple[str, ...], games: int, seed: int):  # type: ignore[no-untyped-def]
    config = TournamentConfig(
        agents=agents, games=games, rules=preset("classic", len(agents)), seed=seed
    )
    return run_tournament(config, workers=1)


def test_a_dominant_entry_is_rated_first_with_an_interval_above_the_others() -> None:
    result = _tournament(("random", "heuristic", "random", "random"), 40, seed=1)
    top = result.entries[1]
    assert top.win_share.mean > 0.8  # it dominates
    assert top.rating is not None and top.rating.low is not None
    for s in result.entries:
        if s is not top:
            assert s.rating is not None and s.rating.high is not None
            assert top.rating.low > s.rating.high
            assert s.rating.elo < 0
    assert top.rating.p_ahead > 0.8


def test_identical_agents_have_overlapping_intervals_around_the_field_mean() -> None:
    result = _tournament(("random",) * 4, 80, seed=0)
    ratings = [s.rating for s in result.entries]
    for r in ratings:
        assert r is not None and r.low is not None and r.high is not None
        assert r.low < 0.0 < r.high
    for a, b in itertools.combinations(ratings, 2):
        assert a.low < b.high and b.low < a.high  # type: ignore[union-attr,operator]
    # not vacuous: the point estimates differ, the intervals are not all zero
    assert len({round(r.elo, 6) for r in ratings}) > 1  # type: ignore[union-attr]


def test_the_coverage_benchmark_runs() -> None:
    """``benchmarks/rating_coverage.py`` (figures in docs/strength.md), at a tiny size."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "benchmarks" / "rating_coverage.py"
    args = [sys.executable, str(script), "--runs", "2", "--deals", "3", "--players", "3"]
    out = subprocess.run([*args, "--json"], capture_output=True, text=True, check=True)
    figures = json.loads(out.stdout)
    assert figures["runs"] == 2 and figures["players"] == 3
    assert 0.0 <= figures["entry_coverage"] <= 1.0 and figures["mean_width_elo"] > 0
    assert figures["sd_of_ratings"] > 0


def test_the_bootstrap_is_seeded_through_the_one_seed_scheme(monkeypatch: pytest.MonkeyPatch) -> None:
    """The resamples come from NumPy's generator seeded with ``derive_seed(seed,
    BOOTSTRAP)`` (``engine.seeds``), never with the seed itself."""
    seeds: list[object] = []
    real = np.random.default_rng

    def recording(seed: object = None) -> np.random.Generator:
        seeds.append(seed)
        return real(seed)

    monkeypatch.setattr(np.random, "default_rng", recording)
    ratings = rate_games(4, _trap(), seed=3, replicates=50)
    assert seeds == [derive_seed(3, BOOTSTRAP)]
    assert all(r.low is not None and r.high is not None for r in ratings)
    assert BOOTSTRAP in STREAMS.values()


def test_a_tournament_bootstraps_from_its_own_seed() -> None:
    """A tournament's ratings are ``rate_games`` of its games with the run's seed (so the
    resamples come from ``derive_seed(seed, BOOTSTRAP)``), and its report says that seed."""
    result = _tournament(("random", "greedy", "random"), 12, seed=5)
    games = [(g.deal, g.entries, g.ranks) for g in result.games]
    expected = rate_games(3, games, seed=5)
    assert [s.rating for s in result.entries] == expected
    assert result.to_json()["rating_method"]["seed"] == 5
