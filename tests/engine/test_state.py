"""GameState: copies, children, queries and data forms (the search-facing API)."""

from __future__ import annotations

import pickle
import random

import pytest
from engine_helpers import card_total, full_deck, run_plan, simple_step, stacked_state

from coloretto.engine import GameState, IllegalActionError, Rules, new_game
from coloretto.engine import actions as A
from coloretto.engine.state import OVER, PLACE, TURN


def test_copy_is_independent_and_equal() -> None:
    st = new_game(Rules(players=4), 1)
    run_plan(st, "d0 d1")
    cp = st.copy()
    assert cp == st and cp.to_dict() == st.to_dict()
    cp.apply(A.DRAW)
    cp.apply(cp.legal_codes()[0])
    assert cp != st
    assert st.rows != cp.rows and len(st.pile) == len(cp.pile) + 1
    # nested lists are not shared
    cp2 = st.copy()
    cp2.coll[0][0] += 1
    cp2.rows[0].append(9)
    assert st.coll[0][0] != cp2.coll[0][0] and st.rows[0] != cp2.rows[0]


def test_child_leaves_parent_unchanged() -> None:
    st = new_game(Rules(players=3), 2)
    before = st.to_dict()
    kid = st.child(A.DRAW)
    assert st.to_dict() == before and kid.phase == PLACE
    with pytest.raises(IllegalActionError):
        st.child(A.TAKE0)
    assert st.to_dict() == before


def test_apply_accepts_actions_and_codes_alike() -> None:
    a = new_game(Rules(players=4), 5)
    b = a.copy()
    a.apply(A.DRAW)
    b.apply(A.DRAW_ACTION)
    a.apply(A.PLACE0 + 1)
    b.apply(A.Action("place", 1))
    assert a == b


def test_apply_code_matches_apply_in_random_games() -> None:
    rng = random.Random(3)
    for seed in range(5):
        a = new_game(Rules(players=2 + seed % 4), seed)
        b = a.copy()
        while not a.is_over():
            codes = a.legal_codes()
            code = codes[rng.randrange(len(codes))]
            a.apply(code)
            b.apply_code(code)
            assert a == b


def test_legal_actions_mask_and_codes_agree() -> None:
    st = new_game(Rules(players=5), 4)
    rng = random.Random(0)
    while not st.is_over():
        codes = st.legal_codes()
        assert [a.code for a in st.legal_actions()] == codes
        mask = st.legal_mask()
        assert len(mask) == A.NUM_DISTINCT_ACTIONS
        assert [c for c, ok in enumerate(mask) if ok] == codes
        st.apply(codes[rng.randrange(len(codes))])
    assert st.legal_actions() == [] and not any(st.legal_mask())


def test_decision_names_and_cards_left() -> None:
    st = stacked_state(Rules(players=4))
    assert st.decision == "turn" and st.phase == TURN
    assert st.cards_left() == 72
    st.apply(A.DRAW)
    assert st.decision == "place" and st.cards_left() == 71
    while not st.is_over():
        if st.phase == PLACE:
            st.apply(st.legal_codes()[0])
        else:
            simple_step(st)
    assert st.decision == "over" and st.phase == OVER


def test_scores_totals_winners_ranks() -> None:
    st = stacked_state(Rules(players=4))
    st.coll = [[0] * 10 for _ in range(4)]
    st.coll[0][0] = 3  # 6
    st.coll[1][1] = 3  # 6
    st.coll[2][2] = 1  # 1
    st.coll[3][9] = 2  # 4
    assert st.scores() == [6, 6, 1, 4]
    assert st.totals() == [6, 6, 1, 4]
    assert st.winners() == [0, 1]
    assert st.ranks() == [1, 1, 4, 3]
    bd = st.breakdown(3)
    assert bd.total == 4 and bd.plus2 == 4


def test_to_dict_is_json_and_holds_the_secret_pile() -> None:
    import json

    st = new_game(Rules(players=4), 6)
    d = st.to_dict()
    assert json.loads(json.dumps(d)) == d
    setup = st.setups[0]
    assert setup is not None and setup.draw_pile is not None
    assert d["pile_top_first"] == list(setup.draw_pile)
    assert "GameState" in repr(st)


def test_states_pickle() -> None:
    st = new_game(Rules(players=3, edition="modern"), 8)
    run_plan(st, "d0 d1 t0")
    again = pickle.loads(pickle.dumps(st))
    assert again == st
    assert card_total(again) == full_deck(again)


def test_states_are_unhashable_values() -> None:
    st = new_game(Rules(), 1)
    with pytest.raises(TypeError):
        hash(st)
    assert st != "state"


def test_redacted_match_future_setup_missing() -> None:
    """A state built with a missing future setup reports it clearly (not a crash)."""
    rules = Rules(players=3, match_games=2)
    full = new_game(rules, 1)
    st = GameState(rules, [full.setups[0], None])
    assert st.setups[1] is None
    with pytest.raises(Exception, match="no setup"):
        while True:
            simple_step(st)
