"""Tests of ``coloretto.engine.tally``: the scoring report of a physical table's tally."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from coloretto.engine.scoring import ScoringError
from coloretto.engine.tally import (
    Tally,
    TallyError,
    cards_report,
    scoring_rules,
    split_cards,
    tally_report,
)

CASES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parents[1] / "data" / "scoring-cases.json").read_text(encoding="utf-8")
)


def test_rulebook_example() -> None:
    report = tally_report({"green": 6, "yellow": 4, "red": 3, "blue": 2}, jokers=1, plus2=1)
    assert report == {
        "total": 41,
        "table": "brown",
        "extra": None,
        "positive": {"green": 21, "yellow": 15, "red": 6},
        "negative": {"blue": -3},
        "jokers": {"yellow": 1},
        "plus2": 2,
        "plus2_cards": 1,
        "counts": {"green": 6, "yellow": 5, "red": 3, "blue": 2},
        "placements": 7,
    }


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_documented_cases(case: dict[str, Any]) -> None:
    assert cards_report(case["cards"], case["table"])["total"] == case["total"]


def test_unnamed_colours_golden_joker_and_extras() -> None:
    report = cards_report({"golden_joker": 1, "Joker": 1})
    assert report["jokers"] == {"another colour": 2} and report["total"] == 3
    assert report["placements"] == 28
    named = cards_report({"another colour": 6, "b": 6, "joker": 1})
    assert named["jokers"] == {"another colour 2": 1} and named["total"] == 43
    assert cards_report({" Rot ": 1, "+2": 2}, "brown", "single_three")["positive"] == {"Rot": 3}
    assert cards_report({"Rot": 1, "+2": 2}, "brown", "single_three")["plus2"] == 4
    assert cards_report({"a": 3}, "violet", "triple_three")["total"] == 2
    report = cards_report({"a": 6, "b": 6, "c": 6, "d": 2}, "brown", "triple_minus")
    assert report["negative"] == {"d": -9} and report["extra"] == "triple_minus"


@pytest.mark.parametrize(
    "cards, table, extra, field, message",
    [
        ({"green": -1}, "brown", None, "cards", "negative"),
        ({"green": 1.0}, "brown", None, "cards", "not a whole number"),
        ({"green": True}, "brown", None, "cards", "not a whole number"),
        ({"green": "2"}, "brown", None, "cards", "not a whole number"),
        ({"green": 10}, "brown", None, "cards", "a colour has 9 cards"),
        ({"plus2": 11}, "brown", None, "cards", '10 "+2" cards'),
        ({"joker": 4}, "brown", None, "cards", "at most 3 jokers"),
        ({"golden_joker": 2}, "brown", None, "cards", "one golden joker"),
        ({"joker": 3, "golden_joker": 1}, "brown", None, "cards", "golden joker included"),
        ({"joker": 1, "JOKER": 1}, "brown", None, "cards", "given twice"),
        ({"plus2": 1, "+2": 1}, "brown", None, "cards", "given twice"),
        ({"red": 1, " Red": 1}, "brown", None, "cards", "given twice"),
        ({f"c{i}": 1 for i in range(8)}, "brown", None, "cards", "at most 7"),
        ({"last_round": 1}, "brown", None, "cards", "Last Round card never scores"),
        ({"Last Round": 0}, "brown", None, "cards", "Last Round card never scores"),
        ({"jokers": 1}, "brown", None, "cards", "'jokers' is not a card name; did you mean joker?"),
        ({"goldenjoker": 1}, "brown", None, "cards", "did you mean golden_joker?"),
        ({"plus 2": 1}, "brown", None, "cards", "did you mean plus2?"),
        ({"plus": 1}, "brown", None, "cards", "did you mean plus2?"),
        ({"Jokerfarbe": 1}, "brown", None, "cards", "must not contain joker"),
        ({"Jolly": 1}, "brown", None, "cards", "did you mean joker?"),
        ({"jolly d'oro": 1}, "brown", None, "cards", "did you mean golden_joker?"),
        ({"Gouden joker": 1}, "brown", None, "cards", "did you mean golden_joker?"),
        ({"doré": 1, "jollyfarbe": 1}, "brown", None, "cards", "nor Jolly or Джокер"),
        ({"Джокери": 1}, "brown", None, "cards", "did you mean joker?"),
        ({"Золотий джокер": 1}, "brown", None, "cards", "did you mean golden_joker?"),
        ({"Joker doré": 1}, "brown", None, "cards", "must not contain joker"),
        ({"j\u03bfker": 1}, "brown", None, "cards", "mixes Greek and Latin letters"),
        ({"gr\udcffn": 1}, "brown", None, "cards", "cannot hold bytes that are not UTF-8 text"),
        ({"green": 1, "gr\u0435\u0435n": 1}, "brown", None, "cards", "mixes Cyrillic and Latin letters"),
        ({"ｊｏｋｅｒｓ": 1}, "brown", None, "cards", "did you mean joker?"),
        ({"green": 1, "ＧＲＥＥＮ": 1}, "brown", None, "cards", "given twice"),
        ({"Straße": 1, "STRASSE": 1}, "brown", None, "cards", "given twice"),
        ({"green": 10**6}, "brown", None, "cards", "a million or more is too many"),
        ({"green": 10**99}, "brown", None, "cards", "a million or more is too many"),
        ({"": 1}, "brown", None, "cards", "empty"),
        ({"x" * 41: 1}, "brown", None, "cards", "longer than 40"),
        ({}, "brown", None, "cards", "no cards given"),
        ({"green": 0, "joker": 0, "plus2": 0}, "brown", None, "cards", "no cards given"),
        ({}, "gray", None, "table", "not a score table"),
        ({}, 1, None, "table", "not a score table"),
        ({}, "brown", "first_out_draws", "extra", "changes play, not scoring"),
        ({}, "brown", "double", "extra", "not an Extrakarten scoring card"),
        ([("green", 1)], "brown", None, "cards", "must be an object"),
    ],
)
def test_bad_tallies(cards: Any, table: Any, extra: Any, field: str, message: str) -> None:
    with pytest.raises(TallyError) as info:
        cards_report(cards, table, extra)
    assert info.value.field == field
    assert message in str(info.value)
    assert isinstance(info.value, ScoringError)


def test_scoring_rules() -> None:
    assert scoring_rules("violet", "single_three").score_table == (0, 3, 4, 8, 7, 6, 5)
    assert scoring_rules().negative_factor == 1
    assert scoring_rules("brown", "triple_minus").negative_factor == 3


@pytest.mark.parametrize(("no_card", "extra"), [(None, "foo"), ("none", "foo"), ("none", "first_out_draws")])
def test_an_unknown_extra_lists_the_callers_word_for_no_card(no_card: str | None, extra: str) -> None:
    """JSON (``POST /api/score``) writes no card as null, the command line as none."""
    with pytest.raises(TallyError) as info:
        if no_card is None:
            scoring_rules("brown", extra)
        else:
            scoring_rules("brown", extra, no_card=no_card)
    assert str(info.value).endswith(f"single_three, triple_three, triple_minus, or {no_card or 'null'}")
    assert info.value.field == "extra"


@pytest.mark.parametrize("table", ["Violet", "VIOLET", "violet"])
def test_the_table_is_named_in_any_letter_case(table: str) -> None:
    assert scoring_rules(table).table == "violet"
    assert cards_report({"green": 3}, table)["table"] == "violet"


def test_full_width_card_names_are_cards() -> None:
    report = cards_report({"green": 3, "ＪＯＫＥＲ": 1, "＋２": 1})
    assert report["jokers"] == {"green": 1} and report["plus2"] == 2


def test_a_card_name_is_never_a_colour_of_tally_report() -> None:
    with pytest.raises(TallyError, match="is a card, not a colour; count it as 'joker'"):
        tally_report({"green": 3, "Joker": 1})


@pytest.mark.parametrize(
    "pairs, message",
    [
        ([("green", 1), ("green", 2)], "colour 'green' is given twice"),
        ([("joker", 1), ("joker", 1)], "'joker' is given twice (also as 'joker')"),
        ([("+2", 1), ("PLUS2", 1)], "'PLUS2' is given twice (also as '+2')"),
    ],
)
def test_split_cards_refuses_what_is_given_twice(pairs: list[tuple[str, int]], message: str) -> None:
    with pytest.raises(TallyError) as info:
        split_cards(pairs)
    assert str(info.value) == message


def test_split_cards_sorts_colours_and_cards() -> None:
    tally = split_cards([("Rot", 3), ("Golden Joker", 1), ("joker", 2), ("+2", 4), ("blau", 0)])
    assert tally == Tally({"Rot": 3, "blau": 0}, jokers=2, golden_jokers=1, plus2=4)
