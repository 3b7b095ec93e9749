"""The one observer: an observation holds exactly what a seat may know.

Information test: the only secret is the order of the draw pile (with the Last Round card
at its known depth). Shuffling the cards still in the pile, keeping the Last Round card at
its depth, must leave every seat's observation unchanged, at every kind of moment.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from coloretto.engine import OBSERVATION_FORMAT, GameState, Rules, new_game, observe, preset
from coloretto.engine.cards import CARD_NAMES, LAST_ROUND
from coloretto.engine.observation import redact
from coloretto.engine.seeds import Rng

CONFIGS = [
    Rules(players=2),
    Rules(players=3, edition="modern"),
    Rules(players=4),
    Rules(players=5, edition="modern", table="violet"),
    Rules(players=3, starting_cards="choose"),
    Rules(players=4, extra_card="first_out_draws"),
    Rules(players=3, match_games=2),
    preset("abacus2003", 4),
]


def shuffled_pile(state: GameState, rng: random.Random) -> GameState:
    """``state`` with the draw pile's cards shuffled, the Last Round card kept at its depth."""
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


def observed_points(rules: Rules, seed: int, every: int = 7) -> list[GameState]:
    """States along a random game, every few steps, and the final one."""
    rng = random.Random(seed)
    st = new_game(rules, seed)
    points = []
    step = 0
    while not st.is_over():
        if step % every == 0 or st.last_round:
            points.append(st.copy())
        codes = st.legal_codes()
        st.apply(codes[rng.randrange(len(codes))])
        step += 1
    points.append(st.copy())
    return points


@pytest.mark.parametrize("rules", CONFIGS, ids=lambda r: f"{r.players}p-{r.edition}-{r.starting_cards}-{r.extra_card}-{r.match_games}")
def test_pile_order_is_invisible(rules: Rules) -> None:
    rng = random.Random(42)
    checked = 0
    for seed in range(4):
        for st in observed_points(rules, seed):
            other = shuffled_pile(st, rng)
            for seat in range(st.n):
                a, b = observe(st, seat), observe(other, seat)
                assert a.to_json() == b.to_json()
                assert a.state == b.state  # the redacted state too
                assert a.unseen() == b.unseen()
                checked += 1
    assert checked > 50


def test_observation_json_never_holds_the_pile_order() -> None:
    st = new_game(Rules(players=4), 3)
    for _ in range(9):
        st.apply(st.legal_codes()[0])
    obs = observe(st, 1).to_json()
    assert obs["format"] == OBSERVATION_FORMAT
    text = json.dumps(obs)
    assert "pile_top_first" not in text and "draw_pile\": [" not in text
    assert isinstance(obs["draw_pile"], int) and obs["draw_pile"] == st.cards_left()
    top_first = [CARD_NAMES[c] for c in st.pile[::-1] if c != LAST_ROUND]
    # No list in the observation equals the pile or its first cards.
    def lists(x: object) -> list[list[object]]:
        if isinstance(x, list):
            return [x] + [y for v in x for y in lists(v)]
        if isinstance(x, dict):
            return [y for v in x.values() for y in lists(v)]
        return []

    for lst in lists(obs):
        assert lst[:5] != top_first[:5] or len(lst) < 5
    counts = Counter(c for c in st.pile if c != LAST_ROUND)
    assert obs["unseen"] == {CARD_NAMES[c]: k for c, k in sorted(counts.items())}
    # The redacted state keeps no draw pile order and no shuffle seed.
    red = observe(st, 1).state
    assert red.setups[0] is not None and red.setups[0].draw_pile is None
    assert red.setups[0].shuffle_seed is None
    assert red.pile != st.pile and Counter(red.pile) == Counter(st.pile)
    assert red.pile.index(LAST_ROUND) == st.pile.index(LAST_ROUND)


def test_observation_fields() -> None:
    st = new_game(Rules(players=4), 5)
    st.apply(0)
    obs = observe(st, 2).to_json()
    for key in ("format", "rules", "seat", "to_move", "decision", "drawn_card", "round",
                "draw_pile", "last_round", "colors", "rows", "out", "collections", "scores",
                "unseen"):
        assert key in obs
    assert obs["decision"] == "place" and obs["drawn_card"] == CARD_NAMES[st.drawn]
    assert obs["rules"] == st.rules.to_dict() and obs["seat"] == 2
    assert obs["scores"] == st.scores()
    assert [r["capacity"] for r in obs["rows"]] == [3, 3, 3, 3]
    assert json.loads(json.dumps(obs)) == obs
    with pytest.raises(ValueError):
        observe(st, 4)


def test_future_games_of_a_match_are_hidden() -> None:
    st = new_game(Rules(players=3, match_games=3), 1)
    red = redact(st)
    assert red.setups[1] is None and red.setups[2] is None
    other = st.copy()
    other.setups = [st.setups[0], new_game(Rules(players=3, match_games=3), 2).setups[1], st.setups[2]]
    assert observe(other, 0).state == observe(st, 0).state


@pytest.mark.parametrize("rules", CONFIGS[:6], ids=str)
def test_sample_state_is_consistent_with_the_observation(rules: Rules) -> None:
    rng = Rng(7)
    differs = 0
    for st in observed_points(rules, 11, every=13):
        for seat in range(st.n):
            obs = observe(st, seat)
            sample = obs.sample_state(rng)
            assert observe(sample, seat).to_json() == obs.to_json()
            assert Counter(sample.pile) == Counter(st.pile)
            if LAST_ROUND in st.pile:
                assert sample.pile.index(LAST_ROUND) == st.pile.index(LAST_ROUND)
            assert sample.legal_codes() == st.legal_codes()
            differs += sample.pile != st.pile
            # the sample is a full state: it plays to the end
            while not sample.is_over():
                sample.apply(sample.legal_codes()[-1])
    assert differs > 0


def test_sample_state_in_a_match_deals_later_games() -> None:
    st = new_game(Rules(players=3, match_games=2), 4)
    sample = observe(st, 0).sample_state(Rng(1))
    assert sample.setups[1] is not None
    while not sample.is_over():
        sample.apply(sample.legal_codes()[0])
    assert sample.game == 1
