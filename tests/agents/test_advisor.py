"""The move advisor: every legal action once, probabilities in [0, 1], best first."""

from __future__ import annotations

import pytest

from coloretto.agents import Budget
from coloretto.agents.advisor import Advice, advise
from coloretto.agents.heuristic import heuristic_code
from coloretto.engine import Rules, new_game, observe


def _position(players: int, steps: int, seed: int):  # type: ignore[no-untyped-def]
    st = new_game(Rules(players=players), seed)
    for _ in range(steps):
        st.apply_code(heuristic_code(st, st.to_move, st.legal_codes()))
    return st


@pytest.mark.parametrize(("players", "steps"), [(2, 9), (4, 13), (5, 30)])
def test_every_legal_action_once_with_probabilities(players: int, steps: int) -> None:
    st = _position(players, steps, 3)
    legal = st.legal_actions()
    advice = advise(observe(st, st.to_move), legal, Budget(iterations=12 * len(legal)), seed=1)
    assert sorted(a.action for a in advice) == sorted(legal)
    for a in advice:
        assert isinstance(a, Advice)
        assert 0.0 <= a.win_prob <= 1.0
        assert a.samples == 12
        assert 0.0 <= a.stderr <= 0.5
        assert set(a.to_json()) == {"action", "text", "win_prob", "margin", "samples"}
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
