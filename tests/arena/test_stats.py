"""Statistics of simulations: means, 95% intervals, win shares with ties, ranks."""

from __future__ import annotations

import math

import pytest

from coloretto.arena.stats import Z95, mean_ci, ranks, summarize_agents, summarize_seats, win_shares
from coloretto.engine import Rules, new_game


def test_mean_ci_hand_computed() -> None:
    est = mean_ci([1, 2, 3, 4])
    # mean 2.5; sample variance (2.25 + 0.25 + 0.25 + 2.25) / 3 = 5/3
    assert est.mean == 2.5
    assert est.sd == pytest.approx(math.sqrt(5 / 3))
    assert est.half_width == pytest.approx(1.959964 * math.sqrt(5 / 3) / 2, rel=1e-6)
    assert est.low == pytest.approx(2.5 - 1.265151, abs=1e-5)
    assert est.high == pytest.approx(2.5 + 1.265151, abs=1e-5)
    assert est.n == 4
    assert est.to_json()["ci95"] == [est.low, est.high]


def test_mean_ci_constant_and_single_values() -> None:
    assert mean_ci([0.25, 0.25, 0.25]).half_width == 0.0
    single = mean_ci([7])
    assert single.mean == 7 and single.half_width is None and single.low is None
    assert single.to_json()["ci95"] is None
    assert single.format() == "7.000"
    with pytest.raises(ValueError):
        mean_ci([])


def test_win_shares_split_ties() -> None:
    assert win_shares([10, 12, 12, 3]) == [0.0, 0.5, 0.5, 0.0]
    assert win_shares([5, 5, 5, 5]) == [0.25] * 4
    assert win_shares([9, 1, 2]) == [1.0, 0.0, 0.0]
    assert sum(win_shares([4, 4, 4, 1, 0])) == pytest.approx(1.0)


def test_ranks_competition_like_engine() -> None:
    assert ranks([10, 12, 12, 3]) == [3, 1, 1, 4]
    assert ranks([5, 5, 5, 5]) == [1, 1, 1, 1]
    state = new_game(Rules(players=4), seed=3)
    while not state.is_over():
        state.apply_code(state.legal_codes()[-1])
    assert ranks(state.totals()) == state.ranks()


GAMES = [[10, 12, 12, 3], [20, 5, 5, 5]]


def test_summarize_seats_hand_computed() -> None:
    seats = summarize_seats(["a", "b", "b", "c"], GAMES)
    s0, s1, _s2, s3 = seats
    # seat 0: shares 0, 1 -> mean 0.5, sd sqrt(0.5), half-width 1.96 * sqrt(0.5) / sqrt(2)
    assert s0.win_share.mean == 0.5
    assert s0.win_share.half_width == pytest.approx(Z95 * math.sqrt(0.5) / math.sqrt(2))
    # seat 1: a 2-way tie (0.5) then a loss
    assert s1.win_share.mean == 0.25
    assert s1.win_share.half_width == pytest.approx(Z95 * math.sqrt(0.125) / math.sqrt(2))
    assert s0.score.mean == 15 and s0.score.sd == pytest.approx(math.sqrt(50))
    assert s0.rank.mean == 2  # ranks 3 then 1
    assert s1.rank.mean == 1.5  # ranks 1 then 2 (three-way tie for second shares rank 2)
    assert s3.rank.mean == 3  # ranks 4 then 2
    assert s3.win_share.mean == 0.0 and s3.win_share.half_width == 0.0
    assert [s.seats for s in seats] == [(0,), (1,), (2,), (3,)]
    assert sum(s.win_share.mean for s in seats) == pytest.approx(1.0)


def test_summarize_agents_averages_seats_within_games() -> None:
    by_agent = {s.agent: s for s in summarize_agents(["a", "b", "b", "c"], GAMES)}
    b = by_agent["b"]
    assert b.seats == (1, 2)
    # per game means: shares (0.5 + 0.5) / 2 = 0.5, then 0; so one sample per game
    assert b.win_share.n == 2
    assert b.win_share.mean == 0.25
    assert b.win_share.half_width == pytest.approx(Z95 * math.sqrt(0.125) / math.sqrt(2))
    assert b.score.mean == pytest.approx((12 + 5) / 2)
    assert b.rank.mean == 1.5
    assert by_agent["a"].win_share == summarize_seats(["a", "b", "b", "c"], GAMES)[0].win_share
    assert list(by_agent) == ["a", "b", "c"]


def test_summaries_reject_bad_input() -> None:
    with pytest.raises(ValueError):
        summarize_seats(["a", "b"], [])
    with pytest.raises(ValueError, match="game 1"):
        summarize_agents(["a", "b"], [[1, 2], [1, 2, 3]])


def test_game_outcome_with_a_forfeit() -> None:
    from coloretto.arena.stats import game_outcome

    assert game_outcome([10, 12, 12, 3]) == (win_shares([10, 12, 12, 3]), ranks([10, 12, 12, 3]))
    # seat 1 forfeits: it is last with share 0; the others are ranked among themselves
    assert game_outcome([10, 30, 12, 12], forfeit=1) == ([0.0, 0.0, 0.5, 0.5], [3, 4, 1, 1])
    seats = summarize_seats(["a", "b"], [[5, 9], [5, 9]], forfeits=[1, None])
    assert seats[1].win_share.mean == 0.5 and seats[1].rank.mean == 1.5
    with pytest.raises(ValueError, match="forfeit entries"):
        summarize_seats(["a", "b"], [[5, 9]], forfeits=[None, None])


def test_win_share_intervals_are_clipped_to_0_and_1() -> None:
    est = mean_ci([0.0, 0.0, 0.0, 1.0], (0.0, 1.0))
    # mean 0.25, sd 0.5, half-width 1.96 * 0.5 / 2 = 0.49: unclipped [-0.24, 0.74]
    assert est.half_width == pytest.approx(Z95 * 0.25)
    assert est.low == 0.0 and est.high == pytest.approx(0.25 + Z95 * 0.25)
    assert est.clipped
    assert est.to_json()["ci95"] == [0.0, est.high]
    assert est.format() == f"0.250 [0.000, {est.high:.3f}]"
    high = mean_ci([1.0, 1.0, 1.0, 0.0], (0.0, 1.0))
    assert high.high == 1.0 and high.low == pytest.approx(0.75 - Z95 * 0.25)
    inside = mean_ci([0.4, 0.6], (0.0, 1.0))
    assert not inside.clipped and inside.format() == mean_ci([0.4, 0.6]).format()
    assert mean_ci([0.0, 0.0, 1.0]).low is not None and mean_ci([0.0, 0.0, 1.0]).low < 0  # type: ignore[operator]


def test_summaries_clip_win_shares_and_ranks() -> None:
    games = [[30, 10], [10, 30], [30, 10], [30, 10]]
    for s in summarize_seats(["a", "b"], games) + summarize_agents(["a", "b"], games):
        assert s.win_share.low is not None and s.win_share.high is not None
        assert 0.0 <= s.win_share.low <= s.win_share.mean <= s.win_share.high <= 1.0
        assert s.rank.low is not None and s.rank.high is not None
        assert 1.0 <= s.rank.low <= s.rank.high <= 2.0
    b = summarize_seats(["a", "b"], games)[1]
    assert b.win_share.mean - (b.win_share.half_width or 0.0) < 0  # clipping was needed
