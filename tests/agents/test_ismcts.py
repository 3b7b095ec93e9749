"""``ismcts``: legal complete games, information hiding, agreement with the reference search."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import pytest

pytest.importorskip("numba")

from coloretto.agents import Budget, make_agent
from coloretto.agents.advisor import advise
from coloretto.agents.ismcts import ISMCTSAgent
from coloretto.agents.mcts import (
    V1_PARAMS,
    MCTSAgent,
    MCTSv1Agent,
    SearchParams,
    decision_rng,
    search,
)
from coloretto.arena.bench_search import search_positions
from coloretto.arena.driver import play_out, start_game
from coloretto.engine import LAST_ROUND, Rules, new_game, observe, preset
from coloretto.engine import actions as A
from coloretto.engine.rules import PRESET_PLAYERS, PRESETS
from coloretto.engine.state import PLACE, TURN, GameState

CONFIGS = [
    (name, n)
    for name in PRESETS
    for n in range(PRESET_PLAYERS[name][0], PRESET_PLAYERS[name][1] + 1)
]


@pytest.mark.parametrize(("preset_name", "players"), CONFIGS)
def test_ismcts_plays_complete_games(preset_name: str, players: int) -> None:
    rules = preset(preset_name, players)
    specs = ["ismcts"] * players
    game = start_game(rules, 11, specs, preset_name=preset_name)
    agents = [make_agent(s, i, Budget(iterations=40)) for i, s in enumerate(specs)]
    play_out(game, agents)  # raises on an illegal action
    assert game.state.is_over()


@pytest.mark.parametrize(
    "overrides",
    [
        {"table": "violet"},
        {"table": "violet", "edition": "modern"},
        {"starting_cards": "choose"},
        {"extra_card": "first_out_draws", "edition": "modern"},
        {"next_round_starter": "left_of_last_taker", "joker_any_color": False},
    ],
)
@pytest.mark.parametrize("players", [2, 5])
def test_ismcts_plays_the_variants(overrides: dict[str, object], players: int) -> None:
    rules = Rules(players=players, **overrides)  # type: ignore[arg-type]
    game = start_game(rules, 4, ["ismcts"] * players)
    agents = [ISMCTSAgent(i, Budget(iterations=25)) for i in range(players)]
    play_out(game, agents)
    assert game.state.is_over()


def _unseen_shuffled(state: GameState, rng: random.Random) -> GameState:
    """A copy of ``state`` whose unseen cards (the draw pile but the Last Round card) are
    reshuffled: the same observation for every seat, another true state."""
    twin = state.copy()
    pile = twin.pile
    depth = pile.index(LAST_ROUND)
    rest = [c for c in pile if c != LAST_ROUND]
    original = rest[:]
    while rest == original:
        rng.shuffle(rest)
    twin.pile = rest[:depth] + [LAST_ROUND] + rest[depth:]
    return twin


@pytest.mark.parametrize(
    ("budget", "name"),
    [
        (Budget(iterations=400), "ismcts"),
        (Budget(iterations=2500), "ismcts"),
        # expert's search: the learned value and the heuristic's priors in the tree
        (Budget(iterations=1500), "ismcts-value"),
    ],
)
def test_decision_unchanged_when_the_unseen_cards_are_reshuffled(budget: Budget, name: str) -> None:
    rng = random.Random(5)
    checked = 0
    for seed in range(6):
        state = new_game(Rules(players=4), 40 + seed)
        for _ in range(10 + 3 * seed):
            codes = state.legal_codes()
            state.apply_code(codes[rng.randrange(len(codes))])
        if state.phase not in (TURN, PLACE) or len(state.legal_codes()) < 2:
            continue
        seat = state.to_move
        legal = state.legal_actions()
        results = []
        for st in (state, _unseen_shuffled(state, rng), _unseen_shuffled(state, rng)):
            assert st.pile != state.pile or st is state
            agent = make_agent(name, 9, budget)
            assert isinstance(agent, ISMCTSAgent)
            agent.reset(seat, st.rules)
            action = agent.act(observe(st, seat), legal)
            assert agent.last is not None
            results.append((action, tuple(agent.last.visits), tuple(agent.last.win)))
        assert results[0] == results[1] == results[2]
        checked += 1
    assert checked >= 4


def test_same_seed_same_decision_other_seed_other_search() -> None:
    state = new_game(Rules(players=4), 3)
    while len(state.legal_codes()) < 3:
        state.apply_code(state.legal_codes()[-1 if state.phase == PLACE else 0])
    obs = observe(state, state.to_move)
    legal = state.legal_actions()
    runs = []
    for seed in (1, 1, 2):
        agent = ISMCTSAgent(seed=seed, budget=Budget(iterations=800))
        agent.reset(obs.seat, state.rules)
        agent.act(obs, legal)
        assert agent.last is not None and agent.last.iterations == 800
        runs.append(tuple(agent.last.visits))
    assert runs[0] == runs[1]
    assert runs[0] != runs[2]


def _move_from_pile(st: GameState, card: int, dest: list[int]) -> None:
    st.pile.remove(card)
    dest.append(card)


BLUE, BROWN, GRAY, GREEN, ORANGE, PINK, YELLOW, PLUS2 = 0, 1, 2, 3, 4, 5, 6, 9


def _crafted_base() -> GameState:
    """Seat 0 to move at a turn, holding 4 blue, 3 green and 2 pink; the opponents hold
    3 brown, 3 gray and 3 orange; every row empty. Cards come from the draw pile."""
    st = new_game(Rules(players=4), 77, first_player=0)
    for seat in range(4):
        st.coll[seat] = [0] * 10
    for seat, held in (
        (0, ((BLUE, 4), (GREEN, 3), (PINK, 2))),
        (1, ((BROWN, 3),)),
        (2, ((GRAY, 3),)),
        (3, ((ORANGE, 3),)),
    ):
        for colour, k in held:
            got: list[int] = []
            for _ in range(k):
                _move_from_pile(st, colour, got)
            st.coll[seat][colour] += k
    return st


def _crafted_take() -> GameState:
    """Row 0 holds three blues (full), row 1 a yellow: taking row 0 (7 blues, +11 points)
    is clearly best for seat 0."""
    st = _crafted_base()
    for _ in range(3):
        _move_from_pile(st, BLUE, st.rows[0])
    _move_from_pile(st, YELLOW, st.rows[1])
    return st


def _crafted_draw() -> GameState:
    """Row 0 holds a yellow and an orange, row 1 a gray (colours seat 0 does not collect),
    rows 2 and 3 are empty, 45 cards are left: drawing is clearly best for seat 0."""
    st = _crafted_base()
    for c in (YELLOW, ORANGE):
        _move_from_pile(st, c, st.rows[0])
    _move_from_pile(st, GRAY, st.rows[1])
    return st


@pytest.mark.parametrize(("make", "best"), [(_crafted_take, A.TAKE0 + 0), (_crafted_draw, A.DRAW)])
def test_both_searches_pick_the_clearly_best_action(make, best: int) -> None:  # type: ignore[no-untyped-def]
    st = make()
    legal = st.legal_actions()
    assert best in [a.code for a in legal] and len(legal) > 1
    for agent in (ISMCTSAgent(1, Budget(iterations=3000)), MCTSv1Agent(1, Budget(iterations=600))):
        agent.reset(st.to_move, st.rules)
        assert agent.act(observe(st, st.to_move), legal).code == best, agent


def _interval(p: float, n: int) -> tuple[float, float]:
    h = 1.96 * math.sqrt(max(p * (1 - p), 0.05) / n)
    return p - h, p + h


def test_compiled_and_reference_choices_are_equally_good_at_equal_iterations() -> None:
    """Over fixed positions the compiled and the reference search (1,000 iterations each)
    choose actions whose reference values (the reference search's win rate with every root
    action sampled at least 150 times) have overlapping 95% intervals."""
    positions = search_positions(4, 6)
    agreed = 0
    for i, st in enumerate(positions):
        obs = observe(st, st.to_move)
        legal = st.legal_actions()
        fast = ISMCTSAgent(i, Budget(iterations=1000))
        ref = MCTSv1Agent(i, Budget(iterations=1000))
        for agent in (fast, ref):
            agent.reset(obs.seat, st.rules)
        c_fast = fast.act(obs, legal).code
        c_ref = ref.act(obs, legal).code
        k = len(legal)
        values = search(
            obs.sample_state,
            obs.seat,
            decision_rng(100 + i, obs),
            150 * k + 200,
            None,
            V1_PARAMS,
            min_root_visits=150,
        )
        idx = {c: j for j, c in enumerate(values.codes)}
        lo_f, hi_f = _interval(values.win[idx[c_fast]], values.visits[idx[c_fast]])
        lo_r, hi_r = _interval(values.win[idx[c_ref]], values.visits[idx[c_ref]])
        assert lo_f <= hi_r and lo_r <= hi_f, (i, c_fast, c_ref, values)
        agreed += c_fast == c_ref
    assert agreed >= 3  # and mostly the very same action


def test_registry_names_and_the_fixed_reference() -> None:
    assert make_agent("ismcts", 1).name == "ismcts"
    v1 = make_agent("mcts-v1", 1)
    assert isinstance(v1, MCTSAgent) and v1.name == "mcts-v1"
    # today's defaults, written out, with the heuristic's frozen weights for the priors
    assert v1.params == V1_PARAMS == replace(SearchParams(), prior_heuristic="v1")


def test_round_robin_root_gives_every_action_the_same_samples() -> None:
    """The advisor's mode: every root action sampled equally, estimates in range."""
    st = _crafted_take()
    agent = ISMCTSAgent(3, Budget(iterations=301))
    agent.reset(0, st.rules)
    res = agent.search(observe(st, 0), round_robin=True)
    assert res.codes == st.legal_codes() and len(res.codes) == 3
    assert sorted(res.visits) == [100, 100, 101]
    assert all(0.0 <= w <= 1.0 for w in res.win)
    best = max(range(3), key=lambda j: res.win[j])
    assert res.codes[best] == A.TAKE0  # the clearly best action, with equal samples


def test_the_advisor_on_the_compiled_search_ranks_every_action_with_equal_samples() -> None:
    """``advise`` with the compiled evaluators: equal samples per action (round-robin), the
    clearly best action first, reproducible, the sureness in the text and the JSON."""
    st = _crafted_take()
    obs = observe(st, 0)
    legal = st.legal_actions()
    for name in ("ismcts", "ismcts-value"):
        advice = advise(obs, legal, Budget(iterations=600), seed=4, evaluator=name)
        assert sorted(a.action.code for a in advice) == st.legal_codes()
        assert advice[0].action.code == A.TAKE0
        assert {a.samples for a in advice} == {200}
        assert {a.evaluator for a in advice} == {name}
        assert all(0 < a.stderr < 0.1 for a in advice if 0 < a.win_prob < 1)
        assert all(a.margin_sd is not None and a.margin_interval is not None for a in advice)
        assert advice == advise(obs, legal, Budget(iterations=600), seed=4, evaluator=name)
        assert "200 samples" in advice[0].sureness()
        assert advice[0].to_json()["evaluator"] == name
    with pytest.raises(ValueError, match="not to move"):
        advise(observe(st, 1), legal, evaluator="ismcts")
    chooser = new_game(Rules(players=3, starting_cards="choose"), 2)
    got = advise(
        observe(chooser, chooser.to_move),
        chooser.legal_actions(),
        Budget(iterations=30),
        evaluator="ismcts-value",
    )
    assert len(got) == len(chooser.legal_actions())
    assert {a.evaluator for a in got} == {"mcts"}  # starting colours: the reference search


@pytest.mark.parametrize(("preset_name", "players"), [("classic", 4), ("modern", 3), ("bga", 5)])
def test_the_value_oracle_plays_complete_games(preset_name: str, players: int) -> None:
    """``oracle-value`` (the ``expert`` search on the true state) plays legal games against
    ``expert``: the driver shows it the true state before each decision (``peek``)."""
    rules = preset(preset_name, players)
    specs = ["oracle-value"] + ["expert"] * (players - 1)
    game = start_game(rules, 12, specs, preset_name=preset_name)
    agents = [make_agent(s, i, Budget(iterations=60)) for i, s in enumerate(specs)]
    assert agents[0].needs_true_state and not agents[1].needs_true_state
    play_out(game, agents)
    assert game.state.is_over()


def test_the_value_oracle_searches_the_true_pile_and_needs_it() -> None:
    """Where ``ismcts-value`` decides the same whatever the order of the unseen cards, the
    oracle's search follows the true pile: its root statistics differ when the unseen cards
    are reshuffled (at a fixed seed), and it refuses to decide without ``peek``."""
    from coloretto.agents.ismcts import ValueOracleAgent

    rng = random.Random(8)
    differs = 0
    for seed in range(4):
        state = new_game(Rules(players=4), 60 + seed)
        for _ in range(12 + 2 * seed):
            codes = state.legal_codes()
            state.apply_code(codes[rng.randrange(len(codes))])
        if state.phase not in (TURN, PLACE) or len(state.legal_codes()) < 2:
            continue
        seat, legal = state.to_move, state.legal_actions()
        stats = []
        for st in (state, _unseen_shuffled(state, rng)):
            oracle = ValueOracleAgent(seed=3, budget=Budget(iterations=300))
            oracle.reset(seat, st.rules)
            oracle.peek(st)
            oracle.act(observe(st, seat), legal)
            assert oracle.last is not None
            stats.append((tuple(oracle.last.visits), tuple(oracle.last.win)))
        differs += stats[0] != stats[1]
    assert differs >= 2
    oracle = ValueOracleAgent(seed=3, budget=Budget(iterations=50))
    oracle.reset(state.to_move, state.rules)
    with pytest.raises(RuntimeError, match="needs peek"):
        oracle.act(observe(state, state.to_move), state.legal_actions())
