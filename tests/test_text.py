"""``coloretto.text``: the English wording the Python interfaces share."""

from __future__ import annotations

import doctest

import coloretto.text
from coloretto.arena.report import deals_text
from coloretto.text import plural


def test_docstring_examples_pass() -> None:
    result = doctest.testmod(coloretto.text, verbose=False)
    assert result.attempted >= 4
    assert result.failed == 0


def test_one_is_singular_and_every_other_count_plural() -> None:
    assert [plural(n, "joker") for n in (0, 1, 2)] == ["0 jokers", "1 joker", "2 jokers"]
    assert plural(1, "finished game is", "finished games are") == "1 finished game is"
    assert plural(5, "finished game is", "finished games are") == "5 finished games are"


def test_the_reports_count_deals_with_it() -> None:
    assert deals_text(1) == "1 duplicate deal"
    assert deals_text(100) == "100 duplicate deals"
