"""Simulation runs: seeding, determinism across worker counts, records, the batch fast path."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from coloretto.agents import Budget
from coloretto.arena import simulate as sim
from coloretto.arena.simulate import (
    ENGINE_PATH,
    FAST_PATH,
    agent_seed,
    choose_path,
    game_seed,
    play_game,
    simulate,
)
from coloretto.arena.stats import summarize_seats
from coloretto.engine import ConfigurationError, Rules, hash_seed, replay

SPECS = ["greedy", "random", "random", "random"]
RULES = Rules(players=4)


@pytest.fixture(autouse=True)
def no_fast_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests exercise the engine path unless they install a fake batch module."""
    monkeypatch.setattr(sim, "fast_batch_module", lambda: None)


def test_seeds_are_derived_deterministically() -> None:
    assert game_seed(7, 3) == hash_seed(7, 3) == game_seed(7, 3)
    assert len({game_seed(7, i) for i in range(50)}) == 50
    g = game_seed(7, 0)
    assert agent_seed(g, 1) == agent_seed(g, 1)
    assert len({agent_seed(g, s) for s in range(5)}) == 5
    assert agent_seed(g, 0) != agent_seed(game_seed(7, 1), 0)


def test_same_seed_same_results_and_games_rerun_alone() -> None:
    first = simulate(RULES, SPECS, 6, seed=11)
    second = simulate(RULES, SPECS, 6, seed=11)
    assert first.path == ENGINE_PATH
    assert first.scores == second.scores
    assert len(first.scores) == 6 and all(len(s) == 4 for s in first.scores)
    assert play_game(RULES, SPECS, 11, 4) == first.scores[4]
    assert simulate(RULES, SPECS, 6, seed=12).scores != first.scores


def test_one_and_two_workers_give_identical_results() -> None:
    done: list[int] = []
    one = simulate(RULES, SPECS, 9, seed=5, workers=1)
    two = simulate(RULES, SPECS, 9, seed=5, workers=2, progress=done.append)
    assert one.scores == two.scores
    assert done and done[-1] == 9 and done == sorted(done)


def test_progress_counts_every_game() -> None:
    done: list[int] = []
    simulate(RULES, ["random"] * 4, 3, seed=1, progress=done.append)
    assert done == [1, 2, 3]


def test_saved_records_replay_to_the_reported_scores(tmp_path: Path) -> None:
    out = tmp_path / "records"
    result = simulate(RULES, SPECS, 3, seed=2, save_dir=out)
    files = sorted(out.iterdir())
    assert [f.name for f in files] == ["game-000001.json", "game-000002.json", "game-000003.json"]
    for f, scores in zip(files, result.scores):
        record = json.loads(f.read_text())
        # each seat named by its spec and its seat counted from 1, as in the terminal
        assert record["seats"] == [f"{spec}-{seat + 1}" for seat, spec in enumerate(SPECS)]
        rep = replay(record)
        assert rep.valid and rep.finished
        assert record["result"]["scores"] == scores


def test_preset_and_other_player_counts() -> None:
    rules3 = Rules(players=3)
    r = simulate(rules3, ["random", "greedy", "random"], 2, seed=4, preset_name="bga")
    assert all(len(s) == 3 for s in r.scores)


def test_bad_arguments_raise() -> None:
    with pytest.raises(ValueError, match="positive"):
        simulate(RULES, SPECS, 0, seed=1)
    with pytest.raises(ValueError, match="workers"):
        simulate(RULES, SPECS, 1, seed=1, workers=0)
    with pytest.raises(ValueError, match="3 agents for 4 players"):
        simulate(RULES, SPECS[:3], 1, seed=1)


class FakeBatch(types.ModuleType):
    """Stands in for ``coloretto.fastcore.batch`` (written by another part of the project)."""

    def __init__(self, supported: bool) -> None:
        super().__init__("coloretto.fastcore.batch")
        self.supported = supported
        self.calls: list[tuple[Any, ...]] = []

    def supports(self, agent_specs: list[str]) -> bool:
        return self.supported

    def simulate_batch(
        self, rules: Rules, agent_specs: list[str], games: int, seed: int, workers: int
    ) -> list[list[int]]:
        self.calls.append((rules, agent_specs, games, seed, workers))
        return [[i, 1, 2, 3] for i in range(games)]


def test_batch_fast_path_used_when_supported(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    fake = FakeBatch(supported=True)
    monkeypatch.setattr(sim, "fast_batch_module", lambda: fake)
    r = simulate(RULES, ["random"] * 4, 5, seed=9, workers=2)
    assert r.path == FAST_PATH
    assert r.scores == [[i, 1, 2, 3] for i in range(5)]
    assert fake.calls == [(RULES, ["random"] * 4, 5, 9, 2)]
    forced = simulate(RULES, ["random"] * 4, 2, seed=9, engine_only=True)
    assert forced.path == ENGINE_PATH and forced.note == "engine path forced"
    saved = simulate(RULES, ["random"] * 4, 1, seed=9, save_dir=tmp_path)
    assert saved.path == ENGINE_PATH
    assert len(fake.calls) == 1


def test_batch_fast_path_skipped_when_unsupported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sim, "fast_batch_module", lambda: FakeBatch(supported=False))
    path, note = choose_path(RULES, SPECS)
    assert path == ENGINE_PATH and "does not support" in note
    monkeypatch.setattr(sim, "fast_batch_module", lambda: None)
    assert choose_path(RULES, SPECS) == (ENGINE_PATH, "fast core not installed")


MINI = Path(__file__).resolve().parents[1] / "agents" / "engines" / "mini_engine.py"


def engine_spec(mode: str) -> str:
    return f"cmd:{sys.executable} {MINI} {mode}"


def test_failing_engine_forfeits_its_games_and_the_run_goes_on(tmp_path: Path) -> None:
    specs = [engine_spec("crash"), "greedy", "random"]
    rules = Rules(players=3)
    out = tmp_path / "records"
    res = simulate(rules, specs, 3, seed=1, budget=Budget(seconds=0.05), save_dir=out)
    assert res.on_engine_failure == "forfeit"
    assert res.forfeits == [0, 0, 0] and len(res.scores) == 3
    assert [(f["game"], f["seat"], f["kind"], f["handling"]) for f in res.failures] == [
        (g, 0, "exited", "forfeit") for g in range(3)
    ]
    seats = summarize_seats(specs, res.scores, res.forfeits)
    assert seats[0].win_share.mean == 0.0 and seats[0].rank.mean == 3.0
    assert seats[1].win_share.mean + seats[2].win_share.mean == pytest.approx(1.0)
    for f, scores in zip(sorted(out.iterdir()), res.scores):  # records up to the forfeit
        rep = replay(json.loads(f.read_text()))
        assert rep.valid and not rep.finished and rep.game is not None
        assert rep.game.state.totals() == scores
    two = simulate(rules, specs, 3, seed=1, budget=Budget(seconds=0.05), workers=2)
    assert two.scores == res.scores and two.forfeits == res.forfeits
    assert [f["game"] for f in two.failures] == [0, 1, 2]


def test_fallback_agent_finishes_the_games() -> None:
    specs = [engine_spec("farrow"), "greedy"]
    res = simulate(
        Rules(players=2), specs, 2, seed=3, budget=Budget(seconds=0.5),
        on_engine_failure="fallback:random",
    )
    assert res.forfeits == [None, None]
    assert [(f["kind"], f["handling"]) for f in res.failures] == [("illegal", "fallback:random")] * 2
    # the fallback agent is seeded per game and seat: the same run gives the same games
    again = simulate(
        Rules(players=2), specs, 2, seed=3, budget=Budget(seconds=0.5),
        on_engine_failure="fallback:random",
    )
    assert again.scores == res.scores


def test_bad_failure_policy_raises() -> None:
    with pytest.raises(ConfigurationError, match="forfeit"):
        simulate(RULES, SPECS, 1, seed=1, on_engine_failure="shrug")
