"""The batched environment (``coloretto.envs.vector``) plays the engine's games: its
observations and masks equal the Python encoding's (``encoding.encode(observe(state,
seat))``, ``legal_mask``) for the same games, replayed in the engine from the env's seeds
and actions; seats played inside the kernel are the engine's ``random`` and ``greedy``
agents; the tensors never hold the pile order; bad input is refused with nothing changed."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

# The batched kernels compile on their first use (minutes on a busy 2-core machine; then
# cached): the tests here get more than the suite's default 600 s.
pytestmark = pytest.mark.timeout(1800)

from coloretto.agents import make_agent
from coloretto.engine import GameState, Rules, new_game, observe
from coloretto.engine.cards import LAST_ROUND
from coloretto.engine.errors import ConfigurationError, IllegalActionError
from coloretto.engine.seeds import AGENT, GAME, Rng, derive_seed
from coloretto.envs.encoding import OBSERVATION_SIZE, encode, legal_mask
from coloretto.envs.vector import VectorEnv
from coloretto.fastcore import layout as L
from coloretto.fastcore import vector as VK

CASES = [
    Rules(players=2),
    Rules(players=2, edition="modern"),
    Rules(players=3),
    Rules(players=3, edition="modern"),
    Rules(players=4),
    Rules(players=4, edition="modern"),
    Rules(players=5),
    Rules(players=5, edition="modern", table="violet"),
    Rules(players=3, starting_cards="choose", match_games=2),
    Rules(players=4, edition="modern", extra_card="first_out_draws"),
]


def ident(rules: Rules) -> str:
    return (
        f"{rules.players}p-{rules.edition}-{rules.table}-{rules.starting_cards}-"
        f"{rules.extra_card}-{rules.match_games}"
    )


def final_rewards(state: GameState, kind: str) -> list[float]:
    totals = state.totals()
    best = max(totals)
    if kind == "win":
        k = totals.count(best)
        return [1.0 / k if t == best else 0.0 for t in totals]
    return [t - max(u for q, u in enumerate(totals) if q != p) for p, t in enumerate(totals)]


@pytest.mark.parametrize("rules", CASES, ids=ident)
def test_observations_and_masks_equal_the_python_encoding(rules: Rules) -> None:
    num_envs, seed, steps = 5, 11, 240 if rules.players > 3 else 160
    reward = "win" if rules.players == 3 else "margin"
    env = VectorEnv(num_envs, rules, reward=reward, threads=1)
    obs, mask = env.reset(seed)
    games = [new_game(rules, derive_seed(seed, GAME, i)) for i in range(num_envs)]
    episodes = [1] * num_envs
    ended = 0
    for _ in range(steps):
        for i, state in enumerate(games):
            seat = state.to_move
            assert env.seat[i] == seat
            o = observe(state, seat)
            np.testing.assert_array_equal(obs[i], encode(o))
            np.testing.assert_array_equal(mask[i], legal_mask(o))
        assert int(env.game_seeds[0]) == derive_seed(seed, GAME, (episodes[0] - 1) * num_envs)
        actions = env.random_actions()
        for i, state in enumerate(games):
            state.apply_code(int(actions[i]))
        obs, mask, rewards, dones = env.step(actions)
        for i, state in enumerate(games):
            assert bool(dones[i]) == state.is_over()
            if state.is_over():
                assert rewards[i].tolist() == final_rewards(state, reward)
                ended += 1
                games[i] = new_game(rules, derive_seed(seed, GAME, episodes[i] * num_envs + i))
                episodes[i] += 1
            else:
                assert not rewards[i].any()
    if rules.match_games == 1:
        assert ended > 0, "no game ended: the automatic reset was not exercised"


@pytest.mark.parametrize(
    ("rules", "seats"),
    [
        (Rules(players=4), ["greedy", None, "random", "greedy"]),
        (Rules(players=2, edition="modern"), [None, "greedy"]),
        (Rules(players=5, starting_cards="choose"), ["random", "greedy", None, None, "random"]),
    ],
    ids=["4p", "2p-modern", "5p-choose"],
)
def test_seats_played_inside_are_the_engine_agents(rules: Rules, seats: list[str | None]) -> None:
    num_envs, seed = 4, 3
    env = VectorEnv(num_envs, rules, opponents=seats, threads=2)
    obs, mask = env.reset(seed)
    games: list[GameState] = []
    agents: list[dict[int, object]] = []

    def start(i: int, episode: int) -> None:
        game_seed = derive_seed(seed, GAME, episode * num_envs + i)
        state = new_game(rules, game_seed)
        seat_agents = {}
        for p, spec in enumerate(seats):
            if spec is not None:
                agent = make_agent(spec, derive_seed(game_seed, AGENT, p))
                agent.reset(p, rules)
                seat_agents[p] = agent
        if i < len(games):
            games[i], agents[i] = state, seat_agents
        else:
            games.append(state)
            agents.append(seat_agents)

    def play_inside(i: int) -> bool:
        state = games[i]
        while not state.is_over() and state.to_move in agents[i]:
            legal = state.legal_actions()
            if len(legal) == 1:
                state.apply(legal[0])
            else:
                agent = agents[i][state.to_move]
                state.apply(agent.act(observe(state, state.to_move), legal))  # type: ignore[attr-defined]
        return state.is_over()

    episodes = [1] * num_envs
    for i in range(num_envs):
        start(i, 0)
        play_inside(i)
    ended = 0
    for _ in range(150):
        for i, state in enumerate(games):
            assert seats[state.to_move] is None
            o = observe(state, state.to_move)
            np.testing.assert_array_equal(obs[i], encode(o))
            np.testing.assert_array_equal(mask[i], legal_mask(o))
        actions = env.random_actions()
        over = []
        for i, state in enumerate(games):
            state.apply_code(int(actions[i]))
            over.append(play_inside(i))
        obs, mask, rewards, dones = env.step(actions)
        for i in range(num_envs):
            assert bool(dones[i]) == over[i]
            if over[i]:
                assert rewards[i].tolist() == final_rewards(games[i], "margin")
                ended += 1
                start(i, episodes[i])
                episodes[i] += 1
                play_inside(i)
    assert ended > 0


def test_features_observation_is_the_fast_core_features() -> None:
    from coloretto.fastcore import encode as fast_encode
    from coloretto.fastcore import value as V

    rules = Rules(players=4, edition="modern")
    env = VectorEnv(3, rules, observation="features", threads=1)
    obs, _ = env.reset(5)
    assert obs.shape == (3, V.N_FEATURES)
    games = [new_game(rules, derive_seed(5, GAME, i)) for i in range(3)]
    for _ in range(40):
        for i, state in enumerate(games):
            f = np.empty(V.N_FEATURES, np.float64)
            V.features(fast_encode(state).a, f, np.empty(10, np.int64))
            np.testing.assert_array_equal(obs[i], f.astype(np.float32))
        actions = env.random_actions()
        for i, state in enumerate(games):
            state.apply_code(int(actions[i]))
        obs, *_ = env.step(actions)


def test_tensors_never_hold_the_pile_order() -> None:
    """The information test on the compiled tensors: shuffle the draw pile below and above
    the Last Round card; every seat's tensor stays the same."""
    rng = Rng(9)
    out_a = np.empty(OBSERVATION_SIZE, np.float32)
    out_b = np.empty(OBSERVATION_SIZE, np.float32)
    checked = 0
    for rules in CASES:
        env = VectorEnv(4, rules, threads=1)
        env.reset(21)
        for step in range(60):
            if step % 15 == 0:
                for s in env.states:
                    n = int(s[L.PILE_LEN])
                    pile = s[L.PILE : L.PILE + n].tolist()
                    other = s.copy()
                    if LAST_ROUND in pile:
                        d = pile.index(LAST_ROUND)
                        below, above = pile[:d], pile[d + 1 :]
                        rng.shuffle(below)
                        rng.shuffle(above)
                        pile = below + [LAST_ROUND] + above
                    else:
                        rng.shuffle(pile)
                    other[L.PILE : L.PILE + n] = pile
                    for seat in range(rules.players):
                        VK.encode_into(s, seat, out_a)
                        VK.encode_into(other, seat, out_b)
                        np.testing.assert_array_equal(out_a, out_b)
                        checked += 1
            env.step(env.random_actions())
    assert checked > 100


def test_same_seed_same_games_any_thread_count() -> None:
    runs = []
    for threads in (1, 2):
        env = VectorEnv(16, players=4, threads=threads)
        env.reset(42)
        total = np.zeros((16, 4))
        for _ in range(300):
            env.step(env.random_actions())
            total += env.rewards
        runs.append((env.states, total, env.obs.copy()))
    np.testing.assert_array_equal(runs[0][0], runs[1][0])
    np.testing.assert_array_equal(runs[0][1], runs[1][1])
    np.testing.assert_array_equal(runs[0][2], runs[1][2])


def test_bad_input_is_refused_and_nothing_changes() -> None:
    env = VectorEnv(3, players=4, threads=1)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.zeros(3, np.int32))
    env.reset(1)
    before = env.states
    obs = env.obs.copy()
    bad = env.random_actions()
    bad[1] = L.TAKE0 + 3  # every row is empty at the start: taking is illegal
    with pytest.raises(IllegalActionError, match="env 1"):
        env.step(bad)
    with pytest.raises(ValueError, match="shape"):
        env.step(np.zeros(2, np.int32))
    with pytest.raises(ValueError, match="integers"):
        env.step(np.zeros(3, np.float32))
    np.testing.assert_array_equal(env.states, before)
    np.testing.assert_array_equal(env.obs, obs)
    for kwargs, text in [
        ({"num_envs": 0}, "num_envs"),
        ({"num_envs": 2, "observation": "pixels"}, "observation"),
        ({"num_envs": 2, "reward": "score"}, "reward"),
        ({"num_envs": 2, "opponents": ["random"] * 4}, "no seat"),
        ({"num_envs": 2, "opponents": ["mcts", None, None, None]}, "mcts"),
        ({"num_envs": 2, "opponents": [None, None]}, "4 players"),
        ({"num_envs": 2, "threads": 0}, "threads"),
    ]:
        with pytest.raises(ConfigurationError, match=text):
            VectorEnv(**kwargs)  # type: ignore[arg-type]
    with pytest.raises(ConfigurationError, match="seed"):
        env.reset("1")  # type: ignore[arg-type]


def test_module_examples() -> None:
    import doctest

    import coloretto.envs.vector as vector_module

    result = doctest.testmod(vector_module, verbose=False)
    assert result.attempted > 0 and result.failed == 0
