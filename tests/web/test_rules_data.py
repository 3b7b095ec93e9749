"""The facts and the scores of the rules page (``/rules``) checked against the engine: the
page shows the numbers of ``web/rulesdata.js`` and the scores that module computes with
``web/scoring.js`` (run here by Node.js), and its texts (the ``rules.*`` keys of the catalogs)
hold no numbers of their own and no English left behind."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from nodeutil import WEB, run_node

from coloretto.engine.cards import CARDS_PER_COLOR, COLORS, NUM_COLORS, NUM_PLUS2
from coloretto.engine.rules import BROWN_TABLE, VIOLET_TABLE, Rules
from coloretto.engine.scoring import PLUS2_POINTS, ScoreBreakdown, optimal_score
from coloretto.engine.setup import deal

LANGUAGES = ["en", "nl", "uk", "it", "fr", "de"]
TABLES = {"brown": BROWN_TABLE, "violet": VIOLET_TABLE}
SAME_AS_ENGLISH = {"Joker", "Jokers", "Modern", "Total", "Points", "{name}: {n}"}
"""Rules texts that are genuinely the same word in another language (e.g. French "Total")."""


@pytest.fixture(scope="module")
def page(node: str) -> dict[str, Any]:
    data: dict[str, Any] = run_node(node, "rules_runner.mjs", str(WEB / "rulesdata.js"))
    return data


def catalog(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((WEB / "locales" / f"{lang}.json").read_text(encoding="utf-8"))
    return data


def engine_score(colours: dict[str, int], jokers: int, plus2: int, table: str = "brown") -> ScoreBreakdown:
    counts = [colours.get(c, 0) for c in COLORS]
    return optimal_score(counts, jokers, plus2, table=TABLES[table])


def named(points: dict[int, int]) -> list[list[Any]]:
    return [[COLORS[i], p] for i, p in points.items()]


def test_cards_and_setup_are_the_engines(page: dict[str, Any]) -> None:
    assert page["colours"] == list(COLORS)
    deck = page["deck"]
    assert (deck["colours"], deck["perColour"], deck["plus2"]) == (NUM_COLORS, CARDS_PER_COLOR, NUM_PLUS2)
    assert deck["rowCapacity"] == Rules(players=4).capacities[0]
    assert deck["greenCapacities"] == list(Rules(players=2).capacities)
    assert [s["players"] for s in page["setup"]] == [2, 3, 4, 5]
    for s in page["setup"]:
        for edition in ("classic", "modern"):
            rules = Rules(players=s["players"], edition=edition)
            assert s["colours"] == rules.colors_in_play
            assert s["capacities"] == list(rules.capacities)
            assert s["starting"] == rules.starting_cards_each
            dealt = deal(rules, seed=7)
            assert dealt.draw_pile is not None
            assert s["pile"] == len(dealt.draw_pile) - 1, (s, edition)  # without the Last Round card
    for edition, facts in page["editions"].items():
        rules = Rules(edition=edition)
        assert (facts["jokers"], facts["golden"], facts["under"]) == (
            rules.jokers, rules.golden_jokers, rules.cards_under_last_round)
    assert page["editions"]["modern"]["side"] == "violet"  # docs/rules.md §1: gray = violet
    capacity = deck["rowCapacity"]
    assert all(len(row) <= capacity for row in page["turnRows"])
    assert any(len(row) == capacity for row in page["turnRows"]) and any(not row for row in page["turnRows"])


def test_the_worked_example_is_the_rulebooks_and_the_engines(page: dict[str, Any]) -> None:
    example = page["example"]
    colours, jokers, plus2 = example["colours"], example["jokers"], example["plus2"]
    worked = page["worked"]
    # step 1: each colour's points on the brown table, biggest colour first
    assert worked["values"] == [{"colour": c, "cards": n, "points": BROWN_TABLE[min(n, 6)]}
                                for c, n in sorted(colours.items(), key=lambda kv: -kv[1])]
    # step 2: the total with the joker on each colour
    for option in worked["options"]:
        with_joker = dict(colours)
        with_joker[option["colour"]] = with_joker.get(option["colour"], 0) + 1
        assert option["total"] == engine_score(with_joker, 0, plus2).total, option
        assert option["held"] == (option["colour"] in colours)
    assert sorted(o["colour"] for o in worked["options"]) == sorted(COLORS)
    unheld = {o["total"] for o in worked["options"] if not o["held"]}
    assert len(unheld) == 1, "the page shows one line for every colour Mia lacks"
    # steps 3 to 5 and the total: the engine's best score
    best = engine_score(colours, jokers, plus2)
    assert worked["best"]["total"] == best.total == 41  # docs/rules.md §6
    assert worked["best"]["positive"] == named(best.positive)
    assert worked["best"]["negative"] == named(best.negative)
    assert worked["best"]["jokers"] == named(best.jokers)
    assert worked["best"]["plus2"] == best.plus2 == PLUS2_POINTS * plus2
    # what the text says of it: the joker on the biggest colour gives only 36 (docs/rules.md
    # §6.4), it goes elsewhere, and raises that colour's points
    biggest = worked["values"][0]
    assert worked["options"][0]["colour"] == biggest["colour"] and worked["options"][0]["total"] == 36
    assert biggest["cards"] >= len(BROWN_TABLE) - 1  # "already scores the most it can"
    [[target, placed]] = worked["best"]["jokers"]
    assert placed == 1 and target != biggest["colour"]
    assert max(o["total"] for o in worked["options"]) == best.total
    assert len(colours) > 3 and len(best.positive) == 3 and best.negative


def test_the_other_examples_are_the_engines(page: dict[str, Any]) -> None:
    notes = {}
    for ex in page["more"]:
        best = engine_score(ex["colours"], ex["jokers"], ex["plus2"], ex["table"])
        score = ex["score"]
        assert score["total"] == best.total, ex
        assert (score["positive"], score["negative"], score["jokers"]) == (
            named(best.positive), named(best.negative), named(best.jokers)), ex
        notes[ex["note"]] = (ex, best)
    # each example shows what its note says
    ex, best = notes["rules.more.note_tie"]
    sizes = list(ex["colours"].values())
    assert any(sizes.count(n) == 3 for n in sizes) and len(best.negative) == 2
    ex, best = notes["rules.more.note_new_colour"]
    assert len(ex["colours"]) == 2 and all(COLORS[i] not in ex["colours"] for i in best.jokers)
    ex, best = notes["rules.more.note_split"]
    assert len(best.jokers) >= 2
    ex, best = notes["rules.more.note_cap"]
    assert max(ex["colours"].values()) > len(BROWN_TABLE) - 1
    ex, best = notes["rules.more.note_violet"]
    smallest = min(ex["colours"], key=lambda c: ex["colours"][c])
    assert ex["table"] == "violet" and [COLORS[i] for i in best.jokers] == [smallest]
    assert ex["colours"] == page["example"]["colours"]
    # docs/rules.md §6's figures
    assert sorted(s.total for _, s in notes.values()) == [20, 20, 22, 27, 43]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rules_texts_take_their_numbers_from_the_page(lang: str) -> None:
    """A number in a rules text would not follow the data: the page passes every number as a
    parameter (only the card's name "+2" has a digit)."""
    for key, value in catalog(lang).items():
        if not key.startswith("rules."):
            continue
        for text in value.values() if isinstance(value, dict) else [value]:
            bare = re.sub(r"\{\w+\}", "", text).replace("+2", "")
            assert not re.search(r"\d", bare), f"{lang} {key}: a number in {text!r}"


@pytest.mark.parametrize("lang", [x for x in LANGUAGES if x != "en"])
def test_no_english_left_in_the_rules(lang: str) -> None:
    en, other = catalog("en"), catalog(lang)
    for key, value in other.items():
        if key.startswith("rules.") and value == en[key]:
            assert value in SAME_AS_ENGLISH, f"{lang} {key} is the English text {value!r}"
