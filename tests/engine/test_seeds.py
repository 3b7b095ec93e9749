"""The one seed scheme (``coloretto.engine.seeds``): exact outputs checked against a tiny
independent reference implementation of the documented algorithms (NumPy ``uint64``
arithmetic, which wraps modulo 2**64 as a compiled twin does), and statistical sanity."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from coloretto.engine import Rules, deal, new_game
from coloretto.engine import actions as A
from coloretto.engine.cards import LAST_ROUND
from coloretto.engine.seeds import (
    AGENT,
    DEAL,
    GAME,
    MATCH_GAME,
    PILE,
    STREAMS,
    Rng,
    SmallChoices,
    derive_seed,
    splitmix64,
)
from coloretto.engine.setup import build_pile, pile_composition
from coloretto.engine.state import CHOOSE

U = np.uint64


# ----- the reference: the module docstring's algorithms, written independently -------------
def ref_splitmix64(x: int) -> int:
    with np.errstate(over="ignore"):
        z = U(x % 2**64) + U(0x9E3779B97F4A7C15)
        z = (z ^ (z >> U(30))) * U(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> U(27))) * U(0x94D049BB133111EB)
        return int(z ^ (z >> U(31)))


def ref_derive(root: int, *path: int) -> int:
    h = ref_splitmix64(root)
    for p in path:
        h = ref_splitmix64(h ^ (p % 2**64))
    return h >> 1


class RefRng:
    def __init__(self, seed: int) -> None:
        self.x = U(ref_splitmix64(seed) or 1)

    def next(self) -> int:
        with np.errstate(over="ignore"):
            x = self.x
            x ^= x >> U(12)
            x ^= x << U(25)
            x ^= x >> U(27)
            self.x = x
            return int(x * U(0x2545F4914F6CDD1D))

    def below(self, n: int) -> int:
        with np.errstate(over="ignore"):
            threshold = int((U(0) - U(n)) % U(n))  # 2**64 mod n, in uint64 arithmetic
        while True:
            r = self.next()
            if r >= threshold:
                return r % n

    def shuffle(self, x: list[int]) -> None:
        for i in range(len(x) - 1, 0, -1):
            j = self.below(i + 1)
            x[i], x[j] = x[j], x[i]

    def sample(self, population: list[int], k: int) -> list[int]:
        pool = list(population)
        for i in range(k):
            j = i + self.below(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]


# ----- exact agreement ------------------------------------------------------------------------
@pytest.mark.parametrize("x", [0, 1, 2**63, 2**64 - 1, 123456789, -1])
def test_splitmix64_matches_the_reference(x: int) -> None:
    assert splitmix64(x % 2**64) == ref_splitmix64(x)


@pytest.mark.parametrize(
    "args", [(0,), (7, GAME, 0), (7, GAME, 1), (-3, AGENT, 2, 5), (2**70, DEAL), (1, 2**64 + 5)]
)
def test_derive_seed_matches_the_reference(args: tuple[int, ...]) -> None:
    value = derive_seed(*args)
    assert value == ref_derive(*args)
    assert 0 <= value < 2**63


@pytest.mark.parametrize("seed", [0, 1, 42, -7, 2**63 + 11])
def test_rng_outputs_match_the_reference(seed: int) -> None:
    rng, ref = Rng(seed), RefRng(seed)
    assert [rng.next_u64() for _ in range(20)] == [ref.next() for _ in range(20)]
    for n in (1, 2, 3, 5, 7, 10, 72, 1000, 2**33 + 1, 2**63 + 5):
        assert rng.below(n) == ref.below(n)
    assert rng.random() == (ref.next() >> 11) / 2**53
    cards = list(range(72))
    expected = cards[:]
    rng.shuffle(cards)
    ref.shuffle(expected)
    assert cards == expected
    assert rng.sample(range(7), 3) == ref.sample(list(range(7)), 3)
    assert rng.randrange(5, 9) == 5 + ref.below(4)
    assert rng.choice("abcdef") == "abcdef"[ref.below(6)]
    assert rng.state == int(ref.x)


def test_small_choices_follow_the_bytes_of_the_outputs() -> None:
    ref = RefRng(9)
    stream = iter(b"".join(ref.next().to_bytes(8, "little") for _ in range(200)))
    sizes = [1, 2, 3, 5, 7, 200, 256, 6] * 60
    expected = []
    for n in sizes:
        while True:
            b = next(stream)
            if b < 256 - 256 % n:
                expected.append(b % n)
                break
    choose = SmallChoices(Rng(9)).below
    assert [choose(n) for n in sizes] == expected
    with pytest.raises(ValueError, match="1 <= n <= 256"):
        choose(257)
    with pytest.raises(ValueError, match="1 <= n <= 256"):
        choose(0)


def test_small_choices_are_uniform() -> None:
    choose = SmallChoices(Rng(17)).below
    counts = Counter(choose(7) for _ in range(70_000))
    chi2 = sum((counts[k] - 10_000) ** 2 / 10_000 for k in range(7))
    assert set(counts) == set(range(7)) and chi2 < 27.9  # 6 degrees of freedom, p = 0.0001


def test_below_rejects_the_lowest_remainder() -> None:
    """With n = 2**63 + 1 the threshold 2**64 mod n is 2**63 - 1: almost half the outputs are
    rejected, so the rejection loop runs, and still agrees with the reference."""
    rng, ref = Rng(3), RefRng(3)
    n = 2**63 + 1
    draws = [rng.below(n) for _ in range(50)]
    assert draws == [ref.below(n) for _ in range(50)]
    assert rng.state == int(ref.x)


def test_deal_follows_its_documented_draw_order() -> None:
    """``deal``'s docstring, replayed with the reference generator."""
    rules = Rules(players=3)
    for seed in range(5):
        setup = deal(rules, seed)
        ref = RefRng(ref_derive(seed, DEAL))
        removed = tuple(sorted(ref.sample(list(range(7)), 1)))
        first = ref.below(3)
        in_play = [c for c in range(7) if c not in removed]
        picks = ref.sample(in_play, 3)
        starting = tuple((c,) for c in picks)
        assert (setup.removed_colors, setup.first_player, setup.starting_cards) == (
            removed,
            first,
            starting,
        )
        cards = sorted(pile_composition(rules, removed, starting).elements())
        ref.shuffle(cards)
        at = len(cards) - rules.cards_under_last_round
        assert list(setup.draw_pile or ()) == cards[:at] + [LAST_ROUND] + cards[at:]


def test_match_games_and_chosen_piles_use_their_streams() -> None:
    match = new_game(Rules(players=4, match_games=3), 9)
    assert match.setups[0] == deal(match.rules, 9)
    assert match.setups[2] == deal(match.rules, derive_seed(9, MATCH_GAME, 2))
    rules = Rules(players=3, starting_cards="choose")
    st = new_game(rules, 4)
    setup = st.setups[0]
    assert setup is not None and setup.shuffle_seed is not None
    starting: list[list[int]] = [[] for _ in range(3)]
    i = 0
    while st.phase == CHOOSE:
        code = st.legal_codes()[0]
        starting[(setup.first_player + i) % 3].append(code - A.CHOOSE0)
        st.apply(code)
        i += 1
    comp = pile_composition(rules, setup.removed_colors, starting)
    ref = RefRng(ref_derive(setup.shuffle_seed, PILE))
    cards = sorted(comp.elements())
    ref.shuffle(cards)
    at = len(cards) - rules.cards_under_last_round
    assert st.pile[::-1] == cards[:at] + [LAST_ROUND] + cards[at:]
    assert build_pile(rules, comp, Rng(derive_seed(setup.shuffle_seed, PILE)))[::-1] == tuple(
        st.pile
    )


# ----- sanity ---------------------------------------------------------------------------------
def test_streams_are_distinct_integers() -> None:
    assert len(set(STREAMS.values())) == len(STREAMS)
    assert all(type(v) is int and v > 0 for v in STREAMS.values())


def test_below_is_uniform() -> None:
    rng = Rng(2024)
    n, draws = 6, 60_000
    counts = Counter(rng.below(n) for _ in range(draws))
    assert set(counts) == set(range(n))
    expected = draws / n
    chi2 = sum((counts[k] - expected) ** 2 / expected for k in range(n))
    assert chi2 < 25.7  # chi-squared, 5 degrees of freedom, p = 0.0001


def test_random_floats_have_the_right_mean_and_spread() -> None:
    rng = Rng(5)
    xs = [rng.random() for _ in range(50_000)]
    assert all(0.0 <= x < 1.0 for x in xs)
    mean = sum(xs) / len(xs)
    var = sum((x - mean) ** 2 for x in xs) / len(xs)
    assert abs(mean - 0.5) < 4 * math.sqrt(1 / 12 / len(xs))
    assert abs(var - 1 / 12) < 0.002


def test_shuffle_puts_every_card_everywhere() -> None:
    rng = Rng(11)
    first: Counter[int] = Counter()
    for _ in range(6000):
        x = list(range(4))
        rng.shuffle(x)
        first[x[0]] += 1
    assert all(abs(first[c] - 1500) < 150 for c in range(4))


def test_sample_is_distinct_and_errors_are_clear() -> None:
    rng = Rng(1)
    picks = rng.sample(range(10), 10)
    assert sorted(picks) == list(range(10))
    with pytest.raises(ValueError, match="sample of 11"):
        rng.sample(range(10), 11)
    with pytest.raises(ValueError, match="n >= 1"):
        rng.below(0)
    with pytest.raises(ValueError, match="empty range"):
        rng.randrange(3, 3)
    with pytest.raises(IndexError):
        rng.choice([])
    with pytest.raises(TypeError, match="integer"):
        Rng("1")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="integer"):
        derive_seed(1, "deal")  # type: ignore[arg-type]


def test_copy_continues_identically_and_seeds_differ() -> None:
    a = Rng(77)
    a.next_u64()
    b = a.copy()
    assert [a.below(100) for _ in range(10)] == [b.below(100) for _ in range(10)]
    assert Rng(1).next_u64() != Rng(2).next_u64()
    assert len({derive_seed(1, GAME, i) for i in range(1000)}) == 1000
