"""The agent registry: names, difficulty levels and their budgets."""

from __future__ import annotations

import pytest

from coloretto.agents import Budget, make_agent
from coloretto.agents.registry import DIFFICULTIES, PEOPLE_OPPONENTS
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


def test_hard_thinks_less_than_expert() -> None:
    hard = DIFFICULTIES["hard"][1].seconds
    expert = DIFFICULTIES["expert"][1].seconds
    assert hard is not None and expert is not None and hard < expert <= 2.0


def test_oracle_is_not_offered_to_people_and_unknown_names_are_refused() -> None:
    assert "oracle" not in PEOPLE_OPPONENTS
    with pytest.raises(ConfigurationError, match="unknown agent"):
        make_agent("grandmaster")
