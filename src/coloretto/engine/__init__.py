"""The Coloretto engine: pure rules, state, scoring, observations and records.

No clock and no global randomness: a seed or a given draw pile in, a deterministic game out.
Every random choice goes through ``engine.seeds`` (``derive_seed``, ``Rng``). The one I/O
exception is ``engine.record``: ``load_record`` / ``read_record`` read record files and
``save_record`` / ``save_records`` write them (atomically), so records are read and written
in one place.

Typical use::

    from coloretto.engine import Rules, new_game
    state = new_game(Rules(players=4), seed=1)
    while not state.is_over():
        step = state.apply(state.legal_actions()[0])   # a Step: what the action did
    print(state.totals(), state.winners())

>>> from coloretto.engine import Rules, new_game
>>> state = new_game(Rules(players=4), seed=1)
>>> while not state.is_over():
...     step = state.apply(state.legal_actions()[-1])
>>> step.match_over, len(state.results), state.totals() == list(state.results[0].scores)
(True, 1, True)
"""

from .actions import ALL_ACTIONS, NUM_DISTINCT_ACTIONS, Action, decode, encode
from .cards import CARD_NAMES, COLORS, GOLDEN_JOKER, JOKER, LAST_ROUND, PLUS2, card_code, card_name
from .domain import (
    ActionKind,
    Decision,
    Edition,
    ExtraCard,
    NextRoundStarter,
    Phase,
    ScoreTableName,
    StartingCards,
)
from .errors import (
    ColorettoError,
    ConfigurationError,
    IllegalActionError,
    InvalidObservationError,
    InvalidRecordError,
    UnreadableRecordError,
)
from .observation import OBSERVATION_FORMAT, Observation, observe
from .perft import perft
from .policy import greedy_code
from .record import (
    RECORD_FORMAT,
    Game,
    ReplayResult,
    dumps_record,
    load_game,
    load_record,
    load_record_json,
    read_record,
    replay,
    save_record,
    save_records,
)
from .rules import PRESETS, GameInfo, Rules, game_info, preset
from .scoring import ScoreBreakdown, optimal_score, optimal_total
from .seeds import Rng, derive_seed
from .setup import Setup, deal
from .state import CHOOSE, OVER, PLACE, TURN, GameState, hash_seed, new_game
from .step import GameResult, Step

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
    "ActionKind",
    "ColorettoError",
    "ConfigurationError",
    "Decision",
    "Edition",
    "ExtraCard",
    "Game",
    "GameInfo",
    "GameResult",
    "GameState",
    "IllegalActionError",
    "InvalidObservationError",
    "InvalidRecordError",
    "NextRoundStarter",
    "Observation",
    "Phase",
    "ReplayResult",
    "Rng",
    "Rules",
    "ScoreBreakdown",
    "ScoreTableName",
    "Setup",
    "StartingCards",
    "Step",
    "UnreadableRecordError",
    "card_code",
    "card_name",
    "deal",
    "decode",
    "derive_seed",
    "dumps_record",
    "encode",
    "game_info",
    "greedy_code",
    "hash_seed",
    "load_game",
    "load_record",
    "load_record_json",
    "new_game",
    "observe",
    "optimal_score",
    "optimal_total",
    "perft",
    "preset",
    "read_record",
    "replay",
    "save_record",
    "save_records",
]
