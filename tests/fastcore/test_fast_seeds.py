"""The kernels' random numbers are those of ``engine.seeds``, bit for bit: splitmix64,
derived seeds, ``Rng`` outputs, ``below(n)`` for many n (rejections included), ``random()``,
shuffles, samples and ``SmallChoices``."""

from __future__ import annotations

import random as pyrandom

import numpy as np
import pytest

pytest.importorskip("numba")

from coloretto.engine.seeds import (
    AGENT,
    DEAL,
    GAME,
    GOLDEN_GAMMA,
    MASK64,
    Rng,
    SmallChoices,
    derive_seed,
    splitmix64,
)
from coloretto.fastcore import kernels as K

SEEDS = [0, 1, 2, 7, 42, 2**31 - 1, 2**32, 2**63 - 1, 2**63, 2**64 - 1, -1, -12345, 10**18]
SIZES = [1, 2, 3, 4, 5, 6, 7, 9, 10, 13, 20, 52, 77, 100, 255, 256, 1000, 2**31 + 7, 2**32 + 1]
SIZES += [3 * 2**61 // 2, 2**62 + 1, 2**63 - 1]  # 2**64 mod n is large: rejections are common


def kernel_rng(seed: int) -> np.ndarray:
    rng = np.empty(1, np.uint64)
    K.rng_seed(rng, np.uint64(seed & MASK64))
    return rng


@pytest.mark.parametrize("seed", SEEDS)
def test_u64_streams_are_equal(seed: int) -> None:
    ref = Rng(seed)
    rng = kernel_rng(seed)
    assert int(rng[0]) == ref.state
    assert [int(K.next_u64(rng)) for _ in range(500)] == [ref.next_u64() for _ in range(500)]
    assert int(rng[0]) == ref.state


def test_the_one_seed_with_a_zero_state_gets_state_1() -> None:
    seed = -GOLDEN_GAMMA  # splitmix64(2**64 - GOLDEN_GAMMA) == 0
    assert splitmix64(seed & MASK64) == 0
    assert Rng(seed).state == 1 == int(kernel_rng(seed)[0])
    assert int(K.splitmix64(np.uint64(seed & MASK64))) == 0


@pytest.mark.parametrize("seed", SEEDS[:8])
def test_below_is_equal_for_many_n(seed: int) -> None:
    ref = Rng(seed)
    rng = kernel_rng(seed)
    mix = pyrandom.Random(seed)
    sizes = SIZES + [mix.randrange(1, 2**63) for _ in range(40)]
    for _ in range(20):
        for n in sizes:
            assert K.below(rng, n) == ref.below(n), n
        assert int(rng[0]) == ref.state


def test_below_rejects_as_the_engine_does() -> None:
    """With n = 3 * 2**61 (2**64 mod n = 2**62) one output in four is rejected: count the
    outputs used."""
    n = 3 * 2**61
    ref = Rng(9)
    rng = kernel_rng(9)
    raw = Rng(9)
    used = 0
    for _ in range(300):
        value = K.below(rng, n)
        assert value == ref.below(n)
        while True:
            used += 1
            if raw.next_u64() >= 2**64 % n:
                break
        assert int(rng[0]) == raw.state
    assert used > 300  # some outputs were rejected


@pytest.mark.parametrize("seed", SEEDS[:6])
def test_random_floats_are_equal(seed: int) -> None:
    ref = Rng(seed)
    rng = kernel_rng(seed)
    assert [K.random(rng) for _ in range(300)] == [ref.random() for _ in range(300)]


@pytest.mark.parametrize("size", [0, 1, 2, 5, 20, 71, 77])
def test_shuffles_are_equal(size: int) -> None:
    for seed in range(25):
        ref = Rng(seed)
        cards = list(range(size))
        ref.shuffle(cards)
        rng = kernel_rng(seed)
        arr = np.arange(size + 3, dtype=np.int32)  # cells past ``size`` stay put
        K.shuffle(rng, arr, size)
        assert arr[:size].tolist() == cards
        assert arr[size:].tolist() == [size, size + 1, size + 2]
        assert int(rng[0]) == ref.state


@pytest.mark.parametrize("n,k", [(7, 0), (7, 1), (7, 2), (6, 3), (5, 4), (7, 5), (7, 7)])
def test_samples_are_equal(n: int, k: int) -> None:
    for seed in range(40):
        ref = Rng(seed)
        want = ref.sample(range(10, 10 + n), k)
        rng = kernel_rng(seed)
        pool = np.arange(10, 10 + n, dtype=np.int64)
        K.sample_front(rng, pool, n, k)
        assert pool[:k].tolist() == want
        assert sorted(pool.tolist()) == list(range(10, 10 + n))
        assert int(rng[0]) == ref.state


@pytest.mark.parametrize("root", SEEDS)
def test_derived_seeds_are_equal(root: int) -> None:
    r = np.uint64(root & MASK64)
    for a in (0, 1, GAME, AGENT, DEAL, 99, 2**40, -3):
        assert int(K.derive_seed1(r, a)) == derive_seed(root, a)
        for b in (0, 1, 5, 12345, 2**62, -1):
            assert int(K.derive_seed2(r, a, b)) == derive_seed(root, a, b)
    for path in ([], [GAME], [GAME, 7], [GAME, 7, AGENT, 2], [1, 2, 3, 4, 5, 6]):
        assert int(K.derive_seed(r, np.array(path, np.int64))) == derive_seed(root, *path)


def test_seed_rng_is_item_index_of_the_game_stream() -> None:
    for seed in (0, 5, 2**64 - 3):
        for index in (0, 1, 17):
            rng = np.empty(1, np.uint64)
            K.seed_rng(rng, np.uint64(seed), index)
            assert int(rng[0]) == Rng(derive_seed(seed, GAME, index)).state


@pytest.mark.parametrize("seed", [0, 3, 2**63 + 5])
def test_small_choices_are_equal(seed: int) -> None:
    ref = SmallChoices(Rng(seed))
    ch = np.empty(3, np.uint64)
    K.small_choices_seed(ch, np.uint64(seed))
    mix = pyrandom.Random(seed)
    sizes = [mix.choice((1, 1, 2, 3, 5, 6, 7, 100, 129, 255, 256)) for _ in range(3000)]
    assert [K.small_below(ch, n) for n in sizes] == [ref.below(n) for n in sizes]
