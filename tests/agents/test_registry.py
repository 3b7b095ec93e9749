"""The agent registry: names, difficulty levels and their budgets."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from coloretto.agents import Budget, make_agent
from coloretto.agents.registry import (
    AGENT_NAMES,
    DIFFICULTIES,
    FAIR_AGENT_NAMES,
    ORACLES,
    PEOPLE_OPPONENTS,
    UnknownAgentError,
    split_spec,
)
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


@pytest.mark.parametrize(("players", "searched"), [(2, 60_000), (4, 30_000)])
def test_expert_searches_more_heads_up(players: int, searched: int) -> None:
    """``expert`` searches 60,000 iterations in a 2-player game and 30,000 otherwise (its
    ``Budget.by_players``), counted by the real search of its first decision with a choice;
    a budget given to it wins at every player count."""
    from coloretto.engine import Rules
    from coloretto.engine.observation import observe
    from coloretto.engine.state import new_game

    for spec, expected in (("expert", searched), ("expert@500", 500)):
        agent = make_agent(spec, seed=3)
        st = new_game(Rules(players=players), 5)
        agent.reset(st.to_move, st.rules)
        assert agent.budget.iterations == expected
        while len(legal := st.legal_actions()) < 2:
            st.apply(legal[0])
        agent.act(observe(st, st.to_move), legal)
        assert agent.last is not None and agent.last.iterations == expected


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


@pytest.mark.parametrize("name", AGENT_NAMES)
def test_the_oracles_are_the_agents_that_see_the_draw_pile(name: str) -> None:
    """``ORACLES`` names exactly the agents with ``needs_true_state``; the fair names are the
    others (what ``play --opponents`` takes)."""
    agent = make_agent(name)
    try:
        assert agent.needs_true_state == (name in ORACLES)
        assert (name in FAIR_AGENT_NAMES) == (name not in ORACLES)
    finally:
        agent.close()


def test_an_unknown_name_is_named_with_the_list_asked_for() -> None:
    with pytest.raises(UnknownAgentError) as info:
        make_agent("grandmaster@100")
    assert info.value.name == "grandmaster"
    assert str(UnknownAgentError("x", ("a", "b"))) == "unknown agent 'x'; known: a, b, policy:FILE, cmd:COMMAND"


REGISTRY_SOURCE = Path(__file__).resolve().parents[2] / "src" / "coloretto" / "agents" / "registry.py"

BLOCKED_IMPORTS = """
import sys
from coloretto._optional import EXTRAS
for modules in EXTRAS.values():
    for name in modules:
        sys.modules[name] = None  # importing it now raises ImportError
for name in sys.argv[1:]:
    try:
        __import__(name)
    except ImportError:
        print("missing", name)
    else:
        print("imported", name)
from coloretto.agents import make_agent
from coloretto.agents.external import ExternalAgent
print(type(make_agent("cmd:python3 bot.py")) is ExternalAgent)
"""


def _guarded_imports(source: str) -> list[str]:
    """The modules (constant names) that ``source`` imports inside a ``try`` whose handlers
    catch ``ModuleNotFoundError`` or ``ImportError``."""
    guarded = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Try):
            continue
        caught = " ".join(ast.unparse(h.type) for h in node.handlers if h.type is not None)
        if "ModuleNotFoundError" not in caught and "ImportError" not in caught:
            continue
        for inner in (n for stmt in node.body for n in ast.walk(stmt)):
            if isinstance(inner, ast.ImportFrom) and inner.module:
                package = ["coloretto", "agents"][: max(0, 3 - inner.level)] if inner.level else []
                guarded.append(".".join([*package, inner.module]))
            elif (
                isinstance(inner, ast.Call)
                and ast.unparse(inner.func).endswith("import_module")
                and inner.args
                and isinstance(inner.args[0], ast.Constant)
            ):
                guarded.append(inner.args[0].value)
    return guarded


def test_the_registry_guards_only_imports_that_can_fail() -> None:
    """An import the registry guards against a missing module must be one that can be
    missing: with every optional package made unimportable it fails. External engines
    (``cmd:``) need none: their module imports and ``make_agent`` builds one all the same."""
    guarded = _guarded_imports(REGISTRY_SOURCE.read_text())
    done = subprocess.run(
        [sys.executable, "-c", BLOCKED_IMPORTS, *guarded],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    lines = done.stdout.splitlines()
    assert lines[-1] == "True", done.stdout
    assert [line for line in lines[:-1] if line.startswith("imported")] == []


def test_registry_docstring_examples_pass() -> None:
    """The examples in the registry's docstrings (``computer_name``) run and pass."""
    import doctest

    from coloretto.agents import registry

    result = doctest.testmod(registry, verbose=False)
    assert result.attempted > 0 and result.failed == 0


def test_every_agent_says_which_parts_of_the_fast_core_it_runs() -> None:
    from coloretto.agents.registry import FAST_CORE_PARTS, REGISTRY, agent_fast_core_parts
    from coloretto.fastcore.cache import PARTS

    assert set(FAST_CORE_PARTS) == set(REGISTRY)
    order = list(PARTS)
    for parts in FAST_CORE_PARTS.values():
        assert [order.index(p) for p in parts] == sorted(order.index(p) for p in parts)
    for level, (name, _budget) in DIFFICULTIES.items():
        assert agent_fast_core_parts(f"{level}@100") == FAST_CORE_PARTS[name]
