"""The browser's scorer (``web/scoring.js``, run by Node.js) against the Python scorer
(``coloretto.engine.scoring``) on thousands of collections: both score tables, every
Extrakarten scoring card, and the edge cases (no cards, more than 6 cards of a colour,
3 jokers, the golden joker, fewer colours in play).

For every collection: the same total and the same explanation (positive and negative colours,
where the jokers went, the counts after them), and, checked independently, the placement the
browser states really reaches its total: its counts minus the collection's are the jokers,
and the Python scorer gives those counts (with no jokers left) the same total.
"""

from __future__ import annotations

import json
import math
import random
import subprocess
from pathlib import Path
from typing import Any

import pytest
from nodeutil import WEB, run_node

from coloretto.engine.rules import Rules
from coloretto.engine.scoring import optimal_score

EXTRAS = [None, "single_three", "triple_three", "triple_minus"]
TABLES = ["brown", "violet"]
RANDOM_PER_RULES = 700
CASES_FILE = Path(__file__).parents[1] / "data" / "scoring-cases.json"


def random_collection(rng: random.Random) -> tuple[list[int], int, int, int]:
    """``(counts, regular jokers, golden jokers, plus2)``: 5 to 7 colours in play, each held
    with some chance, up to 9 cards; up to 3 jokers of which at most one golden."""
    colours = rng.choice([7, 7, 7, 6, 5])
    held = rng.random()
    counts = [rng.choice([1, 1, 2, 2, 3, 3, 4, 5, 6, 7, 8, 9]) if rng.random() < held else 0
              for _ in range(colours)]
    golden = rng.randint(0, 1)
    jokers = rng.randint(0, 3 - golden)
    return counts, jokers, golden, rng.choice([0, 0, 0, 1, 1, 2, 3, 10])


EDGES: list[tuple[list[int], int, int, int]] = [
    ([0] * 7, 0, 0, 0),             # no cards
    ([0] * 7, 3, 0, 0),             # only jokers
    ([0] * 7, 2, 1, 10),            # jokers, golden joker and every "+2" card
    ([0] * 7, 0, 1, 0),             # the golden joker alone
    ([9] * 7, 3, 0, 10),            # every colour over 6 cards
    ([9] * 7, 2, 1, 0),
    ([1] * 7, 3, 0, 0),             # seven single cards
    ([6, 6, 0, 0, 0, 0, 0], 1, 0, 0),  # the joker starts a new colour
    ([6, 6, 6, 1, 1, 1, 1], 0, 1, 0),
    ([3, 3, 3, 3, 3, 0, 0], 3, 0, 0),
    ([8, 1, 0, 0, 0, 0, 0], 0, 0, 0),
    ([4, 2, 0, 0, 0, 0, 0], 3, 0, 0),
    ([2, 2, 2, 2, 2], 3, 0, 1),     # five colours in play (two players)
    ([5, 0, 0, 0, 0, 0], 2, 1, 0),  # six colours in play (three players)
    ([], 3, 0, 2),                  # no colour at all: the jokers count nothing
]


def all_cases() -> list[dict[str, Any]]:
    rng = random.Random(20250612)
    cases = []
    for table in TABLES:
        for extra in EXTRAS:
            collections = EDGES + [random_collection(rng) for _ in range(RANDOM_PER_RULES)]
            for counts, jokers, golden, plus2 in collections:
                cases.append({"counts": counts, "jokers": jokers + golden, "golden": golden,
                              "plus2": plus2, "table": table, "extra": extra})
    # The documented worked examples (docs/rules.md §6), with seven colours in play.
    for case in json.loads(CASES_FILE.read_text(encoding="utf-8")):
        cards = dict(case["cards"])
        jokers = cards.pop("joker", 0) + cards.pop("golden_joker", 0)
        plus2 = cards.pop("plus2", 0)
        counts = list(cards.values()) + [0] * (7 - len(cards))
        cases.append({"counts": counts, "jokers": jokers, "golden": 0, "plus2": plus2,
                      "table": case["table"], "extra": None, "expected": case["total"]})
    return cases


@pytest.fixture(scope="module")
def results(node: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    cases = all_cases()
    out = run_node(node, "scoring_runner.mjs", str(WEB / "scoring.js"), data=cases)
    assert len(out) == len(cases)
    return list(zip(cases, out, strict=True))


def test_thousands_of_collections_match_the_python_scorer(results: list[tuple[dict[str, Any], dict[str, Any]]]) -> None:
    assert len(results) >= 5000
    seen_rules = set()
    for case, out in results:
        rules = Rules(table=case["table"], extra_card=case["extra"])
        seen_rules.add((case["table"], case["extra"]))
        assert out["rules"]["values"] == list(rules.score_table), case
        assert out["rules"]["negativeFactor"] == rules.negative_factor, case
        py = optimal_score(case["counts"], case["jokers"], case["plus2"],
                           table=rules.score_table, negative_factor=rules.negative_factor)
        js = out["score"]
        where = f"{case} -> {js}"
        assert js["total"] == py.total, where
        if "expected" in case:
            assert js["total"] == case["expected"], where
        # the same explanation (ties broken the same way)
        assert js["counts"] == list(py.counts), where
        assert [tuple(p) for p in js["positive"]] == list(py.positive.items()), where
        assert [tuple(p) for p in js["negative"]] == list(py.negative.items()), where
        assert [tuple(p) for p in js["jokers"]] == list(py.jokers.items()), where
        assert js["plus2"] == py.plus2 == 2 * case["plus2"], where
        assert out["placements"] == (math.comb(len(case["counts"]) + case["jokers"] - 1, case["jokers"])
                                     if case["counts"] else 1), where
    assert seen_rules == {(t, e) for t in TABLES for e in EXTRAS}


def test_the_stated_placement_reaches_the_total(results: list[tuple[dict[str, Any], dict[str, Any]]]) -> None:
    for case, out in results:
        rules = Rules(table=case["table"], extra_card=case["extra"])
        js = out["score"]
        where = f"{case} -> {js}"
        given = [after - before for after, before in zip(js["counts"], case["counts"], strict=True)]
        assert all(g >= 0 for g in given), where
        placed = sum(given)
        assert placed == (case["jokers"] if case["counts"] else 0), where
        assert {i: g for i, g in enumerate(given) if g} == {i: k for i, k in js["jokers"]}, where
        fixed = optimal_score(js["counts"], 0, case["plus2"], table=rules.score_table,
                              negative_factor=rules.negative_factor)
        assert fixed.total == js["total"], where
        # the parts add up, and the positive colours are the three worth most
        parts = sum(p for _, p in js["positive"]) + sum(p for _, p in js["negative"]) + js["plus2"]
        assert parts == js["total"], where
        assert len(js["positive"]) == min(3, sum(1 for c in js["counts"] if c)), where
        if js["negative"]:
            lowest_positive = min(p for _, p in js["positive"])
            assert all(-p <= lowest_positive * rules.negative_factor for _, p in js["negative"]), where


def test_ranks_share_ties(node: str) -> None:
    script = ("const m = await import(process.argv[1]); "
              "console.log(JSON.stringify([m.ranks([31, 12, 31, 19]), m.ranks([5]), m.ranks([]), m.ranks([0, 0, 0])]))")

    done = subprocess.run([node, "--input-type=module", "-e", script, (WEB / "scoring.js").as_uri()],
                          capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(done.stdout) == [[1, 4, 1, 3], [1], [], [1, 1, 1]]


def test_unknown_rules_are_refused(node: str) -> None:

    script = ("const m = await import(process.argv[1]); const out = [];"
              "for (const [t, e] of [['gray', null], ['brown', 'first_out_draws']]) {"
              " try { m.scoringRules(t, e); out.push('accepted'); } catch (err) { out.push(err.name); } }"
              "try { m.optimalScore([1, -1], 0, 0, m.scoringRules()); out.push('accepted'); } catch (err) { out.push(err.name); }"
              "try { m.optimalScore([1.5], 0, 0, m.scoringRules()); out.push('accepted'); } catch (err) { out.push(err.name); }"
              "console.log(JSON.stringify(out));")
    done = subprocess.run([node, "--input-type=module", "-e", script, (WEB / "scoring.js").as_uri()],
                          capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(done.stdout) == ["RangeError"] * 4
