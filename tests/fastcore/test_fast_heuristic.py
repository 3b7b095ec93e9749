"""The compiled heuristic (``fastcore.heuristic``) is the Python ``heuristic``'s judgement,
and the search's heuristic priors (``priors="heuristic"``) use it."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("numba")

from coloretto.agents.heuristic import DEFAULT_PARAMS, VIOLET_PARAMS, heuristic_scores, params_for
from coloretto.agents.mcts import THRESHOLD_A, THRESHOLD_B
from coloretto.engine import Rules, new_game, observe
from coloretto.engine.state import PLACE, TURN, GameState
from coloretto.fastcore import encode
from coloretto.fastcore import search as S
from coloretto.fastcore.heuristic import H_PARAMS, heuristic_values, params_array


def _decisions(rules: Rules, games: int, seed: int) -> list[GameState]:
    """Every decision with a choice of ``games`` random games under ``rules``."""
    rng = random.Random(seed)
    out: list[GameState] = []
    for _ in range(games):
        st = new_game(rules, rng.randrange(10**9))
        while not st.is_over():
            codes = st.legal_codes()
            if st.phase in (TURN, PLACE) and len(codes) > 1:
                out.append(st.copy())
            st.apply_code(codes[rng.randrange(len(codes))])
    return out


def _compiled(st: GameState, weights: np.ndarray) -> list[float]:
    codes = st.legal_codes()
    out = np.zeros(len(codes))
    heuristic_values(
        encode(st).a, np.array(codes, np.int32), len(codes), weights, out, np.zeros(10, np.int64)
    )
    return out.tolist()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("extra_card", [None, "first_out_draws"])
def test_the_compiled_judgement_is_the_heuristic_on_the_brown_table(
    players: int, extra_card: str | None
) -> None:
    rules = Rules(players=players, extra_card=extra_card)
    states = _decisions(rules, 3, seed=players)
    assert len(states) > 60
    weights = params_array(DEFAULT_PARAMS)
    for st in states:
        py = heuristic_scores(st, st.to_move, st.legal_codes(), params_for(st))
        assert _compiled(st, weights) == pytest.approx([py[c] for c in st.legal_codes()], abs=1e-9)


def test_under_the_violet_table_it_judges_every_action_with_finite_values() -> None:
    """Violet: the weights but not the expected intake (an approximation, for priors)."""
    weights = params_array(VIOLET_PARAMS)
    assert weights.shape == (H_PARAMS,)
    for st in _decisions(Rules(players=4, table="violet"), 2, seed=9):
        values = _compiled(st, weights)
        assert len(values) == len(st.legal_codes())
        assert all(np.isfinite(v) for v in values)


def _search(a: np.ndarray, tree: S.Tree, iterations: int, **kw: object) -> int:
    return S.search_arrays(
        a,
        tree,
        5,
        iterations=iterations,
        seconds=None,
        c_puct=1.0,
        margin_weight=0.3,
        margin_scale=20.0,
        threshold_a=THRESHOLD_A,
        threshold_b=THRESHOLD_B,
        prior_temp=3.0,
        **kw,  # type: ignore[arg-type]
    )


def test_heuristic_priors_are_set_once_a_node_has_its_visits() -> None:
    st = _decisions(Rules(players=4), 1, seed=4)[20]
    a = encode(observe(st, st.to_move).state).a
    tree = S.Tree(3000)
    weights = params_array(DEFAULT_PARAMS)
    assert _search(a, tree, 2000, priors="heuristic", heuristic=weights, judge_visits=2) == 2000
    used = int(tree.counts[0])
    judged = tree.nodes[:used, S.NODE_JUDGED] == 1
    total = tree.nodes[:used, S.NODE_TOTAL]
    assert judged[0]
    # Below the root a node is judged when it is passed through with 2 visits behind it (its
    # total counts the iterations that passed through it, not the one that made it).
    assert (judged == (total >= 3))[1:].all()
    assert judged.sum() > 50
    for node in np.flatnonzero(judged):
        k = int(tree.nodes[node, S.NODE_NACTS])
        assert tree.prior[node, :k].sum() == pytest.approx(1.0, abs=1e-5)
    # The root's priors are the heuristic's softmax (no root priors given).
    k = int(tree.nodes[0, S.NODE_NACTS])
    values = np.array(_compiled(observe(st, st.to_move).state, weights))
    expected = np.exp((values - values.max()) / 3.0)
    assert tree.prior[0, :k] == pytest.approx(expected / expected.sum(), abs=1e-6)
    # The same search with the gain priors judges no node.
    _search(a, tree, 2000)
    assert (tree.nodes[: int(tree.counts[0]), S.NODE_JUDGED] == 0).all()


def test_heuristic_priors_need_their_weights_and_a_known_name() -> None:
    a = encode(new_game(Rules(players=3), 2)).a
    tree = S.Tree(10)
    with pytest.raises(ValueError, match="heuristic's weights"):
        _search(a, tree, 10, priors="heuristic")
    with pytest.raises(ValueError, match="unknown priors 'policy'"):
        _search(a, tree, 10, priors="policy")


def test_the_agent_refuses_unknown_tree_priors_and_expert_uses_the_heuristic() -> None:
    from coloretto.agents import make_agent
    from coloretto.agents.ismcts import ISMCTSAgent, ISMCTSParams

    with pytest.raises(ValueError, match="unknown tree priors 'policy'"):
        ISMCTSAgent(0, None, ISMCTSParams(tree_priors="policy"))
    expert = make_agent("expert", 0)
    assert isinstance(expert, ISMCTSAgent)
    assert expert.params.tree_priors == "heuristic"
    assert expert.params.evaluation == "round_value"


def test_the_heuristic_s_action_is_the_first_best_of_its_values() -> None:
    from coloretto.fastcore.heuristic import heuristic_code

    weights = params_array(DEFAULT_PARAMS)
    states = _decisions(Rules(players=4), 2, seed=3)
    assert len(states) > 40
    for st in states:
        codes = st.legal_codes()
        values = _compiled(st, weights)
        best = heuristic_code(
            encode(st).a,
            np.array(codes, np.int32),
            len(codes),
            weights,
            np.zeros(len(codes)),
            np.zeros(10, np.int64),
        )
        assert best == codes[int(np.argmax(values))]


def test_heuristic_rollouts_to_the_round_end_then_the_value() -> None:
    """``heuristic_round_value`` needs the heuristic's weights besides the value's, and with
    them gives the root every iteration."""
    from coloretto.agents.value import load_value_model

    model = load_value_model()
    st = _decisions(Rules(players=4), 1, seed=6)[10]
    a = encode(observe(st, st.to_move).state).a
    tree = S.Tree(600)
    kw = {"evaluation": "heuristic_round_value", "weights": model.weights}
    with pytest.raises(ValueError, match="'heuristic_round_value' needs the heuristic's weights"):
        _search(a, tree, 10, **kw)
    assert _search(a, tree, 500, heuristic=params_array(DEFAULT_PARAMS), **kw) == 500
    assert tree.root[: int(tree.nodes[0, S.NODE_NACTS]), S.R_VISITS].sum() == 500
