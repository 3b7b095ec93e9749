"""The PettingZoo AEC environment: PettingZoo's own conformance tests, the two-step
draw-and-place, the rewards, and the rules options as keyword arguments."""

from __future__ import annotations

import doctest
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

import coloretto.envs.pettingzoo as pz_module
from coloretto.engine import ConfigurationError, IllegalActionError, new_game, observe
from coloretto.engine.actions import DRAW, PLACE0, TAKE0
from coloretto.envs.common import final_rewards
from coloretto.envs.encoding import encode, legal_mask
from coloretto.envs.pettingzoo import env, raw_env

CASES = [(n, ed) for n in (2, 3, 4, 5) for ed in ("classic", "modern")]


@pytest.mark.parametrize(("players", "edition"), CASES)
def test_pettingzoo_api_and_seed_tests(players: int, edition: str) -> None:
    with warnings.catch_warnings():
        # Dict observations with an action mask: PettingZoo's own classic games get the
        # same two notes ("not a NumPy array", "probably should be Box").
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(players=players, edition=edition), num_cycles=1000)
        seed_test(lambda: env(players=players, edition=edition), num_cycles=500)


def test_the_raw_env_passes_too_with_every_rules_option() -> None:
    options = {
        "edition": "modern",
        "table": "violet",
        "starting_cards": "choose",
        "next_round_starter": "left_of_last_taker",
        "joker_any_color": False,
        "match_games": 2,
        "extra_card": "first_out_draws",
        "row_capacities": [3, 3, 2, 4],
    }
    e = raw_env(players=4, reward="win", **options)
    assert e.rules.to_dict() == {"players": 4, **options}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(e, num_cycles=1000)


def test_bad_options_are_refused() -> None:
    with pytest.raises(ConfigurationError, match="players"):
        env(players=6)
    with pytest.raises(ConfigurationError, match="unknown rule option"):
        env(colour="blue")
    with pytest.raises(ConfigurationError, match="reward"):
        env(reward="points")
    with pytest.raises(ConfigurationError, match="render_mode"):
        env(render_mode="rgb_array")
    e = raw_env(players=3)
    with pytest.raises(RuntimeError, match="reset"):
        e.step(0)
    with pytest.raises(ConfigurationError, match="seed"):
        e.reset(seed=-1)


def _play(e: raw_env, seed: int) -> list[tuple[str, int]]:
    """A whole game with the lowest legal code; the (agent, code) decisions."""
    e.reset(seed=seed)
    moves = []
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        code = int(np.flatnonzero(obs["action_mask"])[0])
        moves.append((agent, code))
        e.step(code)
    return moves


def test_draw_then_place_is_two_steps_of_the_same_agent_and_matches_the_engine() -> None:
    e = raw_env(players=3)
    moves = _play(e, 5)
    st = new_game(e.rules, e._seeds.next(5))
    draws = 0
    for i, (agent, code) in enumerate(moves):
        assert agent == f"player_{st.to_move}"
        obs = observe(st, st.to_move)
        assert legal_mask(obs)[code]
        if code == DRAW:
            draws += 1
            assert moves[i + 1][0] == agent and PLACE0 <= moves[i + 1][1] < TAKE0
        st.apply(code)
    assert st.is_over() and draws > 30


def test_observations_are_the_encoding_of_each_seat() -> None:
    e = raw_env(players=4)
    e.reset(seed=9)
    e.step(DRAW)
    for s, agent in enumerate(e.possible_agents):
        obs = e.observe(agent)
        assert np.array_equal(obs["observation"], encode(observe(e.state, s)))
        assert obs["action_mask"].dtype == np.int8
        assert obs["action_mask"].astype(bool).tolist() == legal_mask(observe(e.state, s)).tolist()
        assert obs["action_mask"].any() == (s == e.state.to_move)


@pytest.mark.parametrize("reward", ["margin", "win"])
def test_rewards_come_once_at_the_end(reward: str) -> None:
    e = raw_env(players=3, reward=reward)
    e.reset(seed=2)
    paid = dict.fromkeys(e.possible_agents, 0.0)
    steps = 0
    for agent in e.agent_iter():
        obs, rew, term, trunc, _ = e.last()
        paid[agent] += rew
        if term or trunc:
            e.step(None)
            continue
        assert rew == 0.0
        e.step(int(np.flatnonzero(obs["action_mask"])[-1]))
        steps += 1
    totals = e.state.totals()
    expected = final_rewards(e.state, reward)
    assert [paid[a] for a in e.possible_agents] == expected
    if reward == "margin":
        assert expected == [
            t - max(u for j, u in enumerate(totals) if j != i) for i, t in enumerate(totals)
        ]
    else:
        best = max(totals)
        k = totals.count(best)
        assert expected == [1 / k if t == best else 0.0 for t in totals]
    assert steps > 50 and e.agents == []


def test_win_reward_shares_ties() -> None:
    st = new_game(raw_env(players=2).rules, 1)
    while not st.is_over():
        st.apply_code(st.legal_codes()[0])
    st.match_totals = [10, 10]
    assert final_rewards(st, "win") == [0.5, 0.5]
    assert final_rewards(st, "margin") == [0.0, 0.0]
    with pytest.raises(ValueError, match="over"):
        final_rewards(new_game(st.rules, 1), "win")


def test_an_illegal_action_is_refused_by_the_raw_env_and_ends_the_game_when_wrapped() -> None:
    raw = raw_env(players=4)
    raw.reset(seed=1)
    before = raw.state.to_dict()
    with pytest.raises(IllegalActionError):
        raw.step(TAKE0)  # every row is empty
    assert raw.state.to_dict() == before
    wrapped = env(players=4)
    wrapped.reset(seed=1)
    mover = wrapped.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        wrapped.step(TAKE0)
    assert all(wrapped.terminations.values())
    assert wrapped.rewards[mover] == -1


def test_seeds_repeat_games_and_successive_resets_deal_new_ones() -> None:
    a, b = raw_env(players=3), raw_env(players=3)
    assert _play(a, 4) == _play(b, 4)
    a.reset(seed=4)
    first = a.state.to_dict()
    a.reset()
    assert a.state.to_dict() != first


def test_render_modes() -> None:
    e = raw_env(players=3, render_mode="ansi")
    e.reset(seed=3)
    e.step(DRAW)
    text = e.render()
    assert "player_" in text and "must place it" in text and "row 3" in text
    assert raw_env(players=3).render() is None


def test_render_human_prints(capsys: pytest.CaptureFixture[str]) -> None:
    e = raw_env(players=2, render_mode="human")
    e.reset(seed=1)
    e.step(DRAW)
    assert "must place it" in capsys.readouterr().out
    e.close()


def test_docstring_examples() -> None:
    result = doctest.testmod(pz_module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0 and result.attempted >= 3
