"""The one observation encoding (``coloretto.envs.encoding``): its layout, what it holds,
that it never holds the order of the draw pile, and that the mask is the legal actions."""

from __future__ import annotations

import doctest
import random

import numpy as np
import pytest

import coloretto.envs.encoding as encoding_module
from coloretto.engine import GameState, Rules, new_game, observe, preset
from coloretto.engine.actions import NUM_DISTINCT_ACTIONS
from coloretto.engine.cards import COLLECTION_SIZE, LAST_ROUND
from coloretto.engine.rules import MAX_PLAYERS, MAX_ROWS, PRESET_PLAYERS, PRESETS
from coloretto.engine.seeds import Rng
from coloretto.envs.encoding import (
    DECK_SIZE,
    FEATURES,
    FIELDS,
    OBSERVATION_SIZE,
    encode,
    legal_mask,
)

CONFIGS = [
    Rules(players=2),
    Rules(players=3, edition="modern"),
    Rules(players=4),
    Rules(players=5, edition="modern", table="violet"),
    Rules(players=3, starting_cards="choose"),
    Rules(players=4, extra_card="first_out_draws", edition="modern"),
    Rules(players=3, match_games=2),
    Rules(players=4, row_capacities=(3, 3, 2, 4, 1, 2)),
]


def ident(rules: Rules) -> str:
    return f"{rules.players}p-{rules.edition}-{rules.starting_cards}-{rules.extra_card}-{rules.match_games}-{rules.row_capacities}"


def points_along(rules: Rules, seed: int, every: int = 5) -> list[GameState]:
    """States along a random game (every few steps, every step once the Last Round card is
    up) and the final one."""
    rng = Rng(seed)
    st = new_game(rules, seed)
    points = []
    k = 0
    while not st.is_over():
        if k % every == 0 or st.last_round:
            points.append(st.copy())
        codes = st.legal_codes()
        st.apply(codes[rng.below(len(codes))])
        k += 1
    points.append(st.copy())
    return points


def shuffled_pile(state: GameState, rng: random.Random) -> GameState:
    """``state`` with the cards below and above the Last Round card shuffled (the Last Round
    card kept at its depth)."""
    other = state.copy()
    pile = other.pile
    if LAST_ROUND in pile:
        depth = pile.index(LAST_ROUND)
        rest = [c for c in pile if c != LAST_ROUND]
        rng.shuffle(rest)
        other.pile = rest[:depth] + [LAST_ROUND] + rest[depth:]
    else:
        rng.shuffle(pile)
    return other


def test_layout_is_contiguous_and_fixed() -> None:
    start = 0
    for feature in FEATURES:
        assert feature.start == start and feature.length > 0 and feature.description
        start = feature.stop
    assert start == OBSERVATION_SIZE
    assert len({f.name for f in FEATURES}) == len(FEATURES)
    assert FIELDS["collection"].stop - FIELDS["collection"].start == MAX_PLAYERS * COLLECTION_SIZE
    assert FIELDS["row_cards"].stop - FIELDS["row_cards"].start == MAX_ROWS * COLLECTION_SIZE
    # One size under every rules option.
    sizes = {encode(observe(new_game(r, 1), 0)).shape for r in CONFIGS}
    assert sizes == {(OBSERVATION_SIZE,)}
    assert DECK_SIZE == 76


def test_docstring_examples() -> None:
    result = doctest.testmod(encoding_module, verbose=False)
    assert result.failed == 0 and result.attempted >= 5


@pytest.mark.parametrize("rules", CONFIGS, ids=ident)
def test_pile_order_is_invisible_in_the_tensor(rules: Rules) -> None:
    rng = random.Random(7)
    checked = moved = 0
    for seed in range(3):
        for st in points_along(rules, seed):
            other = shuffled_pile(st, rng)
            moved += other.pile != st.pile
            for seat in range(st.n):
                a, b = encode(observe(st, seat)), encode(observe(other, seat))
                assert np.array_equal(a, b)
                assert np.array_equal(
                    legal_mask(observe(st, seat)), legal_mask(observe(other, seat))
                )
                checked += 1
    assert checked > 40 and moved > 5


def test_the_last_round_cards_depth_is_public_and_encoded() -> None:
    st = new_game(Rules(players=4), 3)
    other = st.copy()
    depth = other.pile.index(LAST_ROUND)
    other.pile.pop(depth)
    other.pile.insert(depth + 1, LAST_ROUND)
    a, b = encode(observe(st, 0)), encode(observe(other, 0))
    sl = FIELDS["cards_above_last_round"]
    assert a[sl][0] * DECK_SIZE == pytest.approx(len(st.pile) - 1 - depth)
    assert b[sl][0] * DECK_SIZE == pytest.approx(len(st.pile) - 2 - depth)
    assert np.array_equal(np.delete(a, sl), np.delete(b, sl))


def _block(x: np.ndarray, name: str, width: int) -> np.ndarray:
    return x[FIELDS[name]].reshape(-1, width)


@pytest.mark.parametrize("rules", CONFIGS, ids=ident)
def test_tensor_holds_the_observation(rules: Rules) -> None:
    """Every field read back against the state, seats relative to the observer."""
    for st in points_along(rules, 11, every=9):
        n = st.n
        for seat in range(n):
            obs = observe(st, seat)
            x = encode(obs)
            assert x.dtype == np.float32
            rel = [(seat + i) % n for i in range(n)]
            assert list(x[FIELDS["seat_present"]]) == [1] * n + [0] * (MAX_PLAYERS - n)
            coll = _block(x, "collection", COLLECTION_SIZE)
            assert coll[:n].tolist() == [st.coll[s] for s in rel] and not coll[n:].any()
            assert list(x[FIELDS["out"]][:n]) == [st.out[s] for s in rel]
            move = x[FIELDS["to_move"]]
            if st.is_over():
                assert not move.any()
            else:
                assert move.sum() == 1 and rel[int(move.argmax())] == st.to_move
            nr = st.nrows
            assert list(x[FIELDS["row_present"]]) == [1] * nr + [0] * (MAX_ROWS - nr)
            assert list(x[FIELDS["row_capacity"]][:nr]) == list(st.caps)
            assert list(x[FIELDS["row_taken"]][:nr]) == [t != -1 for t in st.row_taker]
            cards = _block(x, "row_cards", COLLECTION_SIZE)
            for r in range(nr):
                assert cards[r].tolist() == [st.rows[r].count(c) for c in range(COLLECTION_SIZE)]
            drawn = x[FIELDS["drawn_card"]]
            assert drawn.sum() == (st.drawn != -1) and (st.drawn == -1 or drawn[st.drawn] == 1)
            assert x[FIELDS["cards_left"]][0] * DECK_SIZE == pytest.approx(st.cards_left())
            assert x[FIELDS["last_round"]][0] == st.last_round
            unseen = obs.unseen()
            assert list(x[FIELDS["unseen"]]) == [unseen.get(c, 0) for c in range(COLLECTION_SIZE)]
            phase = x[FIELDS["phase"]]
            assert phase.sum() == 1 and int(phase.argmax()) == int(st.phase)
            assert [c for c in range(7) if x[FIELDS["colors_in_play"]][c]] == list(st.in_play)
            assert tuple(x[FIELDS["score_table"]]) == rules.score_table
            assert x[FIELDS["negative_factor"]][0] == rules.negative_factor


def test_different_positions_encode_differently() -> None:
    tensors = [
        encode(observe(st, 0)).tobytes() for st in points_along(Rules(players=4), 5, every=1)
    ]
    assert len(set(tensors)) > 0.9 * len(tensors)


def _all_presets() -> list[tuple[str, int]]:
    return [
        (name, n)
        for name in PRESETS
        for n in range(PRESET_PLAYERS[name][0], PRESET_PLAYERS[name][1] + 1)
    ]


@pytest.mark.parametrize(("name", "players"), _all_presets())
def test_mask_is_the_legal_actions(name: str, players: int) -> None:
    for seed in range(2):
        rules = preset(name, players)
        st = new_game(rules, seed)
        rng = Rng(seed)
        decisions = 0
        while not st.is_over():
            legal = st.legal_codes()
            for seat in range(st.n):
                mask = legal_mask(observe(st, seat))
                assert mask.shape == (NUM_DISTINCT_ACTIONS,) and mask.dtype == np.bool_
                expected = legal if seat == st.to_move else []
                assert mask.nonzero()[0].tolist() == expected
            st.apply(legal[rng.below(len(legal))])
            decisions += 1
        assert decisions > 50
        assert not any(legal_mask(observe(st, s)).any() for s in range(st.n))


def test_bad_input_is_refused() -> None:
    st = new_game(Rules(), 1)
    with pytest.raises(TypeError, match="Observation"):
        encode(st)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Observation"):
        legal_mask(st)  # type: ignore[arg-type]
