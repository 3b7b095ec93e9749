"""The compiled search's parts: sampler, rollout policy twin, tree statistics, budgets."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("numba")

from coloretto.agents.mcts import THRESHOLD_A, THRESHOLD_B, _threshold_code, decision_rng
from coloretto.engine import LAST_ROUND, Rules, new_game, observe, preset
from coloretto.engine.state import GameState
from coloretto.fastcore import encode
from coloretto.fastcore import kernels as K
from coloretto.fastcore import layout as L
from coloretto.fastcore import search as S


def _states(count: int, seed: int = 3) -> list[GameState]:
    rng = random.Random(seed)
    configs = [
        preset("classic", 4),
        preset("modern", 2),
        preset("classic", 3, table="violet"),
        preset("modern", 5, extra_card="first_out_draws"),
        preset("classic", 4, joker_any_color=False),
    ]
    out: list[GameState] = []
    while len(out) < count:
        st = new_game(configs[len(out) % len(configs)], rng.randrange(10**6))
        for _ in range(rng.randrange(150)):
            codes = st.legal_codes()
            if not codes:
                break
            st.apply_code(codes[rng.randrange(len(codes))])
        if st.phase in (0, 1):
            out.append(st)
    return out


def _search(a: np.ndarray, tree: S.Tree, seed: int, iterations: int, **kw: object) -> int:
    params: dict[str, object] = {
        "c_puct": 1.0,
        "margin_weight": 0.3,
        "margin_scale": 20.0,
        "threshold_a": THRESHOLD_A,
        "threshold_b": THRESHOLD_B,
    }
    params.update(kw)
    return S.search_arrays(a, tree, seed, iterations=iterations, seconds=None, **params)  # type: ignore[arg-type]


def test_sampler_keeps_the_composition_and_the_last_round_card_depth() -> None:
    st = new_game(Rules(players=4), 5)
    a = encode(observe(st, 0).state).a
    pos = np.empty(80, np.int64)
    m = S.hidden_positions(a, pos)
    n = int(a[L.PILE_LEN])
    depth = list(a[L.PILE : L.PILE + n]).index(LAST_ROUND)
    assert m == n - 1 and depth not in pos[:m].tolist()
    rng = np.empty(1, np.uint64)
    K.seed_rng(rng, np.uint64(1), np.uint64(0))
    seen = set()
    for _ in range(20):
        s = a.copy()
        S.sample_pile(s, pos, m, rng)
        pile = s[L.PILE : L.PILE + n].tolist()
        assert pile[depth] == LAST_ROUND
        assert sorted(pile) == sorted(a[L.PILE : L.PILE + n].tolist())
        assert np.array_equal(s[: L.PILE], a[: L.PILE])  # nothing else changes
        seen.add(tuple(pile))
    assert len(seen) == 20  # every sample is another order


def test_threshold_policy_is_the_reference_one_at_turns() -> None:
    """At a turn the compiled ``threshold`` policy decides exactly as the reference's
    (both deterministic there: ties to the first code)."""
    codes = np.empty(20, np.int32)
    opts = np.empty(20, np.int32)
    cnt = np.empty(10, np.int64)
    rng = np.empty(1, np.uint64)
    K.seed_rng(rng, np.uint64(2), np.uint64(0))
    checked = 0
    for st in _states(300):
        if st.phase != 0 or len(st.legal_codes()) < 2:
            continue
        a = encode(st).a
        k = K.legal_codes(a, codes)
        got = S.threshold_code(a, codes, k, THRESHOLD_A, THRESHOLD_B, rng, opts, cnt)
        rng_ref = decision_rng(0, observe(st, st.to_move))  # unused at a turn
        assert got == _threshold_code(st, st.legal_codes(), rng_ref), st
        checked += 1
    assert checked > 100


def test_hybrid_rollout_ends_the_game_with_the_engine_totals() -> None:
    codes = np.empty(20, np.int32)
    opts = np.empty(20, np.int32)
    cnt = np.empty(10, np.int64)
    pol = np.full(5, L.POLICY_GREEDY, np.int32)
    vals = np.empty(20, np.float64)
    rng = np.empty(1, np.uint64)
    K.seed_rng(rng, np.uint64(4), np.uint64(0))
    for st in _states(40, seed=9) + [new_game(preset("abacus2003", 3), 2)]:
        a = encode(st).a
        S.rollout_hybrid(a, THRESHOLD_A, THRESHOLD_B, rng, codes, opts, cnt, pol, vals)
        assert a[L.PHASE] == L.OVER
        assert a[L.GAME] == st.rules.match_games - 1
        for p in range(st.n):
            assert a[L.TOTALS + p] >= st.match_totals[p] - 100  # a real total, not garbage


@pytest.mark.parametrize("evaluation", ["rollout"])
def test_search_statistics_are_consistent_and_reproducible(evaluation: str) -> None:
    tree = S.Tree(2000)
    for st in _states(12, seed=21):
        if len(st.legal_codes()) < 2:
            continue
        a = encode(observe(st, st.to_move).state).a
        it = _search(a, tree, 7, 300, evaluation=evaluation)
        assert it == 300
        k = int(tree.nodes[0, S.NODE_NACTS])
        assert tree.nodes[0, S.NODE_CODES : S.NODE_CODES + k].tolist() == st.legal_codes()
        visits = tree.root[:k, S.R_VISITS].copy()
        assert visits.sum() == 300
        assert int(tree.nodes[0, S.NODE_TOTAL]) == 300
        assert np.array_equal(tree.visits[0, :k], visits.astype(np.int32))
        assert 1 < tree.counts[0] <= 301
        win = tree.root[:k, S.R_WIN] / np.maximum(visits, 1)
        assert ((0 <= win) & (win <= 1)).all()
        _search(a, tree, 7, 300, evaluation=evaluation)
        assert np.array_equal(tree.root[:k, S.R_VISITS], visits)  # same seed, same search
        _search(a, tree, 8, 300, evaluation=evaluation)
        assert tree.root[:k, S.R_VISITS].sum() == 300


def test_a_small_tree_fills_up_and_the_search_goes_on() -> None:
    st = new_game(Rules(players=4), 3)
    a = encode(observe(st, st.to_move).state).a
    tree = S.Tree(10)
    assert _search(a, tree, 1, 500) == 500
    assert tree.counts[0] == 10
    assert tree.root[:, S.R_VISITS].sum() == 500


def test_a_seconds_budget_stops_the_search() -> None:
    st = new_game(Rules(players=4), 3)
    a = encode(observe(st, st.to_move).state).a
    tree = S.Tree(100_000)
    it = S.search_arrays(
        a,
        tree,
        1,
        iterations=None,
        seconds=0.05,
        c_puct=1.0,
        margin_weight=0.3,
        margin_scale=20.0,
        threshold_a=6.0,
        threshold_b=1.0,
    )
    assert 1 <= it < 100_000_000
    assert tree.root[:, S.R_VISITS].sum() == it


def test_bad_input_is_refused() -> None:
    st = new_game(Rules(players=4), 3)
    a = encode(st).a
    tree = S.Tree(10)
    kw = {
        "c_puct": 1.0,
        "margin_weight": 0.3,
        "margin_scale": 20.0,
        "threshold_a": 6.0,
        "threshold_b": 1.0,
    }
    with pytest.raises(ValueError, match="iterations, seconds"):
        S.search_arrays(a, tree, 1, iterations=None, seconds=None, **kw)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="evaluation"):
        S.search_arrays(a, tree, 1, iterations=5, seconds=None, evaluation="magic", **kw)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="weights"):
        S.search_arrays(a, tree, 1, iterations=5, seconds=None, evaluation="value", **kw)  # type: ignore[arg-type]
    chooser = encode(new_game(Rules(players=3, starting_cards="choose"), 1)).a
    with pytest.raises(ValueError, match="turn or place"):
        S.search_arrays(chooser, tree, 1, iterations=5, seconds=None, **kw)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="at least 2"):
        S.Tree(1)
