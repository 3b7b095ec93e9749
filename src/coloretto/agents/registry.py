"""Agent names -> classes, imported lazily (so heavy agents cost nothing until used).

Spec strings accepted by ``make_agent``: a registry name (``random``, ``greedy``,
``heuristic``, ``mcts``, ``mcts-v1``, ``ismcts``, ``ismcts-value``, ``oracle``,
``oracle-value``), a difficulty
(``easy``, ``medium``, ``hard``, ``expert``), ``policy:FILE`` for a trained policy file
(``coloretto train policy``; ``policy`` alone or ``policy:builtin`` is the policy shipped with
the package), or ``cmd:COMMAND`` for an external ``coloretto-engine/1`` program. A name or
difficulty may carry its own budget as ``NAME@BUDGET`` (``Budget.parse``: ``mcts-v1@0.5s``,
``ismcts@300``): it wins over the budget given to ``make_agent`` (so one tournament can give
each entry its own budget).
"""

from __future__ import annotations

import importlib
import os
import shlex
import shutil
from collections.abc import Sequence
from typing import Final

from ..engine.errors import ConfigurationError
from .base import Agent, Budget

REGISTRY: Final[dict[str, str]] = {
    "random": "coloretto.agents.baseline:RandomAgent",
    "greedy": "coloretto.agents.baseline:GreedyAgent",
    "heuristic": "coloretto.agents.heuristic:HeuristicAgent",
    "mcts": "coloretto.agents.mcts:MCTSAgent",
    "mcts-v1": "coloretto.agents.mcts:MCTSv1Agent",
    "ismcts": "coloretto.agents.ismcts:ISMCTSAgent",
    "ismcts-value": "coloretto.agents.ismcts:ValueISMCTSAgent",
    "oracle": "coloretto.agents.mcts:OracleAgent",
    "oracle-value": "coloretto.agents.ismcts:ValueOracleAgent",
    "policy": "coloretto.agents.policy:PolicyAgent",
}

DIFFICULTIES: Final[dict[str, tuple[str, Budget]]] = {
    "easy": ("greedy", Budget()),
    "medium": ("heuristic", Budget()),
    "hard": ("ismcts", Budget(iterations=300)),
    "expert": ("ismcts-value", Budget(iterations=30_000, by_players=((2, 60_000),))),
}
"""Difficulty levels for people: name -> (agent, budget). ``easy`` takes any row that
raises its score now; ``medium`` is the rule-based ``heuristic``; ``hard`` the compiled
search with 300 iterations per decision; ``expert`` the compiled search with the learned
value and the heuristic's priors in the tree, 30,000 iterations (about 0.4 s, at most 1 s
at p95), 60,000 heads-up (``Budget.by_players``: a 2-player game is shorter and has fewer
rows, so an iteration costs about half as much). Iteration budgets make a
level's strength the same on any machine; each costs at most 1 s of CPU per decision (p95)
on the project's 2-core machine (``benchmarks/level_latency.py``; wall-clock times on a
loaded machine are longer). Measured
strengths and times in docs/strength.md."""

FAST_CORE_PARTS: Final[dict[str, tuple[str, ...]]] = {
    "random": (),
    "greedy": (),
    "heuristic": (),
    "mcts": ("transitions",),
    "mcts-v1": ("transitions",),
    "oracle": ("transitions",),
    "ismcts": ("transitions", "search"),
    "ismcts-value": ("transitions", "search"),
    "oracle-value": ("transitions", "search"),
    "policy": ("transitions", "search"),
}
"""The parts of the fast core (``coloretto.fastcore.cache.PARTS``, in compile order) that
each agent of ``REGISTRY`` runs: the Python searches roll out in ``transitions``; the
compiled search, the compiled heuristic and the learned value's features are in ``search``.
The command line compiles a cold part before the first decision
(``coloretto.cli.preflight``)."""

AGENT_NAMES: Final = tuple(REGISTRY) + tuple(DIFFICULTIES)
ORACLES: Final = ("oracle", "oracle-value")
"""The agents that see the hidden draw pile (``Agent.needs_true_state``): for measurements
only, never opponents of people."""
FAIR_AGENT_NAMES: Final = tuple(name for name in AGENT_NAMES if name not in ORACLES)
"""Every agent name that sees only what its seat may see: what ``coloretto play --opponents``
takes (besides ``policy:FILE`` and ``cmd:COMMAND``)."""
PEOPLE_OPPONENTS: Final = ("random", "greedy", "heuristic", "mcts", "policy") + tuple(DIFFICULTIES)
"""Agents offered as opponents to people (``oracle`` is for measurement only)."""


class UnknownAgentError(ConfigurationError):
    """An agent spec that names no agent; the message lists the names ``known``, then
    ``policy:FILE`` and ``cmd:COMMAND``.

    Attributes:
        name: the name given (without its ``@BUDGET``).
    """

    def __init__(self, name: str, known: Sequence[str] = AGENT_NAMES) -> None:
        super().__init__(
            f"unknown agent {name!r}; known: {', '.join(known)}, policy:FILE, cmd:COMMAND"
        )
        self.name = name


def is_external(spec: str) -> bool:
    """``spec`` names an external ``coloretto-engine/1`` program (``cmd:COMMAND``)."""
    return spec.startswith("cmd:")


def check_external(spec: str, cwd: str | None = None) -> None:
    """Check the ``cmd:COMMAND`` spec ``spec`` before a game: its command splits into words
    (shell rules) and its program exists and can be run (a path, relative ones counted from
    ``cwd``, the folder it will run in, default the current folder; or a name on ``PATH``).

    Raises:
        ConfigurationError: a command that cannot be split, an empty command, or a program
            that is not found or not executable (the message names the spec and program).
    """
    try:
        argv = shlex.split(spec[4:])
    except ValueError as exc:
        raise ConfigurationError(f"agent {spec!r}: cannot split the command: {exc}") from None
    if not argv:
        raise ConfigurationError(f"agent {spec!r}: empty command (use cmd:PROGRAM [ARGS])")
    prog = argv[0]
    path = os.path.join(cwd, prog) if cwd is not None else prog
    found = (
        (os.path.isfile(path) and os.access(path, os.X_OK)) if os.sep in prog else shutil.which(prog)
    )
    if not found:
        raise ConfigurationError(f"agent {spec!r}: program {prog!r} not found or not executable")


def check_spec(spec: str) -> None:
    """Check the agent spec ``spec`` before any game starts: a ``cmd:`` program must exist
    and run (``check_external``), and the agent must build (``make_agent``; an external
    program is not started by this).

    >>> check_spec("mcts@0.5s-cpu")
    >>> check_spec("ismcts@0.5s-cpu")
    Traceback (most recent call last):
    ...
    coloretto.engine.errors.ConfigurationError: ismcts cannot search for a CPU-time budget (0.5s-cpu; only mcts, mcts-v1 and oracle can): give it seconds ('0.5s') or iterations ('2000')

    Raises:
        ConfigurationError: an unknown agent, a bad budget, or an external program that
            cannot be run (the message names the spec).
    """
    if is_external(spec):
        check_external(spec)
    make_agent(spec).close()


def split_spec(spec: str) -> tuple[str, Budget | None]:
    """``"NAME@BUDGET"`` -> ``(NAME, Budget)``; a spec without ``@`` (or a ``cmd:`` or
    ``policy:`` spec, whose command or file may hold ``@``) -> ``(spec, None)``.

    Raises:
        ConfigurationError: an unreadable budget after ``@``.
    """
    if spec.startswith(("cmd:", "policy:")) or "@" not in spec:
        return spec, None
    name, _, text = spec.partition("@")
    if not text.strip():
        raise ConfigurationError(f"agent {spec!r}: no budget after '@' (e.g. {name}@0.5s, {name}@2000)")
    try:
        return name, Budget.parse(text, cpu_ok=True)
    except ValueError as exc:
        raise ConfigurationError(f"agent {spec!r}: {exc}") from None


def agent_fast_core_parts(spec: str) -> tuple[str, ...]:
    """The parts of the fast core (``FAST_CORE_PARTS``) that the agent ``spec`` runs: a
    name, a difficulty, either with ``@BUDGET`` (not checked here), or ``policy:FILE``. An
    external program (``cmd:``) or an unknown name runs none of ours: ``()`` (``make_agent``
    reports an unknown name).

    >>> agent_fast_core_parts("expert@2000")
    ('transitions', 'search')
    >>> agent_fast_core_parts("mcts-v1@0.5s-cpu")
    ('transitions',)
    >>> agent_fast_core_parts("cmd:./engine")
    ()
    """
    if is_external(spec):
        return ()
    name = "policy" if spec.startswith("policy:") else spec.partition("@")[0]
    name = DIFFICULTIES[name][0] if name in DIFFICULTIES else name
    return FAST_CORE_PARTS.get(name, ())


def _level(level: str, budget: Budget | None) -> tuple[str, Budget]:
    """The agent of the difficulty ``level`` and its budget: ``budget`` when it names
    iterations or seconds, else the level's own."""
    name, own = DIFFICULTIES[level]
    explicit = budget is not None and (budget.iterations is not None or budget.seconds is not None)
    return name, budget if explicit and budget is not None else own


def level_definitions(
    specs: Sequence[str], players: int, budget: Budget | None = None
) -> dict[str, dict[str, object]]:
    """What each difficulty level among the agent specs ``specs`` (without ``@BUDGET``)
    plays with in a game of ``players`` players, given the run's ``budget``: level ->
    ``{"agent": NAME, "iterations": N or None, "seconds": S or None}``. Reports and
    checkpoints of tournaments record it, so a level that a later version defines
    differently is not taken for the same player.

    >>> level_definitions(["expert", "mcts-v1@0.5s-cpu", "hard@500"], 2)
    {'expert': {'agent': 'ismcts-value', 'iterations': 60000, 'seconds': None}}
    >>> level_definitions(["expert"], 4, Budget(iterations=800))
    {'expert': {'agent': 'ismcts-value', 'iterations': 800, 'seconds': None}}
    """
    out: dict[str, dict[str, object]] = {}
    for spec in specs:
        if spec in DIFFICULTIES:
            name, chosen = _level(spec, budget)
            played = chosen.for_players(players)
            out[spec] = {"agent": name, "iterations": played.iterations, "seconds": played.seconds}
    return out


def make_agent(
    spec: str, seed: int = 0, budget: Budget | None = None, cwd: str | None = None
) -> Agent:
    """Build the agent named by ``spec`` (module docstring), seeded with ``seed``; an
    external program (``cmd:``) runs in the folder ``cwd`` (default the current folder,
    other agents ignore it).

    Raises:
        UnknownAgentError: unknown name (a ``ConfigurationError``).
        ConfigurationError: an unreadable ``@BUDGET``, or an agent not available in this
            installation.
    """
    spec, own = split_spec(spec)
    if own is not None:
        budget = own
    if is_external(spec):
        from .external import ExternalAgent

        return ExternalAgent(spec[4:], seed=seed, budget=budget, cwd=cwd)
    if spec.startswith("policy:"):
        from .policy import PolicyAgent

        source = spec[len("policy:") :]
        if not source:
            raise ConfigurationError("policy:FILE needs a file (or policy:builtin)")
        return PolicyAgent(seed=seed, budget=budget, source=source)
    if spec in DIFFICULTIES:
        name, chosen = _level(spec, budget)
        try:
            return make_agent(name, seed, chosen)
        except ConfigurationError as exc:
            raise ConfigurationError(f"{spec} (the level, played by {name}): {exc}") from None
    if spec not in REGISTRY:
        raise UnknownAgentError(spec)
    module_name, cls_name = REGISTRY[spec].split(":")
    try:
        cls = getattr(importlib.import_module(module_name), cls_name)
    except (ModuleNotFoundError, AttributeError):
        raise ConfigurationError(f"agent {spec!r} is not available in this installation") from None
    made: Agent = cls(seed=seed, budget=budget)
    return made


def computer_name(spec: str, seat: int) -> str:
    """The name shown for the computer player of agent spec ``spec`` in ``seat`` (0-based),
    numbered by its seat counted from 1 as people count: ``greedy-2`` for the second
    seat, or for ``cmd:/path/engine --x`` the program's file name: ``engine-2``.

    >>> computer_name("greedy", 1), computer_name("cmd:/opt/bin/engine --fast", 2)
    ('greedy-2', 'engine-3')
    """
    short = spec
    if spec.startswith("cmd:"):
        try:
            argv = shlex.split(spec[4:])
        except ValueError:
            argv = spec[4:].split()
        short = argv[0].rsplit("/", 1)[-1] if argv else "engine"
    return f"{short}-{seat + 1}"
