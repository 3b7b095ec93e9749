"""The ``Agent`` interface's ``Budget``: the budget texts accepted on the command line."""

from __future__ import annotations

import pytest

from coloretto.agents.base import Budget


@pytest.mark.parametrize(
    ("text", "budget"),
    [
        ("0.5s", Budget(seconds=0.5)),
        ("500ms", Budget(seconds=0.5)),
        (" 2S ", Budget(seconds=2.0)),
        ("2000", Budget(iterations=2000)),
        ("2000it", Budget(iterations=2000)),
        (None, Budget()),
        ("", Budget()),
    ],
)
def test_budget_forms(text: str | None, budget: Budget) -> None:
    assert Budget.parse(text) == budget


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("-1s", "positive, finite number of seconds"),
        ("0ms", "positive, finite number of seconds"),
        ("0s", "positive, finite number of seconds"),
        ("-0.5ms", "positive, finite number of seconds"),
        ("nans", "positive, finite number of seconds"),
        ("infs", "positive, finite number of seconds"),
        ("1e400ms", "positive, finite number of seconds"),
        ("0", "iterations must be positive"),
        ("-3it", "iterations must be positive"),
        ("fast", "use seconds"),
        ("1.5", "use seconds"),
    ],
)
def test_bad_budgets_are_refused_with_a_reason(text: str, words: str) -> None:
    with pytest.raises(ValueError, match=words) as info:
        Budget.parse(text)
    assert repr(text) in str(info.value)
