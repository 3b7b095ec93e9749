"""The examples in the engine's docstrings are tests: every one runs and must pass."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import coloretto.engine

MODULES = sorted(
    name for _, name, _ in pkgutil.iter_modules(coloretto.engine.__path__, "coloretto.engine.")
)


@pytest.mark.parametrize("name", ["coloretto.engine", *MODULES])
def test_docstring_examples_pass(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


def test_the_public_api_teaches_by_example() -> None:
    finder = doctest.DocTestFinder()
    examples = {
        test.name: len(test.examples)
        for name in ["coloretto.engine", *MODULES]
        for test in finder.find(importlib.import_module(name))
        if test.examples
    }
    assert sum(examples.values()) >= 30
    for needed in (
        "coloretto.engine.state.new_game",
        "coloretto.engine.state.GameState.apply",
        "coloretto.engine.state.GameState.legal_mask",
        "coloretto.engine.actions.Action.from_json",
        "coloretto.engine.scoring.optimal_score",
        "coloretto.engine.record.Game",
        "coloretto.engine.seeds.derive_seed",
        "coloretto.engine.seeds.Rng",
        "coloretto.engine.observation.Observation.from_json",
        "coloretto.engine.policy",
    ):
        assert examples.get(needed, 0) > 0, f"{needed} has no example"
