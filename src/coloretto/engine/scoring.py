"""Optimal scoring of a collection (docs/rules.md §6).

A player's score is the **maximum**, over every assignment of their jokers to colours and
every choice of three positive colours, of::

    sum(table[n] for the three positive colours)
    - negative_factor * sum(table[n] for every other colour held)
    + 2 * (number of "+2" cards)

where ``n`` is the number of cards of a colour after the jokers, capped at 6 (the last index of
the table). Because table values are non-negative, the best choice of positive colours for a
given joker assignment is always the three colours with the highest table values (with three
colours or fewer, all of them), so only joker assignments need searching: each joker goes to
one allowed colour, several may go to the same one, which gives the combinations with
repetition of the allowed colours (at most 84 for 3 jokers and 7 colours).

Two entry points:

* :func:`optimal_score` returns a :class:`ScoreBreakdown` (the total, where each joker went,
  which colours count positive and negative). Not cached; for display and checking.
* :func:`optimal_total` returns only the total and is memoised: it is called at the end of
  every simulated game. Its arguments must be hashable (tuples). Before searching it reduces
  a collection to a canonical form (counts capped at 6 and sorted, surplus identical colours
  set aside), so equivalent collections share one cache entry.

:func:`score_collection` and :func:`collection_total` score a 10-count collection (see
``cards``) under :class:`~coloretto.engine.rules.Rules`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Final

from .cards import COLLECTION_SIZE, GOLDEN_JOKER, JOKER, NUM_COLORS, PLUS2
from .errors import ColorettoError
from .rules import BROWN_TABLE, VIOLET_TABLE, Rules

__all__ = [
    "PLUS2_POINTS",
    "ScoreBreakdown",
    "ScoringError",
    "allowed_joker_colors",
    "clear_score_cache",
    "collection_total",
    "collection_total_plus",
    "joker_targets",
    "optimal_score",
    "optimal_total",
    "optimal_total_uncached",
    "score_collection",
]

PLUS2_POINTS: Final = 2
"""Points of one "+2" card (docs/rules.md §6.3)."""

_TOTAL_CACHE_SIZE: Final = 1 << 16
_SOLVE_CACHE_SIZE: Final = 1 << 17


class ScoringError(ColorettoError, ValueError):
    """Malformed arguments to a scoring function: a negative or non-integer count, a score
    table that is not a list of non-negative integers starting with 0, a joker colour index
    out of range, a collection that is not 10 counts."""


@dataclass(frozen=True)
class ScoreBreakdown:
    """An optimal score and the joker assignment and positive colours that reach it.

    Attributes:
        total: the score: ``sum(positive.values()) + sum(negative.values()) + plus2``.
        counts: cards per colour after joker assignment, one per colour index of the input
            (not capped at 6: a colour of 8 cards shows 8 and scores as 6).
        positive: colour index -> points, for the (at most three) colours counted positive;
            only colours with at least one card. Ordered best first.
        negative: colour index -> points as negative numbers (``negative_factor`` applied) for
            every other colour with at least one card. Ordered largest loss first.
        jokers: colour index -> number of jokers (regular and golden) assigned there; only
            colours that received a joker. Its values sum to the number of jokers, unless no
            colour was allowed (then it is empty and the jokers counted nothing).
        plus2: points from "+2" cards (2 each).
    """

    total: int
    counts: tuple[int, ...]
    positive: dict[int, int]
    negative: dict[int, int]
    jokers: dict[int, int]
    plus2: int


# ----- validation ---------------------------------------------------------------------------
_GOOD_TABLES: set[tuple[int, ...]] = {BROWN_TABLE, VIOLET_TABLE}


def _check_table(table: tuple[int, ...]) -> None:
    if table in _GOOD_TABLES:
        return
    if len(table) < 2 or not all(type(v) is int and v >= 0 for v in table) or table[0] != 0:
        raise ScoringError(
            f"score table must be at least 2 non-negative integers starting with 0 "
            f"(points for 0, 1, 2, ... cards), not {table!r}"
        )
    _GOOD_TABLES.add(table)


def _check_counts(counts: tuple[int, ...], jokers: int, plus2: int, negative_factor: int) -> None:
    if not all(type(c) is int and c >= 0 for c in counts):
        raise ScoringError(f"colour counts must be non-negative integers, not {counts!r}")
    if type(jokers) is not int or jokers < 0:
        raise ScoringError(f"jokers must be a non-negative integer, not {jokers!r}")
    if type(plus2) is not int or plus2 < 0:
        raise ScoringError(f"plus2 must be a non-negative integer, not {plus2!r}")
    if type(negative_factor) is not int or negative_factor < 0:
        raise ScoringError(
            f"negative_factor must be a non-negative integer, not {negative_factor!r}"
        )


def _allowed_colors(n: int, joker_colors: Sequence[int] | None) -> tuple[int, ...]:
    """Colour indices jokers may go to, deduplicated, in the given order."""
    if joker_colors is None:
        return tuple(range(n))
    allowed: list[int] = []
    for c in joker_colors:
        if type(c) is not int or not 0 <= c < n:
            raise ScoringError(
                f"joker colour {c!r} is not a colour index of the {n} counts (0..{n - 1})"
            )
        if c not in allowed:
            allowed.append(c)
    return tuple(allowed)


# ----- the search ---------------------------------------------------------------------------
def _solve(
    allowed: tuple[int, ...],
    fixed_top: tuple[int, int, int],
    jokers: int,
    table: tuple[int, ...],
    factor: int,
) -> int:
    """Best ``(1 + factor) * top3 - factor * sum(values of allowed colours)`` over all joker
    distributions.

    ``allowed``: capped counts of the colours jokers may join (non-empty when ``jokers > 0``);
    ``fixed_top``: the three highest values of the other colours (zero-padded). The caller
    subtracts ``factor`` times the sum of the other colours' values.
    """
    cap = len(table) - 1
    ext = [table[min(c, cap)] for c in range(cap + jokers + 1)]
    base = [ext[c] for c in allowed]
    f1 = 1 + factor
    if jokers == 0:
        vals = base + list(fixed_top)
        vals.sort()
        return f1 * (vals[-1] + vals[-2] + vals[-3]) - factor * sum(base)
    fixed_sum = sum(fixed_top)
    bf = base + list(fixed_top)
    n = len(allowed)
    e1 = [ext[c + 1] for c in allowed]
    # Hot loops: each evaluates one joker distribution by patching a copy of the values.
    best = -(1 << 62)
    if jokers == 1:
        for i in range(n):
            vals = bf[:]
            vals[i] = e1[i]
            s = sum(vals)
            vals.sort()
            t = f1 * (vals[-1] + vals[-2] + vals[-3]) - factor * (s - fixed_sum)
            if t > best:  # noqa: PLR1730 (faster than max() here)
                best = t
        return best
    e2 = [ext[c + 2] for c in allowed]
    if jokers == 2:
        for i in range(n):
            for j in range(i, n):
                vals = bf[:]
                if i == j:
                    vals[i] = e2[i]
                else:
                    vals[i] = e1[i]
                    vals[j] = e1[j]
                s = sum(vals)
                vals.sort()
                t = f1 * (vals[-1] + vals[-2] + vals[-3]) - factor * (s - fixed_sum)
                if t > best:  # noqa: PLR1730 (faster than max() here)
                    best = t
        return best
    if jokers == 3:
        return _best_of_three(bf, e1, e2, [ext[c + 3] for c in allowed], f1, factor, fixed_sum)
    for combo in combinations_with_replacement(range(n), jokers):
        cur = list(allowed)
        for i in combo:
            cur[i] += 1
        vals = [ext[c] for c in cur]
        s = sum(vals)
        vals.extend(fixed_top)
        vals.sort()
        t = f1 * (vals[-1] + vals[-2] + vals[-3]) - factor * s
        if t > best:  # noqa: PLR1730 (faster than max() here)
            best = t
    return best


def _best_of_three(
    bf: list[int], e1: list[int], e2: list[int], e3: list[int], f1: int, factor: int, fixed_sum: int
) -> int:
    """``_solve`` for three jokers: every way to put them on the ``n`` allowed colours.
    ``bf``: the allowed colours' values then the three fixed ones; ``e1``..``e3``: the
    allowed colours' values with one to three more cards."""
    n = len(e1)
    best = -(1 << 62)
    for i in range(n):
        for j in range(i, n):
            for k in range(j, n):
                vals = bf[:]
                if i == k:
                    vals[i] = e3[i]
                elif i == j:
                    vals[i] = e2[i]
                    vals[k] = e1[k]
                elif j == k:
                    vals[i] = e1[i]
                    vals[j] = e2[j]
                else:
                    vals[i] = e1[i]
                    vals[j] = e1[j]
                    vals[k] = e1[k]
                s = sum(vals)
                vals.sort()
                t = f1 * (vals[-1] + vals[-2] + vals[-3]) - factor * (s - fixed_sum)
                if t > best:  # noqa: PLR1730 (faster than max() here)
                    best = t
    return best


_solve_cached = lru_cache(maxsize=_SOLVE_CACHE_SIZE)(_solve)


def _total(
    counts: tuple[int, ...],
    jokers: int,
    plus2: int,
    table: tuple[int, ...],
    negative_factor: int,
    joker_colors: tuple[int, ...] | None,
    cached: bool,
) -> int:
    """Canonicalise the collection, then search (see :func:`optimal_total`)."""
    if table not in _GOOD_TABLES:
        _check_table(table)
    _check_counts(counts, jokers, plus2, negative_factor)
    return _canonical_total(counts, jokers, plus2, table, negative_factor, joker_colors, cached)


_ALL_COLORS: Final = {n: tuple(range(n)) for n in range(NUM_COLORS + 1)}


def _canonical_total(
    counts: tuple[int, ...],
    jokers: int,
    plus2: int,
    table: tuple[int, ...],
    factor: int,
    joker_colors: tuple[int, ...] | None,
    cached: bool,
) -> int:
    cap = len(table) - 1
    n = len(counts)
    if jokers == 0 or not n or (joker_colors is not None and not joker_colors):
        # Nothing to search; jokers with no allowed colour count nothing.
        vals = sorted([table[min(cap, c)] for c in counts])
        top = sum(vals[-3:])
        return top - factor * (sum(vals) - top) + PLUS2_POINTS * plus2
    if joker_colors is None or joker_colors == _ALL_COLORS.get(n):
        allowed_counts = [min(cap, c) for c in counts]
        others: list[int] = []
    else:
        allowed_idx = _allowed_colors(n, joker_colors)
        chosen = set(allowed_idx)
        allowed_counts = [min(counts[i], cap) for i in allowed_idx]
        others = [table[min(counts[i], cap)] for i in range(n) if i not in chosen]
    # Colours with the same count are interchangeable and at most ``jokers`` of them can
    # receive one, so surplus copies score as fixed colours (a full colour needs one copy,
    # as the place for jokers that gain nothing).
    allowed_counts.sort()
    allowed: list[int] = []
    last, run = -1, 0
    for c in allowed_counts:
        run = run + 1 if c == last else 1
        last = c
        if run <= (1 if c == cap else jokers):
            allowed.append(c)
        elif c:
            others.append(table[c])
    others.sort(reverse=True)
    top3 = (others + [0, 0, 0])[:3]
    fixed_top = (top3[0], top3[1], top3[2])
    solve = _solve_cached if cached else _solve
    best = solve(tuple(allowed), fixed_top, jokers, table, factor)
    return best - factor * sum(others) + PLUS2_POINTS * plus2


@lru_cache(maxsize=_TOTAL_CACHE_SIZE)
def optimal_total(
    counts: tuple[int, ...],
    jokers: int,
    plus2: int,
    table: tuple[int, ...] = BROWN_TABLE,
    negative_factor: int = 1,
    joker_colors: tuple[int, ...] | None = None,
) -> int:
    """The optimal score of a collection, memoised (docs/rules.md §6).

    Same rule and arguments as :func:`optimal_score`, which returns the breakdown; this
    returns only ``total`` and is the fast path for simulations. Results are cached on the
    arguments (least recently used, 65,536 entries) and on a canonical form of the collection
    (131,072 entries); :func:`clear_score_cache` empties both.

    Args:
        counts: cards per colour, one entry per colour index (a tuple; any length).
        jokers: number of jokers (regular and golden), >= 0.
        plus2: number of "+2" cards, >= 0 (2 points each).
        table: points for 0, 1, 2, ... cards; the last entry applies to that many cards or more.
        negative_factor: multiplier of negative colours (3 for ``triple_minus``).
        joker_colors: tuple of colour indices jokers may go to; ``None`` = every index of
            ``counts``; empty with ``jokers > 0``: the jokers count nothing.

    Returns:
        The maximum total over all joker assignments, in points.

    Raises:
        TypeError: an argument is not hashable (pass tuples, not lists).
        ScoringError: a negative or non-integer count, a bad table, or a joker colour outside
            ``0..len(counts)-1`` (joker colours are checked only when ``jokers > 0``).
    """
    return _total(counts, jokers, plus2, table, negative_factor, joker_colors, True)


def optimal_total_uncached(
    counts: Sequence[int],
    jokers: int,
    plus2: int,
    table: Sequence[int] = BROWN_TABLE,
    negative_factor: int = 1,
    joker_colors: Sequence[int] | None = None,
) -> int:
    """:func:`optimal_total` without any cache (for benchmarks and tests); same arguments,
    result and errors, but sequences need not be hashable."""
    colors = None if joker_colors is None else tuple(joker_colors)
    return _total(tuple(counts), jokers, plus2, tuple(table), negative_factor, colors, False)


def clear_score_cache() -> None:
    """Empty the caches of :func:`optimal_total`."""
    optimal_total.cache_clear()
    _solve_cached.cache_clear()


def optimal_score(
    counts: Sequence[int],
    jokers: int,
    plus2: int,
    *,
    table: Sequence[int] = BROWN_TABLE,
    negative_factor: int = 1,
    joker_colors: Sequence[int] | None = None,
) -> ScoreBreakdown:
    """The optimal score of a collection with its breakdown (docs/rules.md §6).

    Each joker is assigned to one colour of ``joker_colors`` (several may share one); a
    colour beyond the table's last entry (6 cards) scores as that entry; the three colours
    with the highest table values count positive (all of them with three colours or fewer)
    and every other colour held counts ``negative_factor`` times its value negative; each
    "+2" adds 2. The maximum is taken over every joker assignment.

    Tie-break (deterministic): among assignments reaching the maximum, the first in
    lexicographic order of the sorted tuple of positions in ``joker_colors`` each joker goes
    to (so jokers prefer colours listed earlier); among colours of equal value, the one with
    more cards, then the lower index, counts positive.

    Args:
        counts: cards per colour, one entry per colour index (7 in the game; any number).
        jokers: number of jokers, regular and golden, >= 0.
        plus2: number of "+2" cards, >= 0.
        table: points for 0, 1, 2, ... cards (``BROWN_TABLE``, ``VIOLET_TABLE`` or
            ``Rules.score_table``): non-negative integers, ``table[0] == 0``.
        negative_factor: multiplier of negative colours, >= 0 (3 for ``triple_minus``).
        joker_colors: colour indices a joker may be assigned to; ``None`` = every index of
            ``counts``. Empty while ``jokers > 0``: the jokers are assigned nowhere and count
            nothing (``jokers`` of the result is then empty).

    Returns:
        A :class:`ScoreBreakdown`. Cost grows as the number of multisets of ``jokers``
        allowed colours (84 for 3 jokers and 7 colours).

    Raises:
        ScoringError: a negative or non-integer count, a bad table or factor, or a joker
            colour outside ``0..len(counts)-1``.

    Four blues, two greens, one orange, a yellow, a joker and a "+2" card: the joker joins
    the blues (5 cards: 15 points), greens and orange count positive (3 + 1), yellow
    negative (-1), and the "+2" adds 2.

    >>> b = optimal_score([4, 0, 0, 2, 1, 0, 1], jokers=1, plus2=1)
    >>> b.total, b.jokers, b.negative
    (20, {0: 1}, {6: -1})
    >>> optimal_total((4, 0, 0, 2, 1, 0, 1), 1, 1)
    20
    """
    base = tuple(counts)
    tab = tuple(table)
    _check_table(tab)
    _check_counts(base, jokers, plus2, negative_factor)
    allowed = _allowed_colors(len(base), joker_colors)
    cap = len(tab) - 1

    def value(c: int) -> int:
        return tab[min(c, cap)]

    best_total: int | None = None
    best_counts = base
    best_given: dict[int, int] = {}
    combos = combinations_with_replacement(allowed, jokers) if allowed else [()]
    for combo in combos:
        cur = list(base)
        for i in combo:
            cur[i] += 1
        vals = sorted((value(c) for c in cur), reverse=True)
        top = sum(vals[:3])
        t = top - negative_factor * (sum(vals) - top)
        if best_total is None or t > best_total:
            best_total = t
            best_counts = tuple(cur)
            best_given = {}
            for i in combo:
                best_given[i] = best_given.get(i, 0) + 1
    held = sorted(
        (i for i, c in enumerate(best_counts) if c > 0),
        key=lambda i: (-value(best_counts[i]), -best_counts[i], i),
    )
    positive = {i: value(best_counts[i]) for i in held[:3]}
    negative = {i: -negative_factor * value(best_counts[i]) for i in held[3:]}
    jokers_at = {i: best_given[i] for i in allowed if i in best_given}
    points2 = PLUS2_POINTS * plus2
    total = sum(positive.values()) + sum(negative.values()) + points2
    return ScoreBreakdown(total, best_counts, positive, negative, jokers_at, points2)


# ----- collections under Rules --------------------------------------------------------------
def _check_collection(collection: Sequence[int]) -> None:
    if len(collection) != COLLECTION_SIZE:
        raise ScoringError(
            f"a collection is {COLLECTION_SIZE} counts (7 colours, jokers, golden jokers, "
            f"plus2), not {len(collection)}"
        )


def allowed_joker_colors(
    counts: Sequence[int], joker_any_color: bool, colors_in_play: tuple[int, ...]
) -> tuple[int, ...]:
    """THE rule of where a joker may go (docs/rules.md §6.1 and the ``joker_any_color``
    option of §7); every other function and module asks this one.

    Args:
        counts: cards per colour indexed by colour code (a collection's first 7 counts, or
            the whole 10-count collection), jokers not included.
        joker_any_color: ``Rules.joker_any_color``.
        colors_in_play: colour codes in play in the game, ascending.

    Returns:
        ``colors_in_play`` when ``joker_any_color`` is true; otherwise the colours in play
        that ``counts`` holds at least one card of, or all of ``colors_in_play`` when it
        holds none of them. Not checked (see :func:`joker_targets`).

    >>> allowed_joker_colors([0, 2, 0, 1, 0, 0, 0], False, (0, 1, 2, 3, 4))
    (1, 3)
    >>> allowed_joker_colors([0, 2, 0, 1, 0, 0, 0], True, (0, 1, 2, 3, 4))
    (0, 1, 2, 3, 4)
    """
    if joker_any_color:
        return colors_in_play
    held = tuple(c for c in colors_in_play if counts[c])
    return held or colors_in_play


def joker_targets(
    collection: Sequence[int], rules: Rules, colors_in_play: Sequence[int]
) -> tuple[int, ...]:
    """:func:`allowed_joker_colors` for a 10-count collection under ``rules``, with its arguments
    checked (docs/rules.md §6.1, §7).

    Args:
        collection: 10 counts indexed by card code (see ``cards``).
        rules: the game's rules; ``rules.joker_any_color`` decides.
        colors_in_play: colour indices (0..6) in play in this game.

    Returns:
        ``colors_in_play`` (deduplicated, in the given order) when ``joker_any_color`` is true;
        otherwise only those colours the collection holds at least one card of, or all of
        ``colors_in_play`` when it holds none of them.

    Raises:
        ScoringError: ``collection`` is not 10 counts or a colour is outside 0..6.
    """
    _check_collection(collection)
    return allowed_joker_colors(collection, rules.joker_any_color, _allowed_colors(NUM_COLORS, colors_in_play))


def score_collection(
    collection: Sequence[int], rules: Rules, colors_in_play: Sequence[int]
) -> ScoreBreakdown:
    """Optimal score of a 10-count collection under ``rules`` (docs/rules.md §6, §7).

    Golden jokers score as jokers; jokers may go to :func:`joker_targets`; the table is
    ``rules.score_table`` (``single_three`` / ``triple_three`` applied) and negative colours
    count ``rules.negative_factor`` times (``triple_minus``). Colour indices of the result
    are card codes 0..6.

    Raises:
        ScoringError: ``collection`` is not 10 non-negative integer counts, or a colour of
            ``colors_in_play`` is outside 0..6.
    """
    targets = joker_targets(collection, rules, colors_in_play)
    return optimal_score(
        tuple(collection[:NUM_COLORS]),
        collection[JOKER] + collection[GOLDEN_JOKER],
        collection[PLUS2],
        table=rules.score_table,
        negative_factor=rules.negative_factor,
        joker_colors=targets,
    )


_RULE_PARAMS: dict[tuple[str, str | None], tuple[tuple[int, ...], int]] = {}


def _rule_params(rules: Rules) -> tuple[tuple[int, ...], int]:
    """``(rules.score_table, rules.negative_factor)``, memoised (hot path)."""
    key = (rules.table, rules.extra_card)
    params = _RULE_PARAMS.get(key)
    if params is None:
        params = _RULE_PARAMS[key] = (rules.score_table, rules.negative_factor)
    return params


def collection_total(collection: Sequence[int], rules: Rules, colors_in_play: Sequence[int]) -> int:
    """The total of :func:`score_collection`, through the memoised :func:`optimal_total`.

    Returns:
        The optimal total in points.

    Raises:
        ScoringError: as :func:`score_collection`.
    """
    params = _rule_params(rules)
    if type(colors_in_play) is tuple and len(collection) == COLLECTION_SIZE:
        targets = allowed_joker_colors(collection, rules.joker_any_color, colors_in_play)
    else:
        targets = joker_targets(collection, rules, colors_in_play)
    return optimal_total(
        tuple(collection[:NUM_COLORS]),
        collection[JOKER] + collection[GOLDEN_JOKER],
        collection[PLUS2],
        params[0],
        params[1],
        targets,
    )


def collection_total_plus(
    collection: Sequence[int],
    extra: Iterable[int],
    rules: Rules,
    colors_in_play: tuple[int, ...],
) -> int:
    """The optimal total of ``collection`` with the cards ``extra`` added (docs/rules.md §6):
    what a seat would score if it took a row of those cards now. Not checked; the fast path
    of row gains (``engine.policy``, the agents' features).

    Args:
        collection: 10 counts indexed by card code.
        extra: card codes 0..9 to add (a row's cards); the Last Round card never is one.
        rules: the game's rules (table, negative factor, ``joker_any_color``).
        colors_in_play: colour codes in play, ascending (``GameState.in_play``).

    >>> rules = Rules(players=4)
    >>> collection_total_plus([1, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 9], rules, (0, 1, 2, 3, 4, 5, 6))
    8
    """
    counts = list(collection[:NUM_COLORS])
    jokers = collection[JOKER] + collection[GOLDEN_JOKER]
    plus2 = collection[PLUS2]
    for c in extra:
        if c < NUM_COLORS:
            counts[c] += 1
        elif c == PLUS2:
            plus2 += 1
        else:
            jokers += 1
    params = _rule_params(rules)
    targets = allowed_joker_colors(counts, rules.joker_any_color, colors_in_play) if jokers else colors_in_play
    return optimal_total(tuple(counts), jokers, plus2, params[0], params[1], targets)
