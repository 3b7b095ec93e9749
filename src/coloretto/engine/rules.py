"""Rule options, presets and declarative game metadata (docs/rules.md §1, §2, §7).

``Rules`` is an immutable value holding every option of docs/rules.md §7 under its key there.
Derived constants a game needs (row capacities, jokers, cards under the Last Round card,
score table) are properties, so they are computed in one place.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from .cards import NUM_COLORS
from .domain import (
    EDITIONS,
    EXTRA_CARDS,
    NEXT_ROUND_STARTERS,
    STARTING_CARDS,
    TABLES,
    Edition,
    ExtraCard,
    NextRoundStarter,
    ScoreTableName,
    StartingCards,
)
from .errors import ConfigurationError
from .jsontypes import json_type

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 5
MAX_ROWS: Final = 6
"""Most rows a custom ``row_capacities`` may give (the action encoding reserves this many)."""
MAX_CAPACITY: Final = 6

BROWN_TABLE: Final = (0, 1, 3, 6, 10, 15, 21)
"""Points for 0..6 cards of one colour on the standard (brown) score table (docs/rules.md §6)."""
VIOLET_TABLE: Final = (0, 1, 4, 8, 7, 6, 5)
"""Points for 0..6 cards of one colour on the alternate (gray/violet) score table (docs/rules.md §6)."""


@dataclass(frozen=True)
class Rules:
    """Every option of docs/rules.md §7; a missing key takes its default.

    Attributes:
        players: 2 to 5.
        edition: ``"classic"`` (3 jokers, 15 cards under the Last Round card) or ``"modern"``
            (2 jokers and the golden joker, 16 under).
        table: score table, ``"brown"`` or ``"violet"``.
        starting_cards: ``"random"`` (dealt) or ``"choose"`` (chosen in turn order).
        next_round_starter: ``"last_taker"`` (the rule) or ``"left_of_last_taker"``.
        joker_any_color: a joker may take a colour its owner holds no card of.
        match_games: games in a match, 1 to 10; totals are added.
        extra_card: ``None`` or one of the four Extrakarten cards (``EXTRA_CARDS``).
        row_capacities: one capacity per row, or ``None`` for the standard rows.

    Raises:
        ConfigurationError: on construction, when a value is out of range (the message names
            the key and the allowed values).
    """

    players: int = 4
    edition: Edition = "classic"
    table: ScoreTableName = "brown"
    starting_cards: StartingCards = "random"
    next_round_starter: NextRoundStarter = "last_taker"
    joker_any_color: bool = True
    match_games: int = 1
    extra_card: ExtraCard | None = None
    row_capacities: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        def bad(key: str, allowed: str) -> ConfigurationError:
            value = getattr(self, key)
            return ConfigurationError(
                f"option {key!r} is {value!r}; allowed: {allowed}", key, value, allowed
            )

        if type(self.players) is not int or not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise bad("players", "an integer from 2 to 5")
        if self.edition not in EDITIONS:
            raise bad("edition", ", ".join(EDITIONS))
        if self.table not in TABLES:
            raise bad("table", ", ".join(TABLES))
        if self.starting_cards not in STARTING_CARDS:
            raise bad("starting_cards", ", ".join(STARTING_CARDS))
        if self.next_round_starter not in NEXT_ROUND_STARTERS:
            raise bad("next_round_starter", ", ".join(NEXT_ROUND_STARTERS))
        if type(self.joker_any_color) is not bool:
            raise bad("joker_any_color", "true or false")
        if type(self.match_games) is not int or not 1 <= self.match_games <= 10:
            raise bad("match_games", "an integer from 1 to 10")
        if self.extra_card not in EXTRA_CARDS:
            raise bad("extra_card", "null, " + ", ".join(str(e) for e in EXTRA_CARDS[1:]))
        if self.row_capacities is not None:
            caps = self.row_capacities
            if isinstance(caps, list):
                object.__setattr__(self, "row_capacities", tuple(caps))
                caps = self.row_capacities
            if (
                not isinstance(caps, tuple)
                or not all(type(c) is int and 1 <= c <= MAX_CAPACITY for c in caps)
                or not self.players <= len(caps) <= MAX_ROWS
            ):
                raise bad(
                    "row_capacities",
                    f"a list of {self.players} to {MAX_ROWS} capacities, each 1 to {MAX_CAPACITY}",
                )

    # ----- derived constants -------------------------------------------------------------
    @property
    def capacities(self) -> tuple[int, ...]:
        """Row capacities in table order (docs/rules.md §2 and the ``row_capacities`` option)."""
        if self.row_capacities is not None:
            return self.row_capacities
        return (1, 2, 3) if self.players == 2 else (3,) * self.players

    @property
    def num_rows(self) -> int:
        """Number of rows on the table."""
        return len(self.capacities)

    @property
    def colors_in_play(self) -> int:
        """How many colours are in play: 5 (2 players), 6 (3 players) or 7 (docs/rules.md §2)."""
        return {2: 5, 3: 6}.get(self.players, NUM_COLORS)

    @property
    def colors_removed(self) -> int:
        """How many colours are removed at setup (docs/rules.md §2)."""
        return NUM_COLORS - self.colors_in_play

    @property
    def starting_cards_each(self) -> int:
        """Starting colour cards per player: 2 with two players, otherwise 1 (docs/rules.md §2)."""
        return 2 if self.players == 2 else 1

    @property
    def jokers(self) -> int:
        """Regular jokers in the game: 3 classic, 2 modern (docs/rules.md §1)."""
        return 3 if self.edition == "classic" else 2

    @property
    def golden_jokers(self) -> int:
        """Golden jokers: 1 in the modern edition, 0 in the classic (docs/rules.md §1)."""
        return 1 if self.edition == "modern" else 0

    @property
    def cards_under_last_round(self) -> int:
        """K: cards under the Last Round card, 15 classic, 16 modern (docs/rules.md §1)."""
        return 15 if self.edition == "classic" else 16

    @property
    def score_table(self) -> tuple[int, ...]:
        """Points for 0..6 cards of one colour, with the Extrakarten scoring cards applied."""
        values = list(BROWN_TABLE if self.table == "brown" else VIOLET_TABLE)
        if self.extra_card == "single_three":
            values[1] = 3
        elif self.extra_card == "triple_three":
            values[3] = 2
        return tuple(values)

    @property
    def negative_factor(self) -> int:
        """Multiplier of negative colour values: 3 with ``triple_minus``, otherwise 1."""
        return 3 if self.extra_card == "triple_minus" else 1

    # ----- conversion ----------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Every option under its docs/rules.md §7 key (defaults filled in), JSON-ready."""
        d = dataclasses.asdict(self)
        if self.row_capacities is not None:
            d["row_capacities"] = list(self.row_capacities)
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Build rules from a §7 mapping; missing keys take their defaults.

        Raises:
            ConfigurationError: ``data`` is not a mapping, has an unknown key, or a bad value.
        """
        if not isinstance(data, Mapping):
            raise ConfigurationError(f"rules must be an object, not {json_type(data)}")
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ConfigurationError(
                f"unknown rule option(s) {', '.join(map(repr, unknown))}; known: {', '.join(sorted(known))}"
            )
        kwargs = dict(data)
        if isinstance(kwargs.get("row_capacities"), list):
            kwargs["row_capacities"] = tuple(kwargs["row_capacities"])
        return cls(**kwargs)

    def replace(self, **changes: Any) -> Rules:
        """A copy with ``changes`` applied (validated like the constructor)."""
        return dataclasses.replace(self, **changes)


PRESETS: Final[Mapping[str, Mapping[str, Any]]] = {
    "classic": {"edition": "classic"},
    "modern": {"edition": "modern"},
    "bga": {"edition": "classic", "starting_cards": "random"},
    "abacus2003": {"edition": "classic", "match_games": 4},
}
"""Presets of docs/rules.md §7 as option overrides."""

PRESET_PLAYERS: Final[Mapping[str, tuple[int, int]]] = {
    "classic": (2, 5),
    "modern": (2, 5),
    "bga": (3, 5),
    "abacus2003": (3, 5),
}
"""Player range of each preset (``bga`` and ``abacus2003`` are for 3 to 5 players)."""

PRESET_REMOVED_COLORS: Final[Mapping[str, tuple[str, ...]]] = {"bga": ("gray",)}
"""Colours a preset removes at 3 players (``bga`` removes gray); others remove at random."""


def preset(name: str, players: int = 4, **overrides: Any) -> Rules:
    """Rules of preset ``name`` for ``players`` players, with further option ``overrides``.

    Raises:
        ConfigurationError: unknown preset, player count outside the preset's range, or a bad
            override.
    """
    if name not in PRESETS:
        raise ConfigurationError(f"unknown preset {name!r}; known: {', '.join(PRESETS)}")
    low, high = PRESET_PLAYERS[name]
    if not isinstance(players, int) or not low <= players <= high:
        raise ConfigurationError(f"preset {name!r} is for {low} to {high} players, not {players!r}")
    return Rules.from_dict({**PRESETS[name], "players": players, **overrides})


@dataclass(frozen=True)
class GameInfo:
    """Declarative metadata of a game under given rules (after OpenSpiel's ``GameType``).

    Attributes:
        min_players, max_players: player range of the engine.
        num_distinct_actions: size of the integer action space (see ``actions``).
        max_game_length: an upper bound on decisions in one game (all games of a match).
        min_score, max_score: bounds of one seat's final total for one game.
    """

    min_players: int
    max_players: int
    num_distinct_actions: int
    max_game_length: int
    min_score: int
    max_score: int


def game_info(rules: Rules) -> GameInfo:
    """Metadata for ``rules`` (bounds are safe, not tight)."""
    from .actions import NUM_DISTINCT_ACTIONS

    total_cards = NUM_COLORS * 9 + 10 + 3 + 1
    # Each card is drawn once and placed once; each player takes at most one row per card.
    per_game = 2 * total_cards + total_cards * rules.players + 2 * rules.players
    table = rules.score_table
    best = max(table)
    max_score = 3 * best + 2 * 10
    min_score = -(rules.colors_in_play - 3) * best * rules.negative_factor
    return GameInfo(
        MIN_PLAYERS, MAX_PLAYERS, NUM_DISTINCT_ACTIONS, per_game * rules.match_games, min_score, max_score
    )


__all__ = [
    "BROWN_TABLE",
    "EDITIONS",
    "EXTRA_CARDS",
    "MAX_CAPACITY",
    "MAX_PLAYERS",
    "MAX_ROWS",
    "MIN_PLAYERS",
    "NEXT_ROUND_STARTERS",
    "PRESETS",
    "PRESET_PLAYERS",
    "PRESET_REMOVED_COLORS",
    "STARTING_CARDS",
    "TABLES",
    "VIOLET_TABLE",
    "GameInfo",
    "Rules",
    "game_info",
    "preset",
]
