"""Position features shared by the computer players: what a row is worth to each seat.

The basic quantity is a seat's **row gain**: the change of its optimal score (docs/rules.md §6,
through the memoised ``optimal_total``) if it took a row now. ``RowGains`` computes it for
every seat and every untaken row of one state, and also for every row with one more card of
each kind still unseen (what drawing could bring), so a decision needs one batch of scorings.

Used by ``heuristic`` (its whole judgement), ``mcts`` (the rollout policy and priors) and the
advisor.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.cards import COLLECTION_SIZE, LAST_ROUND
from ..engine.scoring import collection_total_plus
from ..engine.state import UNTAKEN, GameState

__all__ = ["RowGains", "collection_value", "turn_order_after", "unseen_counts"]


def collection_value(state: GameState, seat: int, extra: Sequence[int] = ()) -> int:
    """Optimal score of ``seat``'s collection plus the card codes ``extra`` (docs/rules.md §6):
    the engine's ``scoring.collection_total_plus`` (jokers where the rules allow, the rules'
    table and negative factor)."""
    return collection_total_plus(state.coll[seat], extra, state.rules, state.in_play)


def unseen_counts(state: GameState) -> list[int]:
    """Counts (indexed by card code 0..9) of the cards in the draw pile, the Last Round card
    excluded. The composition is public (docs/rules.md §1); only the order is secret."""
    counts = [0] * COLLECTION_SIZE
    for c in state.pile:
        if c != LAST_ROUND:
            counts[c] += 1
    return counts


def turn_order_after(state: GameState, seat: int) -> list[int]:
    """Seats still in the round, in turn order, starting after ``seat`` (``seat`` excluded)."""
    n = state.n
    out = state.out
    return [s for s in ((seat + i) % n for i in range(1, n)) if not out[s]]


class RowGains:
    """Row gains of one state, computed once.

    Attributes:
        state: the state (not copied; do not change it while using this object).
        seats: the seats evaluated.
        open_rows: untaken rows (row indices), in table order.
        base: seat -> current optimal score.
        gain: seat -> {row: gain of taking that row now}.
        unseen: counts of unseen cards by code (see ``unseen_counts``).
        total_unseen: their sum.
        future: card codes added to every collection before scoring (``base`` and every
            gain are then taken against the collection plus these cards; the heuristic's
            expected intake under the violet table); empty by default.
    """

    __slots__ = (
        "_plus",
        "base",
        "bonus",
        "future",
        "gain",
        "open_rows",
        "seats",
        "state",
        "total_unseen",
        "unseen",
    )

    def __init__(self, state: GameState, seats: Sequence[int], future: Sequence[int] = ()) -> None:
        self.state = state
        self.seats = list(seats)
        self.future = list(future)
        self.open_rows = [r for r in range(state.nrows) if state.row_taker[r] == UNTAKEN]
        self.base = {s: collection_value(state, s, self.future) for s in self.seats}
        self.unseen = unseen_counts(state)
        self.total_unseen = sum(self.unseen)
        self._plus: dict[tuple[int, int, int], int] = {}
        # Expected value of one unseen card added to a collection: the golden joker's bonus
        # (docs/rules.md §5.2) and ``first_out_draws``; computed lazily per seat.
        self.bonus: dict[int, float] = {}
        rows = state.rows
        self.gain = {
            s: {
                r: (collection_value(state, s, rows[r] + self.future) - self.base[s])
                if rows[r]
                else 0
                for r in self.open_rows
            }
            for s in self.seats
        }

    def gain_plus(self, seat: int, row: int, card: int) -> int:
        """Gain for ``seat`` of taking ``row`` after ``card`` is added to it."""
        key = (seat, row, card)
        v = self._plus.get(key)
        if v is None:
            cards = self.state.rows[row] + [card] + self.future
            v = collection_value(self.state, seat, cards) - self.base[seat]
            self._plus[key] = v
        return v

    def card_bonus(self, seat: int) -> float:
        """Expected gain for ``seat`` of one more unseen card (bonus draws), in points."""
        v = self.bonus.get(seat)
        if v is None:
            tot = self.total_unseen
            if tot == 0:
                v = 0.0
            else:
                st = self.state
                v = (
                    sum(
                        k * (collection_value(st, seat, [c, *self.future]) - self.base[seat])
                        for c, k in enumerate(self.unseen)
                        if k
                    )
                    / tot
                )
            self.bonus[seat] = v
        return v
