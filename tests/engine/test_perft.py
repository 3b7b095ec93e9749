"""perft: counts of legal action sequences, checked by hand on small positions."""

from __future__ import annotations

import pytest
from engine_helpers import run_plan, simple_step, stacked_state

from coloretto.engine import Rules, new_game, perft
from coloretto.engine import actions as A


def test_perft_by_hand_four_players() -> None:
    st = stacked_state(Rules(players=4))
    assert perft(st, 0) == 1
    # Start of a round: only draw; the card goes to one of 4 rows.
    assert perft(st, 1) == 4
    # After one card in some row r: the next player may draw (4 rows) or take row r (1).
    assert perft(st, 2) == 4 * 5
    # Third ply: after a take the next player has 3 rows to draw into; after a second card
    # in the same or another row the count depends on where the cards lie.
    assert perft(st, 3) == sum(perft(c, 2) for c in [st.child(A.DRAW).child(A.PLACE0 + r) for r in range(4)])


def test_perft_two_players_capacities() -> None:
    st = stacked_state(Rules(players=2))
    assert perft(st, 1) == 3
    run_plan(st, "d0")  # row 0 (capacity 1) full
    # seat 1: draw into rows 1 or 2, or take row 0
    assert perft(st, 1) == 3


def test_perft_from_a_place_decision() -> None:
    st = stacked_state(Rules(players=4))
    st.apply(A.DRAW)
    assert perft(st, 1) == 4


def test_perft_choose_starting_cards() -> None:
    choose = new_game(Rules(players=3, starting_cards="choose"), 1, removed_colors=[6])
    assert perft(choose, 1) == 6
    assert perft(choose, 2) == 6 * 5
    assert perft(choose, 3) == 6 * 5 * 4


def test_perft_game_end_not_counted_further() -> None:
    st = stacked_state(Rules(players=4))
    with pytest.raises(ValueError):
        perft(st, -1)
    while not (st.last_round and st.active == 1 and st.legal_codes() == [A.TAKE0 + r for r in range(4) if st.rows[r]] and len(st.legal_codes()) == 1):
        simple_step(st)
    # One take is left and it ends the game: sequences of length 2 do not exist.
    assert perft(st, 1) == 1
    assert perft(st, 2) == 0
    st.apply(st.legal_codes()[0])
    assert st.is_over() and perft(st, 1) == 0 and perft(st, 0) == 1
