"""The typed words of the game: phases, decisions, action kinds and rule option values.

Every closed set of words the engine uses is defined here once, as an ``IntEnum`` (phases,
stored in states and compared in hot loops) or a ``Literal`` type alias (words that appear
in JSON, records and ``Rules``). The tuples of allowed values (``EDITIONS``, ``KINDS``...)
are derived from the aliases, so a value is never listed twice.

>>> Phase.PLACE.decision
'place'
>>> Phase.from_decision("choose_start")
<Phase.CHOOSE: 2>
>>> EDITIONS
('classic', 'modern')
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final, Literal, TypeAlias, get_args

Decision: TypeAlias = Literal["turn", "place", "choose_start", "over"]
"""The decision a state asks for (``GameState.decision``, the observation's ``decision``)."""

ActionKind: TypeAlias = Literal["draw", "place", "take", "choose_start"]
"""The kind of an ``Action`` (docs/engine-protocol.md actions)."""

Edition: TypeAlias = Literal["classic", "modern"]
"""``Rules.edition``: classic (3 jokers) or modern (2 jokers and the golden joker), rules.md §1."""

ScoreTableName: TypeAlias = Literal["brown", "violet"]
"""``Rules.table``: the standard (brown) or the alternate (violet) score table, rules.md §6."""

StartingCards: TypeAlias = Literal["random", "choose"]
"""``Rules.starting_cards``: dealt at random or chosen in turn order, rules.md §2, §7."""

NextRoundStarter: TypeAlias = Literal["last_taker", "left_of_last_taker"]
"""``Rules.next_round_starter``, rules.md §4 and §7."""

ExtraCard: TypeAlias = Literal["single_three", "triple_three", "first_out_draws", "triple_minus"]
"""``Rules.extra_card`` (``None`` for none): one of the four Extrakarten cards, rules.md §7."""

Shuffler: TypeAlias = Literal["coloretto-rng/1", "python-random"]
"""How a chosen-start draw pile is shuffled from ``Setup.shuffle_seed``: ``"coloretto-rng/1"``
(``engine.seeds.Rng``, what the engine deals) or ``"python-random"`` (Python's Mersenne
Twister, read from records that name no shuffler; docs/record-format.md)."""

DECISIONS: Final[tuple[Decision, ...]] = get_args(Decision)
KINDS: Final[tuple[ActionKind, ...]] = get_args(ActionKind)
EDITIONS: Final[tuple[Edition, ...]] = get_args(Edition)
TABLES: Final[tuple[ScoreTableName, ...]] = get_args(ScoreTableName)
STARTING_CARDS: Final[tuple[StartingCards, ...]] = get_args(StartingCards)
NEXT_ROUND_STARTERS: Final[tuple[NextRoundStarter, ...]] = get_args(NextRoundStarter)
EXTRA_CARDS: Final[tuple[ExtraCard | None, ...]] = (None, *get_args(ExtraCard))
"""``None`` (no extra card) first, then the four cards."""
SHUFFLERS: Final[tuple[Shuffler, ...]] = get_args(Shuffler)


class Phase(IntEnum):
    """The phase of a state: which decision is asked for, or the end.

    The integer values are stable (the fast core stores them in its arrays).
    """

    TURN = 0
    """Decision: draw a card or take a row (rules.md §3)."""
    PLACE = 1
    """Decision: choose the row for the drawn card (rules.md §3)."""
    CHOOSE = 2
    """Decision: choose a starting colour (``starting_cards="choose"``, rules.md §2)."""
    OVER = 3
    """The game (every game of a match) is over (rules.md §5)."""

    @property
    def decision(self) -> Decision:
        """The decision word of this phase (``"turn"``, ``"place"``, ``"choose_start"``,
        ``"over"``)."""
        return DECISIONS[self]

    @classmethod
    def from_decision(cls, word: str) -> Phase:
        """The phase asking for decision ``word``.

        Raises:
            ValueError: ``word`` is not one of ``DECISIONS``.
        """
        if word not in DECISIONS:
            raise ValueError(f"unknown decision {word!r}; expected one of {', '.join(DECISIONS)}")
        return cls(DECISIONS.index(word))


__all__ = [
    "DECISIONS",
    "EDITIONS",
    "EXTRA_CARDS",
    "KINDS",
    "NEXT_ROUND_STARTERS",
    "SHUFFLERS",
    "STARTING_CARDS",
    "TABLES",
    "ActionKind",
    "Decision",
    "Edition",
    "ExtraCard",
    "NextRoundStarter",
    "Phase",
    "ScoreTableName",
    "Shuffler",
    "StartingCards",
]
