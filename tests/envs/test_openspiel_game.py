"""The OpenSpiel game ``python_coloretto``: OpenSpiel's own random simulation test for every
player count, exact chance nodes (draws, the Last Round card at its depth, bonus cards),
what the observations hold, and OpenSpiel's MCTS bot playing whole games."""

from __future__ import annotations

import doctest
import json
from collections import Counter

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import mcts
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
from open_spiel.python.bots.uniform_random import UniformRandomBot

import coloretto.envs.openspiel as os_module
from coloretto.engine import ConfigurationError, IllegalActionError, observe
from coloretto.engine.actions import DRAW, TAKE0
from coloretto.engine.cards import GOLDEN_JOKER, LAST_ROUND
from coloretto.envs.common import final_rewards
from coloretto.envs.encoding import OBSERVATION_SIZE, encode
from coloretto.envs.openspiel import SHORT_NAME, rules_from_parameters


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_sim_test_for_every_player_count(players: int) -> None:
    game = pyspiel.load_game(SHORT_NAME, {"players": players})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize(
    "params",
    [
        {"players": 3, "edition": "modern", "table": "violet"},
        {"players": 4, "starting_cards": "choose", "next_round_starter": "left_of_last_taker"},
        {"players": 3, "match_games": 2, "joker_any_color": False, "reward": "win"},
        {
            "players": 4,
            "edition": "modern",
            "extra_card": "first_out_draws",
            "row_capacities": "3/3/2/4",
        },
    ],
    ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()),
)
def test_random_sim_test_with_rules_options(params: dict) -> None:
    game = pyspiel.load_game(SHORT_NAME, params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_game_type_and_parameters() -> None:
    game = pyspiel.load_game(
        SHORT_NAME, {"players": 3, "extra_card": "triple_minus", "row_capacities": "3/2/4"}
    )
    gt = game.get_type()
    assert gt.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert gt.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert gt.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.num_players() == 3 and game.num_distinct_actions() == 20
    assert game.observation_tensor_size() == OBSERVATION_SIZE
    assert game.information_state_tensor_size() == OBSERVATION_SIZE
    rules, reward = rules_from_parameters(
        {"players": 3, "extra_card": "triple_minus", "row_capacities": "3/2/4"}
    )
    assert (rules.extra_card, rules.row_capacities, reward) == ("triple_minus", (3, 2, 4), "margin")
    assert rules_from_parameters({})[0].extra_card is None
    with pytest.raises(ConfigurationError, match="unknown parameter"):
        rules_from_parameters({"colour": "blue"})
    with pytest.raises(ConfigurationError, match="row_capacities"):
        rules_from_parameters({"row_capacities": "3,3"})
    with pytest.raises(ConfigurationError, match="players"):
        rules_from_parameters({"players": 7})
    with pytest.raises(ConfigurationError, match="reward"):
        rules_from_parameters({"reward": "points"})


def _play(params: dict, seed: int, check=None):
    """A random game; ``check(state)`` before every action. Returns the final state and the
    revealed cards in order."""
    game = pyspiel.load_game(SHORT_NAME, params)
    state = game.new_initial_state()
    rng = np.random.RandomState(seed)
    while not state.is_terminal():
        if check is not None:
            check(state)
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            legal = state.legal_actions()
            state.apply_action(int(legal[rng.randint(len(legal))]))
    return state


def test_draw_chance_nodes_are_the_unseen_composition_and_the_last_round_card_keeps_its_depth() -> (
    None
):
    seen = Counter()

    def check(state) -> None:
        st = state.engine
        if st is None or not state.is_chance_node() or state._p.pending != DRAW:
            return
        unseen = observe(st, 0).unseen()
        total = sum(unseen.values())
        outcomes = state.chance_outcomes()
        assert outcomes == [(c, k / total) for c, k in sorted(unseen.items())]
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-12 and LAST_ROUND not in dict(outcomes)
        above = None if st.last_round else len(st.pile) - 1 - st.pile.index(LAST_ROUND)
        after = state.clone()
        after.apply_action(outcomes[-1][0])
        assert after.engine.last_round == (st.last_round or above == 0)
        if above == 0:
            seen["last_round_drawn"] += 1
            # K cards lay under the Last Round card: that many are left after this draw.
            assert after.engine.cards_left() == st.rules.cards_under_last_round - 1
        seen["draws"] += 1

    for seed in range(3):
        final = _play({"players": 4}, seed, check)
        assert final.returns() == final_rewards(final.engine, "margin")
    assert seen["draws"] > 100 and seen["last_round_drawn"] == 3


def test_bonus_cards_of_the_golden_joker_are_chance_nodes() -> None:
    found = Counter()

    def check(state) -> None:
        st = state.engine
        if st is None or state.is_chance_node():
            return
        for code in state.legal_actions():
            if code >= TAKE0 and GOLDEN_JOKER in st.rows[code - TAKE0]:
                after = state.clone()
                after.apply_action(code)
                assert after.is_chance_node() and after._p.pending == code
                card, _ = after.chance_outcomes()[0]
                seat = st.to_move
                before = st.coll[seat][card] + st.rows[code - TAKE0].count(card)
                after.apply_action(card)
                assert not after.is_chance_node() or after.engine.is_over()
                assert after.engine.coll[seat][card] == before + 1
                found["golden"] += 1

    for seed in range(6):
        _play({"players": 3, "edition": "modern"}, seed, check)
    assert found["golden"] > 0


def test_observations_are_the_encoding_and_info_states_hide_later_deals() -> None:
    game = pyspiel.load_game(SHORT_NAME, {"players": 3, "match_games": 2})
    state = game.new_initial_state()
    deals = 0
    rng = np.random.RandomState(5)
    while state.engine is None:
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(outcomes, p=probs)))
        deals += 1
    assert deals == 2 * (1 + 1 + 3)  # per game: one removed colour, first player, 3 starting cards
    info = state.information_state_string(0)
    assert len(info.split()) == 1 + 5  # "p0" and game 1's five deal outcomes only
    for p in range(3):
        assert np.array_equal(
            np.array(state.observation_tensor(p), np.float32), encode(observe(state.engine, p))
        )
        assert np.array_equal(
            np.array(state.information_state_tensor(p), np.float32),
            encode(observe(state.engine, p)),
        )
        assert json.loads(state.observation_string(p)) == observe(state.engine, p).to_json()
    while state.engine.game == 0:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            legal = state.legal_actions()
            state.apply_action(int(legal[rng.randint(len(legal))]))
    assert (
        sum(
            t.startswith(("remove", "first", "start"))
            for t in state.information_state_string(1).split()
        )
        == 10
    )


def test_mcts_and_evaluate_bots_play_whole_games() -> None:
    game = pyspiel.load_game(SHORT_NAME, {"players": 2, "edition": "modern"})
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(2))
    bots = [
        mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=np.random.RandomState(3)),
        UniformRandomBot(1, np.random.RandomState(4)),
    ]
    returns = evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(1))
    assert len(returns) == 2 and returns[0] == -returns[1]


def test_illegal_chance_outcomes_and_actions_are_refused() -> None:
    game = pyspiel.load_game(SHORT_NAME, {"players": 2})
    state = game.new_initial_state()
    with pytest.raises(Exception, match="not an outcome"):
        state.apply_action(9)  # colours are 0..6
    while state.engine is None:
        state.apply_action(state.chance_outcomes()[0][0])
    history, info = state.history(), state.information_state_string(0)
    with pytest.raises(IllegalActionError, match="take row 1"):
        state.apply_action(TAKE0)  # every row is empty
    assert state.history() == history and state.information_state_string(0) == info


def test_docstring_examples() -> None:
    result = doctest.testmod(os_module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0 and result.attempted >= 4


@pytest.mark.parametrize(("players", "edition"), [(2, "classic"), (4, "modern"), (5, "classic")])
def test_an_openspiel_history_is_an_engine_game_with_the_revealed_pile(
    players: int, edition: str
) -> None:
    """Twin: the deal outcomes and the revealed cards, in order, make a draw pile (the Last
    Round card K cards from the bottom, the unrevealed cards under the revealed ones); the
    engine, dealt that setup and given the same decisions, ends in the same state."""
    from coloretto.engine import GameState, Setup

    final = _play({"players": players, "edition": edition}, seed=players)
    p = final._p
    rules = p.rules
    each = rules.starting_cards_each
    picks = p.picks[0]
    starting = tuple(tuple(sorted(picks[s * each : (s + 1) * each])) for s in range(players))
    revealed = [int(t.split(":")[1]) for _, t in p.log if t.startswith("card:")]
    decisions = [int(t.split(":")[1]) for _, t in p.log if t[0].isdigit()]
    engine = final.engine
    unrevealed = Counter(c for c in engine.pile if c != LAST_ROUND)
    rest = sorted(unrevealed.elements())
    cards = revealed + rest  # top first
    at = len(cards) - rules.cards_under_last_round
    pile = tuple(cards[:at] + [LAST_ROUND] + cards[at:])
    setup = Setup(tuple(sorted(p.removed[0])), starting, p.first[0], pile)
    twin = GameState(rules, [setup])
    for code in decisions:
        twin.apply(code)
    assert twin.is_over() and len(decisions) > 50
    mine, theirs = twin.to_dict(), engine.to_dict()
    assert sorted(mine.pop("pile_top_first")) == sorted(theirs.pop("pile_top_first"))
    assert mine == theirs
    assert final.returns() == final_rewards(twin, "margin")
