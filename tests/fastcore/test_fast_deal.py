"""The kernel ``deal`` is the twin of ``engine.setup.deal``: the same seed gives the same
removed colours, first player, starting cards and draw pile (or shuffle seed), for every
player count, both editions, with and without fixed removed colours and first player; the
chosen starting colours then give the same pile as ``GameState._choose``."""

from __future__ import annotations

import random
from itertools import product

import numpy as np
import pytest

pytest.importorskip("numba")

from coloretto.engine.rules import Rules
from coloretto.engine.seeds import DEAL, MASK64, Rng, derive_seed
from coloretto.engine.setup import deal
from coloretto.engine.state import GameState
from coloretto.fastcore import encode, rules_template
from coloretto.fastcore import kernels as K
from coloretto.fastcore import layout as L

SEEDS = list(range(150)) + [2**63 - 1, 2**64 - 1, -1, -(2**40), 10**15]


def kernel_deal(
    rules: Rules, seed: int, removed: list[int] | None, first: int | None
) -> tuple[np.ndarray, int]:
    a = rules_template(rules).copy()
    rng = np.empty(1, np.uint64)
    K.rng_seed(rng, np.uint64(derive_seed(seed, DEAL)))
    mask = -1 if removed is None else sum(1 << c for c in removed)
    shuffle_seed = K.deal(a, rng, mask, -1 if first is None else first)
    return a, int(shuffle_seed)


def fixed_choices(rules: Rules, seed: int) -> tuple[list[int] | None, int | None]:
    """Seed-dependent fixed removed colours and first player (both, either or neither)."""
    mix = random.Random(seed)
    removed = sorted(mix.sample(range(7), rules.colors_removed)) if seed % 4 in (1, 3) else None
    first = mix.randrange(rules.players) if seed % 4 in (2, 3) else None
    return removed, first


@pytest.mark.parametrize("players,edition", list(product((2, 3, 4, 5), ("classic", "modern"))))
def test_the_same_seed_deals_the_same_game(players: int, edition: str) -> None:
    rules = Rules(players=players, edition=edition)
    removed_seen = set()
    firsts = set()
    for seed in SEEDS:
        removed, first = fixed_choices(rules, seed)
        setup = deal(rules, seed, removed_colors=removed, first_player=first)
        a, shuffle_seed = kernel_deal(rules, seed, removed, first)
        assert shuffle_seed == 0
        in_play = tuple(c for c in range(7) if (int(a[L.INPLAY]) >> c) & 1)
        assert in_play == setup.colors_in_play
        assert int(a[L.TO_MOVE]) == setup.first_player
        assert setup.starting_cards is not None and setup.draw_pile is not None
        for seat, cards in enumerate(setup.starting_cards):
            want = [0] * 10
            for c in cards:
                want[c] += 1
            assert a[L.COLL + 10 * seat : L.COLL + 10 * seat + 10].tolist() == want
        pile = a[L.PILE : L.PILE + a[L.PILE_LEN]].tolist()
        assert pile == list(reversed(setup.draw_pile)), seed
        # the whole state, every cell, as the engine starts the game
        assert np.array_equal(a, encode(GameState(rules, [setup])).a)
        removed_seen.add(setup.removed_colors)
        firsts.add(setup.first_player)
    assert firsts == set(range(players))
    if players >= 4:
        assert removed_seen == {()}
    else:
        assert len(removed_seen) > 5  # removed colours vary from deal to deal


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_chosen_starting_cards_give_the_same_pile(players: int) -> None:
    for edition in ("classic", "modern"):
        rules = Rules(players=players, edition=edition, starting_cards="choose")
        for seed in SEEDS[:60]:
            removed, first = fixed_choices(rules, seed)
            setup = deal(rules, seed, removed_colors=removed, first_player=first)
            a, shuffle_seed = kernel_deal(rules, seed, removed, first)
            assert setup.shuffle_seed == shuffle_seed
            state = GameState(rules, [setup])
            assert int(a[L.PHASE]) == L.CHOOSE
            assert np.array_equal(a, encode(state).a)
            pick = Rng(seed)
            codes = np.empty(20, np.int32)
            while state.decision == "choose_start":
                legal = state.legal_codes()
                k = K.legal_codes(a, codes)
                assert codes[:k].tolist() == legal
                code = legal[pick.below(len(legal))]
                state.apply_code(code)
                K.choose_color(a, code, np.uint64(shuffle_seed & MASK64))
                assert np.array_equal(a, encode(state).a), seed
            assert int(a[L.PHASE]) == L.TURN and int(a[L.PILE_LEN]) == len(state.pile)


def test_a_fixed_first_player_and_removed_colours_draw_nothing_for_them() -> None:
    """Fixing a choice skips its random numbers: the rest of the deal moves up the stream."""
    rules = Rules(players=3)
    free, _ = kernel_deal(rules, 8, None, None)
    fixed, _ = kernel_deal(rules, 8, [6], 2)
    assert int(fixed[L.INPLAY]) == 0b0111111 and int(fixed[L.TO_MOVE]) == 2
    setup = deal(rules, 8, removed_colors=[6], first_player=2)
    assert np.array_equal(fixed, encode(GameState(rules, [setup])).a)
    assert not np.array_equal(free[L.PILE : L.REMOVED], fixed[L.PILE : L.REMOVED])
