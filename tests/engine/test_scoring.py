"""Tests of optimal scoring (docs/rules.md §6, the Extrakarten scoring cards of §7)."""

from __future__ import annotations

import json
import random
from itertools import combinations, product
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coloretto.engine.errors import ColorettoError
from coloretto.engine.rules import BROWN_TABLE, VIOLET_TABLE, Rules
from coloretto.engine.scoring import (
    ScoreBreakdown,
    ScoringError,
    clear_score_cache,
    collection_total,
    joker_targets,
    optimal_score,
    optimal_total,
    optimal_total_uncached,
    score_collection,
)

DATA = Path(__file__).parents[1] / "data" / "scoring-cases.json"
CASES: list[dict[str, Any]] = json.loads(DATA.read_text(encoding="utf-8"))

ALL_RULES = [
    Rules(table=table, extra_card=extra)
    for table in ("brown", "violet")
    for extra in (None, "single_three", "triple_three", "triple_minus")
]
ALL_COLORS = tuple(range(7))


# ----- an independent brute force -------------------------------------------------------------
def brute_force(
    counts: list[int] | tuple[int, ...],
    jokers: int,
    plus2: int,
    table: tuple[int, ...],
    factor: int,
    allowed: tuple[int, ...] | None = None,
) -> int:
    """Every assignment of each joker to each allowed colour separately, every 3-subset of the
    held colours as the positive ones; the maximum."""
    targets = list(range(len(counts))) if allowed is None else list(allowed)
    if not targets:
        assignments: list[tuple[int, ...]] = [()]
    else:
        assignments = list(product(targets, repeat=jokers))
    best = None
    for assignment in assignments:
        final = list(counts)
        for colour in assignment:
            final[colour] += 1
        held = [c for c in range(len(final)) if final[c] > 0]
        points = [table[min(n, 6)] for n in final]
        for positive in combinations(held, min(3, len(held))):
            score = sum(points[c] for c in positive) - factor * sum(
                points[c] for c in held if c not in positive
            )
            if best is None or score > best:
                best = score
    assert best is not None
    return best + 2 * plus2


def check_breakdown(
    b: ScoreBreakdown,
    counts: list[int] | tuple[int, ...],
    jokers: int,
    plus2: int,
    table: tuple[int, ...],
    factor: int,
    allowed: tuple[int, ...] | None,
) -> None:
    """A breakdown adds up and is consistent with its input."""
    targets = set(range(len(counts)) if allowed is None else allowed)
    assert b.total == sum(b.positive.values()) + sum(b.negative.values()) + b.plus2
    assert b.plus2 == 2 * plus2
    assert set(b.jokers) <= targets
    assert all(n > 0 for n in b.jokers.values())
    assert sum(b.jokers.values()) == (jokers if targets else 0)
    assert len(b.counts) == len(counts)
    assert list(b.counts) == [counts[c] + b.jokers.get(c, 0) for c in range(len(counts))]
    held = {c for c in range(len(counts)) if b.counts[c] > 0}
    assert set(b.positive) | set(b.negative) == held
    assert not set(b.positive) & set(b.negative)
    assert len(b.positive) == min(3, len(held))
    value = {c: table[min(b.counts[c], 6)] for c in held}
    for c, p in b.positive.items():
        assert p == value[c]
    for c, p in b.negative.items():
        assert p == -factor * value[c] and p <= 0
    if b.negative:
        assert min(b.positive.values()) >= max(value[c] for c in b.negative)


def case_input(case: dict[str, Any]) -> tuple[list[int], int, int, tuple[int, ...]]:
    cards = dict(case["cards"])
    jokers = cards.pop("joker", 0) + cards.pop("golden_joker", 0)
    plus2 = cards.pop("plus2", 0)
    counts = list(cards.values()) + [0] * (7 - len(cards))
    table = BROWN_TABLE if case["table"] == "brown" else VIOLET_TABLE
    return counts, jokers, plus2, table


def index_of(case: dict[str, Any], label: str) -> int:
    return [k for k in case["cards"] if k not in ("joker", "golden_joker", "plus2")].index(label)


# ----- the shared cases and the rulebook's worked examples ----------------------------------
@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_scoring_cases(case: dict[str, Any]) -> None:
    counts, jokers, plus2, table = case_input(case)
    b = optimal_score(counts, jokers, plus2, table=table)
    assert b.total == case["total"]
    assert optimal_total(tuple(counts), jokers, plus2, table) == case["total"]
    assert optimal_total_uncached(counts, jokers, plus2, table) == case["total"]
    assert brute_force(counts, jokers, plus2, table, 1) == case["total"]
    check_breakdown(b, counts, jokers, plus2, table, 1, None)


# docs/rules.md §6, "Worked examples": (table, counts by colour, jokers, plus2, total, joker target)
WORKED = [
    ("brown", {"green": 6, "yellow": 4, "red": 3, "blue": 2}, 0, 1, 36, None),
    ("brown", {"green": 6, "yellow": 4, "red": 3, "blue": 2}, 1, 1, 41, "yellow"),
    ("brown", {"orange": 4, "yellow": 3, "green": 2, "blue": 2}, 1, 1, 23, "orange"),
    ("brown", {"yellow": 5, "green": 3, "blue": 3, "pink": 3, "brown": 1}, 0, 0, 20, None),
    ("violet", {"green": 6, "yellow": 4, "red": 3, "blue": 2}, 1, 1, 20, "blue"),
    ("brown", {"green": 6, "yellow": 6}, 1, 0, 43, "new"),
    ("brown", {"green": 8, "yellow": 1}, 0, 0, 22, None),
    ("brown", {"green": 4, "yellow": 2}, 3, 0, 27, None),
]


@pytest.mark.parametrize("table, cards, jokers, plus2, total, target", WORKED)
def test_worked_examples(
    table: str, cards: dict[str, int], jokers: int, plus2: int, total: int, target: str | None
) -> None:
    tab = BROWN_TABLE if table == "brown" else VIOLET_TABLE
    counts = list(cards.values()) + [0] * (7 - len(cards))
    b = optimal_score(counts, jokers, plus2, table=tab)
    assert b.total == total
    if target == "new":
        (where,) = b.jokers
        assert counts[where] == 0
    elif target is not None:
        assert b.jokers == {list(cards).index(target): 1}


def test_largest_colour_heuristic_is_wrong() -> None:
    """docs/rules.md §6.4: "jokers to the largest colour" gives 36 on the rulebook example."""
    counts = [6, 4, 3, 2, 0, 0, 0]
    assert optimal_score([7, 4, 3, 2, 0, 0, 0], 0, 1).total == 36
    assert optimal_score(counts, 1, 1).total == 41


def test_three_jokers_breakdown() -> None:
    b = optimal_score([4, 2, 0, 0, 0, 0, 0], 3, 0)
    assert b.jokers == {0: 2, 1: 1}
    assert b.counts == (6, 3, 0, 0, 0, 0, 0)
    assert b.positive == {0: 21, 1: 6}
    assert b.negative == {}


def test_cap_and_uncapped_counts() -> None:
    b = optimal_score([8, 1], 0, 0)
    assert b.counts == (8, 1)
    assert b.positive == {0: 21, 1: 1}


def test_extrakarten_values() -> None:
    single = Rules(extra_card="single_three")
    assert optimal_score([1], 0, 0, table=single.score_table).total == 3
    triple = Rules(extra_card="triple_three")
    assert optimal_score([3], 0, 0, table=triple.score_table).total == 2
    # triple_three: a third card of a colour loses a point, so a joker goes elsewhere.
    assert optimal_score([2, 6, 6], 1, 0, table=triple.score_table).total == 45
    minus = Rules(extra_card="triple_minus")
    b = optimal_score([6, 4, 3, 2], 0, 1, negative_factor=minus.negative_factor)
    assert b.negative == {3: -9}
    assert b.total == 21 + 10 + 6 - 9 + 2


def test_violet_joker_to_the_smallest_colour() -> None:
    """docs/rules.md §6.4: on the violet table the best target can be the smallest colour."""
    b = optimal_score([6, 4, 3, 2, 0, 0, 0], 1, 1, table=VIOLET_TABLE)
    assert b.jokers == {3: 1}


def test_empty_and_trivial() -> None:
    b = optimal_score([0] * 7, 0, 0)
    assert b == ScoreBreakdown(0, (0,) * 7, {}, {}, {}, 0)
    assert optimal_score([], 0, 2).total == 4
    assert optimal_total((), 0, 0) == 0
    # A joker alone starts a colour of one card.
    assert optimal_score([0] * 7, 1, 0).total == 1
    assert optimal_score([0] * 7, 2, 0).total == 3


def test_no_allowed_colour_means_jokers_count_nothing() -> None:
    b = optimal_score([3, 2], 2, 0, joker_colors=[])
    assert b.total == 6 + 3
    assert b.jokers == {}
    assert b.counts == (3, 2)
    assert optimal_total((3, 2), 2, 0, BROWN_TABLE, 1, ()) == 9
    assert optimal_score([], 3, 1).total == 2


def test_joker_colors_restrict() -> None:
    # Joker may only go to colour 2: (5, 5, 2) -> 15 + 15 + 6.
    assert optimal_score([5, 5, 2], 1, 0, joker_colors=[2]).total == 36
    assert optimal_score([5, 5, 2], 1, 0).total == 21 + 15 + 3
    assert optimal_total((5, 5, 2), 1, 0, BROWN_TABLE, 1, (2,)) == 36


def test_tie_break_is_deterministic() -> None:
    # All colours full: any joker placement is equal; it goes to the first colour listed.
    b = optimal_score([6, 6, 6, 6], 1, 0)
    assert b.jokers == {0: 1}
    assert b.positive == {0: 21, 1: 21, 2: 21}
    assert b.negative == {3: -21}
    assert optimal_score([6, 6, 6, 6], 1, 0, joker_colors=[3, 0]).jokers == {3: 1}
    # single_three: 1 card and 2 cards are both worth 3; the one with more cards is positive.
    table = Rules(extra_card="single_three").score_table
    b = optimal_score([1, 6, 6, 2], 0, 0, table=table)
    assert b.positive == {1: 21, 2: 21, 3: 3}
    assert b.negative == {0: -3}


def test_invariant_under_colour_order() -> None:
    rng = random.Random(5)
    for _ in range(200):
        counts = [rng.randint(0, 9) for _ in range(7)]
        jokers = rng.randint(0, 3)
        shuffled = counts[:]
        rng.shuffle(shuffled)
        assert optimal_total(tuple(counts), jokers, 0) == optimal_total(tuple(shuffled), jokers, 0)


# ----- errors ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "args, kwargs",
    [
        (([1, -1], 0, 0), {}),
        (([1, 2.5], 0, 0), {}),
        (([1], -1, 0), {}),
        (([1], 0, -2), {}),
        (([1], 1, 0), {"table": (1, 2, 3)}),
        (([1], 1, 0), {"table": (0,)}),
        (([1], 1, 0), {"table": (0, -1, 3)}),
        (([1], 1, 0), {"negative_factor": -1}),
        (([1, 2], 1, 0), {"joker_colors": [2]}),
        (([1, 2], 1, 0), {"joker_colors": [-1]}),
    ],
)
def test_bad_arguments(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    with pytest.raises(ScoringError) as info:
        optimal_score(*args, **kwargs)
    assert isinstance(info.value, ColorettoError) and isinstance(info.value, ValueError)
    table = tuple(kwargs.get("table", BROWN_TABLE))
    colours = kwargs.get("joker_colors")
    with pytest.raises(ScoringError):
        optimal_total(
            tuple(args[0]),
            args[1],
            args[2],
            table,
            kwargs.get("negative_factor", 1),
            None if colours is None else tuple(colours),
        )


def test_optimal_total_needs_hashable_arguments() -> None:
    with pytest.raises(TypeError):
        optimal_total([1, 2], 0, 0)  # type: ignore[arg-type]


def test_bad_collection() -> None:
    with pytest.raises(ScoringError):
        score_collection([1, 2, 3], Rules(), ALL_COLORS)
    with pytest.raises(ScoringError):
        joker_targets([0] * 10, Rules(), (0, 7))
    with pytest.raises(ScoringError):
        collection_total([0] * 6 + [-1, 0, 0, 0], Rules(), ALL_COLORS)


# ----- collections under Rules ----------------------------------------------------------------
def test_joker_targets() -> None:
    coll = [0, 2, 0, 1, 0, 0, 0, 1, 0, 0]
    assert joker_targets(coll, Rules(), ALL_COLORS) == ALL_COLORS
    assert joker_targets(coll, Rules(players=3), (0, 1, 2, 3, 4, 6)) == (0, 1, 2, 3, 4, 6)
    strict = Rules(joker_any_color=False)
    assert joker_targets(coll, strict, ALL_COLORS) == (1, 3)
    assert joker_targets(coll, strict, (0, 2, 4, 5, 6, 3)) == (3,)
    only_jokers = [0] * 7 + [2, 1, 0]
    assert joker_targets(only_jokers, strict, (0, 2, 4)) == (0, 2, 4)


def test_score_collection_golden_joker_and_plus2() -> None:
    coll = [2, 4, 0, 6, 0, 0, 3, 0, 1, 1]  # golden joker only
    b = score_collection(coll, Rules(edition="modern"), ALL_COLORS)
    assert b.total == 21 + 15 + 6 - 3 + 2
    assert b.jokers == {1: 1}
    assert collection_total(coll, Rules(edition="modern"), ALL_COLORS) == b.total
    assert collection_total(coll, Rules(), list(ALL_COLORS)) == b.total


def test_score_collection_joker_any_color_false() -> None:
    coll = [0, 0, 0, 6, 0, 0, 6, 1, 0, 0]
    assert score_collection(coll, Rules(), ALL_COLORS).total == 43
    strict = Rules(joker_any_color=False)
    assert score_collection(coll, strict, ALL_COLORS).total == 42
    assert collection_total(coll, strict, ALL_COLORS) == 42


def test_colours_out_of_play_cannot_take_jokers() -> None:
    coll = [6, 6, 0, 0, 0, 0, 0, 1, 0, 0]
    # Only colours 0 and 1 are in play: the joker cannot start a third colour.
    assert score_collection(coll, Rules(players=2), (0, 1)).total == 42
    assert collection_total(coll, Rules(players=2), (0, 1)) == 42


# ----- against the brute force ----------------------------------------------------------------
counts_st = st.lists(st.integers(0, 9), min_size=0, max_size=7)


@settings(max_examples=1500, deadline=None)
@given(
    counts=counts_st,
    jokers=st.integers(0, 3),
    plus2=st.integers(0, 3),
    rules=st.sampled_from(ALL_RULES),
)
def test_matches_brute_force(counts: list[int], jokers: int, plus2: int, rules: Rules) -> None:
    table, factor = rules.score_table, rules.negative_factor
    expected = brute_force(counts, jokers, plus2, table, factor)
    b = optimal_score(counts, jokers, plus2, table=table, negative_factor=factor)
    assert b.total == expected
    check_breakdown(b, counts, jokers, plus2, table, factor, None)
    assert optimal_total(tuple(counts), jokers, plus2, table, factor) == expected
    assert optimal_total_uncached(counts, jokers, plus2, table, factor) == expected


@settings(max_examples=1500, deadline=None)
@given(
    data=st.data(),
    jokers=st.integers(0, 3),
    plus2=st.integers(0, 2),
    rules=st.sampled_from(ALL_RULES),
)
def test_matches_brute_force_restricted_jokers(
    data: st.DataObject, jokers: int, plus2: int, rules: Rules
) -> None:
    counts = data.draw(st.lists(st.integers(0, 9), min_size=1, max_size=7), label="counts")
    n = len(counts)
    allowed = tuple(data.draw(st.lists(st.integers(0, n - 1), max_size=n), label="allowed"))
    table, factor = rules.score_table, rules.negative_factor
    expected = brute_force(counts, jokers, plus2, table, factor, allowed)
    b = optimal_score(
        counts, jokers, plus2, table=table, negative_factor=factor, joker_colors=allowed
    )
    assert b.total == expected
    check_breakdown(b, counts, jokers, plus2, table, factor, allowed)
    assert optimal_total(tuple(counts), jokers, plus2, table, factor, allowed) == expected
    assert optimal_total_uncached(counts, jokers, plus2, table, factor, allowed) == expected


@settings(max_examples=1000, deadline=None)
@given(
    colours=st.lists(st.integers(0, 9), min_size=7, max_size=7),
    jokers=st.integers(0, 3),
    golden=st.integers(0, 1),
    plus2=st.integers(0, 3),
    rules=st.sampled_from(ALL_RULES),
    any_color=st.booleans(),
    in_play=st.sampled_from([ALL_COLORS, (0, 1, 2, 3, 4, 6), (1, 3, 4, 5, 6)]),
)
def test_collections_match_brute_force(
    colours: list[int],
    jokers: int,
    golden: int,
    plus2: int,
    rules: Rules,
    any_color: bool,
    in_play: tuple[int, ...],
) -> None:
    if golden and jokers == 3:
        jokers = 2
    colours = [c if i in in_play else 0 for i, c in enumerate(colours)]
    rules = rules.replace(joker_any_color=any_color)
    collection = colours + [jokers, golden, plus2]
    held = tuple(c for c in in_play if colours[c] > 0)
    allowed = in_play if any_color or not held else held
    expected = brute_force(
        colours, jokers + golden, plus2, rules.score_table, rules.negative_factor, allowed
    )
    b = score_collection(collection, rules, in_play)
    assert b.total == expected
    check_breakdown(
        b, colours, jokers + golden, plus2, rules.score_table, rules.negative_factor, allowed
    )
    assert collection_total(collection, rules, in_play) == expected
    assert collection_total(tuple(collection), rules, list(in_play)) == expected


def test_random_sweep_every_rule_variant() -> None:
    """Deterministic: 120 random collections per scoring variant, with and without the
    cache, against the brute force."""
    rng = random.Random(2024)
    clear_score_cache()
    for rules in ALL_RULES:
        table, factor = rules.score_table, rules.negative_factor
        for _ in range(120):
            counts = tuple(rng.randint(0, 9) for _ in range(7))
            jokers = rng.randint(0, 3)
            plus2 = rng.randint(0, 3)
            expected = brute_force(counts, jokers, plus2, table, factor)
            assert optimal_total(counts, jokers, plus2, table, factor) == expected
            assert optimal_total(counts, jokers, plus2, table, factor) == expected  # cached
            assert optimal_total_uncached(counts, jokers, plus2, table, factor) == expected
    info = optimal_total.cache_info()
    assert info.hits >= 120 * len(ALL_RULES)
    clear_score_cache()
    assert optimal_total.cache_info().currsize == 0


def test_more_jokers_than_the_game_has() -> None:
    for jokers in (4, 5):
        counts = [3, 1, 0, 2]
        assert optimal_score(counts, jokers, 0).total == brute_force(
            counts, jokers, 0, BROWN_TABLE, 1
        )
        assert optimal_total(tuple(counts), jokers, 0) == brute_force(
            counts, jokers, 0, BROWN_TABLE, 1
        )
