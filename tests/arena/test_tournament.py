"""Tournaments: duplicate deals rotate seats; same seed, same results for 1 and 2 workers and
for Ray; aggregation; engine failures forfeited or finished by a fallback player."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

from coloretto.agents import Agent, Budget, make_agent
from coloretto.arena.driver import play_out, start_game
from coloretto.arena.failures import arena_policy
from coloretto.arena.tournament import (
    SeatPlayer,
    TournamentConfig,
    derive_seed,
    entry_seat,
    percentile,
    plan,
    play_game,
    rounded_games,
    run_tournament,
    seat_entry,
)
from coloretto.engine.errors import ConfigurationError
from coloretto.engine.rules import preset
from coloretto.engine.seeds import GAME
from coloretto.engine.state import GameState

pytestmark = pytest.mark.timeout(120)

MINI = Path(__file__).resolve().parents[1] / "agents" / "engines" / "mini_engine.py"


def config(agents: tuple[str, ...], games: int, seed: int = 5, **kw) -> TournamentConfig:
    return TournamentConfig(
        agents=agents,
        games=games,
        rules=preset("classic", len(agents)),
        seed=seed,
        preset="classic",
        **kw,
    )


def test_duplicate_deals_rotate_seats() -> None:
    cfg = config(("greedy", "random", "random"), 9, keep_records=True)
    tasks = plan(cfg)
    assert [t.index for t in tasks] == list(range(9))
    n = 3
    for d in range(3):
        deal = [t for t in tasks if t.deal == d]
        assert [t.rotation for t in deal] == [0, 1, 2]
        assert len({t.deal_seed for t in deal}) == 1
        # each entry sits in each seat exactly once per deal
        for e in range(n):
            assert sorted(t.entries.index(e) for t in deal) == list(range(n))
            for t in deal:
                assert t.entries[entry_seat(e, t.rotation, n)] == e
        # the agents really sit where the rotation says, on the same deal
        results = [play_game(t) for t in deal]
        setups = [r.record["setup"] for r in results]  # type: ignore[index]
        assert setups[0] == setups[1] == setups[2]
        for r in results:
            assert r.record["seats"] == [f"{cfg.agents[e]}#{e + 1}" for e in r.entries]  # type: ignore[index]
            assert r.entries == [seat_entry(s, r.rotation, n) for s in range(n)]
    assert len({t.deal_seed for t in tasks}) == 3
    # agents are seeded per game and seat
    assert len({s for t in tasks for s in t.agent_seeds}) == 27


def test_seat_entry_inverts_entry_seat() -> None:
    for n in range(2, 6):
        for r in range(n):
            assert sorted(entry_seat(e, r, n) for e in range(n)) == list(range(n))
            for e in range(n):
                assert seat_entry(entry_seat(e, r, n), r, n) == e


def test_seeds_are_stable_and_distinct() -> None:
    assert derive_seed(1, GAME, 0) == derive_seed(1, GAME, 0)
    seeds = {derive_seed(1, GAME, d) for d in range(100)} | {
        derive_seed(2, GAME, d) for d in range(100)
    }
    assert len(seeds) == 200
    assert all(0 <= s < 2**63 for s in seeds)


def test_rounding_to_whole_deals() -> None:
    assert rounded_games(400, 4) == 400
    assert rounded_games(401, 4) == 404
    assert rounded_games(1, 5) == 5


def test_config_validation() -> None:
    with pytest.raises(ConfigurationError, match="one agent per seat"):
        TournamentConfig(agents=("random", "random"), games=3, rules=preset("classic", 3))
    with pytest.raises(ConfigurationError, match="multiple of 2"):
        config(("random", "greedy"), 3)
    with pytest.raises(ConfigurationError, match="forfeit"):
        config(("random", "greedy"), 2, on_engine_failure="ignore")
    with pytest.raises(ConfigurationError, match="built-in"):
        config(("random", "greedy"), 2, on_engine_failure="fallback:cmd:x")


@pytest.mark.timeout(180)
def test_same_seed_same_results_for_1_and_2_workers() -> None:
    cfg = config(("greedy", "random", "random"), 6, seed=42)
    one = run_tournament(cfg, workers=1)
    two = run_tournament(cfg, workers=2)
    assert one.to_json(timings=False) == two.to_json(timings=False)
    other = run_tournament(config(("greedy", "random", "random"), 6, seed=43), workers=1)
    assert [g.scores for g in other.games] != [g.scores for g in one.games]


@pytest.mark.timeout(300)
def test_ray_backend_gives_the_same_results() -> None:
    cfg = config(("greedy", "random"), 2, seed=7)
    local = run_tournament(cfg, workers=1)
    ray_run = run_tournament(cfg, workers=2, backend="ray")
    assert ray_run.backend == "ray"
    assert ray_run.to_json(timings=False) == local.to_json(timings=False)


def test_aggregation_is_consistent() -> None:
    cfg = config(("greedy", "random", "random", "random"), 12, seed=3)
    res = run_tournament(cfg, workers=1)
    assert len(res.games) == 12 and [g.index for g in res.games] == list(range(12))
    for g in res.games:
        assert math.isclose(sum(g.win_shares), 1.0)
    # win shares over entries sum to 1 (every game has one win to share); margins to 0
    assert math.isclose(sum(s.win_share.mean for s in res.entries), 1.0)
    assert abs(sum(s.margin.mean for s in res.entries)) < 1e-9
    assert all(s.win_share.n == 3 for s in res.entries)  # one sample per deal
    # entry 0's win share is its mean over all 12 games (each deal has 4 of its games)
    e0 = [g.win_shares[g.entries.index(0)] for g in res.games]
    assert math.isclose(res.entries[0].win_share.mean, sum(e0) / 12)
    # the aggregate of the three random entries averages them
    agg = {s.agent: s for s in res.agents}
    assert agg["random"].entries == (1, 2, 3)
    assert math.isclose(
        agg["random"].win_share.mean, sum(s.win_share.mean for s in res.entries[1:]) / 3
    )
    assert agg["random"].rating is None and res.entries[0].rating is not None
    # timings: one per asked decision
    assert res.entries[0].decisions == sum(
        len(g.decision_seconds[g.entries.index(0)]) for g in res.games
    )
    assert res.entries[0].decision_p95 is not None and res.entries[0].decision_p95 >= 0


def test_percentile_matches_numpy() -> None:
    rng = np.random.default_rng(0)
    xs = list(rng.random(37))
    for q in (0, 50, 95, 100):
        assert math.isclose(percentile(xs, q), float(np.percentile(xs, q)))


def engine_spec(mode: str) -> str:
    return f"cmd:{sys.executable} {MINI} {mode}"


def test_engine_failure_forfeits_the_game() -> None:
    cfg = config(
        (engine_spec("crash"), "greedy", "random"),
        3,
        seed=1,
        budget=Budget(seconds=0.05),
        engine_grace_ms=100,
    )
    res = run_tournament(cfg, workers=1)
    assert len(res.failures) == 3
    for g in res.games:
        seat = g.entries.index(0)
        assert g.forfeit == seat
        assert g.win_shares[seat] == 0.0 and g.ranks[seat] == 3
        assert math.isclose(sum(g.win_shares), 1.0)
        (f,) = g.failures
        assert (f["seat"], f["entry"], f["kind"], f["handling"]) == (seat, 0, "exited", "forfeit")
    assert res.entries[0].forfeits == 3 and res.entries[0].failures == 3
    assert res.entries[0].win_share.mean == 0.0


def test_engine_failure_with_fallback_finishes_the_game() -> None:
    cfg = config(
        (engine_spec("silent"), "greedy"),
        2,
        seed=1,
        budget=Budget(seconds=0.05),
        engine_grace_ms=50,
        on_engine_failure="fallback:random",
    )
    res = run_tournament(cfg, workers=1)
    assert [f["kind"] for f in res.failures] == ["timeout", "timeout"]
    for g in res.games:
        assert g.forfeit is None
        assert len(g.decision_seconds[g.entries.index(0)]) > 1  # the fallback kept playing
    assert res.entries[0].forfeits == 0 and res.entries[0].failures == 2


def test_external_engine_plays_a_tournament() -> None:
    cfg = config((engine_spec("ok"), "random"), 4, seed=2, budget=Budget(seconds=1.0))
    res = run_tournament(cfg, workers=2)
    assert res.failures == [] and len(res.games) == 4
    assert res.entries[0].decisions > 0


class _Peeker(Agent):
    """A measurement agent like ``oracle``: needs the true state before each decision."""

    name = "peeker"
    needs_true_state = True

    def __init__(self) -> None:
        super().__init__(seed=0)
        self.peeked: list[GameState] = []
        self.acted = 0

    def peek(self, state: GameState) -> None:
        self.peeked.append(state)

    def act(self, observation, legal):  # type: ignore[no-untyped-def]
        self.acted += 1
        assert self.peeked[-1].to_move == observation.seat
        return legal[0]


def test_seat_player_forwards_the_true_state_and_times_decisions() -> None:
    peeker = _Peeker()
    seat_player = SeatPlayer(peeker, arena_policy("forfeit"), lambda exc, seat: None)
    rules = preset("classic", 2)
    game = start_game(rules, 4, ["a", "b"])
    play_out(game, [seat_player, make_agent("random", 1)])
    assert peeker.acted > 0 and len(peeker.peeked) == peeker.acted
    assert len(seat_player.seconds) == peeker.acted
    # the peeked state is the real one: its draw pile order is the deal's, not a redaction
    # (the top of the pile is its end: what is left is a prefix of the deal's pile)
    initial = start_game(rules, 4, ["a", "b"]).state.pile
    assert initial != sorted(initial)  # a redacted pile would be sorted (but the Last Round card)
    for state in peeker.peeked:
        assert state.pile == initial[: len(state.pile)]


def test_plot_bars_stay_within_0_and_1() -> None:
    """The plot's error bars end where the clipped intervals end (asymmetric bars)."""
    from coloretto.arena.report import win_share_bars

    config = TournamentConfig(
        agents=("greedy", "random", "random"), games=6, rules=preset("classic", 3)
    )
    result = run_tournament(config, workers=1)
    labels, means, below, above = win_share_bars(result)
    assert labels == ["random (all 2)", "#3 random", "#2 random", "#1 greedy"]
    for m, lo, hi in zip(means, below, above, strict=True):
        assert lo >= 0 and hi >= 0
        assert 0.0 <= m - lo and m + hi <= 1.0 + 1e-12
    clipped = [s for s in result.entries + result.agents if s.win_share.clipped]
    assert clipped, "seed 0 has an interval that needs clipping"


def test_plot_rating_bars_are_the_entries_ratings() -> None:
    """The plot's rating panel: one bar per entry (aggregates are not rated), each at the
    entry's rating with error bars to its interval's ends."""
    from coloretto.arena.report import rating_bars

    config = TournamentConfig(
        agents=("greedy", "random", "random"), games=6, rules=preset("classic", 3)
    )
    result = run_tournament(config, workers=1)
    labels, elos, below, above = rating_bars(result)
    assert labels == ["#3 random", "#2 random", "#1 greedy"]
    for s, elo, lo, hi in zip(reversed(result.entries), elos, below, above, strict=True):
        assert s.rating is not None and s.rating.low is not None and s.rating.high is not None
        assert elo == s.rating.elo
        assert elo - lo == pytest.approx(s.rating.low) and elo + hi == pytest.approx(s.rating.high)
    assert sum(elos) == pytest.approx(0.0, abs=1e-6)
