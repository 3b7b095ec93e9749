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
        ("1_000", "use seconds"),
        ("1 s", "use seconds"),
        ("\u0663s", "use seconds"),
        ("1000000001", "at most 1,000,000,000 iterations"),
        ("99999999999999999999999", "at most 1,000,000,000 iterations"),
        ("3601s", "at most 3600 seconds per decision"),
    ],
)
def test_bad_budgets_are_refused_with_a_reason(text: str, words: str) -> None:
    with pytest.raises(ValueError, match=words) as info:
        Budget.parse(text)
    assert repr(text) in str(info.value)


@pytest.mark.parametrize(
    ("text", "budget"),
    [
        ("0.5s-cpu", Budget(seconds=0.5, cpu=True)),
        ("500MS-CPU", Budget(seconds=0.5, cpu=True)),
        ("0.5s", Budget(seconds=0.5)),
        ("300", Budget(iterations=300)),
    ],
)
def test_cpu_time_budgets_where_computer_players_meet(text: str, budget: Budget) -> None:
    assert Budget.parse(text, cpu_ok=True) == budget


def test_cpu_time_budgets_are_refused_elsewhere_and_in_iterations() -> None:
    with pytest.raises(ValueError, match="CPU time .* is offered where computer players play"):
        Budget.parse("0.5s-cpu")
    with pytest.raises(ValueError, match="CPU time is given in seconds"):
        Budget.parse("300-cpu", cpu_ok=True)


def test_a_cpu_budget_is_searched_in_cpu_time_by_the_agents_that_honour_it() -> None:
    """``mcts`` searches until its thread has used the budget's CPU time; the agents that
    cannot honour a CPU budget refuse it; those that ignore budgets accept it."""
    import time

    from coloretto.agents.registry import make_agent
    from coloretto.engine.errors import ConfigurationError
    from coloretto.engine.observation import observe
    from coloretto.engine.rules import Rules
    from coloretto.engine.state import new_game

    st = new_game(Rules(players=3), 5)
    while len(st.legal_actions()) < 2:  # a decision with a choice
        st.apply(st.legal_actions()[0])
    agent = make_agent("mcts-v1@0.2s-cpu", 1)
    assert agent.budget == Budget(seconds=0.2, cpu=True)
    agent.reset(st.to_move, st.rules)
    start = time.thread_time()
    agent.act(observe(st, st.to_move), st.legal_actions())
    assert time.thread_time() - start >= 0.2
    for spec in ("ismcts@0.5s-cpu", "expert@0.5s-cpu", "cmd:true@0.5s-cpu"):
        if spec.startswith("cmd:"):
            from coloretto.agents.external import ExternalAgent

            with pytest.raises(ConfigurationError, match="cannot search for a CPU-time budget"):
                ExternalAgent("true", budget=Budget(seconds=0.5, cpu=True))
            continue
        with pytest.raises(ConfigurationError, match="cannot search for a CPU-time budget"):
            make_agent(spec)
    assert make_agent("greedy@0.5s-cpu").budget.cpu


def test_the_docstring_examples_of_the_agent_interface_pass() -> None:
    import doctest

    from coloretto.agents import base

    result = doctest.testmod(base, verbose=False)
    assert result.attempted >= 3 and result.failed == 0
