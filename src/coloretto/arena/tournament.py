"""Tournaments with duplicate deals (``coloretto tournament``).

Method
------
- **Entries.** ``agents`` lists one agent spec per entry (``make_agent`` specs, including
  ``cmd:COMMAND`` external engines); there are as many entries as seats.
- **Duplicate deals.** Deal ``d`` (seed ``derive_seed(root, GAME, d)``) is played
  ``n`` times (``n`` players), once per rotation ``r = 0..n-1``; in rotation ``r`` entry ``e``
  sits in seat ``(e + r) mod n``. Every entry thus plays every deal from every seat, so the
  luck of the deal (and of the seat order) cancels. Game index ``g = d * n + r``. The number
  of games is rounded up to a multiple of ``n`` (whole deals).
- **Seeds.** ``derive_seed`` and the stream constants of ``coloretto.engine.seeds``. Agents
  are seeded per game and seat (``derive_seed(root, AGENT, g, seat)``), a fallback player
  with ``derive_seed(root, FALLBACK, g, seat)``. Results are sorted by
  game index before aggregation, so the same root seed gives the same results for any
  worker count and backend (except timings).
- **Per game and seat:** win share (1 for a sole winner, ``1/k`` for ``k`` tied winners,
  docs/rules.md §6.5), final score, margin (score minus the table's mean score), competition
  rank (1, 2, 2, 4).
- **Intervals.** The independent unit is the deal: per entry, each deal gives one sample,
  the mean of the entry's values over the deal's ``n`` rotations; mean and 95% interval over
  the deals come from ``arena.stats.mean_ci`` (normal approximation, sample sd; the ends of
  win-share intervals clipped to [0, 1], of rank intervals to [1, n]). An agent
  spec in several entries gets an aggregate: per deal, the mean over its entries and the
  rotations. Par win share is ``1/n``.
- **Time per decision:** wall-clock seconds of each ``act`` call (forced moves with a single
  legal action are not asked), pooled per entry: mean and 95th percentile (linear
  interpolation).
- **Ratings:** one maximum-likelihood fit of a Luce choice model of each game's winner
  (ties split) over every game, on the Elo scale relative to the field mean, with 95%
  percentile-bootstrap intervals over deals (the bootstrap seeded with
  ``derive_seed(root, BOOTSTRAP)``);
  independent of the order of the games, and ordered exactly as the entries' win shares
  (every entry sits at every table; ``ratings``).
- **Engine failures** (``EngineFailure`` of an external engine, including a failure to
  start; the policy is shared with ``coloretto simulate``: ``arena.failures``): with
  ``on_engine_failure="forfeit"`` the game stops; the failing seat gets win
  share 0 and the last rank; the others are ranked (and share the win) by their scores at
  that moment, which are also the recorded scores. With ``"fallback:SPEC"`` a ``SPEC`` agent
  (e.g. ``random``) plays the seat from the failed decision on and the game counts as
  usual. Every failure is reported (game, seat, entry, kind, detail).
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ..agents.base import Agent, Budget
from ..agents.registry import is_external, level_definitions, make_agent
from ..engine.errors import ConfigurationError
from ..engine.rules import Rules
from ..engine.seeds import AGENT, ENGINE, FALLBACK, GAME, derive_seed, one_way_seed, seal
from .driver import start_game
from .failures import (
    SeatPlayer,
    arena_policy,
    deliver_results,
    failure_info,
    parse_failure_policy,
    play_with_policy,
)
from .ratings import Rating, method, rate_games
from .stats import WIN_SHARE_RANGE, Estimate, game_outcome, mean_ci

RESULT_FORMAT: Final = "coloretto-tournament/3"

log = logging.getLogger(__name__)


def entry_seat(entry: int, rotation: int, players: int) -> int:
    """The seat of ``entry`` in ``rotation`` (module docstring)."""
    return (entry + rotation) % players


def seat_entry(seat: int, rotation: int, players: int) -> int:
    """The entry in ``seat`` in ``rotation`` (inverse of ``entry_seat``)."""
    return (seat - rotation) % players


@dataclass(frozen=True)
class TournamentConfig:
    """Everything that determines a tournament's results.

    Attributes:
        agents: one agent spec per entry (= per seat).
        games: games to play, a multiple of the number of players.
        rules: the rules (``rules.players == len(agents)``).
        seed: root seed.
        budget: thinking budget for every agent.
        preset: preset name the rules came from (deals of ``bga`` remove gray at 3 players).
        on_engine_failure: ``"forfeit"`` or ``"fallback:SPEC"`` (module docstring).
        engine_grace_ms: grace for external engines (``ExternalAgent``).
        engine_hello_timeout_ms: time for external engines to answer ``hello``.
        engine_log: append external engines' standard error to this file (else logging).
        keep_records: keep each game's ``coloretto-record/1`` in its result.
        games_requested: the ``games`` asked for before rounding up to whole deals.
        engine_secret: the run's secret when it has external engines (``seeds.seal``): the
            deals come from ``seal(seed, engine_secret)`` and each engine's ``hello`` seed
            is a ``one_way_seed`` of it, so an engine cannot compute the deal; the report
            publishes it, and ``seed`` with it replays the run exactly. None: deals from
            ``seed`` itself.
    """

    agents: tuple[str, ...]
    games: int
    rules: Rules
    seed: int = 0
    budget: Budget = field(default_factory=Budget)
    preset: str | None = None
    on_engine_failure: str = "forfeit"
    engine_grace_ms: int = 1000
    engine_hello_timeout_ms: int = 10_000
    engine_log: str | None = None
    keep_records: bool = False
    games_requested: int | None = None
    engine_secret: str | None = None

    def __post_init__(self) -> None:
        n = len(self.agents)
        if n != self.rules.players:
            raise ConfigurationError(
                f"{n} agents for {self.rules.players} players: give one agent per seat"
            )
        if self.games < 1 or self.games % n:
            raise ConfigurationError(
                f"games must be a positive multiple of {n} (whole duplicate deals), not {self.games}"
            )
        parse_failure_policy(self.on_engine_failure)

    @property
    def players(self) -> int:
        """Number of seats (= entries)."""
        return len(self.agents)

    @property
    def deals(self) -> int:
        """Number of duplicate deals (``games / players``)."""
        return self.games // self.players

    @property
    def deal_root(self) -> int:
        """The root the deals and agents' seeds come from: ``seed``, sealed with
        ``engine_secret`` when there is one."""
        return self.seed if self.engine_secret is None else seal(self.seed, self.engine_secret)

    def to_json(self) -> dict[str, Any]:
        """The configuration as JSON (rules as ``Rules.to_dict``; ``levels``: what each
        difficulty level among the agents plays with, ``registry.level_definitions``)."""
        return {
            "agents": list(self.agents),
            "players": self.players,
            "games": self.games,
            "games_requested": self.games_requested
            if self.games_requested is not None
            else self.games,
            "deals": self.deals,
            "rules": self.rules.to_dict(),
            "preset": self.preset,
            "seed": self.seed,
            "engine_secret": self.engine_secret,
            "budget": {
                "iterations": self.budget.iterations,
                "seconds": self.budget.seconds,
                "clock": "cpu" if self.budget.cpu else "wall",
            },
            "on_engine_failure": self.on_engine_failure,
            "engine_grace_ms": self.engine_grace_ms,
            "levels": level_definitions(self.agents, self.players, self.budget),
        }


def rounded_games(games: int, players: int) -> int:
    """``games`` rounded up to a multiple of ``players`` (whole duplicate deals)."""
    return -(-games // players) * players


@dataclass(frozen=True)
class GameTask:
    """One game to play (picklable; sent to workers).

    Attributes:
        index: game index ``deal * players + rotation``.
        deal, rotation: which deal, which rotation of the entries.
        deal_seed: seed of the deal (the same for every rotation of a deal).
        entries: entry in each seat.
        specs: agent spec in each seat.
        agent_seeds, fallback_seeds: per seat.
        config: the tournament configuration.
    """

    index: int
    deal: int
    rotation: int
    deal_seed: int
    entries: tuple[int, ...]
    specs: tuple[str, ...]
    agent_seeds: tuple[int, ...]
    fallback_seeds: tuple[int, ...]
    config: TournamentConfig


@dataclass
class GameResult:
    """The outcome of one game.

    Attributes:
        index, deal, rotation, deal_seed, entries, specs: as ``GameTask``.
        scores: final totals per seat (at the forfeit for a forfeited game).
        win_shares: per seat (ties split; 0 for a forfeiting seat).
        ranks: competition ranks per seat (a forfeiting seat is last).
        forfeit: the seat that forfeited, or ``None``.
        failures: engine failures (``EngineFailure.to_json`` plus ``game``, ``entry``,
            ``handling``).
        decision_seconds: per seat, the seconds of each decision.
        seconds: wall-clock seconds of the whole game.
        record: the game's ``coloretto-record/1`` (when ``keep_records``).
    """

    index: int
    deal: int
    rotation: int
    deal_seed: int
    entries: list[int]
    specs: list[str]
    scores: list[int]
    win_shares: list[float]
    ranks: list[int]
    forfeit: int | None
    failures: list[dict[str, Any]]
    decision_seconds: list[list[float]]
    seconds: float
    record: dict[str, Any] | None = None

    def to_json(self, *, timings: bool = True) -> dict[str, Any]:
        """JSON form of the game (without the per-decision timings list; ``seconds`` only
        when ``timings``)."""
        out: dict[str, Any] = {
            "game": self.index,
            "deal": self.deal,
            "rotation": self.rotation,
            "deal_seed": self.deal_seed,
            "entries": self.entries,
            "agents": self.specs,
            "scores": self.scores,
            "win_shares": self.win_shares,
            "ranks": self.ranks,
            "forfeit": self.forfeit,
            "failures": self.failures,
            "decisions": [len(t) for t in self.decision_seconds],
        }
        if timings:
            out["seconds"] = self.seconds
        return out


def plan(config: TournamentConfig) -> list[GameTask]:
    """The games of ``config`` in game-index order (module docstring)."""
    n = config.players
    tasks = []
    root = config.deal_root
    for d in range(config.deals):
        deal_seed = derive_seed(root, GAME, d)
        for r in range(n):
            g = d * n + r
            entries = tuple(seat_entry(s, r, n) for s in range(n))
            tasks.append(
                GameTask(
                    index=g,
                    deal=d,
                    rotation=r,
                    deal_seed=deal_seed,
                    entries=entries,
                    specs=tuple(config.agents[e] for e in entries),
                    agent_seeds=tuple(
                        one_way_seed(root, ENGINE, g, s)
                        if is_external(config.agents[entries[s]])
                        else derive_seed(root, AGENT, g, s)
                        for s in range(n)
                    ),
                    fallback_seeds=tuple(derive_seed(root, FALLBACK, g, s) for s in range(n)),
                    config=config,
                )
            )
    return tasks


def build_agent(spec: str, seed: int, config: TournamentConfig) -> Agent:
    """``make_agent(spec, seed, config.budget)``; external engines (``cmd:``) get the
    configuration's grace, hello timeout and stderr log."""
    if is_external(spec):
        from ..agents.external import ExternalAgent

        return ExternalAgent(
            spec[4:],
            seed=seed,
            budget=config.budget,
            grace_ms=config.engine_grace_ms,
            hello_timeout_ms=config.engine_hello_timeout_ms,
            stderr_path=config.engine_log,
        )
    return make_agent(spec, seed, config.budget)


def play_game(task: GameTask) -> GameResult:
    """Play ``task`` (in any process) and return its result (module docstring for forfeits
    and fallbacks).

    Raises:
        ConfigurationError: an agent spec cannot be built.
        Exception: whatever a built-in agent raises (bugs are not hidden).
    """
    cfg = task.config
    n = cfg.players
    t0 = time.perf_counter()
    failures: list[dict[str, Any]] = []
    policy = cfg.on_engine_failure

    def record_failure(exc: Exception, seat: int) -> None:
        failures.append(failure_info(exc, seat, policy, game=task.index, entry=task.entries[seat]))

    players: list[SeatPlayer] = []
    try:
        for seat in range(n):
            primary = build_agent(task.specs[seat], task.agent_seeds[seat], cfg)
            players.append(SeatPlayer(primary, arena_policy(policy), record_failure, task.fallback_seeds[seat], cfg.budget))
        # seats named for people: the entry counted from 1, as the report's table counts
        names = [f"{spec}#{entry + 1}" for spec, entry in zip(task.specs, task.entries)]
        game = start_game(cfg.rules, task.deal_seed, names, preset_name=cfg.preset)
        forfeit = play_with_policy(game, players)
        scores = [int(s) for s in game.state.totals()]
        shares, ranks = game_outcome(scores, forfeit)
        winners = [s for s in range(n) if shares[s] > 0]
        deliver_results(players, scores, winners)
        record = game.to_record() if cfg.keep_records else None
    finally:
        for p in players:
            p.close()
    return GameResult(
        index=task.index,
        deal=task.deal,
        rotation=task.rotation,
        deal_seed=task.deal_seed,
        entries=list(task.entries),
        specs=list(task.specs),
        scores=scores,
        win_shares=shares,
        ranks=ranks,
        forfeit=forfeit,
        failures=failures,
        decision_seconds=[p.seconds for p in players],
        seconds=time.perf_counter() - t0,
        record=record,
    )


# ----- aggregation ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Summary:
    """Results of one entry, or the aggregate of one agent spec over its entries.

    Attributes:
        agent: the agent spec.
        entries: the entries summarised (one for a per-entry summary).
        games: games played (per entry).
        win_share, score, margin, rank: ``Estimate`` over deals (module docstring).
        decision_mean, decision_p95: seconds per decision (``None`` without decisions).
        decisions: number of timed decisions.
        rating: Luce-choice rating with its 95% interval (per-entry summaries only;
            ``ratings``).
        failures: engine failures; forfeits: games forfeited.
    """

    agent: str
    entries: tuple[int, ...]
    games: int
    win_share: Estimate
    score: Estimate
    margin: Estimate
    rank: Estimate
    decision_mean: float | None
    decision_p95: float | None
    decisions: int
    rating: Rating | None
    failures: int
    forfeits: int

    def to_json(self, *, timings: bool = True) -> dict[str, Any]:
        """JSON form; the seconds-per-decision fields only when ``timings``."""
        out: dict[str, Any] = {
            "agent": self.agent,
            "entries": list(self.entries),
            "games": self.games,
            "win_share": self.win_share.to_json(),
            "mean_score": self.score.to_json(),
            "mean_margin": self.margin.to_json(),
            "mean_rank": self.rank.to_json(),
            "decisions": self.decisions,
            "rating": None if self.rating is None else self.rating.to_json(),
            "failures": self.failures,
            "forfeits": self.forfeits,
        }
        if timings:
            out["seconds_per_decision"] = {"mean": self.decision_mean, "p95": self.decision_p95}
        return out


@dataclass
class TournamentResult:
    """A finished tournament.

    Attributes:
        config: the configuration.
        games: every game's result, in game-index order.
        entries: one ``Summary`` per entry (entry order).
        agents: one aggregate ``Summary`` per distinct spec (order of first entry).
        seconds: wall-clock seconds of the run; workers, backend: how it ran.
    """

    config: TournamentConfig
    games: list[GameResult]
    entries: list[Summary]
    agents: list[Summary]
    seconds: float = 0.0
    workers: int = 1
    backend: str = "process"

    @property
    def failures(self) -> list[dict[str, Any]]:
        """Every engine failure, in game order."""
        return [f for g in self.games for f in g.failures]

    def to_json(self, *, timings: bool = True) -> dict[str, Any]:
        """The ``coloretto-tournament/3`` JSON object. ``timings=False`` leaves out every
        wall-clock field and the run's parallel settings (what may differ between two runs of
        the same configuration)."""
        out: dict[str, Any] = {
            "format": RESULT_FORMAT,
            "config": self.config.to_json(),
            "par_win_share": 1.0 / self.config.players,
            "rating_method": method(self.config.seed),
            "entries": [dict(s.to_json(timings=timings), entry=s.entries[0]) for s in self.entries],
            "agents": [s.to_json(timings=timings) for s in self.agents],
            "failures": self.failures,
            "games": [g.to_json(timings=timings) for g in self.games],
        }
        if timings:
            out["run"] = {"seconds": self.seconds, "workers": self.workers, "backend": self.backend}
        return out


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100) of non-empty ``values`` by linear interpolation
    between closest ranks (numpy's default method)."""
    xs = sorted(values)
    if not xs:
        raise ValueError("no values")
    pos = (len(xs) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def summarize(
    config: TournamentConfig, games: Sequence[GameResult]
) -> tuple[list[Summary], list[Summary]]:
    """Per-entry and per-spec summaries of ``games`` (sorted here by game index).

    Raises:
        ValueError: no games, or games that do not form whole deals.
    """
    games = sorted(games, key=lambda g: g.index)
    n = config.players
    if not games or len(games) % n:
        raise ValueError(f"{len(games)} games do not form whole deals of {n}")
    by_deal: dict[int, list[GameResult]] = {}
    for g in games:
        by_deal.setdefault(g.deal, []).append(g)
    ratings = rate_games(n, [(g.deal, g.entries, g.ranks) for g in games], seed=config.seed)

    def summary(agent: str, entries: Sequence[int], rating: Rating | None) -> Summary:
        cols: dict[str, list[float]] = {"share": [], "score": [], "margin": [], "rank": []}
        times: list[float] = []
        failures = forfeits = 0
        for deal_games in by_deal.values():
            acc = {k: 0.0 for k in cols}
            count = 0
            for g in deal_games:
                table_mean = math.fsum(g.scores) / n
                for e in entries:
                    s = g.entries.index(e)
                    acc["share"] += g.win_shares[s]
                    acc["score"] += g.scores[s]
                    acc["margin"] += g.scores[s] - table_mean
                    acc["rank"] += g.ranks[s]
                    count += 1
                    times.extend(g.decision_seconds[s])
                    failures += sum(1 for f in g.failures if f["seat"] == s)
                    forfeits += int(g.forfeit == s)
            for k, column in cols.items():
                column.append(acc[k] / count)
        return Summary(
            agent=agent,
            entries=tuple(entries),
            games=len(games),
            win_share=mean_ci(cols["share"], WIN_SHARE_RANGE),
            score=mean_ci(cols["score"]),
            margin=mean_ci(cols["margin"]),
            rank=mean_ci(cols["rank"], (1.0, float(n))),
            decision_mean=(math.fsum(times) / len(times)) if times else None,
            decision_p95=percentile(times, 95) if times else None,
            decisions=len(times),
            rating=rating,
            failures=failures,
            forfeits=forfeits,
        )

    per_entry = [summary(spec, [e], ratings[e]) for e, spec in enumerate(config.agents)]
    entries_of: dict[str, list[int]] = {}
    for e, spec in enumerate(config.agents):
        entries_of.setdefault(spec, []).append(e)
    per_spec = [summary(spec, es, None) for spec, es in entries_of.items()]
    return per_entry, per_spec


def run_tournament(
    config: TournamentConfig,
    *,
    workers: int | None = None,
    backend: str = "process",
    address: str | None = None,
    on_game: Callable[[GameResult], None] | None = None,
    done: Sequence[GameResult] = (),
) -> TournamentResult:
    """Play every game of ``config`` (in parallel, see ``arena.parallel.run_tasks``) and
    summarise.

    Args:
        workers: parallel workers (default: the machine's cores).
        backend: ``"process"`` or ``"ray"``; ``address``: Ray cluster address.
        on_game: called in this process with each finished game (progress).
        done: games of ``config`` already played (an interrupted run's, ``arena.checkpoint``):
            they are not played again and count in the summary (``seconds`` is this run's).

    Raises:
        ConfigurationError: bad backend/worker settings or an agent that cannot be built.
    """
    from .parallel import default_workers, run_tasks

    played = {g.index for g in done}
    tasks = [t for t in plan(config) if t.index not in played]
    t0 = time.perf_counter()
    results = list(done)
    if tasks:
        results += run_tasks(
            play_game, tasks, workers=workers, backend=backend, address=address, on_done=on_game
        )
    seconds = time.perf_counter() - t0
    results.sort(key=lambda g: g.index)
    per_entry, per_spec = summarize(config, results)
    return TournamentResult(
        config=config,
        games=results,
        entries=per_entry,
        agents=per_spec,
        seconds=seconds,
        workers=workers or default_workers(),
        backend=backend,
    )


__all__ = [
    "RESULT_FORMAT",
    "GameResult",
    "GameTask",
    "SeatPlayer",
    "Summary",
    "TournamentConfig",
    "TournamentResult",
    "derive_seed",
    "entry_seat",
    "parse_failure_policy",
    "percentile",
    "plan",
    "play_game",
    "rounded_games",
    "run_tournament",
    "seat_entry",
    "summarize",
]
