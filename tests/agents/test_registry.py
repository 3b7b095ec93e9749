"""The agent registry: names, difficulty levels and their budgets."""

from __future__ import annotations

import pytest

from coloretto.agents import Budget, make_agent
from coloretto.agents.registry import DIFFICULTIES, PEOPLE_OPPONENTS, split_spec
from coloretto.engine.errors import ConfigurationError


@pytest.mark.parametrize("level", sorted(DIFFICULTIES))
def test_a_level_keeps_its_own_budget_when_none_is_given(level: str) -> None:
    name, level_budget = DIFFICULTIES[level]
    for given in (None, Budget()):
        agent = make_agent(level, seed=1, budget=given)
        assert agent.name == name
        assert agent.budget == level_budget


def test_an_explicit_budget_overrides_the_level() -> None:
    agent = make_agent("hard", seed=1, budget=Budget(iterations=50))
    assert agent.budget == Budget(iterations=50)


def test_levels_search_more_as_they_go_up() -> None:
    """``hard`` and ``expert`` run the compiled search with iteration budgets (the same
    strength on any machine), ``expert`` with the learned value and more iterations."""
    hard, expert = make_agent("hard"), make_agent("expert")
    assert (hard.name, expert.name) == ("ismcts", "ismcts-value")
    assert hard.budget.seconds is None and expert.budget.seconds is None
    assert hard.budget.iterations is not None and expert.budget.iterations is not None
    assert hard.budget.iterations < expert.budget.iterations


def test_a_spec_may_carry_its_own_budget() -> None:
    """``NAME@BUDGET`` wins over the budget given (one tournament, one budget per entry)."""
    agent = make_agent("mcts-v1@0.5s", seed=2, budget=Budget(iterations=50))
    assert agent.name == "mcts-v1" and agent.budget == Budget(seconds=0.5)
    assert make_agent("expert@1000").budget == Budget(iterations=1000)
    assert make_agent("ismcts@250it").budget == Budget(iterations=250)
    assert split_spec("cmd:python3 bot.py --x@y") == ("cmd:python3 bot.py --x@y", None)
    with pytest.raises(ConfigurationError, match="budget"):
        make_agent("ismcts@fast")
    with pytest.raises(ConfigurationError, match="unknown agent"):
        make_agent("nobody@100")


def test_oracle_is_not_offered_to_people_and_unknown_names_are_refused() -> None:
    assert "oracle" not in PEOPLE_OPPONENTS
    with pytest.raises(ConfigurationError, match="unknown agent"):
        make_agent("grandmaster")
