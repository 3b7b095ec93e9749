"""What every environment adapter shares (NumPy and the engine only, no RL library): the
reward options, the game seeds of successive episodes, and the text picture of a table.

Rewards are paid once, when the game (every game of a match) ends (docs/rl.md, "Rewards"):

* ``"margin"``: the seat's total minus the best total of the other seats (positive only
  for a sole winner; 0 for a winner who shares the win);
* ``"win"``: 1 for a sole win, ``1/k`` for a win shared by ``k`` seats, 0 otherwise
  (docs/rules.md §6.5: tied players share the win).
"""

from __future__ import annotations

import io
import secrets
from typing import Final, Literal

from ..engine.errors import ConfigurationError
from ..engine.rules import Rules, game_info
from ..engine.seeds import GAME, derive_seed
from ..engine.state import GameState

RewardName = Literal["margin", "win"]
REWARDS: Final[tuple[RewardName, ...]] = ("margin", "win")
"""The reward options of every environment."""

ENV_NAME: Final = "coloretto_v0"
"""The environments' name and version (docs/rl.md, "Version history")."""


def check_reward(reward: object) -> RewardName:
    """``reward`` if it is one of ``REWARDS``.

    Raises:
        ConfigurationError: any other value (the message lists the options).
    """
    if reward not in REWARDS:
        raise ConfigurationError(f"reward is {reward!r}; allowed: {', '.join(REWARDS)}")
    return reward


def make_rules(players: int, options: dict[str, object]) -> Rules:
    """``Rules`` of ``players`` seats and the further docs/rules.md §7 ``options`` (keyword
    arguments of an environment).

    Raises:
        ConfigurationError: an unknown option or a bad value (the message names it).
    """
    return Rules.from_dict({**options, "players": players})


def final_rewards(state: GameState, reward: RewardName) -> list[float]:
    """One reward per seat for the finished game (module docstring; docs/rules.md §6.5).

    Raises:
        ValueError: the game is not over.
    """
    if not state.is_over():
        raise ValueError("rewards are paid when the game is over")
    totals = state.totals()
    if reward == "win":
        winners = state.winners()
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(state.n)]
    return [float(t - max(u for o, u in enumerate(totals) if o != s)) for s, t in enumerate(totals)]


def reward_bounds(rules: Rules, reward: RewardName) -> tuple[float, float]:
    """Safe bounds ``(low, high)`` of one seat's reward under ``rules`` (``game_info``'s
    score bounds over the match's games)."""
    if reward == "win":
        return 0.0, 1.0
    info = game_info(rules)
    spread = float((info.max_score - info.min_score) * rules.match_games)
    return -spread, spread


class EpisodeSeeds:
    """The game seeds of successive episodes: ``reset(seed)`` starts a root seed, and
    episode ``k`` of a root is dealt from ``derive_seed(root, GAME, k)`` (``engine.seeds``).
    Before any seed is given the root is ``fresh`` or, without it, 63 bits of entropy."""

    def __init__(self) -> None:
        self.root: int | None = None
        self.episode = 0

    def next(self, seed: int | None, fresh: int | None = None) -> int:
        """The seed of the next episode's game; ``seed`` (when not ``None``) restarts the
        sequence from that root.

        Raises:
            ConfigurationError: ``seed`` is not a non-negative integer.
        """
        if seed is not None:
            if type(seed) is not int or seed < 0:
                raise ConfigurationError(f"seed must be a non-negative integer, not {seed!r}")
            self.root = seed
            self.episode = 0
        elif self.root is None:
            self.root = fresh if fresh is not None else secrets.randbits(63)
            self.episode = 0
        else:
            self.episode += 1
        return derive_seed(self.root, GAME, self.episode)


def board_text(state: GameState, seat: int, names: list[str]) -> str:
    """The table as ``seat`` sees it, as plain text (the terminal's picture, no colours).

    ``state`` is the true state; only ``seat``'s observation of it is drawn."""
    from rich.console import Console

    from ..engine.observation import observe
    from ..tui import render

    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, highlight=False)
    console.print(render.board(observe(state, seat).state, names, viewer=seat))
    return out.getvalue()
