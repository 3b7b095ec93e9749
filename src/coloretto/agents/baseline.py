"""Baseline computer players: ``random`` and ``greedy``."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..engine.actions import Action
from ..engine.observation import Observation
from ..engine.state import GameState
from .base import Agent


class RandomAgent(Agent):
    """Uniform over the legal actions."""

    name = "random"

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]


def row_gain(state: GameState, seat: int, cards: Sequence[int]) -> int:
    """Change of ``seat``'s optimal score if it added ``cards`` (card codes) to its collection
    now (docs/rules.md §6). Golden joker bonus cards are not counted (they are unknown)."""
    from ..engine.scoring import collection_total

    coll = state.coll[seat][:]
    before = collection_total(coll, state.rules, state.in_play)
    for c in cards:
        coll[c] += 1
    return collection_total(coll, state.rules, state.in_play) - before


class GreedyAgent(Agent):
    """Best immediate change of its own optimal score.

    On a turn: takes the row with the largest gain if that gain is positive (or if drawing is
    illegal), otherwise draws. Placing: puts the card in the row where it adds the most to
    that row's gain for this seat. Ties are broken at random.
    """

    name = "greedy"

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        st = observation.state
        seat = observation.seat
        if len(legal) == 1:
            return legal[0]
        if st.decision == "place":
            card = st.drawn
            return self._best(
                legal,
                lambda a: row_gain(st, seat, st.rows[a.arg] + [card]) - row_gain(st, seat, st.rows[a.arg]),
            )
        if st.decision == "turn":
            takes = [a for a in legal if a.kind == "take"]
            draw = [a for a in legal if a.kind == "draw"]
            if takes:
                best = self._best(takes, lambda a: row_gain(st, seat, st.rows[a.arg]))
                if not draw or row_gain(st, seat, st.rows[best.arg]) > 0:
                    return best
            return draw[0]
        return legal[self.rng.randrange(len(legal))]

    def _best(self, legal: Sequence[Action], value: Callable[[Action], int]) -> Action:
        scored = [(value(a), a) for a in legal]
        top = max(v for v, _ in scored)
        choices = [a for v, a in scored if v == top]
        return choices[self.rng.randrange(len(choices))]
