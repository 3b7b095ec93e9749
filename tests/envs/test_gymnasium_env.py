"""The Gymnasium environment: Gymnasium's checker, one learner seat against built-in
agents, masks, rewards and bad input."""

from __future__ import annotations

import doctest

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env

import coloretto.envs.gymnasium as gym_module
from coloretto.engine import ConfigurationError, observe
from coloretto.engine.actions import DRAW
from coloretto.envs.common import final_rewards
from coloretto.envs.encoding import encode, legal_mask
from coloretto.envs.gymnasium import ENV_ID, ColorettoEnv


@pytest.mark.parametrize(
    ("players", "opponents", "edition"),
    [
        (2, "heuristic", "classic"),
        (3, "random,greedy", "modern"),
        (4, "heuristic", "classic"),
        (5, "greedy", "modern"),
    ],
)
def test_gymnasium_check_env(players: int, opponents: str, edition: str) -> None:
    env = gymnasium.make(
        ENV_ID, players=players, opponents=opponents, seat="random", edition=edition
    )
    check_env(env.unwrapped)
    env.close()


def _episode(env: ColorettoEnv, seed: int, pick: int = 0) -> tuple[list[int], float, dict]:
    obs, info = env.reset(seed=seed)
    codes = []
    total = 0.0
    done = False
    while not done:
        mask = env.action_masks()
        assert np.array_equal(mask, info["action_mask"]) and mask.any()
        assert np.array_equal(obs, encode(observe(env.state, env.seat)))
        assert env.state.to_move == env.seat
        code = int(np.flatnonzero(mask)[pick])
        codes.append(code)
        obs, reward, done, truncated, info = env.step(code)
        assert not truncated
        total += reward
        if not done:
            assert reward == 0.0
    return codes, total, info


@pytest.mark.parametrize("reward", ["margin", "win"])
def test_a_whole_episode_pays_the_final_reward_of_the_learner(reward: str) -> None:
    env = ColorettoEnv(players=4, opponents="greedy", reward=reward)
    codes, total, info = _episode(env, seed=8, pick=-1)
    assert env.state.is_over() and len(codes) > 10
    assert total == final_rewards(env.state, reward)[env.seat]
    assert not info["action_mask"].any() and "illegal_action" not in info
    with pytest.raises(RuntimeError, match="reset"):
        env.step(DRAW)


def test_seeds_repeat_episodes_and_the_random_seat_varies() -> None:
    a = ColorettoEnv(players=3, opponents="heuristic")
    b = ColorettoEnv(players=3, opponents="heuristic")
    assert _episode(a, 5)[0] == _episode(b, 5)[0]
    seats = set()
    for k in range(12):
        a.reset(seed=100 + k)
        seats.add(a.seat)
    assert seats == {0, 1, 2}
    fixed = ColorettoEnv(players=3, opponents="random", seat=2)
    for k in range(3):
        fixed.reset(seed=k)
        assert fixed.seat == 2


def test_opponents_are_the_agents_named_in_turn_order_after_the_learner() -> None:
    env = ColorettoEnv(players=4, opponents="random, greedy ,heuristic", seat=1)
    env.reset(seed=1)
    assert {s: a.name for s, a in env.agents.items()} == {2: "random", 3: "greedy", 0: "heuristic"}
    env.close()
    assert env.agents == {}


def test_an_illegal_action_ends_the_episode_and_changes_nothing() -> None:
    env = ColorettoEnv(players=4, opponents="random", seat=0, illegal_reward=-5)
    env.reset(seed=2)
    before = env.state.to_dict()
    illegal = int(np.flatnonzero(~legal_mask(observe(env.state, 0)))[0])
    _, reward, done, truncated, info = env.step(illegal)
    assert (reward, done, truncated, info["illegal_action"]) == (-5.0, True, False, True)
    assert env.state.to_dict() == before


def test_bad_options_are_refused() -> None:
    with pytest.raises(ConfigurationError, match="opponents"):
        ColorettoEnv(players=4, opponents="random,greedy")
    with pytest.raises(ConfigurationError, match="unknown agent"):
        ColorettoEnv(players=3, opponents="nobody")
    with pytest.raises(ConfigurationError, match="seat"):
        ColorettoEnv(players=3, seat=3)
    with pytest.raises(ConfigurationError, match="reward"):
        ColorettoEnv(reward="score")
    with pytest.raises(ConfigurationError, match="unknown rule option"):
        ColorettoEnv(colour="blue")
    with pytest.raises(ConfigurationError, match="render_mode"):
        ColorettoEnv(render_mode="rgb_array")
    with pytest.raises(RuntimeError, match="reset"):
        ColorettoEnv().action_masks()


def test_rules_options_and_budget_reach_the_game() -> None:
    env = gymnasium.make(
        ENV_ID,
        players=3,
        opponents="mcts",
        budget="20",
        edition="modern",
        table="violet",
        extra_card="triple_minus",
    )
    env.reset(seed=4)
    inner = env.unwrapped
    assert inner.rules.table == "violet" and inner.rules.extra_card == "triple_minus"
    assert all(a.budget.iterations == 20 for a in inner.agents.values())


def test_render_modes(capsys: pytest.CaptureFixture[str]) -> None:
    env = ColorettoEnv(players=3, opponents="random", seat=0, render_mode="ansi")
    env.reset(seed=3)
    assert "learner (you)" in env.render()
    human = ColorettoEnv(players=3, opponents="random", seat=0, render_mode="human")
    human.reset(seed=3)
    assert "learner (you)" in capsys.readouterr().out
    assert ColorettoEnv().render() is None


def test_docstring_examples() -> None:
    result = doctest.testmod(gym_module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0 and result.attempted >= 4
