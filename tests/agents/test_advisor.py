"""The move advisor: every legal action once, probabilities in [0, 1], best first."""

from __future__ import annotations

import statistics

import pytest

from coloretto.agents import Budget
from coloretto.agents.advisor import (
    Advice,
    advise,
    is_mistake,
    same_position_groups,
    strongest_evaluator,
)
from coloretto.agents.heuristic import heuristic_code
from coloretto.agents.intervals import margin_interval, win_interval
from coloretto.engine import GameState, Rules, new_game, observe
from coloretto.engine.actions import Action
from coloretto.engine.cards import PLUS2


def _position(players: int, steps: int, seed: int):  # type: ignore[no-untyped-def]
    st = new_game(Rules(players=players), seed)
    for _ in range(steps):
        st.apply_code(heuristic_code(st, st.to_move, st.legal_codes()))
    return st


@pytest.mark.parametrize(("players", "steps"), [(2, 9), (4, 13), (5, 30)])
def test_every_legal_action_once_with_probabilities(players: int, steps: int) -> None:
    st = _position(players, steps, 3)
    legal = st.legal_actions()
    advice = advise(
        observe(st, st.to_move),
        legal,
        Budget(iterations=12 * len(legal)),
        seed=1,
        evaluator="mcts",
    )
    assert sorted(a.action for a in advice) == sorted(legal)
    # The reference search evaluates actions leading to the same position once: the budget
    # is shared among the groups, so each group gets at least the 12 samples an action would
    # get alone.
    groups = {frozenset((a.action, *a.equivalent)) for a in advice}
    per_group = {g: next(a.samples for a in advice if a.action in g) for g in groups}
    assert sum(per_group.values()) == 12 * len(legal)
    assert max(per_group.values()) - min(per_group.values()) <= 1
    for a in advice:
        assert isinstance(a, Advice)
        assert 0.0 <= a.win_prob <= 1.0
        assert a.samples >= 12
        assert 0.0 <= a.stderr <= 0.5
        assert set(a.to_json()) == {
            "action",
            "text",
            "win_prob",
            "win_ci95",
            "margin",
            "margin_ci95",
            "samples",
            "evaluator",
            "equivalent",
        }
        assert a.evaluator == "mcts"
    keys = [(a.win_prob, a.margin) for a in advice]
    assert keys == sorted(keys, reverse=True)


def test_deterministic_with_an_iteration_budget() -> None:
    st = _position(4, 10, 8)
    obs = observe(st, st.to_move)
    a = advise(obs, st.legal_actions(), Budget(iterations=40), seed=5)
    b = advise(obs, st.legal_actions(), Budget(iterations=40), seed=5)
    assert a == b


def test_refuses_a_seat_not_to_move_and_empty_legal() -> None:
    st = _position(3, 4, 1)
    other = (st.to_move + 1) % 3
    with pytest.raises(ValueError, match="not to move"):
        advise(observe(st, other), st.legal_actions(), Budget(iterations=5))
    with pytest.raises(ValueError, match="no legal actions"):
        advise(observe(st, st.to_move), [], Budget(iterations=5))


def test_a_full_row_of_the_core_colour_beats_drawing() -> None:
    """Three cards of the seat's only colour, nothing elsewhere: taking wins far more often
    than an alternative take of nothing better (sanity of the estimates' direction)."""
    st = new_game(Rules(players=3), 12)
    me = st.to_move
    color = next(c for c in st.in_play if st.coll[me][c])
    others = [c for c in st.in_play if not any(col[c] for col in st.coll)]
    st.rows[0] = [color, color, color]
    st.rows[1] = [others[0], others[1], 9]  # two strangers and a "+2"... a worse row
    st.rows[2] = [others[0], others[1], others[2]]
    advice = advise(observe(st, me), st.legal_actions(), Budget(iterations=300), seed=2)
    assert advice[0].action.kind == "take" and advice[0].action.arg == 0


def _drawn(players: int, card: int) -> GameState:
    """A new game's first turn after drawing ``card``: every row empty, a placement to make."""
    for seed in range(200):
        st = new_game(Rules(players=players), seed)
        st.apply_code(0)  # draw
        if st.drawn == card:
            return st
    raise AssertionError("no seed draws that card first")


def test_placing_into_equal_empty_rows_is_one_evaluation() -> None:
    """A "+2" into one of four empty rows of equal capacity: the same position, so one
    evaluation with the whole budget, the four placements listed together, never noise
    reported as a difference between them."""
    st = _drawn(4, PLUS2)
    legal = st.legal_actions()
    assert [a.kind for a in legal] == ["place"] * 4
    advice = advise(observe(st, st.to_move), legal, Budget(iterations=80), seed=3)
    assert len(advice) == 4
    assert len({(a.win_prob, a.margin, a.samples) for a in advice}) == 1
    assert all(a.samples == 80 for a in advice)
    for a in advice:
        assert sorted((a.action, *a.equivalent)) == sorted(legal)
        assert len(a.equivalent) == 3
        assert not is_mistake(advice[0], a)
    assert same_position_groups(st, legal) == [legal]
    assert {a.evaluator for a in advice} == {strongest_evaluator()} == {"ismcts-value"}


def test_rows_equal_in_cards_are_one_group_but_not_across_capacities() -> None:
    st = new_game(Rules(players=4), 5)
    st.rows[0] = [0, 3]
    st.rows[1] = [3, 0]  # the same cards in another order: taking either is the same
    st.rows[2] = [0]
    groups = same_position_groups(st, st.legal_actions())
    assert [[str(a) for a in g] for g in groups] == [
        ["draw"],
        ["take row 1", "take row 2"],
        ["take row 3"],
    ]
    two = new_game(Rules(players=2), 5)  # rows of capacity 1, 2 and 3
    assert two.caps == (1, 2, 3)
    two.rows[1] = [4]
    two.rows[2] = [4]
    groups = same_position_groups(two, two.legal_actions())
    assert [len(g) for g in groups] == [1, 1, 1]  # equal cards, different capacities


def test_advice_carries_samples_and_intervals() -> None:
    st = _position(3, 7, 2)
    legal = st.legal_actions()
    advice = advise(observe(st, st.to_move), legal, Budget(iterations=60 * len(legal)), seed=4)
    for a in advice:
        assert 0.0 <= a.win_low <= a.win_prob <= a.win_high <= 1.0
        assert a.win_interval == win_interval(a.win_prob, a.samples)
        assert a.margin_sd is not None and a.margin_sd >= 0
        low, high = a.margin_interval or (None, None)
        assert low is not None and high is not None
        assert low <= a.margin <= high
        data = a.to_json()
        assert data["samples"] == a.samples
        assert data["win_ci95"] == [round(a.win_low, 4), round(a.win_high, 4)]
        assert data["margin_ci95"] == [round(low, 2), round(high, 2)]
        assert data["text"] == str(a.action)
    # Old four-field construction still works; without a spread there is no margin interval.
    bare = Advice(legal[0], 0.5, 1.0, 10)
    assert bare.margin_interval is None and bare.to_json()["margin_ci95"] is None
    assert bare.win_interval == win_interval(0.5, 10)


def test_intervals_against_published_values() -> None:
    # Jeffreys interval, 0 successes in 10: (0, 0.217) (Brown, Cai and DasGupta 2001, table).
    low, high = win_interval(0.0, 10)
    assert low == 0.0 and high == pytest.approx(0.2172, abs=1e-4)
    low, high = win_interval(1.0, 10)
    assert high == 1.0 and low == pytest.approx(1 - 0.2172, abs=1e-4)
    assert win_interval(0.3, 0) == (0.0, 1.0)
    # Student t: values 1, 2, 3, 4: mean 2.5, sd 1.291, t(3, 0.975) = 3.182: 2.5 +- 2.054.
    low_m, high_m = margin_interval(2.5, statistics.stdev([1, 2, 3, 4]), 4) or (0.0, 0.0)
    assert low_m == pytest.approx(0.4457, abs=1e-4) and high_m == pytest.approx(4.5543, abs=1e-4)
    assert margin_interval(2.5, 0.0, 1) is None
    assert margin_interval(-3.0, 0.0, 5) == (-3.0, -3.0)
    with pytest.raises(ValueError):
        win_interval(1.5, 3)


def test_a_mistake_needs_the_loss_outside_the_noise() -> None:
    take, draw = Action("take", 0), Action("draw")
    # "0% vs 100%" from 2 samples each: the intervals overlap, so it is noise.
    assert not is_mistake(Advice(take, 1.0, 5.0, 2), Advice(draw, 0.0, -5.0, 2))
    # The same estimates from 10 samples each: [0.78, 1] against [0, 0.22]: a mistake.
    assert is_mistake(Advice(take, 1.0, 5.0, 10), Advice(draw, 0.0, -5.0, 10))
    # Equal estimates never, nor actions that lead to the same position.
    assert not is_mistake(Advice(take, 0.4, 0.0, 500), Advice(draw, 0.4, 0.0, 500))
    same = Advice(take, 1.0, 0.0, 50, equivalent=(Action("take", 1),))
    assert not is_mistake(same, Advice(Action("take", 1), 0.0, 0.0, 50))


def test_margin_spread_matches_the_samples() -> None:
    """``SearchResult.margin_sd`` comes from the margins' sum and sum of squares: the same
    as the sample standard deviation of the values (divisor n - 1)."""
    from coloretto.agents.mcts import _sample_sd

    values = [3.0, -1.0, 4.0, 4.0, 0.0]
    assert _sample_sd(sum(values), sum(v * v for v in values), 5) == pytest.approx(
        statistics.stdev(values)
    )
    assert _sample_sd(3.0, 9.0, 1) == 0.0
