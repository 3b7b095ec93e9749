"""The hub's path of an action (src/coloretto/server/hub.py): an illegal action is refused
with the engine's own text and rule, without copying the state; the computer players hear
the result when a table's game ends (``Agent.game_over``), in the process that ended it and
in another one that loads it; computer seats are seeded by the engine's seed scheme
(``engine.seeds``: ``derive_seed(table seed, AGENT, seat)``).

Each test runs real hubs on in-memory parts (``wiring.memory_hub``) in one event loop.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import pytest
from aio import run
from backends import FAST

from coloretto.agents.baseline import RandomAgent
from coloretto.engine.actions import Action
from coloretto.engine.errors import IllegalActionError
from coloretto.engine.observation import observe
from coloretto.engine.record import Game, load_game
from coloretto.engine.seeds import AGENT, derive_seed
from coloretto.engine.state import GameState
from coloretto.server.bus import MemoryBroker
from coloretto.server.computer import ComputerSeat
from coloretto.server.config import Settings
from coloretto.server.errors import ErrorCode, Problem
from coloretto.server.hub import Hub
from coloretto.server.live import LiveTable
from coloretto.server.store import MemoryTableStore
from coloretto.server.wiring import memory_hub

pytestmark = pytest.mark.timeout(120)


class HearingRandom(RandomAgent):
    """The built-in random player, keeping what each ``game_over`` call told it."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.heard: list[tuple[list[int], list[int]]] = []

    def game_over(self, scores: Sequence[int], winners: Sequence[int]) -> None:
        super().game_over(scores, winners)
        self.heard.append((list(scores), list(winners)))


async def with_hubs(count: int, body: Callable[[list[Hub]], Awaitable[None]]) -> None:
    """Run ``body`` with ``count`` started hubs sharing one store and one bus (several
    server processes of one database); stop them afterwards."""
    store, broker = MemoryTableStore(), MemoryBroker()
    hubs = [memory_hub(Settings(**FAST), store=store, broker=broker) for _ in range(count)]
    for hub in hubs:
        await hub.start()
    try:
        await body(hubs)
    finally:
        for hub in hubs:
            await hub.stop()


async def until(check: Callable[[], bool], what: str, seconds: float = 60) -> None:
    """Wait (yielding to the event loop) until ``check()`` is true."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.01)


async def ann_and_computers(hub: Hub, computers: int, **rules: Any) -> LiveTable:
    """A playing table: Ann (a person, seat 0) and ``computers`` random computer players."""
    seats = [{"kind": "human"}] + [{"kind": "computer", "agent": "random"}] * computers
    t, _seat, _token = await hub.create_table(name="Ann", seats=seats, seat=0, rules=rules, preset=None,
                                              hints=False, rated=False, title="")
    assert t.status == "playing"
    return t


def test_an_illegal_action_is_refused_with_the_engines_reason_and_no_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    """``GameState.apply`` refuses an illegal action before changing anything: the hub
    gives its text and rule to the player and the table stays as it was, without copying
    the state to find out."""

    async def body(hubs: list[Hub]) -> None:
        hub = hubs[0]
        t, _seat, _token = await hub.create_table(name="Ann", seats=[{"kind": "human"}, {"kind": "human"}], seat=0,
                                                  rules={}, preset=None, hints=False, rated=False, title="")
        await hub.join(t.id, "Bob", 1)
        seat = t.state.to_move
        before, version = t.state.to_dict(), t.version
        copies: list[GameState] = []
        real_copy = GameState.copy

        def counted(self: GameState) -> GameState:
            copies.append(self)
            return real_copy(self)

        monkeypatch.setattr(GameState, "copy", counted)
        for action in (Action("place", 0), Action("take", 2), Action("choose_start", 0)):
            with pytest.raises(IllegalActionError) as refused:  # what the engine says, on a copy of ours
                real_copy(t.state).apply(action)
            with pytest.raises(Problem) as info:
                await hub.submit(t, seat, action)
            assert info.value.code == ErrorCode.ILLEGAL_ACTION
            assert info.value.message == str(refused.value)
            assert info.value.rule == refused.value.rule and info.value.rule
        assert t.state.to_dict() == before and t.version == version
        assert not copies, "the hub copied the state to refuse an action"
        await hub.submit(t, seat, Action("draw"))  # a legal action is taken
        assert t.version == version + 1

    run(with_hubs(1, body))


def test_computer_players_hear_the_result_once_the_match_ends() -> None:
    """Each computer seat's player in a process holding the table is told
    ``game_over(match totals, winners)`` once, when the game ends: in the process where the
    last action was played and in another process that loads it from the store."""

    async def body(hubs: list[Hub]) -> None:
        first, second = hubs
        t = await ann_and_computers(first, 2, match_games=2)
        # no await since the creation: the computer players have not been asked yet
        players = {s: HearingRandom(derive_seed(t.data.seed, AGENT, s)) for s in (1, 2)}
        for s, agent in players.items():
            agent.reset(s, t.state.rules)
            t.computers[s] = ComputerSeat(s, "random", agent)
        other = await second.get(t.id)
        assert other is not None and other is not t
        listening = {s: HearingRandom(derive_seed(t.data.seed, AGENT, s)) for s in (1, 2)}
        for s, agent in listening.items():
            agent.reset(s, other.state.rules)
            other.computers[s] = ComputerSeat(s, "random", agent)
        while t.status != "finished":
            if t.state.to_move == 0:
                await first.submit(t, 0, t.state.legal_actions()[-1])
            else:
                await asyncio.sleep(0.005)
            if t.status != "finished":
                assert not any(a.heard for a in [*players.values(), *listening.values()])
        await until(lambda: other.status == "finished", "the second process to load the end")
        result = ([int(x) for x in t.state.totals()], t.state.winners())
        assert len(t.state.results) == 2  # both games were played
        for agent in [*players.values(), *listening.values()]:
            assert agent.heard == [result], agent
        assert other.state.to_dict() == t.state.to_dict()

    run(with_hubs(2, body))


def test_computer_seats_are_seeded_by_the_engines_seed_scheme() -> None:
    """A computer seat's player is seeded ``derive_seed(table seed, AGENT, seat)``: a game
    of random players is the game those seeds give (each seat's choices, replayed from the
    record with a fresh random player of that seed, are the same)."""

    async def body(hubs: list[Hub]) -> None:
        hub = hubs[0]
        seats = [{"kind": "computer", "agent": "random"}] * 3
        t, _seat, _token = await hub.create_table(name=None, seats=seats, seat=None, rules={"match_games": 2},
                                                  preset=None, hints=False, rated=False, title="")
        await until(lambda: t.status == "finished", "the computers' game to end")
        assert {s: c.seed for s, c in t.computers.items()} == {s: derive_seed(t.data.seed, AGENT, s) for s in range(3)}
        fresh = {s: RandomAgent(derive_seed(t.data.seed, AGENT, s)) for s in range(3)}
        initial = load_game(t.game.to_record()).initial  # the deal, as the record gives it
        assert initial is not None
        game = Game(initial.copy(), ["a", "b", "c"])
        chosen = 0
        for entry in t.log:
            action = Action.from_json(entry["action"])
            st = game.state
            legal = st.legal_actions()
            if len(legal) > 1:  # a single legal action is played without asking the player
                assert fresh[entry["seat"]].act(observe(st, entry["seat"]), legal) == action, entry
                chosen += 1
            game.play(action)
        assert chosen > 50

    run(with_hubs(1, body))
