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


def test_the_directed_intake_completes_the_main_colours_first() -> None:
    """``directed_intake``: the seat's three main colours (most cards held) are completed to
    3 cards first, jokers covering part of the need; the rest of the volume follows the
    unseen cards; the length is the volume of ``expected_intake``."""
    from coloretto.agents.features import unseen_counts
    from coloretto.agents.heuristic import (
        directed_intake,
        expected_intake,
        intake_volume,
        main_colors,
    )
    from coloretto.engine.cards import JOKER

    st = new_game(Rules(players=4, table="violet"), 3)
    me = st.to_move
    held = st.coll[me]
    unseen = unseen_counts(st)
    assert directed_intake(st, me, 0.0) == []
    mains = main_colors(st, me, unseen)
    assert len(mains) == 3 and held[mains[0]] == max(held[c] for c in st.in_play)
    intake = directed_intake(st, me, 1.0)
    assert len(intake) == len(expected_intake(st, 1.0)) == round(intake_volume(st, 1.0))
    for c in mains:
        assert held[c] + intake.count(c) >= 3  # each main colour completed
    with_joker = st.copy()
    with_joker.coll[me][JOKER] += 1
    fill = sum(max(0, 3 - held[c]) for c in mains)
    # one joker: one card fewer of the main colours is needed (the last one filled)
    assert directed_intake(with_joker, me, 1.0)[: fill - 1] == intake[: fill - 1]
    assert intake.count(mains[-1]) >= directed_intake(with_joker, me, 1.0).count(mains[-1])


def test_the_last_seat_in_the_round_needs_a_larger_margin_to_draw() -> None:
    """Under the violet table the last seat in the round (every card it draws goes to its own
    row) draws only when that beats the take by ``last_draw_margin``: only its draw value
    changes, by the difference of the margins."""
    from dataclasses import replace

    from coloretto.agents.features import turn_order_after
    from coloretto.agents.heuristic import VIOLET_PARAMS

    assert VIOLET_PARAMS.last_draw_margin is not None
    plain = replace(VIOLET_PARAMS, last_draw_margin=None)
    seen = 0
    for deal in range(1, 6):
        st = new_game(Rules(players=4, table="violet"), deal)
        while not st.is_over():
            codes = st.legal_codes()
            me = st.to_move
            if A.DRAW in codes and len(codes) > 1 and not turn_order_after(st, me):
                tuned = heuristic_scores(st, me, codes)
                other = heuristic_scores(st, me, codes, plain)
                gap = VIOLET_PARAMS.last_draw_margin - VIOLET_PARAMS.draw_margin
                assert other[A.DRAW] - tuned[A.DRAW] == pytest.approx(gap)
                assert all(tuned[c] == other[c] for c in codes if c != A.DRAW)
                seen += 1
            st.apply_code(heuristic_code(st, me, codes))
    assert seen > 0


def test_the_first_violet_weights_stay_frozen_as_v1() -> None:
    """``params_for(st, "v1")`` gives the first violet weights, unchanged (the heuristic of
    ``mcts-v1``'s priors); other tables share the default weights in every version."""
    from coloretto.agents.heuristic import (
        DEFAULT_PARAMS,
        VIOLET_PARAMS,
        VIOLET_V1_PARAMS,
        HeuristicParams,
        params_for,
    )

    frozen = HeuristicParams(
        opp_weight=0.2,
        risk_base=1.0,
        risk_fill=0.5,
        draw_margin=0.15,
        joker_bonus=1.5,
        future_share=1.0,
        opp_future_share=0.0,
        plain_mix=0.3,
        directed=False,
        last_draw_margin=None,
    )
    violet = new_game(Rules(players=4, table="violet"), 1)
    brown = new_game(Rules(players=4), 1)
    assert params_for(violet, "v1") is VIOLET_V1_PARAMS == frozen
    assert params_for(violet) is VIOLET_PARAMS != frozen
    assert params_for(brown) is params_for(brown, "v1") is DEFAULT_PARAMS
    with pytest.raises(ValueError, match="unknown heuristic version"):
        params_for(violet, "v2")
