"""The ``heuristic`` player: complete legal games everywhere, determinism, speed-free checks."""

from __future__ import annotations

import pytest

from coloretto.agents import make_agent
from coloretto.agents.heuristic import HeuristicAgent, heuristic_code, heuristic_scores
from coloretto.arena.driver import play_out, start_game
from coloretto.engine import actions as A
from coloretto.engine import new_game, preset
from coloretto.engine.rules import PRESET_PLAYERS, PRESETS, Rules

CONFIGS = [
    (name, n)
    for name in PRESETS
    for n in range(PRESET_PLAYERS[name][0], PRESET_PLAYERS[name][1] + 1)
]


@pytest.mark.parametrize(("preset_name", "players"), CONFIGS)
def test_plays_complete_games_for_every_preset(preset_name: str, players: int) -> None:
    rules = preset(preset_name, players)
    specs = ["heuristic"] * players
    game = start_game(rules, 7, specs, preset_name=preset_name)
    play_out(
        game, [make_agent("heuristic", s) for s in range(players)]
    )  # raises on an illegal action
    assert game.state.is_over()


@pytest.mark.parametrize(
    "overrides",
    [
        {"table": "violet"},
        {"edition": "modern", "extra_card": "first_out_draws"},
        {"joker_any_color": False, "extra_card": "triple_minus"},
        {"starting_cards": "choose"},
    ],
)
def test_plays_variants(overrides: dict[str, object]) -> None:
    rules = Rules(players=4, **overrides)  # type: ignore[arg-type]
    game = start_game(rules, 3, ["heuristic"] * 4)
    play_out(game, [make_agent("heuristic", s) for s in range(4)])
    assert game.state.is_over()


def test_scores_every_legal_action_and_picks_the_best() -> None:
    st = new_game(Rules(players=4), 11)
    for _ in range(9):
        codes = st.legal_codes()
        scores = heuristic_scores(st, st.to_move, codes)
        assert set(scores) == set(codes)
        code = heuristic_code(st, st.to_move, codes)
        assert scores[code] == max(scores.values())
        st.apply_code(code)


def test_last_player_with_one_row_keeps_a_full_good_row() -> None:
    """A full row (only taking is legal) is taken; a row of three of the seat's core colour
    with room elsewhere is taken rather than risked."""
    st = new_game(Rules(players=3), 5)
    me = st.to_move
    col = st.coll[me]
    color = next(c for c in st.in_play if col[c])
    # Three more cards of our colour in row 0 (full), rows 1 and 2 empty.
    st.rows[0] = [color, color, color]
    codes = st.legal_codes()
    assert A.TAKE0 in codes
    assert heuristic_code(st, me, codes) == A.TAKE0


def test_agent_is_deterministic() -> None:
    rules = Rules(players=4)
    results = []
    for _ in range(2):
        game = start_game(rules, 21, ["h"] * 4)
        play_out(game, [HeuristicAgent(seed=s) for s in range(4)])
        results.append(game.to_record())
    assert results[0] == results[1]


def test_the_expected_intake_follows_the_unseen_cards() -> None:
    """``expected_intake``: the cards a seat may still take (open rows and the draw pile
    above its last 15 cards, over the seats), in proportion to the unseen composition."""
    from coloretto.agents.features import unseen_counts
    from coloretto.agents.heuristic import expected_intake

    st = new_game(Rules(players=4), 3)
    assert expected_intake(st, 0.0) == []
    intake = expected_intake(st, 1.0)
    assert len(intake) == round((st.cards_left() - 15) / 4)
    unseen = unseen_counts(st)
    for code in set(intake):
        assert unseen[code] > 0
        # largest remainders: each kind within one card of its exact share
        assert abs(intake.count(code) - len(intake) * unseen[code] / sum(unseen)) < 1
    assert len(expected_intake(st, 2.0)) == round(2 * (st.cards_left() - 15) / 4)


def test_the_violet_table_counts_the_cards_still_to_come() -> None:
    """Under the violet table (values peak at 3 cards of a colour) a row is judged against the
    collection plus the cards still to come, so the heuristic's values differ from the
    brown table's way of judging the same position."""
    from dataclasses import replace

    from coloretto.agents.heuristic import VIOLET_PARAMS, params_for

    st = new_game(Rules(players=4, table="violet"), 5)
    assert params_for(st) is VIOLET_PARAMS and VIOLET_PARAMS.future_share > 0
    differ = 0
    for _ in range(40):
        codes = st.legal_codes()
        if len(codes) > 1:
            with_future = heuristic_scores(st, st.to_move, codes)
            plain = replace(VIOLET_PARAMS, future_share=0.0)
            without = heuristic_scores(st, st.to_move, codes, plain)
            assert set(with_future) == set(without) == set(codes)
            differ += with_future != without
        st.apply_code(heuristic_code(st, st.to_move, codes))
    assert differ > 0


def test_the_violet_table_mixes_in_the_gains_of_the_collection_as_it_is() -> None:
    """Under the violet table our row gains mix those against the collection as it is
    (``plain_mix``) into those against the expected intake, and the opponents' gains are
    taken against their collections as they are: both change the heuristic's values."""
    from dataclasses import replace

    from coloretto.agents.heuristic import VIOLET_PARAMS

    assert 0 < VIOLET_PARAMS.plain_mix < 1 and VIOLET_PARAMS.opp_future_share == 0
    variants = [
        replace(VIOLET_PARAMS, plain_mix=0.0),
        replace(VIOLET_PARAMS, opp_future_share=VIOLET_PARAMS.future_share),
    ]
    st = new_game(Rules(players=4, table="violet"), 5)
    differ = [0] * len(variants)
    for _ in range(40):
        codes = st.legal_codes()
        if len(codes) > 1:
            tuned = heuristic_scores(st, st.to_move, codes)
            for i, params in enumerate(variants):
                other = heuristic_scores(st, st.to_move, codes, params)
                assert set(other) == set(tuned) == set(codes)
                differ[i] += other != tuned
        st.apply_code(heuristic_code(st, st.to_move, codes))
    assert all(differ)
