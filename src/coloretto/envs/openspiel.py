"""Coloretto as an OpenSpiel game (docs/rl.md, "OpenSpiel"). Importing this module registers
``python_coloretto`` with ``pyspiel.register_game``.

>>> import pyspiel
>>> import coloretto.envs.openspiel
>>> game = pyspiel.load_game("python_coloretto", {"players": 3})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), state.chance_outcomes()[0]     # the deal: a colour to remove
(True, (0, 0.14285714285714285))

A sequential, explicit-stochastic, imperfect-information game with terminal rewards.
Decisions are the engine's (``GameState.apply``) with the stable action codes of
``engine.actions``; every random event is a chance node whose outcomes are exact:

* the deal (docs/rules.md §2), one chance node per choice in ``engine.setup.deal``'s order:
  each removed colour (uniform over the colours not yet removed), the first player
  (uniform over the seats), then each starting card, seat by seat (uniform over the
  colours in play not yet dealt); with ``starting_cards="choose"`` the players choose
  them. For a match, every game's deal is made at the start, and each game's deal is seen
  by the players only when that game begins;
* each draw (docs/rules.md §3): after a player's draw decision (code 0) a chance node
  reveals the card, its outcome the card code with probability (cards of that kind
  unseen) / (cards unseen), the draw pile's composition being public and its order
  unknown. The Last Round card is not an outcome: it lies at its fixed depth (K cards
  under it, docs/rules.md §1 and §2 step 4), so the engine sets it aside when the draw
  reaches it (docs/rules.md §5.1) and the outcome is the card drawn after it;
* the bonus cards of a take (golden joker, ``first_out_draws``; docs/rules.md §5.2, §7):
  a take that earns them is followed by one chance node per bonus card, then applied.

Observation and information-state tensors are ``envs.encoding.encode`` (185 numbers);
the observation string is the ``coloretto-observation/1`` JSON of the seat, the
information-state string the seat's whole history (every decision and chance outcome is
public, except a later game's deal until that game begins), so it has perfect recall. The
information-state tensor is the observation tensor (no history). Parameters: ``players``
(2 to 5), every other option of docs/rules.md §7 (``extra_card`` ``"none"`` for null,
``row_capacities`` as ``"3/3/2/4"``, or ``""`` for the standard rows) and ``reward``
(``"margin"`` or ``"win"``, ``envs.common``).

Requires the ``rl`` extra (OpenSpiel).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, Final

import numpy as np

from .._optional import require
from ..engine.actions import CHOOSE0, DRAW, NUM_DISTINCT_ACTIONS, TAKE0, decode
from ..engine.cards import CARD_NAMES, COLLECTION_SIZE, COLORS, LAST_ROUND, NUM_COLORS
from ..engine.errors import ConfigurationError
from ..engine.observation import observe
from ..engine.rules import MAX_PLAYERS, MIN_PLAYERS, Rules, game_info
from ..engine.setup import Setup
from ..engine.state import GameState
from .common import RewardName, check_reward, final_rewards, reward_bounds
from .encoding import DECK_SIZE, FEATURES, OBSERVATION_SIZE, encode

pyspiel = require("pyspiel", "rl", "the OpenSpiel game")

SHORT_NAME: Final = "python_coloretto"
"""The name the game is registered under."""

PARAMETERS: Final[dict[str, Any]] = {
    "players": 4,
    "edition": "classic",
    "table": "brown",
    "starting_cards": "random",
    "next_round_starter": "last_taker",
    "joker_any_color": True,
    "match_games": 1,
    "extra_card": "none",
    "row_capacities": "",
    "reward": "margin",
}
"""The game parameters and their defaults (OpenSpiel takes a parameter's type from its
default: ``extra_card`` ``"none"`` stands for null, ``row_capacities`` joins the
capacities with ``/``, e.g. ``"3/3/2/4"``, since a comma would end the parameter in
OpenSpiel's game strings)."""

MAX_CHANCE_OUTCOMES: Final = max(COLLECTION_SIZE, NUM_COLORS, MAX_PLAYERS)
"""Chance outcome ids: card codes 0..9 (draws, bonus cards), colours 0..6 (removed colours,
starting cards), seats 0..4 (first player)."""

_REMOVE, _FIRST, _START = "remove", "first", "start"


def rules_from_parameters(params: dict[str, Any]) -> tuple[Rules, RewardName]:
    """The ``Rules`` and reward named by OpenSpiel game parameters (``PARAMETERS``).

    Raises:
        ConfigurationError: an unknown parameter or a bad value (the message names it).
    """
    unknown = sorted(set(params) - set(PARAMETERS))
    if unknown:
        raise ConfigurationError(
            f"unknown parameter(s) {', '.join(unknown)}; known: {', '.join(PARAMETERS)}"
        )
    p = {**PARAMETERS, **params}
    reward = check_reward(p.pop("reward"))
    extra = p.pop("extra_card")
    caps_text = str(p.pop("row_capacities")).strip()
    parts = caps_text.split("/") if caps_text else []
    if not all(part.isdigit() for part in parts):
        raise ConfigurationError(
            f"row_capacities must be capacities joined by '/' (e.g. '3/3/2/4'), not {caps_text!r}"
        )
    caps = tuple(int(c) for c in parts) if parts else None
    rules = Rules.from_dict(
        {**p, "extra_card": None if extra == "none" else extra, "row_capacities": caps}
    )
    return rules, reward


_GAME_TYPE: Final = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Coloretto",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETERS,
)


class ColorettoGame(pyspiel.Game):  # type: ignore[misc,name-defined]
    """The game under the rules its parameters name (module docstring).

    Raises:
        ConfigurationError: a bad parameter.
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.rules, self.reward = rules_from_parameters(dict(params or {}))
        low, high = reward_bounds(self.rules, self.reward)
        games = self.rules.match_games
        deal_nodes = (
            self.rules.colors_removed + 1 + self.rules.players * self.rules.starting_cards_each
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_DISTINCT_ACTIONS,
            max_chance_outcomes=MAX_CHANCE_OUTCOMES,
            num_players=self.rules.players,
            min_utility=low,
            max_utility=high,
            max_game_length=game_info(self.rules).max_game_length
            + games * (DECK_SIZE + deal_nodes),
        )
        super().__init__(_GAME_TYPE, info, {**PARAMETERS, **(params or {})})

    def new_initial_state(self) -> ColorettoState:
        """The state before the deal (a chance node)."""
        return ColorettoState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ColorettoObserver:
        """The observer of observations (``perfect_recall`` false) or information states."""
        return ColorettoObserver(iig_obs_type, params)


class ColorettoState(pyspiel.State):  # type: ignore[misc,name-defined]
    """One history of the game: the deal so far, then an engine ``GameState`` (``engine``)
    with, between a draw or bonus-earning take and its chance outcomes, that decision
    pending."""

    def __init__(self, game: ColorettoGame) -> None:
        super().__init__(game)
        self._p = _Progress(game.rules, game.reward)

    @property
    def engine(self) -> GameState | None:
        """The engine's state once the deal is complete, else ``None``."""
        return self._p.engine

    # ----- the OpenSpiel API ---------------------------------------------------------------
    def current_player(self) -> int:
        """The seat to decide, ``CHANCE`` or ``TERMINAL``."""
        st = self.engine
        if st is None or self._p.pending >= 0:
            return int(pyspiel.PlayerId.CHANCE)
        if st.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        return st.to_move

    def _legal_actions(self, player: int) -> list[int]:
        assert self.engine is not None and player == self.engine.to_move
        return self.engine.legal_codes()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(outcome, probability)`` pairs of this chance node (module docstring)."""
        st = self.engine
        if st is None:
            g, kind = self._p.deal[0]
            if kind == _REMOVE:
                options = [c for c in range(NUM_COLORS) if c not in self._p.removed[g]]
            elif kind == _FIRST:
                options = list(range(self._p.rules.players))
            else:
                options = [
                    c
                    for c in range(NUM_COLORS)
                    if c not in self._p.removed[g] and c not in self._p.picks[g]
                ]
            return [(o, 1.0 / len(options)) for o in options]
        unseen = Counter(c for c in st.pile if c != LAST_ROUND)
        unseen.subtract(self._p.outcomes)
        total = sum(unseen.values())
        return [(c, k / total) for c, k in sorted(unseen.items()) if k > 0]

    def _apply_action(self, action: int) -> None:
        if self.current_player() == pyspiel.PlayerId.CHANCE:
            if action not in [o for o, _ in self.chance_outcomes()]:
                raise ValueError(f"{action} is not an outcome of this chance node")
            self._chance(int(action))
            return
        st = self.engine
        assert st is not None
        code = int(action)
        seat = st.to_move
        if code not in st.legal_codes():
            st.apply(code)  # raises the engine's IllegalActionError and changes nothing
        # A draw, and a take that earns bonus cards, wait for their cards' chance nodes.
        bonus = len(st.copy().apply(code).bonus) if TAKE0 <= code < CHOOSE0 else 0
        if code == DRAW:
            self._pend(code, 1)
        elif bonus:
            self._pend(code, bonus)
        else:
            st.apply(code)
        self._p.log.append((0, f"{seat}:{code}"))

    def _action_to_string(self, player: int, action: int) -> str:
        if player != pyspiel.PlayerId.CHANCE:
            return str(decode(int(action)))
        if self.engine is None:
            kind = self._p.deal[0][1] if self._p.deal else _START
            if kind == _REMOVE:
                return f"remove {COLORS[action]}"
            if kind == _FIRST:
                return f"first player seat {action + 1}"
            return f"starting card {COLORS[action]}"
        return f"reveal {CARD_NAMES[action]}"

    def is_terminal(self) -> bool:
        """True when the game (every game of a match) is over."""
        return self.engine is not None and self._p.pending < 0 and self.engine.is_over()

    def returns(self) -> list[float]:
        """Each seat's reward (``envs.common``) at the end, zeros before."""
        if not self.is_terminal():
            return [0.0] * self._p.rules.players
        assert self.engine is not None
        return final_rewards(self.engine, self._p.reward)

    def __str__(self) -> str:
        """The whole state (debugging; the draw pile's order is that of an arbitrary
        arrangement of its cards, since every draw is a chance node)."""
        if self.engine is None:
            return f"dealing: {self._p.log}"
        return json.dumps(self.engine.to_dict(), sort_keys=True)

    # ----- inside -------------------------------------------------------------------------
    def _pend(self, code: int, cards: int) -> None:
        self._p.pending = code
        self._p.needed = cards
        self._p.outcomes = []

    def _chance(self, outcome: int) -> None:
        st = self.engine
        if st is None:
            g, kind = self._p.deal.pop(0)
            self._p.log.append((g, f"{kind}:{outcome}"))
            if kind == _REMOVE:
                self._p.removed[g].append(outcome)
            elif kind == _FIRST:
                self._p.first[g] = outcome
            else:
                self._p.picks[g].append(outcome)
            if not self._p.deal:
                self._start()
            return
        self._p.log.append((0, f"card:{outcome}"))
        self._p.outcomes.append(outcome)
        if len(self._p.outcomes) < self._p.needed:
            return
        self._arrange(self._p.outcomes)
        code, self._p.pending = self._p.pending, -1
        st.apply(code)

    def _start(self) -> None:
        """Build the engine's game from the dealt choices (its checks apply)."""
        rules = self._p.rules
        each = rules.starting_cards_each
        setups: list[Setup | None] = []
        for g in range(rules.match_games):
            starting = None
            if rules.starting_cards == "random":
                picks = self._p.picks[g]
                starting = tuple(
                    tuple(sorted(picks[s * each : (s + 1) * each])) for s in range(rules.players)
                )
            # The order of the pile is irrelevant: each draw's card is a chance outcome.
            setups.append(
                Setup(tuple(sorted(self._p.removed[g])), starting, self._p.first[g], None, 0)
            )
        self._p.engine = GameState(rules, setups)

    def _arrange(self, cards: list[int]) -> None:
        """Put ``cards`` (in draw order) on top of the engine's draw pile, the Last Round card
        kept at its depth, so that the engine's next draws reveal them."""
        st = self.engine
        assert st is not None
        pile = st.pile
        depth = pile.index(LAST_ROUND) if LAST_ROUND in pile else -1
        rest = Counter(c for c in pile if c != LAST_ROUND)
        rest.subtract(cards)
        order = sorted(rest.elements()) + cards[::-1]
        if depth >= 0:
            order.insert(depth, LAST_ROUND)
        st.pile = order

    def visible_history(self) -> list[str]:
        """The history as every seat knows it: later games' deals left out until they
        begin."""
        now = self.engine.game if self.engine is not None else 0
        return [token for g, token in self._p.log if g <= now]


class _Progress:
    """The Python side of a ``ColorettoState``, in one object whose deep copy (what
    OpenSpiel's ``clone`` makes of each attribute) is the engine's cheap ``copy``."""

    __slots__ = (
        "deal",
        "engine",
        "first",
        "log",
        "needed",
        "outcomes",
        "pending",
        "picks",
        "removed",
        "reward",
        "rules",
    )

    def __init__(self, rules: Rules, reward: RewardName) -> None:
        self.rules = rules
        self.reward = reward
        self.deal: list[tuple[int, str]] = []
        for g in range(rules.match_games):
            self.deal += [(g, _REMOVE)] * rules.colors_removed + [(g, _FIRST)]
            if rules.starting_cards == "random":
                self.deal += [(g, _START)] * (rules.players * rules.starting_cards_each)
        self.removed: list[list[int]] = [[] for _ in range(rules.match_games)]
        self.first = [0] * rules.match_games
        self.picks: list[list[int]] = [[] for _ in range(rules.match_games)]
        self.engine: GameState | None = None
        self.pending = -1
        self.needed = 0
        self.outcomes: list[int] = []
        self.log: list[tuple[int, str]] = []

    def __deepcopy__(self, memo: dict[int, Any]) -> _Progress:
        new = _Progress.__new__(_Progress)
        new.rules = self.rules
        new.reward = self.reward
        new.deal = self.deal[:]
        new.removed = [r[:] for r in self.removed]
        new.first = self.first[:]
        new.picks = [p[:] for p in self.picks]
        new.engine = None if self.engine is None else self.engine.copy()
        new.pending = self.pending
        new.needed = self.needed
        new.outcomes = self.outcomes[:]
        new.log = self.log[:]
        return new


class ColorettoObserver:
    """OpenSpiel's Python observer: ``tensor`` (``envs.encoding``, 185 numbers) with a named
    view per feature in ``dict``; ``string_from`` gives the observation JSON or, for
    information states, the seat's history."""

    def __init__(self, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self.tensor = np.zeros(OBSERVATION_SIZE, np.float32)
        self.dict = {f.name: self.tensor[f.start : f.stop] for f in FEATURES}

    def set_from(self, state: ColorettoState, player: int) -> None:
        """Fill ``tensor`` with ``state`` seen from ``player`` (zeros during the deal)."""
        if state.engine is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = encode(observe(state.engine, player))

    def string_from(self, state: ColorettoState, player: int) -> str:
        """The observation JSON of ``player`` or its history (information state)."""
        if self.perfect_recall:
            return f"p{player} " + " ".join(state.visible_history())
        if state.engine is None:
            return f"p{player} dealing"
        return json.dumps(
            observe(state.engine, player).to_json(), sort_keys=True, separators=(",", ":")
        )


pyspiel.register_game(_GAME_TYPE, ColorettoGame)
