"""Rollouts, the greedy policy, dealing and the batch simulator of the fast core."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("numba")

from coloretto.agents.baseline import GreedyAgent, row_gain
from coloretto.engine.errors import ConfigurationError
from coloretto.engine.observation import observe
from coloretto.engine.rules import Rules, preset
from coloretto.engine.seeds import Rng
from coloretto.engine.setup import Setup
from coloretto.engine.state import GameState, new_game
from coloretto.fastcore import decode, encode, fast_apply, rollout_scores, rules_template
from coloretto.fastcore import kernels as K
from coloretto.fastcore import layout as L
from coloretto.fastcore.api import legal_options_greedy
from coloretto.fastcore.batch import simulate_batch, supports


def engine_greedy_options(state: GameState) -> list[int]:
    """The actions GreedyAgent picks among, computed with the engine's row_gain."""
    legal = state.legal_codes()
    seat = state.to_move
    if len(legal) == 1:
        return legal
    if state.phase == 1:
        vals = {
            c: row_gain(state, seat, state.rows[c - 1] + [state.drawn])
            - row_gain(state, seat, state.rows[c - 1])
            for c in legal
        }
        best = max(vals.values())
        return [c for c in legal if vals[c] == best]
    takes = [c for c in legal if c >= 7]
    if not takes:
        return [0]
    gains = {c: row_gain(state, seat, state.rows[c - 7]) for c in takes}
    best = max(gains.values())
    if 0 not in legal or best > 0:
        return [c for c in takes if gains[c] == best]
    return [0]


def random_states(count: int) -> list[GameState]:
    rng = random.Random(11)
    states = []
    configs = [
        preset("classic", 4),
        preset("modern", 2),
        preset("classic", 3, table="violet"),
        preset("modern", 5, extra_card="triple_minus"),
        preset("classic", 4, joker_any_color=False),
        preset("classic", 5, extra_card="single_three"),
    ]
    while len(states) < count:
        st = new_game(configs[len(states) % len(configs)], rng.randrange(10**6))
        stop = rng.randrange(120)
        for _ in range(stop):
            legal = st.legal_codes()
            if not legal:
                break
            st.apply_code(legal[rng.randrange(len(legal))])
        if st.phase in (0, 1):
            states.append(st)
    return states


def test_greedy_policy_is_the_engine_greedy_agent() -> None:
    for st in random_states(400):
        fs = encode(st)
        assert sorted(legal_options_greedy(fs)) == sorted(engine_greedy_options(st))


def test_greedy_agent_choices_lie_in_the_fast_options() -> None:
    for i, st in enumerate(random_states(60)):
        agent = GreedyAgent(seed=i)
        agent.reset(st.to_move, st.rules)
        action = agent.act(observe(st, st.to_move), st.legal_actions())
        assert action.code in legal_options_greedy(encode(st))


@pytest.mark.parametrize("policy", [0, 1])
def test_rollout_is_a_game_the_engine_plays_the_same_way(policy: int) -> None:
    """Replay a rollout's decisions (same generator stream) in the engine: same scores."""
    for i, st in enumerate(random_states(30)):
        seed = 1000 + i
        got = rollout_scores(st, seed, 2, ("random", "greedy")[policy])
        fs = encode(st)
        engine = st.copy()
        rng = np.empty(1, np.uint64)
        K.seed_rng(rng, np.uint64(seed), np.uint64(0))
        codes = np.empty(20, np.int32)
        opts = np.empty(20, np.int32)
        cnt = np.empty(10, np.int64)
        while not engine.is_over() and engine.game == st.game:
            code = int(K.choose_action(fs.a, policy, rng, codes, opts, cnt))
            assert code in engine.legal_codes()
            engine.apply_code(code)
            fast_apply(fs, code, check=False)
        assert got.shape == (2, st.n)
        assert got[0].tolist() == engine.scores()


def test_rollout_scores_is_deterministic_and_checks_input() -> None:
    st = new_game(preset("abacus2003", 4), 9)
    a = rollout_scores(st, 5, 50)
    assert np.array_equal(a, rollout_scores(st, 5, 50))
    assert not np.array_equal(a, rollout_scores(st, 6, 50))
    assert rollout_scores(st, 5, 50, "greedy").shape == (50, 4)
    sampled = observe(st, 0).sample_state(Rng(1))
    assert rollout_scores(sampled, 1, 3).shape == (3, 4)
    with pytest.raises(ValueError, match="policy"):
        rollout_scores(st, 1, 1, "smart")
    with pytest.raises(ValueError, match="positive"):
        rollout_scores(st, 1, 0)
    with pytest.raises(ValueError, match="choose"):
        rollout_scores(new_game(Rules(starting_cards="choose"), 1), 1)


def test_rollout_of_a_finished_game_returns_its_scores() -> None:
    st = new_game(Rules(players=3), 2)
    rng = random.Random(2)
    while not st.is_over():
        legal = st.legal_codes()
        st.apply_code(legal[rng.randrange(len(legal))])
    assert rollout_scores(st, 1, 2).tolist() == [st.scores()] * 2


@pytest.mark.parametrize(
    "rules",
    [Rules(players=p, edition=e) for p in (2, 3, 4, 5) for e in ("classic", "modern")]
    + [Rules(players=4, row_capacities=(6, 6, 6, 6))],
)
def test_fast_deal_is_a_valid_setup(rules: Rules) -> None:
    """A fast deal is accepted by the engine's setup checks (composition, Last Round depth,
    starting cards, removed colours) and encodes back to the same array."""
    rng = np.empty(1, np.uint64)
    seen_removed = set()
    for g in range(30):
        K.seed_rng(rng, np.uint64(3), np.uint64(g))
        a = rules_template(rules).copy()
        K.deal(a, rng, -1, -1)
        n = rules.players
        mask = int(a[L.INPLAY])
        removed = tuple(c for c in range(7) if not (mask >> c) & 1)
        seen_removed.add(removed)
        starting = tuple(
            tuple(c for c in range(7) for _ in range(int(a[L.COLL + 10 * s + c]))) for s in range(n)
        )
        pile = a[L.PILE : L.PILE + a[L.PILE_LEN]].tolist()
        setup = Setup(removed, starting, int(a[L.TO_MOVE]), tuple(reversed(pile)))
        st = GameState(rules, [setup])
        assert np.array_equal(encode(st).a, a)
    if rules.players >= 4:
        assert seen_removed == {()}
    else:
        assert len(seen_removed) > 3  # removed colours vary from game to game


def test_batch_simulator() -> None:
    rules = preset("modern", 4)
    one = simulate_batch(rules, ["random", "greedy", "random", "easy"], 60, 7, workers=1)
    two = simulate_batch(rules, ["random", "greedy", "random", "easy"], 60, 7, workers=2)
    assert one == two
    assert len(one) == 60 and all(len(r) == 4 for r in one)
    assert (
        simulate_batch(rules, ["random", "greedy", "random", "easy"], 10, 7, first_game=50)
        == one[50:]
    )
    assert simulate_batch(rules, ["random"], 60, 8) != simulate_batch(rules, ["random"], 60, 7)
    # greedy beats random on average (a sanity check of the policy wiring)
    mean = np.array(simulate_batch(rules, ["greedy", "random", "random", "random"], 400, 1)).mean(0)
    assert mean[0] > mean[1:].max()


def test_batch_simulator_matches_and_choose() -> None:
    rules = preset("abacus2003", 3)
    res = simulate_batch(rules, ["random"], 20, 3, removed_colors=[2], first_player=1)
    assert len(res) == 20
    single = simulate_batch(preset("classic", 3), ["random"], 20, 3, removed_colors=[2])
    assert np.abs(np.array(res)).sum() > np.abs(np.array(single)).sum()  # four games added up
    assert len(simulate_batch(Rules(players=2, starting_cards="choose"), ["greedy"], 5, 1)) == 5


def test_batch_simulator_errors() -> None:
    assert supports(["random", "greedy"])
    assert not supports(["random", "mcts"])
    assert not supports([])
    rules = Rules(players=3)
    with pytest.raises(ConfigurationError, match="mcts"):
        simulate_batch(rules, ["random", "mcts", "random"], 1, 1)
    with pytest.raises(ConfigurationError, match="specs"):
        simulate_batch(rules, ["random", "random"], 1, 1)
    with pytest.raises(ConfigurationError):
        simulate_batch(rules, ["random"], 1, 1, removed_colors=[1, 2])
    with pytest.raises(ConfigurationError, match="first player"):
        simulate_batch(rules, ["random"], 1, 1, first_player=3)
    with pytest.raises(ConfigurationError, match="workers"):
        simulate_batch(rules, ["random"], 1, 1, workers=0)
    assert simulate_batch(rules, ["random"], 0, 1) == []


def test_fast_playout_bench_reports() -> None:
    from coloretto.fastcore.bench import fast_playout_bench

    out = fast_playout_bench(4, 200, 1)
    assert set(out) >= {"games_per_s", "mean_winner_score", "compile_seconds"}
    assert out["games_per_s"] > 0 and 10 < out["mean_winner_score"] < 45
    with pytest.raises(ValueError):
        fast_playout_bench(6, 10, 1)


def test_decode_refuses_the_between_games_state() -> None:
    st = new_game(preset("abacus2003", 3), 1)
    fs = encode(st)
    fs.a[L.PHASE] = L.GAME_END
    with pytest.raises(ValueError, match="between two games"):
        decode(fs)
