"""The Coloretto engine: pure rules, state, scoring, observations and records.

No I/O, no clock, no global randomness: a seed or a given draw pile in, a deterministic
game out. Typical use::

    from coloretto.engine import Rules, new_game
    state = new_game(Rules(players=4), seed=1)
    while not state.is_over():
        state.apply(state.legal_actions()[0])
    print(state.totals(), state.winners())
"""

from .actions import ALL_ACTIONS, NUM_DISTINCT_ACTIONS, Action, decode, encode
from .cards import CARD_NAMES, COLORS, GOLDEN_JOKER, JOKER, LAST_ROUND, PLUS2, card_code, card_name
from .errors import ColorettoError, ConfigurationError, IllegalActionError, InvalidRecordError
from .observation import OBSERVATION_FORMAT, Observation, observe
from .perft import perft
from .record import RECORD_FORMAT, Game, ReplayResult, load_game, replay
from .rules import PRESETS, GameInfo, Rules, game_info, preset
from .scoring import ScoreBreakdown, optimal_score, optimal_total
from .setup import Setup, deal
from .state import CHOOSE, OVER, PLACE, TURN, GameState, hash_seed, new_game

__all__ = [
    "ALL_ACTIONS",
    "CARD_NAMES",
    "CHOOSE",
    "COLORS",
    "GOLDEN_JOKER",
    "JOKER",
    "LAST_ROUND",
    "NUM_DISTINCT_ACTIONS",
    "OBSERVATION_FORMAT",
    "OVER",
    "PLACE",
    "PLUS2",
    "PRESETS",
    "RECORD_FORMAT",
    "TURN",
    "Action",
    "ColorettoError",
    "ConfigurationError",
    "Game",
    "GameInfo",
    "GameState",
    "IllegalActionError",
    "InvalidRecordError",
    "Observation",
    "ReplayResult",
    "Rules",
    "ScoreBreakdown",
    "Setup",
    "card_code",
    "card_name",
    "deal",
    "decode",
    "encode",
    "game_info",
    "hash_seed",
    "load_game",
    "new_game",
    "observe",
    "optimal_score",
    "optimal_total",
    "perft",
    "preset",
    "replay",
]
