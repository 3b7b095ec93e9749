"""The one seed scheme: every random choice of the project comes from here.

Two pieces, both plain integer arithmetic modulo 2**64 so that a compiled twin (the fast
core's kernels) can follow them bit for bit:

* :func:`derive_seed` turns a root seed and a path of integers into a 63-bit seed with
  splitmix64. Each kind of random choice has its own named **stream** constant as the first
  path item (``DEAL``, ``AGENT``, ...), so seeds of different purposes never coincide by
  construction: game ``i`` of a run is dealt from ``derive_seed(root, GAME, i)``, the agent
  in seat ``s`` of that game is seeded with ``derive_seed(game_seed, AGENT, s)``.
* :class:`Rng` is a xorshift64* generator whose state is seeded through splitmix64. Its
  ``below(n)`` is exactly unbiased and documented to the bit; ``shuffle``, ``sample``,
  ``choice`` and ``randrange`` are defined on top of it.

The algorithms (all arithmetic modulo 2**64, ``>>`` logical shifts):

``splitmix64(x)``::

    z = x + 0x9E3779B97F4A7C15
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB
    return z ^ (z >> 31)

``derive_seed(root, p1, ..., pk)``: ``h = splitmix64(root)``, then ``h = splitmix64(h ^ p)``
for each path item ``p`` in order; the result is ``h >> 1`` (63 bits, never negative).
Negative integers enter as their two's complement modulo 2**64.

``Rng(seed)``: ``state = splitmix64(seed)`` (a zero state, which exactly one seed gives, is
replaced by 1). ``next_u64()``::

    x = state
    x ^= x >> 12
    x ^= x << 25
    x ^= x >> 27
    state = x
    return x * 0x2545F4914F6CDD1D

``below(n)`` (``n >= 1``): ``t = 2**64 mod n``; draw ``r = next_u64()`` until ``r >= t``
(rejecting the lowest ``t`` values leaves a multiple of ``n`` equally likely values);
return ``r mod n``. ``random()``: ``(next_u64() >> 11) * 2**-53``. ``shuffle(x)``:
Fisher-Yates from the end, ``for i = len(x) - 1 down to 1: j = below(i + 1); swap x[i],
x[j]``. ``sample(population, k)``: a partial Fisher-Yates from the front on a copy,
``for i in 0..k-1: j = i + below(len - i); swap pool[i], pool[j]``; returns ``pool[:k]``.

``SmallChoices(rng).below(n)`` (``1 <= n <= 256``), for long runs of small choices: the bytes
of successive ``next_u64()`` outputs, least significant byte first; a byte ``b`` is accepted
when ``b < 256 - 256 mod n`` and gives ``b mod n``, else the next byte is tried.

>>> derive_seed(7, GAME, 0) == derive_seed(7, GAME, 0) != derive_seed(7, GAME, 1)
True
>>> rng = Rng(2024)
>>> 0 <= rng.below(6) < 6
True
>>> cards = list(range(10))
>>> Rng(1).shuffle(cards); sorted(cards) == list(range(10))
True
>>> Rng(1).sample(range(7), 2) == Rng(1).sample(range(7), 2)
True
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import MutableSequence, Sequence
from typing import Final, TypeVar

T = TypeVar("T")

MASK64: Final = (1 << 64) - 1
"""Arithmetic modulo 2**64 is done by masking Python integers with this."""
GOLDEN_GAMMA: Final = 0x9E3779B97F4A7C15
MIX1: Final = 0xBF58476D1CE4E5B9
MIX2: Final = 0x94D049BB133111EB
XORSHIFT_MULTIPLIER: Final = 0x2545F4914F6CDD1D
_TWO64: Final = 1 << 64
_TWO_TO_MINUS_53: Final = 1.0 / (1 << 53)

# ----- streams: the first path item of derive_seed, one per kind of random choice ----------
DEAL: Final = 1
"""``deal(rules, seed)`` draws its removed colours, first player, starting cards and draw pile
from ``Rng(derive_seed(seed, DEAL))``."""
PILE: Final = 2
"""A chosen-start draw pile (``starting_cards="choose"``) is shuffled from
``Rng(derive_seed(shuffle_seed, PILE))`` once the choices are made."""
MATCH_GAME: Final = 3
"""Game ``g >= 1`` of a match started by ``new_game(rules, seed)`` is dealt from
``derive_seed(seed, MATCH_GAME, g)`` (game 0 from ``seed`` itself)."""
GAME: Final = 4
"""Game (or deal, or item) ``i`` of a run with root seed ``root``: ``derive_seed(root, GAME,
i)`` (``simulate``, tournaments, benchmarks, ``hash_seed``)."""
AGENT: Final = 5
"""The agent in seat ``s`` of a game dealt from ``game_seed``:
``derive_seed(game_seed, AGENT, s)``."""
FALLBACK: Final = 6
"""The fallback agent taking over seat ``s`` after a failure:
``derive_seed(game_seed, FALLBACK, s)``."""
SAMPLE: Final = 7
"""Samples and test data drawn for a purpose other than play (e.g. scoring benchmarks)."""
DECISION: Final = 8
"""One search decision of a seeded agent: ``derive_seed(agent_seed, DECISION, digest)``."""

ENGINE: Final = 9
"""The seed handed to an external engine (``coloretto-engine/1`` ``hello``) in seat ``s``:
``one_way_seed(game_seed, ENGINE, s)``, so that the seed does not give the deal away."""
SEALED: Final = 10
"""The root a run with external engines deals from: ``seal(root, secret)``."""
BOOTSTRAP: Final = 11
"""The resamples of a rating's bootstrap (``arena.ratings.rate_games``) with root seed
``seed``: NumPy's generator seeded with ``derive_seed(seed, BOOTSTRAP)`` (a tournament's
``seed`` is its run's root seed)."""

STREAMS: Final = {
    "DEAL": DEAL,
    "PILE": PILE,
    "MATCH_GAME": MATCH_GAME,
    "GAME": GAME,
    "AGENT": AGENT,
    "FALLBACK": FALLBACK,
    "SAMPLE": SAMPLE,
    "DECISION": DECISION,
    "ENGINE": ENGINE,
    "SEALED": SEALED,
    "BOOTSTRAP": BOOTSTRAP,
}
"""Every stream constant by name (distinct values)."""


def _check_int(value: object, what: str) -> int:
    if type(value) is not int:
        raise TypeError(f"{what} must be an integer, not {type(value).__name__}")
    return value


def splitmix64(x: int) -> int:
    """One splitmix64 output for ``x`` (taken modulo 2**64): a well-mixed 64-bit integer.

    >>> splitmix64(0)
    16294208416658607535
    """
    z = (x + GOLDEN_GAMMA) & MASK64
    z = ((z ^ (z >> 30)) * MIX1) & MASK64
    z = ((z ^ (z >> 27)) * MIX2) & MASK64
    return z ^ (z >> 31)


def derive_seed(root: int, *path: int) -> int:
    """A 63-bit seed (0 .. 2**63 - 1) for item ``path`` of root seed ``root`` (module
    docstring: splitmix64 over the path). Deterministic on every machine and process.

    Args:
        root: any integer (taken modulo 2**64).
        path: integers, normally a stream constant (``GAME``, ``AGENT``...) then indices.

    Raises:
        TypeError: ``root`` or a path item is not an ``int`` (``bool`` included).

    >>> derive_seed(1, GAME, 0) != derive_seed(1, GAME, 1)
    True
    >>> 0 <= derive_seed(-5, AGENT, 3) < 2**63
    True
    """
    h = splitmix64(_check_int(root, "a root seed") & MASK64)
    for p in path:
        h = splitmix64(h ^ (_check_int(p, "a seed path item") & MASK64))
    return h >> 1


def one_way_seed(seed: int, *path: int) -> int:
    """A 63-bit seed for item ``path`` of ``seed`` from which ``seed`` cannot be computed:
    HMAC-SHA256 keyed with ``seed`` (8 bytes, little-endian, modulo 2**64) over the path
    items (8 bytes each, the same way), its first 8 bytes little-endian, shifted right by 1.

    ``derive_seed`` is a chain of invertible steps (splitmix64 is a bijection), so whoever
    holds ``derive_seed(game_seed, AGENT, s)`` can compute ``game_seed`` back, and with it
    the deal; this one is for seeds handed to programs that must not know the deal (external
    engines, ``ENGINE``).

    Raises:
        TypeError: ``seed`` or a path item is not an ``int``.

    >>> one_way_seed(1, ENGINE, 0) == one_way_seed(1, ENGINE, 0) != one_way_seed(1, ENGINE, 1)
    True
    """
    key = (_check_int(seed, "a seed") & MASK64).to_bytes(8, "little")
    msg = b"".join((_check_int(p, "a seed path item") & MASK64).to_bytes(8, "little") for p in path)
    return int.from_bytes(hmac.digest(key, msg, "sha256")[:8], "little") >> 1


def seal(root: int, secret: str) -> int:
    """The root that a run with external engines deals from: ``one_way_seed`` keyed with
    the run's secret over ``SEALED`` and ``root``, so that knowing ``root`` (and any seed an
    engine is handed) does not give the deals; ``root`` and ``secret`` together replay the
    run. ``secret`` is text (``new_secret`` draws one), used as UTF-8.

    Raises:
        TypeError: ``root`` is not an ``int`` or ``secret`` not a ``str``.
        ValueError: ``secret`` is empty.

    >>> seal(7, "ab12") == seal(7, "ab12") != seal(7, "ab13")
    True
    """
    if not isinstance(secret, str):
        raise TypeError(f"a run secret must be text, not {type(secret).__name__}")
    if not secret:
        raise ValueError("a run secret cannot be empty")
    msg = SEALED.to_bytes(8, "little") + (_check_int(root, "a root seed") & MASK64).to_bytes(8, "little")
    return int.from_bytes(hmac.digest(secret.encode("utf-8"), msg, "sha256")[:8], "little") >> 1


def new_secret() -> str:
    """A fresh run secret (32 hex digits from ``secrets``) for ``seal``."""
    return secrets.token_hex(16)


class Rng:
    """A seeded xorshift64* generator (module docstring for the exact algorithms).

    The project's only source of randomness: deals, agents, samples and fallbacks each own
    one, seeded from :func:`derive_seed`. Pure Python integers masked to 64 bits (a few
    tenths of a microsecond per output; ``SmallChoices`` is cheaper for long runs of small
    choices).

    Args:
        seed: any integer (taken modulo 2**64).

    Raises:
        TypeError: ``seed`` is not an ``int``.

    >>> a, b = Rng(5), Rng(5)
    >>> [a.below(10) for _ in range(5)] == [b.below(10) for _ in range(5)]
    True
    >>> 0.0 <= Rng(5).random() < 1.0
    True
    """

    __slots__ = ("_state",)

    def __init__(self, seed: int = 0) -> None:
        state = splitmix64(_check_int(seed, "a seed") & MASK64)
        self._state = state or 1

    @property
    def state(self) -> int:
        """The current 64-bit state (never 0)."""
        return self._state

    def copy(self) -> Rng:
        """An independent generator in the same state."""
        new = Rng.__new__(Rng)
        new._state = self._state
        return new

    def next_u64(self) -> int:
        """The next 64-bit output (0 .. 2**64 - 1)."""
        x = self._state
        x ^= x >> 12
        x ^= (x << 25) & MASK64
        x ^= x >> 27
        self._state = x
        return (x * XORSHIFT_MULTIPLIER) & MASK64

    def below(self, n: int) -> int:
        """A uniform integer in ``0 .. n - 1``, exactly unbiased (module docstring: reject
        outputs below ``2**64 mod n``, then take the remainder).

        Raises:
            ValueError: ``n`` < 1.
        """
        if n < 1:
            raise ValueError(f"below(n) needs n >= 1, not {n}")
        t = _TWO64 % n
        x = self._state
        while True:
            x ^= x >> 12
            x ^= (x << 25) & MASK64
            x ^= x >> 27
            r = (x * XORSHIFT_MULTIPLIER) & MASK64
            if r >= t:
                self._state = x
                return r % n

    def random(self) -> float:
        """A float in [0, 1): the top 53 bits of ``next_u64()`` times 2**-53."""
        x = self._state  # next_u64 inlined: the benchmark policy calls this at every decision
        x ^= x >> 12
        x ^= (x << 25) & MASK64
        x ^= x >> 27
        self._state = x
        return (((x * XORSHIFT_MULTIPLIER) & MASK64) >> 11) * _TWO_TO_MINUS_53

    def randrange(self, start: int, stop: int | None = None) -> int:
        """A uniform integer in ``0 .. start - 1`` (one argument) or ``start .. stop - 1``,
        through ``below``.

        Raises:
            ValueError: the range is empty.
        """
        if stop is None:
            start, stop = 0, start
        if stop <= start:
            raise ValueError(f"empty range for randrange({start}, {stop})")
        return start + self.below(stop - start)

    def choice(self, seq: Sequence[T]) -> T:
        """``seq[below(len(seq))]``.

        Raises:
            IndexError: ``seq`` is empty.
        """
        if not seq:
            raise IndexError("cannot choose from an empty sequence")
        return seq[self.below(len(seq))]

    def shuffle(self, x: MutableSequence[T]) -> None:
        """Shuffle ``x`` in place: Fisher-Yates from the end, ``j = below(i + 1)`` for ``i``
        from ``len(x) - 1`` down to 1 (one ``below`` call per position)."""
        # ``below`` inlined: a deal shuffles 70 cards inside every timed playout.
        s = self._state
        mask = MASK64
        mul = XORSHIFT_MULTIPLIER
        two64 = _TWO64
        for i in range(len(x) - 1, 0, -1):
            n = i + 1
            t = two64 % n
            while True:
                s ^= s >> 12
                s ^= (s << 25) & mask
                s ^= s >> 27
                r = (s * mul) & mask
                if r >= t:
                    break
            j = r % n
            x[i], x[j] = x[j], x[i]
        self._state = s

    def sample(self, population: Sequence[T], k: int) -> list[T]:
        """``k`` distinct elements of ``population`` in selection order (partial
        Fisher-Yates from the front on a copy; module docstring).

        Raises:
            ValueError: ``k`` is negative or larger than the population.
        """
        pool = list(population)
        n = len(pool)
        if not 0 <= k <= n:
            raise ValueError(f"sample of {k} from a population of {n}")
        for i in range(k):
            j = i + self.below(n - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]

    def __repr__(self) -> str:
        return f"<Rng state={self._state:#018x}>"


_BYTE_LIMITS: Final = tuple(256 - 256 % n if n else 0 for n in range(257))
_BLOCK: Final = 64
"""``next_u64`` outputs ``SmallChoices`` takes at a time."""


class SmallChoices:
    """Exactly uniform choices among 1..256 options from the bytes of an ``Rng``'s outputs
    (module docstring), about twice as cheap per choice as ``Rng.below``: the playout
    benchmark's policy draws one at every decision.

    The chooser takes ``rng``'s outputs 64 at a time, so ``rng`` belongs to it: draw nothing
    else from it.

    >>> choose = SmallChoices(Rng(3)).below
    >>> picks = [choose(5) for _ in range(1000)]
    >>> sorted(set(picks)), SmallChoices(Rng(3)).below(5) == picks[0]
    ([0, 1, 2, 3, 4], True)
    """

    __slots__ = ("_at", "_bytes", "_rng")

    def __init__(self, rng: Rng) -> None:
        self._rng = rng
        self._bytes = b""
        self._at = 0

    def below(self, n: int) -> int:
        """A uniform integer in ``0 .. n - 1``.

        Raises:
            ValueError: ``n`` is not in 1..256.
        """
        if not 0 < n <= 256:
            raise ValueError(f"SmallChoices.below(n) needs 1 <= n <= 256, not {n}")
        limit = _BYTE_LIMITS[n]
        while True:
            at = self._at
            if at == len(self._bytes):
                nxt = self._rng.next_u64
                self._bytes = b"".join([nxt().to_bytes(8, "little") for _ in range(_BLOCK)])
                at = 0
            b = self._bytes[at]
            self._at = at + 1
            if b < limit:
                return b % n


__all__ = [
    "AGENT",
    "BOOTSTRAP",
    "DEAL",
    "DECISION",
    "FALLBACK",
    "GAME",
    "MASK64",
    "MATCH_GAME",
    "PILE",
    "SAMPLE",
    "STREAMS",
    "Rng",
    "SmallChoices",
    "derive_seed",
    "splitmix64",
]
