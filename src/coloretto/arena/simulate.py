"""Simulate many games between agents, in one or several processes.

Seeds (``coloretto.engine.seeds``): one root ``seed`` per run. Game ``i`` is dealt from
``game_seed(seed, i) = derive_seed(seed, GAME, i)`` and the agent in seat ``s`` of that game
is seeded with ``agent_seed(game_seed(seed, i), s) = derive_seed(game_seed, AGENT, s)``
(an external engine with ``seat_seed``, a one-way seed; ``cli.simulate`` also seals the
root of a run with external engines, ``seeds.seal``). A game therefore depends only on (rules, agent specs,
root seed, index): any game can be rerun alone with :func:`play_game`, and the results are
the same whatever the number of worker processes.

External engines (``cmd:`` specs) that fail are handled by the run's ``on_engine_failure``
policy, as in tournaments (``arena.failures``): the game is forfeited by that seat or
finished by a fallback agent, the failure is reported, and the run goes on.

Batch fast path: when the module ``coloretto.fastcore.batch`` exists and its
``supports(agent_specs)`` is true, :func:`simulate` hands the whole run to its
``simulate_batch(rules, agent_specs, games, seed, workers)`` (final scores, one list per
game), unless the engine path is forced or needed (records to save, an agent budget, a
preset that fixes removed colours). It follows the same seed scheme and plays the same
games: for the same root seed both paths give the same per-game scores, hence the same
figures.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from .._optional import optional
from ..agents import Budget, make_agent
from ..agents.registry import computer_name, is_external
from ..engine.record import save_record
from ..engine.rules import PRESET_REMOVED_COLORS, Rules
from ..engine.seeds import AGENT, ENGINE, FALLBACK, GAME, derive_seed, one_way_seed
from .driver import start_game
from .failures import (
    DEFAULT_FAILURE_POLICY,
    SeatPlayer,
    arena_policy,
    deliver_results,
    failure_info,
    parse_failure_policy,
    play_with_policy,
)
from .parallel import exit_with_parent
from .stats import game_outcome

ENGINE_PATH = "engine"
"""Name of the path that plays every game through the engine and the agents."""
FAST_PATH = "fastcore-batch"
"""Name of the batch fast path (``coloretto.fastcore.batch``)."""

ProgressHook = Callable[[int], None]
"""Called as ``hook(games_done_so_far)`` while a simulation runs."""


def game_seed(seed: int, index: int) -> int:
    """Seed of game ``index`` (0-based) of a run with root ``seed``:
    ``derive_seed(seed, GAME, index)``."""
    return derive_seed(seed, GAME, index)


def agent_seed(seed_of_game: int, seat: int) -> int:
    """Seed of the agent in ``seat`` of the game dealt from ``seed_of_game`` (63 bits):
    ``derive_seed(seed_of_game, AGENT, seat)``."""
    return derive_seed(seed_of_game, AGENT, seat)


def seat_seed(spec: str, seed_of_game: int, seat: int) -> int:
    """The seed of the agent ``spec`` in ``seat`` of the game dealt from ``seed_of_game``:
    ``agent_seed``, but ``one_way_seed(seed_of_game, ENGINE, seat)`` for an external engine
    (it is sent in ``hello``, and ``agent_seed`` can be inverted back to the deal's seed)."""
    return one_way_seed(seed_of_game, ENGINE, seat) if is_external(spec) else agent_seed(seed_of_game, seat)


def fallback_seed(seed_of_game: int, seat: int) -> int:
    """Seed of the fallback agent that takes over ``seat`` of the game dealt from
    ``seed_of_game`` after an engine failure (``on_engine_failure="fallback:SPEC"``):
    ``derive_seed(seed_of_game, FALLBACK, seat)``."""
    return derive_seed(seed_of_game, FALLBACK, seat)


@dataclass(frozen=True)
class GameOutcome:
    """Outcome of one game of a run (:func:`play_game_outcome`).

    Attributes:
        scores: totals per seat (at the forfeit for a forfeited game).
        forfeit: the seat that forfeited the game (its external engine failed under the
            ``forfeit`` policy), or ``None``.
        failures: engine failures (``arena.failures.failure_info`` with ``game``).
    """

    scores: list[int]
    forfeit: int | None = None
    failures: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class SimulationResult:
    """Outcome of :func:`simulate`.

    Attributes:
        scores: final scores, one list (one total per seat) per game, in game order (at
            the forfeit for a forfeited game).
        path: ``ENGINE_PATH`` or ``FAST_PATH``.
        seconds: wall-clock time of the games (process start-up included).
        note: why the engine path was used when the fast path exists, else ``""``.
        forfeits: per game, the seat that forfeited it or ``None`` (``arena.stats`` counts
            that seat's win share 0 and its rank last).
        failures: every engine failure, in game order.
        on_engine_failure: the policy the run used.
    """

    scores: list[list[int]]
    path: str
    seconds: float
    note: str = ""
    forfeits: list[int | None] = field(default_factory=list)
    failures: list[dict[str, Any]] = field(default_factory=list)
    on_engine_failure: str = DEFAULT_FAILURE_POLICY

    def __post_init__(self) -> None:
        if not self.forfeits:
            object.__setattr__(self, "forfeits", [None] * len(self.scores))


def play_game(
    rules: Rules,
    agent_specs: Sequence[str],
    seed: int,
    index: int,
    *,
    budget: Budget | None = None,
    preset_name: str | None = None,
    save_dir: Path | None = None,
    on_engine_failure: str = DEFAULT_FAILURE_POLICY,
) -> list[int]:
    """Play game ``index`` of the run with root ``seed``; return its final scores per seat
    (:func:`play_game_outcome` without the forfeit and failures).

    Raises:
        as :func:`play_game_outcome`.
    """
    return play_game_outcome(
        rules,
        agent_specs,
        seed,
        index,
        budget=budget,
        preset_name=preset_name,
        save_dir=save_dir,
        on_engine_failure=on_engine_failure,
    ).scores


def play_game_outcome(
    rules: Rules,
    agent_specs: Sequence[str],
    seed: int,
    index: int,
    *,
    budget: Budget | None = None,
    preset_name: str | None = None,
    save_dir: Path | None = None,
    on_engine_failure: str = DEFAULT_FAILURE_POLICY,
) -> GameOutcome:
    """Play game ``index`` of the run with root ``seed``.

    An external engine that fails (``EngineFailure``) is handled by ``on_engine_failure``
    (``arena.failures``): ``"forfeit"`` stops the game (``forfeit`` is that seat; the scores
    are those of that moment), ``"fallback:SPEC"`` lets a ``SPEC`` agent (seeded with
    ``fallback_seed``) finish it. External engines get the final ``result``.

    With ``save_dir`` the game's ``coloretto-record/1`` is written to
    ``save_dir/game-{index + 1:06d}.json``, the first game ``game-000001.json`` (for a forfeited game: the record up to the forfeit,
    without a result).

    Raises:
        ConfigurationError: an unknown or unavailable agent spec.
        IllegalActionError: a built-in agent chose an illegal action.
    """
    gseed = game_seed(seed, index)
    failures: list[dict[str, Any]] = []

    def record_failure(exc: Exception, seat: int) -> None:
        failures.append(failure_info(exc, seat, on_engine_failure, game=index))

    players: list[SeatPlayer] = []
    try:
        for seat, spec in enumerate(agent_specs):
            primary = make_agent(spec, seat_seed(spec, gseed, seat), budget)
            players.append(SeatPlayer(primary, arena_policy(on_engine_failure), record_failure, fallback_seed(gseed, seat), budget))
        names = [computer_name(spec, seat) for seat, spec in enumerate(agent_specs)]
        game = start_game(rules, gseed, names, preset_name=preset_name)
        forfeit = play_with_policy(game, players)
        scores = game.state.totals()
        shares, _ = game_outcome(scores, forfeit)
        deliver_results(players, scores, [s for s, w in enumerate(shares) if w > 0])
    finally:
        for player in players:
            player.close()
    if save_dir is not None:
        path = save_dir / f"game-{index + 1:06d}.json"  # people count games from 1
        save_record(path, game.to_record())
    return GameOutcome(scores, forfeit, failures)


def _play_chunk(
    rules: Rules,
    agent_specs: Sequence[str],
    seed: int,
    start: int,
    stop: int,
    budget: Budget | None,
    preset_name: str | None,
    save_dir: Path | None,
    on_engine_failure: str = DEFAULT_FAILURE_POLICY,
) -> tuple[int, list[GameOutcome]]:
    """Worker task: games ``start`` to ``stop - 1``; returns ``(start, outcomes)``."""
    return start, [
        play_game_outcome(
            rules,
            agent_specs,
            seed,
            i,
            budget=budget,
            preset_name=preset_name,
            save_dir=save_dir,
            on_engine_failure=on_engine_failure,
        )
        for i in range(start, stop)
    ]


def fast_batch_module() -> ModuleType | None:
    """``coloretto.fastcore.batch`` if it is usable (Numba imports), else ``None``."""
    if optional("numba", "fast") is None:
        return None
    return importlib.import_module("coloretto.fastcore.batch")


def choose_path(
    rules: Rules,
    agent_specs: Sequence[str],
    *,
    engine_only: bool = False,
    save_records: bool = False,
    budget: Budget | None = None,
    preset_name: str | None = None,
) -> tuple[str, str]:
    """Which path :func:`simulate` takes, and why: ``(path, note)`` (module docstring)."""
    batch = fast_batch_module()
    if batch is None:
        return ENGINE_PATH, "fast core not installed"
    if engine_only:
        return ENGINE_PATH, "engine path forced"
    if not batch.supports(list(agent_specs)):
        return ENGINE_PATH, "the fast batch simulator does not support these agents"
    if save_records:
        return ENGINE_PATH, "records are saved by the engine path only"
    if budget is not None and budget != Budget():
        return ENGINE_PATH, "agent budgets apply to the engine path only"
    if preset_name in PRESET_REMOVED_COLORS and rules.colors_removed:
        return ENGINE_PATH, f"preset {preset_name!r} fixes the removed colours (engine path only)"
    return FAST_PATH, ""


def simulate(
    rules: Rules,
    agent_specs: Sequence[str],
    games: int,
    seed: int,
    *,
    workers: int = 1,
    budget: Budget | None = None,
    preset_name: str | None = None,
    save_dir: Path | None = None,
    engine_only: bool = False,
    progress: ProgressHook | None = None,
    on_engine_failure: str = DEFAULT_FAILURE_POLICY,
) -> SimulationResult:
    """Play ``games`` games of ``agent_specs`` (one spec per seat) under ``rules``.

    Args:
        rules: the rules (``rules.players`` must equal ``len(agent_specs)``).
        agent_specs: ``make_agent`` spec per seat.
        games: number of games (> 0).
        seed: root seed of the run (module docstring).
        workers: processes to play in (1 = in this process).
        budget: thinking budget given to every agent.
        preset_name: passed to the deal (a preset may fix the removed colours).
        save_dir: directory (created if needed) to write every game's record in.
        engine_only: never use the batch fast path.
        progress: called with the number of games done so far.
        on_engine_failure: ``"forfeit"`` (default) or ``"fallback:SPEC"``: what happens when
            an external engine fails (``play_game_outcome``; ``arena.failures``). The run
            goes on; the failures are in the result.

    Returns:
        A ``SimulationResult`` whose ``scores``, ``forfeits`` and ``failures`` are in game
        order.

    Raises:
        ValueError: ``games`` or ``workers`` is not positive, or the number of specs is not
            the number of players.
        ConfigurationError: an unknown or unavailable agent spec, or a bad
            ``on_engine_failure``.
    """
    if games <= 0:
        raise ValueError(f"the number of games must be positive, not {games}")
    if workers <= 0:
        raise ValueError(f"the number of workers must be positive, not {workers}")
    if len(agent_specs) != rules.players:
        raise ValueError(f"{len(agent_specs)} agents for {rules.players} players")
    parse_failure_policy(on_engine_failure)
    specs = list(agent_specs)
    path, note = choose_path(
        rules,
        specs,
        engine_only=engine_only,
        save_records=save_dir is not None,
        budget=budget,
        preset_name=preset_name,
    )
    start = time.perf_counter()
    if path == FAST_PATH:
        batch = fast_batch_module()
        assert batch is not None
        raw = batch.simulate_batch(rules, specs, games, seed, workers)
        scores = [[int(x) for x in row] for row in raw]
        if progress is not None:
            progress(games)
        return SimulationResult(
            scores, path, time.perf_counter() - start, note, on_engine_failure=on_engine_failure
        )
    if save_dir is not None:
        save_dir.mkdir(parents=True, exist_ok=True)
    results: list[GameOutcome] = []
    if workers == 1:
        for i in range(games):
            results.append(
                play_game_outcome(
                    rules,
                    specs,
                    seed,
                    i,
                    budget=budget,
                    preset_name=preset_name,
                    save_dir=save_dir,
                    on_engine_failure=on_engine_failure,
                )
            )
            if progress is not None:
                progress(i + 1)
    else:
        results = _simulate_pool(
            rules,
            specs,
            games,
            seed,
            workers,
            budget,
            preset_name,
            save_dir,
            progress,
            on_engine_failure,
        )
    return SimulationResult(
        [r.scores for r in results],
        ENGINE_PATH,
        time.perf_counter() - start,
        note,
        forfeits=[r.forfeit for r in results],
        failures=[f for r in results for f in r.failures],
        on_engine_failure=on_engine_failure,
    )


def _simulate_pool(
    rules: Rules,
    specs: list[str],
    games: int,
    seed: int,
    workers: int,
    budget: Budget | None,
    preset_name: str | None,
    save_dir: Path | None,
    progress: ProgressHook | None,
    on_engine_failure: str = DEFAULT_FAILURE_POLICY,
) -> list[GameOutcome]:
    """Games in chunks over a process pool; results put back in game order."""
    chunk = max(1, min(100, -(-games // (workers * 8))))
    slots: list[list[GameOutcome] | None] = [None] * (-(-games // chunk))
    done = 0
    with ProcessPoolExecutor(max_workers=workers, initializer=exit_with_parent) as pool:
        pending = {
            pool.submit(
                _play_chunk,
                rules,
                specs,
                seed,
                lo,
                min(lo + chunk, games),
                budget,
                preset_name,
                save_dir,
                on_engine_failure,
            )
            for lo in range(0, games, chunk)
        }
        try:
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in finished:
                    lo, part = fut.result()
                    slots[lo // chunk] = part
                    done += len(part)
                if progress is not None:
                    progress(done)
        except BaseException:
            for fut in pending:
                fut.cancel()
            raise
    return [outcome for part in slots if part is not None for outcome in part]
