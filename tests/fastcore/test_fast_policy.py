"""The kernels' policies are the engine's, decision by decision and random number by random
number: the greedy twin of ``engine.policy.greedy_code`` (one ``below(k)`` over the tied
candidates in ascending code order, no random number without a tie), the random player of
``RandomAgent``, and the rollouts built on them (``agents.mcts.engine_rollout``)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

from coloretto.agents.mcts import engine_rollout
from coloretto.engine.policy import greedy_code
from coloretto.engine.rules import Rules, preset
from coloretto.engine.seeds import GAME, Rng, derive_seed
from coloretto.engine.state import GameState, new_game
from coloretto.fastcore import encode, fast_apply, rollout_scores
from coloretto.fastcore import kernels as K
from coloretto.fastcore import layout as L

CONFIGS: list[tuple[str, Rules]] = []
for _p in range(2, 6):
    CONFIGS.append((f"classic-{_p}p", Rules(players=_p)))
    CONFIGS.append((f"modern-{_p}p", Rules(players=_p, edition="modern")))
    CONFIGS.append((f"violet-{_p}p", Rules(players=_p, table="violet")))
for _extra in ("single_three", "triple_three", "first_out_draws", "triple_minus"):
    CONFIGS.append((f"{_extra}-4p", Rules(players=4, extra_card=_extra)))
    CONFIGS.append(
        (
            f"{_extra}-modern-violet-3p",
            Rules(players=3, edition="modern", table="violet", extra_card=_extra),
        )
    )
CONFIGS += [
    ("no-joker-any-3p", Rules(players=3, joker_any_color=False)),
    ("no-joker-any-5p-modern", Rules(players=5, edition="modern", joker_any_color=False)),
    ("abacus2003-4p", preset("abacus2003", 4)),
    ("caps-6x6-5p", Rules(players=5, row_capacities=(6, 6, 6, 6, 6, 6))),
    ("choose-2p-match", Rules(players=2, starting_cards="choose", match_games=2)),
]


def play_greedy_both(state: GameState, seed: int, counts: dict[str, int]) -> None:
    """Every seat greedy, engine and kernel side by side with their own generators."""
    ref = Rng(seed)
    rng = np.empty(1, np.uint64)
    K.rng_seed(rng, np.uint64(seed))
    fs = encode(state)
    codes = np.empty(L.NUM_DISTINCT_ACTIONS, np.int32)
    opts = np.empty(L.NUM_DISTINCT_ACTIONS, np.int32)
    cnt = np.empty(L.COLLECTION_SIZE, np.int64)
    while not state.is_over():
        legal = state.legal_codes()
        before = ref.state
        want = greedy_code(state, ref, legal)
        k = K.legal_codes(fs.a, codes)
        m = K.greedy_options(fs.a, codes, k, opts, cnt)
        got = int(K.choose_action(fs.a, L.POLICY_GREEDY, rng, codes, opts, cnt))
        assert got == want, (state.to_dict(), opts[:m].tolist())
        assert int(rng[0]) == ref.state
        counts["decisions"] += 1
        counts["ties"] += m > 1
        counts["rng_calls"] += ref.state != before
        assert (ref.state != before) == (m > 1)  # a random number exactly when tied
        state.apply_code(want)
        fast_apply(fs, want, check=False)
    assert fs.is_over() and fs.a[L.TOTALS : L.TOTALS + state.n].tolist() == state.totals()


@pytest.mark.parametrize("name,rules", CONFIGS, ids=[c[0] for c in CONFIGS])
def test_greedy_twin_decides_as_the_reference(name: str, rules: Rules) -> None:
    counts = {"decisions": 0, "ties": 0, "rng_calls": 0}
    for g in range(12):
        seed = 7919 * g + len(name)
        play_greedy_both(new_game(rules, seed), seed, counts)
    assert counts["ties"] > 0 and counts["rng_calls"] == counts["ties"]
    assert counts["decisions"] > counts["ties"]


def test_random_player_draws_only_with_a_choice() -> None:
    """``POLICY_RANDOM``: ``codes[below(k)]``, and nothing drawn when one action is legal."""
    for seed in range(40):
        rules = Rules(players=2 + seed % 4, edition=("classic", "modern")[seed % 2])
        state = new_game(rules, seed)
        ref = Rng(seed)
        rng = np.empty(1, np.uint64)
        K.rng_seed(rng, np.uint64(seed))
        fs = encode(state)
        codes = np.empty(L.NUM_DISTINCT_ACTIONS, np.int32)
        opts = np.empty(L.NUM_DISTINCT_ACTIONS, np.int32)
        cnt = np.empty(L.COLLECTION_SIZE, np.int64)
        singles = 0
        while not state.is_over():
            legal = state.legal_codes()
            want = legal[0] if len(legal) == 1 else legal[ref.below(len(legal))]
            singles += len(legal) == 1
            got = int(K.choose_action(fs.a, L.POLICY_RANDOM, rng, codes, opts, cnt))
            assert got == want and int(rng[0]) == ref.state
            state.apply_code(want)
            fast_apply(fs, want, check=False)
        assert singles > 0
        assert K.choose_action(fs.a, L.POLICY_RANDOM, rng, codes, opts, cnt) == K.NO_CHOICE


def midgame_states(count: int) -> list[GameState]:
    mix = random.Random(5)
    states: list[GameState] = []
    rules = [r for _, r in CONFIGS if r.match_games == 1 and r.starting_cards == "random"]
    while len(states) < count:
        st = new_game(rules[len(states) % len(rules)], mix.randrange(10**6))
        for _ in range(mix.randrange(100)):
            legal = st.legal_codes()
            if not legal:
                break
            st.apply_code(legal[mix.randrange(len(legal))])
        if st.phase in (L.TURN, L.PLACE):
            states.append(st)
    return states


@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_rollouts_are_the_engines_rollouts(policy: str) -> None:
    """Playout ``i`` of ``rollout_scores(state, seed, n)`` is ``engine_rollout(policy)`` from
    the same state with ``Rng(derive_seed(seed, GAME, i))``."""
    play = engine_rollout(policy)
    differ = 0
    for j, st in enumerate(midgame_states(40)):
        seed = 1000 + j
        got = rollout_scores(st, seed, 4, policy)
        want: list[Any] = [play(st.copy(), Rng(derive_seed(seed, GAME, i))) for i in range(4)]
        assert got.tolist() == want
        differ += len({tuple(w) for w in want}) > 1
    assert differ > 10  # the playouts are not all the same game
