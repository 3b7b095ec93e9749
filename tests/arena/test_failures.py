"""The shared engine-failure policy (``arena.failures``): forfeit or fallback, reported."""

from __future__ import annotations

from typing import Any

import pytest

from coloretto.agents import Agent, make_agent
from coloretto.agents.external import EngineFailure
from coloretto.arena.driver import start_game
from coloretto.arena.failures import (
    DEFAULT_FAILURE_POLICY,
    SeatPlayer,
    arena_policy,
    failure_info,
    fallback_factory,
    parse_failure_policy,
    play_with_policy,
)
from coloretto.engine import ConfigurationError, Rules


class _Breaks(Agent):
    """Plays the first legal action ``ok`` times, then fails like an external engine."""

    name = "breaks"

    def __init__(self, ok: int) -> None:
        super().__init__(seed=0)
        self.ok = ok
        self.closed = False

    def act(self, observation, legal):  # type: ignore[no-untyped-def]
        if self.ok == 0:
            raise EngineFailure(self.seat, "timeout", "no answer to decide within 50 ms", "bot")
        self.ok -= 1
        return legal[0]

    def close(self) -> None:
        self.closed = True


def test_policies() -> None:
    assert DEFAULT_FAILURE_POLICY == "forfeit"
    assert parse_failure_policy("forfeit") == "forfeit"
    assert parse_failure_policy("fallback:greedy") == "fallback:greedy"
    for bad in ("shrug", "fallback:", "fallback:cmd:bot", "fallback:nobody"):
        with pytest.raises(ConfigurationError):
            parse_failure_policy(bad)
    assert fallback_factory("forfeit", 1, None) is None
    factory = fallback_factory("fallback:random", 1, None)
    assert factory is not None and factory().name == "random"


def _players(policy: str, failing: _Breaks, seen: list[dict[str, Any]]) -> list[SeatPlayer]:
    def note(exc: Exception, seat: int) -> None:
        seen.append(failure_info(exc, seat, policy, game=0))

    agents: list[Agent] = [make_agent("random", 1), failing, make_agent("greedy", 2)]
    return [SeatPlayer(a, arena_policy(policy), note, 9) for a in agents]


def test_forfeit_stops_the_game_at_the_failure() -> None:
    seen: list[dict[str, Any]] = []
    failing = _Breaks(ok=3)
    game = start_game(Rules(players=3), 5, ["a", "b", "c"])
    forfeit = play_with_policy(game, _players("forfeit", failing, seen))
    assert forfeit == 1 and not game.state.is_over() and failing.closed
    assert seen == [
        {"seat": 1, "kind": "timeout", "detail": "no answer to decide within 50 ms",
         "engine": "bot", "game": 0, "handling": "forfeit"}
    ]


def test_fallback_finishes_the_game() -> None:
    seen: list[dict[str, Any]] = []
    failing = _Breaks(ok=2)
    players = _players("fallback:random", failing, seen)
    game = start_game(Rules(players=3), 5, ["a", "b", "c"])
    assert play_with_policy(game, players) is None
    assert game.state.is_over() and players[1].failed and players[1].active.name == "random"
    assert [f["handling"] for f in seen] == ["fallback:random"]


def test_other_exceptions_are_not_hidden() -> None:
    class Buggy(_Breaks):
        def act(self, observation, legal):  # type: ignore[no-untyped-def]
            raise ZeroDivisionError

    players = _players("fallback:random", Buggy(0), [])
    with pytest.raises(ZeroDivisionError):
        play_with_policy(start_game(Rules(players=3), 5, ["a", "b", "c"]), players)
