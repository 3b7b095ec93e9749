"""What an action did: ``Step`` (returned by ``GameState.apply``) and ``GameResult`` (kept
in ``GameState.results`` for every finished game).

A ``Step`` is the log entry of one transition, chance outcomes included (the card a draw
revealed, the bonus cards of a golden joker or ``first_out_draws``, the Last Round card
coming up): records, screens and logs are built from Steps, never by comparing states.
Card values are card codes (``engine.cards``); ``to_json`` gives card names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .actions import Action
from .cards import CARD_NAMES, COLLECTION_SIZE
from .rules import Rules
from .scoring import ScoreBreakdown, score_collection


@dataclass(frozen=True, slots=True)
class Step:
    """One action and everything it caused (docs/rules.md §3 to §5).

    Attributes:
        seat: the seat that acted (0-based).
        action: the action (``Action``).
        game: 0-based index, in the match, of the game the action was made in.
        round: 1-based round of that game the action was made in.
        drawn: for a draw, the card code the draw pile revealed and the seat now holds
            (after the Last Round card, if that came up first); else ``None``.
        placed: for a placement, the card code put into the row; else ``None``.
        taken: for a take, the card codes of the row taken into the collection, in row
            order; else ``()``.
        bonus: card codes moved from the top of the draw pile into the taker's collection
            by this take: the golden joker's card first, then ``first_out_draws``'s
            (docs/rules.md §5.2, §7); ``()`` if none (or the pile was empty).
        last_round_revealed: the Last Round card came up during this action (on a draw,
            or under a bonus card; docs/rules.md §5.1, §5.2).
        left: seats that left the round taking nothing because of this action (an empty
            draw pile and only empty rows left for them; docs/rules.md §5.3), in order.
        removed: card codes removed from the game at the end of the round this action
            ended (the cards of rows nobody took, e.g. the 2-player third row), in row
            order; ``()`` if the action ended no round.
        round_over: this action ended a round (docs/rules.md §4).
        game_over: this action ended a game (docs/rules.md §5.1); its result is
            ``GameState.results[step.game]``. In a match the next game is already dealt.
        match_over: this action ended the last game: the state is over.
    """

    seat: int
    action: Action
    game: int
    round: int
    drawn: int | None = None
    placed: int | None = None
    taken: tuple[int, ...] = ()
    bonus: tuple[int, ...] = ()
    last_round_revealed: bool = False
    left: tuple[int, ...] = ()
    removed: tuple[int, ...] = ()
    round_over: bool = False
    game_over: bool = False
    match_over: bool = False

    def to_json(self) -> dict[str, Any]:
        """JSON form: the fields above with card names instead of codes, ``action`` in its
        protocol form (docs/engine-protocol.md); ``game`` 0-based, ``round`` 1-based."""
        return {
            "seat": self.seat,
            "action": self.action.to_json(),
            "game": self.game,
            "round": self.round,
            "drawn": None if self.drawn is None else CARD_NAMES[self.drawn],
            "placed": None if self.placed is None else CARD_NAMES[self.placed],
            "taken": [CARD_NAMES[c] for c in self.taken],
            "bonus": [CARD_NAMES[c] for c in self.bonus],
            "last_round_revealed": self.last_round_revealed,
            "left": list(self.left),
            "removed": [CARD_NAMES[c] for c in self.removed],
            "round_over": self.round_over,
            "game_over": self.game_over,
            "match_over": self.match_over,
        }


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game of a match (or the only game): what every seat ended with.

    Attributes:
        game: 0-based index of the game in the match.
        collections: per seat, the final collection (10 counts by card code).
        colors_in_play: colour indices in play in that game.
        scores: per seat, the optimal score of that game (docs/rules.md §6).
    """

    game: int
    collections: tuple[tuple[int, ...], ...]
    colors_in_play: tuple[int, ...]
    scores: tuple[int, ...]

    @classmethod
    def of(
        cls,
        game: int,
        collections: Sequence[Sequence[int]],
        colors_in_play: tuple[int, ...],
        scores: Sequence[int],
    ) -> GameResult:
        """Build a result, copying the collections into tuples."""
        for col in collections:
            if len(col) != COLLECTION_SIZE:
                raise ValueError(f"a collection is {COLLECTION_SIZE} counts, not {len(col)}")
        return cls(game, tuple(map(tuple, collections)), colors_in_play, tuple(scores))

    def breakdown(self, seat: int, rules: Rules) -> ScoreBreakdown:
        """``seat``'s score of this game with its breakdown (docs/rules.md §6.4).

        Raises:
            IndexError: ``seat`` is not a seat of the game.
        """
        return score_collection(self.collections[seat], rules, self.colors_in_play)


__all__ = ["GameResult", "Step"]
