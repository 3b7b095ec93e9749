"""The fast core's optimal scoring against the engine's (docs/rules.md §6, §7 Extrakarten)."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("numba")

from coloretto.engine.rules import Rules
from coloretto.engine.scoring import collection_total, score_collection
from coloretto.fastcore import layout as L
from coloretto.fastcore import rules_template
from coloretto.fastcore.api import counts_total

EXTRAS = (None, "single_three", "triple_three", "first_out_draws", "triple_minus")


def random_collection(rng: random.Random, in_play: tuple[int, ...]) -> list[int]:
    coll = [0] * 10
    for c in in_play:
        if rng.random() < 0.6:
            coll[c] = rng.choice((1, 1, 2, 2, 3, 3, 4, 5, 6, 7, 9))
    jokers = rng.randrange(4)
    golden = rng.randrange(min(1, 3 - jokers) + 1) if jokers < 3 else 0
    coll[7] = jokers
    coll[8] = golden
    coll[9] = rng.randrange(5)
    return coll


@pytest.mark.parametrize("table", ["brown", "violet"])
@pytest.mark.parametrize("extra", EXTRAS)
@pytest.mark.parametrize("joker_any", [True, False])
def test_fast_score_equals_engine(table: str, extra: str | None, joker_any: bool) -> None:
    rng = random.Random(f"{table}{extra}{joker_any}")
    rules = Rules(table=table, extra_card=extra, joker_any_color=joker_any)
    jokers_seen = set()
    for i in range(400):
        k = (5, 6, 7)[i % 3]
        in_play = tuple(sorted(rng.sample(range(7), k)))
        tpl = rules_template(rules).copy()
        tpl[L.INPLAY] = sum(1 << c for c in in_play)
        coll = random_collection(rng, in_play)
        jokers_seen.add(coll[7] + coll[8])
        expected = score_collection(coll, rules, in_play).total
        assert collection_total(coll, rules, in_play) == expected
        assert counts_total(coll, tpl) == expected, (coll, in_play)
    assert jokers_seen == {0, 1, 2, 3}


def test_worked_examples_of_the_rules() -> None:
    """docs/rules.md §6 table (colours renamed to indices: any seven labels)."""
    brown = rules_template(Rules())
    violet = rules_template(Rules(table="violet"))

    def coll(counts: list[int], jokers: int = 0, plus2: int = 0) -> list[int]:
        return counts + [0] * (7 - len(counts)) + [jokers, 0, plus2]

    assert counts_total(coll([6, 4, 3, 2], 0, 1), brown) == 36
    assert counts_total(coll([6, 4, 3, 2], 1, 1), brown) == 41
    assert counts_total(coll([4, 3, 2, 2], 1, 1), brown) == 23
    assert counts_total(coll([5, 3, 3, 3, 1]), brown) == 20
    assert counts_total(coll([6, 4, 3, 2], 1, 1), violet) == 20
    assert counts_total(coll([6, 6], 1), brown) == 43
    assert counts_total(coll([8, 1]), brown) == 22
    assert counts_total(coll([4, 2], 3), brown) == 27


def test_more_jokers_than_a_game_holds_still_scores_optimally() -> None:
    rules = Rules(table="violet")
    tpl = rules_template(rules)
    rng = random.Random(4)
    for _ in range(50):
        coll = random_collection(rng, tuple(range(7)))
        coll[7] = rng.randrange(4, 6)
        assert counts_total(coll, tpl) == score_collection(coll, rules, tuple(range(7))).total


def test_counts_total_accepts_numpy() -> None:
    tpl = rules_template(Rules())
    assert counts_total(np.array([1, 0, 0, 0, 0, 0, 0, 0, 0, 0]), tpl) == 1


def test_where_a_joker_may_go_is_the_engines_rule() -> None:
    """``kernels.joker_colors_mask`` is the twin of ``engine.scoring.allowed_joker_colors``
    (docs/rules.md §6.1, ``joker_any_color``), colours out of play holding cards included."""
    from coloretto.engine.scoring import allowed_joker_colors
    from coloretto.fastcore import kernels as K

    rng = random.Random(6)
    outcomes = set()
    for i in range(3000):
        joker_any = i % 3 == 0
        in_play = tuple(sorted(rng.sample(range(7), (5, 6, 7)[i % 3])))
        tpl = rules_template(Rules(joker_any_color=joker_any)).copy()
        tpl[L.INPLAY] = sum(1 << c for c in in_play)
        counts = [rng.choice((0, 0, 0, 1, 2)) if rng.random() < 0.5 else 0 for _ in range(7)]
        coll = counts + [rng.randrange(3), rng.randrange(2), rng.randrange(3)]
        want = allowed_joker_colors(coll, joker_any, in_play)
        mask = int(K.joker_colors_mask(tpl, np.array(coll, np.int64)))
        assert tuple(c for c in range(7) if (mask >> c) & 1) == want, (coll, in_play, joker_any)
        held = any(coll[c] for c in in_play)
        outcomes.add((joker_any, held, want == in_play))
    # every branch of the rule was taken: any colour; held colours only; none held -> all
    assert {(True, True, True), (False, True, False), (False, False, True)} <= outcomes
