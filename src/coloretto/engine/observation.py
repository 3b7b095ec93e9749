"""The one observer: what a seat may know (docs/engine-protocol.md
``coloretto-observation/1``).

The only secret in Coloretto is the order of the draw pile (which also hides which cards lie
under the Last Round card) and the deals of later games of a match. An ``Observation`` holds
a *redacted* copy of the state: the draw pile's cards sorted (the Last Round card kept at its
depth), later setups removed. Everything sent to an agent, a web client or a log is built
from it; search code may sample full states consistent with it (``sample_state``).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from .cards import CARD_NAMES, COLORS, GOLDEN_JOKER, JOKER, LAST_ROUND, NUM_COLORS, PLUS2
from .setup import Setup, deal, pile_composition
from .state import CHOOSE, NO_CARD, UNTAKEN, GameState

OBSERVATION_FORMAT = "coloretto-observation/1"


def redact(state: GameState) -> GameState:
    """A copy of ``state`` without its secrets: draw pile cards in a canonical order with the
    Last Round card at the same depth, the current setup's pile order and shuffle seed and
    every later game's setup removed. Two states that differ only in those secrets redact to
    equal states."""
    red = state.copy()
    pile = red.pile
    if state.last_round or LAST_ROUND not in pile:
        red.pile = sorted(pile)
    else:
        depth = pile.index(LAST_ROUND)
        rest = sorted(c for c in pile if c != LAST_ROUND)
        red.pile = rest[:depth] + [LAST_ROUND] + rest[depth:]
    setups: list[Setup | None] = [None] * len(state.setups)
    current = state.setups[state.game]
    if current is not None:
        setups[state.game] = _public_setup(current)
    for g in range(state.game):
        setups[g] = state.setups[g]
    red.setups = setups
    return red


_PUBLIC_SETUPS: dict[int, tuple[Setup, Setup]] = {}
_PUBLIC_SETUPS_MAX = 4096


def _public_setup(setup: Setup) -> Setup:
    """``setup`` without its draw pile and shuffle seed (memoised: redaction is on the hot
    path of every agent decision). The cache holds the setup itself, so its id stays unique
    while cached."""
    hit = _PUBLIC_SETUPS.get(id(setup))
    if hit is not None and hit[0] is setup:
        return hit[1]
    if len(_PUBLIC_SETUPS) >= _PUBLIC_SETUPS_MAX:
        _PUBLIC_SETUPS.clear()
    public = replace(setup, draw_pile=None, shuffle_seed=None)
    _PUBLIC_SETUPS[id(setup)] = (setup, public)
    return public


class Observation:
    """What ``seat`` may know of a state.

    Attributes:
        seat: the observing seat.
        state: the redacted state (see ``redact``); safe to read, copy and search from.
    """

    __slots__ = ("_json", "seat", "state")

    def __init__(self, state: GameState, seat: int) -> None:
        """Observe ``state`` from ``seat`` (0..players-1).

        Raises:
            ValueError: ``seat`` is not a seat of the game.
        """
        if not 0 <= seat < state.n:
            raise ValueError(f"seat {seat} is not a seat of a {state.n}-player game")
        self.seat = seat
        self.state = redact(state)
        self._json: dict[str, Any] | None = None

    # Convenience views of the redacted state -------------------------------------------------
    @property
    def to_move(self) -> int:
        """Seat to decide now, or -1 when over."""
        return self.state.to_move

    @property
    def decision(self) -> str:
        """``"turn"``, ``"place"``, ``"choose_start"`` or ``"over"``."""
        return self.state.decision

    def unseen(self) -> dict[int, int]:
        """Composition of the cards not yet seen (the draw pile's content; in the choosing
        phase, what the choices leave): card code -> count, Last Round card excluded."""
        st = self.state
        if st.phase == CHOOSE:
            setup = st.setups[st.game]
            removed = setup.removed_colors if setup is not None else ()
            comp = pile_composition(st.rules, removed, [st.chosen])
            return dict(sorted(comp.items()))
        counts: dict[int, int] = {}
        for c in st.pile:
            if c != LAST_ROUND:
                counts[c] = counts.get(c, 0) + 1
        return dict(sorted(counts.items()))

    def sample_state(self, rng: random.Random) -> GameState:
        """A full state consistent with this observation: the unseen cards shuffled with the
        Last Round card at its known depth; later games of a match dealt afresh. Search uses
        it to handle chance without reading the real order."""
        st = self.state.copy()
        pile = st.pile
        if LAST_ROUND in pile:
            depth = pile.index(LAST_ROUND)
            rest = [c for c in pile if c != LAST_ROUND]
            rng.shuffle(rest)
            st.pile = rest[:depth] + [LAST_ROUND] + rest[depth:]
        else:
            rng.shuffle(pile)
        setups = list(st.setups)
        current = setups[st.game]
        if current is not None and st.phase == CHOOSE:
            setups[st.game] = replace(current, shuffle_seed=rng.randrange(2**63))
        for g in range(st.game + 1, len(setups)):
            setups[g] = deal(st.rules, rng.randrange(2**63))
        st.setups = setups
        return st

    def to_json(self) -> dict[str, Any]:
        """The ``coloretto-observation/1`` JSON object (docs/engine-protocol.md), cached."""
        if self._json is None:
            self._json = observation_json(self.state, self.seat, self.unseen())
        return self._json


def observation_json(state: GameState, seat: int, unseen: dict[int, int]) -> dict[str, Any]:
    """Build the JSON form; ``state`` must already be redacted (see ``Observation``)."""
    in_play = state.in_play
    collections = []
    for col in state.coll:
        collections.append(
            {
                "colors": {COLORS[c]: col[c] for c in range(NUM_COLORS) if col[c]},
                "jokers": col[JOKER],
                "golden_jokers": col[GOLDEN_JOKER],
                "plus2": col[PLUS2],
            }
        )
    setup = state.setups[state.game]
    return {
        "format": OBSERVATION_FORMAT,
        "rules": state.rules.to_dict(),
        "seat": seat,
        "to_move": state.to_move,
        "decision": state.decision,
        "drawn_card": CARD_NAMES[state.drawn] if state.drawn != NO_CARD else None,
        "round": state.round,
        "draw_pile": state.cards_left(),
        "last_round": state.last_round,
        "colors": [COLORS[c] for c in in_play],
        "rows": [
            {
                "capacity": state.caps[r],
                "cards": [CARD_NAMES[c] for c in state.rows[r]],
                "taken_by": None if state.row_taker[r] == UNTAKEN else state.row_taker[r],
            }
            for r in range(state.nrows)
        ],
        "out": state.out[:],
        "collections": collections,
        "scores": state.scores(),
        "unseen": {CARD_NAMES[c]: k for c, k in unseen.items()},
        "game": state.game + 1,
        "match_totals": state.match_totals[:],
        "removed_colors": [COLORS[c] for c in (setup.removed_colors if setup else ())],
        "first_player": setup.first_player if setup else None,
        "chosen_start": [COLORS[c] for c in state.chosen],
    }


def observe(state: GameState, seat: int) -> Observation:
    """The observation of ``state`` by ``seat`` (see ``Observation``)."""
    return Observation(state, seat)
