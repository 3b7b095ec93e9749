"""``GameState.apply`` returns the ``Step`` of the transition: one crafted position per rule
that a Step reports (docs/rules.md §3 to §5), and ``GameState.results``.

States are built with a chosen draw pile (``engine_helpers.stacked_state``)."""

from __future__ import annotations

import pytest
from engine_helpers import (
    big_rows,
    drain_to,
    run_plan,
    simple_step,
    stacked_state,
    to_pile_exhaustion,
)

from coloretto.engine import IllegalActionError, Rules, Step, card_code, new_game
from coloretto.engine import actions as A
from coloretto.engine.cards import GOLDEN_JOKER, PLUS2
from coloretto.engine.state import PLACE, TURN

G, B, P, O = (card_code(n) for n in ("green", "blue", "pink", "orange"))
JOKER = card_code("joker")


def quiet(step: Step) -> bool:
    """Nothing beyond the action itself happened."""
    return (
        step.bonus == ()
        and not step.last_round_revealed
        and step.left == ()
        and step.removed == ()
        and not (step.round_over or step.game_over or step.match_over)
    )


def test_draw_and_place() -> None:
    st = stacked_state(Rules(players=4), first=2, top=["green", "blue"])
    draw = st.apply(A.DRAW)
    assert (draw.seat, draw.action, draw.game, draw.round) == (2, A.DRAW_ACTION, 0, 1)
    assert draw.drawn == G == st.drawn and draw.placed is None and draw.taken == ()
    assert quiet(draw) and st.phase == PLACE and st.to_move == 2
    place = st.apply(A.PLACE0 + 3)
    assert (place.seat, place.action) == (2, A.Action("place", 3))
    assert place.placed == G and place.drawn is None and place.taken == ()
    assert quiet(place) and st.rows[3] == [G] and st.to_move == 3


def test_apply_code_records_nothing_and_illegal_apply_returns_no_step() -> None:
    st = stacked_state(Rules(players=4), top=["green"])
    assert st.apply_code(A.DRAW) is None
    before = st.to_dict()
    with pytest.raises(IllegalActionError):
        st.apply(A.DRAW)
    assert st.to_dict() == before


def test_draw_that_reveals_the_last_round_card() -> None:
    st = stacked_state(Rules(players=3), after_lr=["plus2"])
    drain_to(st, 0)
    seat, round_ = st.to_move, st.round
    step = st.apply(A.DRAW)
    assert step.last_round_revealed and step.drawn == PLUS2
    assert (step.seat, step.round) == (seat, round_) and not step.round_over
    assert st.last_round


def test_take_with_golden_joker_bonus_revealing_the_last_round_card() -> None:
    rules = Rules(players=4, edition="modern")
    st = stacked_state(rules, before_lr=["golden_joker"], after_lr=["plus2", "blue"])
    drain_to(st, 1)
    row = next(r for r in range(4) if st.row_taker[r] == -1 and len(st.rows[r]) < 3)
    st.apply(A.DRAW)
    st.apply(A.PLACE0 + row)
    cards = tuple(st.rows[row])
    seat = st.to_move
    step = st.apply(A.TAKE0 + row)
    assert step.seat == seat and step.taken == cards and GOLDEN_JOKER in step.taken
    assert step.bonus == (PLUS2,) and step.last_round_revealed
    assert not step.round_over and step.drawn is None and step.placed is None
    assert st.last_round


def test_first_out_draws_bonus_only_for_the_first_take_of_a_round() -> None:
    rules = Rules(players=4, extra_card="first_out_draws")
    st = stacked_state(rules, top=["green", "plus2", "joker", "yellow"])
    run_plan(st, "d0")
    first = st.apply(A.TAKE0)
    assert first.taken == (G,) and first.bonus == (PLUS2,) and not first.last_round_revealed
    run_plan(st, "d1")
    second = st.apply(A.TAKE0 + 1)
    assert second.taken == (JOKER,) and second.bonus == ()


def test_golden_joker_bonus_comes_before_the_first_out_bonus() -> None:
    rules = Rules(players=4, edition="modern", extra_card="first_out_draws")
    st = stacked_state(rules, top=["golden_joker", "pink", "orange"])
    run_plan(st, "d0")
    step = st.apply(A.TAKE0)
    assert step.taken == (GOLDEN_JOKER,) and step.bonus == (P, O)


def test_seats_leaving_with_nothing_end_the_round_and_the_game() -> None:
    """docs/rules.md §5.3: after the last take, the two seats left have only empty rows."""
    st = stacked_state(big_rows(5))
    to_pile_exhaustion(st, 15)
    takers = []
    for r in range(2):
        takers.append(st.to_move)
        assert st.apply(A.TAKE0 + r).left == ()
    takers.append(st.to_move)
    last = st.apply(A.TAKE0 + 2)
    assert set(last.left) == set(range(5)) - set(takers) and len(last.left) == 2
    assert last.round_over and last.game_over and last.match_over
    assert last.removed == ()  # rows 3..5 hold nothing
    assert st.is_over() and len(st.results) == 1


def test_two_player_leftover_row_is_removed_at_the_round_end() -> None:
    st = stacked_state(
        Rules(players=2), top=["green", "blue", "green", "orange", "plus2", "joker"]
    )
    run_plan(st, "d2 d2 d2 d0 t0 d1")
    round_ = st.round
    step = st.apply(A.TAKE0 + 1)
    assert step.round_over and not step.game_over and step.round == round_
    assert step.removed == (G, B, G)  # the third row, in row order
    assert st.round == round_ + 1 and st.removed == [G, B, G]


def test_round_end_without_leftover() -> None:
    st = stacked_state(Rules(players=3), top=["green", "blue", "pink"])
    run_plan(st, "d0 t0 d1 t1 d2")
    step = st.apply(A.TAKE0 + 2)
    assert step.round_over and step.removed == () and not step.game_over
    assert step.round == 1 and st.round == 2 and st.phase == TURN


def test_game_end_in_a_match_then_match_end() -> None:
    rules = Rules(players=3, match_games=2)
    st = new_game(rules, 7)
    steps: list[Step] = []
    while not st.is_over():
        legal = st.legal_codes()
        code = A.DRAW if A.DRAW in legal else legal[0]
        if st.phase == PLACE:
            code = legal[0]
        before = [c[:] for c in st.coll]
        step = st.apply(code)
        steps.append(step)
        if step.game_over and not step.match_over:
            # the next game is already dealt; the finished game's collections are kept
            assert st.game == 1 and st.round == 1 and step.game == 0
            result = st.results[0]
            assert result.game == 0 and st.match_totals == list(result.scores)
            assert [list(c) for i, c in enumerate(result.collections) if i != step.seat] == [
                c for i, c in enumerate(before) if i != step.seat
            ]
            assert result.colors_in_play == st.setups[0].colors_in_play  # type: ignore[union-attr]
            assert [result.breakdown(s, rules).total for s in range(3)] == list(result.scores)
    ends = [s for s in steps if s.game_over]
    assert [s.game for s in ends] == [0, 1] and [s.match_over for s in ends] == [False, True]
    assert all(s.round_over for s in ends) and steps[-1] is ends[-1]
    assert len(st.results) == 2
    assert st.totals() == [a + b for a, b in zip(st.results[0].scores, st.results[1].scores)]
    assert [s.game for s in steps] == sorted(s.game for s in steps)


def test_results_survive_copies_and_start_empty() -> None:
    st = new_game(Rules(players=4), 2)
    assert st.results == ()
    while not st.is_over():
        simple_step(st)
    (result,) = st.results
    assert st.copy().results == st.results
    assert list(result.scores) == st.totals()
    assert [list(c) for c in result.collections] == st.coll


def test_step_json_names_cards() -> None:
    rules = Rules(players=4, extra_card="first_out_draws")
    st = stacked_state(rules, top=["green", "plus2"])
    run_plan(st, "d0")
    data = st.apply(A.TAKE0).to_json()
    assert data["action"] == {"action": "take", "row": 0}
    assert data["taken"] == ["green"] and data["bonus"] == ["plus2"]
    assert data["drawn"] is None and data["game"] == 0 and data["round"] == 1
    assert data["round_over"] is False and data["left"] == [] and data["removed"] == []
