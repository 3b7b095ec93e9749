"""``mcts`` and ``oracle``: legal complete games, information hiding, determinism."""

from __future__ import annotations

import random

import pytest

from coloretto.agents import Budget, make_agent
from coloretto.agents.mcts import MCTSAgent, OracleAgent, SearchParams, engine_rollout, search
from coloretto.arena.driver import play_out, start_game
from coloretto.engine import LAST_ROUND, Rules, new_game, observe, preset
from coloretto.engine.rules import PRESET_PLAYERS, PRESETS
from coloretto.engine.seeds import Rng

CONFIGS = [
    (name, n)
    for name in PRESETS
    for n in range(PRESET_PLAYERS[name][0], PRESET_PLAYERS[name][1] + 1)
]
TINY = Budget(iterations=6)


@pytest.mark.parametrize(("preset_name", "players"), CONFIGS)
def test_mcts_and_oracle_play_complete_games(preset_name: str, players: int) -> None:
    rules = preset(preset_name, players)
    specs = ["mcts", "oracle"] + ["heuristic"] * (players - 2)
    game = start_game(rules, 5, specs, preset_name=preset_name)
    budget = Budget(iterations=1) if rules.match_games > 1 else TINY  # a match is 4 games
    agents = [make_agent(s, i, budget) for i, s in enumerate(specs)]
    play_out(game, agents)  # raises on an illegal action
    assert game.state.is_over()


@pytest.mark.parametrize(
    "overrides", [{"table": "violet", "edition": "modern"}, {"starting_cards": "choose"}]
)
def test_mcts_plays_variants_engine_only(overrides: dict[str, object]) -> None:
    rules = Rules(players=3, **overrides)  # type: ignore[arg-type]
    game = start_game(rules, 2, ["mcts"] * 3)
    play_out(game, [MCTSAgent(i, TINY, engine_only=True) for i in range(3)])
    assert game.state.is_over()


def _shuffled_pile_twin(state, rng):  # type: ignore[no-untyped-def]
    """A copy of ``state`` whose hidden draw pile order differs (Last Round card kept in place)."""
    twin = state.copy()
    pile = twin.pile
    depth = pile.index(LAST_ROUND)
    below, above = pile[:depth], pile[depth + 1 :]
    for part in (below, above):
        original = part[:]
        while part == original and len(set(part)) > 1:
            rng.shuffle(part)
    twin.pile = below + [LAST_ROUND] + above
    return twin


@pytest.mark.parametrize("engine_only", [True, False])
def test_same_action_when_only_the_hidden_pile_order_differs(engine_only: bool) -> None:
    state = new_game(Rules(players=4), 17)
    rng = random.Random(0)
    for _ in range(14):  # into the game, with cards in the rows
        codes = state.legal_codes()
        state.apply_code(codes[0] if rng.random() < 0.7 else codes[-1])
    twin = _shuffled_pile_twin(state, rng)
    assert twin.pile != state.pile
    seat = state.to_move
    legal = state.legal_actions()
    assert len(legal) > 1
    chosen = []
    for st in (state, twin):
        agent = MCTSAgent(seed=3, budget=Budget(iterations=120), engine_only=engine_only)
        agent.reset(seat, st.rules)
        chosen.append(agent.act(observe(st, seat), legal))
        assert agent.last is not None
        chosen.append(tuple(agent.last.visits))
    assert chosen[0] == chosen[2]
    assert chosen[1] == chosen[3]  # the whole search is the same, not only the answer


def test_oracle_sees_the_true_pile() -> None:
    """The oracle searches the peeked state: with a single possible future per action, its
    statistics depend on the real order."""
    state = new_game(Rules(players=3), 4)
    while len(state.legal_codes()) < 2:
        state.apply_code(state.legal_codes()[0])
    seat = state.to_move
    agent = OracleAgent(seed=1, budget=Budget(iterations=30))
    agent.reset(seat, state.rules)
    with pytest.raises(RuntimeError):
        agent.act(observe(state, seat), state.legal_actions())
    agent.peek(state)
    action = agent.act(observe(state, seat), state.legal_actions())
    assert action in state.legal_actions()


def test_search_statistics_are_consistent() -> None:
    state = new_game(Rules(players=4), 9)
    obs = observe(state, state.to_move)
    res = search(obs.sample_state, obs.seat, Rng(1), 50, None, SearchParams(engine_only=True))
    assert res.iterations == 50
    assert sum(res.visits) == 50
    assert res.codes == state.legal_codes()
    assert all(0.0 <= w <= 1.0 for w in res.win)
    assert res.best() in res.codes


@pytest.mark.parametrize("policy", ["hybrid", "threshold", "greedy", "random"])
def test_engine_rollouts_finish_the_game(policy: str) -> None:
    state = new_game(Rules(players=5, edition="modern"), 8)
    totals = engine_rollout(policy)(state, Rng(2))
    assert state.is_over()
    assert totals == state.totals()


def test_unknown_rollout_policy() -> None:
    with pytest.raises(ValueError, match="rollout policy"):
        engine_rollout("clever")


def test_the_search_is_made_of_named_parts() -> None:
    """One iteration by hand: ``descend`` (``select`` + ``expand``) adds one node,
    ``evaluate`` plays to the end, ``backup`` counts the visit along the path; and
    ``search`` is those parts repeated (same rng: same statistics)."""
    from coloretto.agents.mcts import _Node, _Tree, backup, descend, evaluate, expand, select

    state = new_game(Rules(players=3), 6)
    seat, codes = state.to_move, state.legal_codes()
    params = SearchParams(engine_only=True, policy="greedy")
    tree = _Tree(_Node(seat, codes), params, [0.0] * len(codes))
    assert select(tree, tree.root, state, None) == 0  # nothing visited: the first best
    s = state.copy()
    path = descend(tree, s, None)
    assert [node for node, _ in path] == [tree.root] and len(tree.root.kids) == 1
    totals = evaluate(s, engine_rollout("greedy"), Rng(2))
    assert s.is_over() and totals == s.totals()
    backup(tree, path, totals)
    assert tree.root.total == 1 and sum(tree.root.n) == 1 and tree.root.n[path[0][1]] == 1
    after = state.copy()
    after.apply_code(codes[path[0][1]])
    assert expand(tree.root, codes[path[0][1]], after) is not None  # already there: no new node

    res = search(lambda rng: state.copy(), seat, Rng(3), 40, None, params)
    again = search(lambda rng: state.copy(), seat, Rng(3), 40, None, params)
    assert res.iterations == 40 and sum(res.visits) == 40 and res.visits == again.visits


def test_the_docstrings_state_the_real_defaults() -> None:
    from coloretto.agents import mcts

    assert mcts.DEFAULT_SECONDS == 0.5 and SearchParams().policy == "hybrid"
    for doc in (mcts.__doc__, mcts.search.__doc__):
        assert doc is not None and "0.5 s" in doc and "hybrid" in doc


# mcts-v1's priors at ten violet positions: heuristic self-play from deal 5 (4 players,
# violet table), every 4th decision with a choice from the 2nd; the numbers were printed by
# ``mcts._priors(st, codes, 3.0)`` with the code of the commit before the directed intake
# (when every heuristic used these weights), positions played by that heuristic.
V1_VIOLET_PRIORS = [
    (2, [0, 7], [0.294824648911, 0.705175351089]),
    (6, [0, 8, 9], [0.284146765822, 0.322252788941, 0.393600445237]),
    (10, [0, 8], [0.462448294636, 0.537551705364]),
    (14, [0, 7, 8], [0.430202264197, 0.284898867901, 0.284898867901]),
    (18, [3, 4], [0.5, 0.5]),
    (22, [0, 10], [0.583485122755, 0.416514877245]),
    (26, [2, 3, 4], [0.333333333333, 0.333333333333, 0.333333333333]),
    (30, [2, 3, 4], [0.333333333333, 0.333333333333, 0.333333333333]),
    (34, [3, 4], [0.645656306226, 0.354343693774]),
    (38, [0, 8], [0.474628727309, 0.525371272691]),
]


def test_mcts_v1_priors_keep_the_first_violet_heuristic() -> None:
    """``mcts-v1`` is a fixed reference: under the violet table its priors come from the
    heuristic's frozen ``v1`` weights and equal the values recorded before the heuristic
    changed; the plain ``mcts`` uses the current weights, which differ."""
    from coloretto.agents import mcts
    from coloretto.agents.heuristic import heuristic_code, params_for

    v1 = make_agent("mcts-v1", 1)
    assert v1.params.prior_heuristic == "v1" and SearchParams().prior_heuristic == "current"
    st = new_game(Rules(players=4, table="violet"), 5)
    step = 0
    expected = iter(V1_VIOLET_PRIORS)
    want = next(expected, None)
    differ = 0
    while want is not None:
        codes = st.legal_codes()
        if len(codes) > 1:
            step += 1
            if step == want[0]:
                assert codes == want[1]
                got = mcts._priors(st, codes, v1.params.prior_temp, v1.params.prior_heuristic)
                assert got == pytest.approx(want[2], abs=1e-9)
                differ += mcts._priors(st, codes, 3.0) != pytest.approx(want[2], abs=1e-9)
                want = next(expected, None)
        st.apply_code(heuristic_code(st, st.to_move, codes, params_for(st, "v1")))
    assert differ > 0
