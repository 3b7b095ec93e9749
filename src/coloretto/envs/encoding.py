"""The one observation encoding of every environment (docs/rl.md, "Observation").

``encode(obs)`` turns an ``Observation`` (``engine.observation``: what one seat may know)
into a flat ``float32`` vector of ``OBSERVATION_SIZE`` numbers, the same size under every
rules option: seats are padded to ``MAX_PLAYERS`` (5) and rows to the engine's ``MAX_ROWS``
(6, the rows the action codes reserve), absent ones all zero with a presence flag.
Seats are **relative to the observer**: index 0 is the observer, index ``i`` the seat ``i``
places after it in turn order (``(seat + i) % players``, docs/rules.md §3: play passes to
the left). Rows keep their table order (row ``r`` is the row of the action codes
``PLACE0 + r`` and ``TAKE0 + r``).

The tensor holds only what the observation holds, never the order of the draw pile
(docs/rules.md §2 step 4: only its composition and the depth of the Last Round card are
public), so two states that differ only in that order encode alike for every seat.

``FEATURES`` lists the fields as ``(name, start, length, description)`` rows; docs/rl.md's
index table is checked against it by ``tests/envs/test_encoding.py``. ``legal_mask(obs)``
is the boolean mask over the stable action codes of ``engine.actions``.

>>> from coloretto.engine import Rules, new_game, observe
>>> state = new_game(Rules(players=3), seed=4)
>>> obs = observe(state, seat=state.to_move)
>>> x = encode(obs)
>>> x.shape == (OBSERVATION_SIZE,), x.dtype.name
(True, 'float32')
>>> int(x[FIELDS["seat_present"].start : FIELDS["seat_present"].stop].sum())
3
>>> [int(c) for c in legal_mask(obs).nonzero()[0]]   # only drawing: every row is empty
[0]
>>> int(x[FIELDS["to_move"]].argmax())                # the observer decides
0
"""

from __future__ import annotations

from typing import Final, NamedTuple

import numpy as np

from ..engine.actions import NUM_DISTINCT_ACTIONS
from ..engine.cards import CARDS_PER_COLOR, COLLECTION_SIZE, LAST_ROUND, NUM_COLORS, NUM_PLUS2
from ..engine.domain import Phase
from ..engine.observation import Observation
from ..engine.rules import BROWN_TABLE, MAX_CAPACITY, MAX_PLAYERS, MAX_ROWS, VIOLET_TABLE, Rules
from ..engine.state import NO_CARD, UNTAKEN

NUM_PHASES: Final = len(Phase)
"""Phases of the one-hot ``phase`` field (``TURN``, ``PLACE``, ``CHOOSE``, ``OVER``)."""
TABLE_LENGTH: Final = 7
"""Entries of the ``score_table`` field: points for 0..6 cards of one colour."""
DECK_SIZE: Final = NUM_COLORS * CARDS_PER_COLOR + NUM_PLUS2 + Rules().jokers + Rules().golden_jokers
"""The game's cards other than the Last Round card: 76 in both editions (63 colour cards,
10 "+2" cards, 3 jokers of which the modern edition's one is golden; docs/rules.md §1).
``cards_left`` and ``cards_above_last_round`` are divided by it."""


class Feature(NamedTuple):
    """One field of the observation tensor: ``x[start : start + length]``."""

    name: str
    start: int
    length: int
    description: str

    @property
    def stop(self) -> int:
        """``start + length``."""
        return self.start + self.length


_LAYOUT: Final = (
    ("seat_present", MAX_PLAYERS, "1 for each relative seat at the table (0 = the observer)"),
    (
        "collection",
        MAX_PLAYERS * COLLECTION_SIZE,
        (
            "per relative seat, 10 counts by card code: 7 colours (blue, brown, gray, green, "
            'orange, pink, yellow), jokers, golden jokers, "+2" cards'
        ),
    ),
    ("out", MAX_PLAYERS, "per relative seat, 1 if it has taken a row (left) this round"),
    ("to_move", MAX_PLAYERS, "one-hot: the relative seat to decide now (all 0 when over)"),
    ("row_present", MAX_ROWS, "1 for each row on the table"),
    ("row_capacity", MAX_ROWS, "per row, its capacity in cards"),
    ("row_taken", MAX_ROWS, "per row, 1 if taken this round"),
    ("row_cards", MAX_ROWS * COLLECTION_SIZE, "per row, 10 counts by card code (as collection)"),
    (
        "drawn_card",
        COLLECTION_SIZE,
        "one-hot by card code: the drawn card to place (placement only)",
    ),
    ("cards_left", 1, f"cards in the draw pile (Last Round card not counted) / {DECK_SIZE}"),
    (
        "cards_above_last_round",
        1,
        f"cards to draw before the Last Round card comes up / {DECK_SIZE} (0 once it has)",
    ),
    ("last_round", 1, "1 once the Last Round card has come up"),
    (
        "unseen",
        COLLECTION_SIZE,
        (
            "10 counts by card code of the cards the observer has not seen (the draw pile's "
            "composition; while starting colours are chosen, what the choices leave)"
        ),
    ),
    ("phase", NUM_PHASES, "one-hot: turn (draw or take), place, choose_start, over"),
    ("colors_in_play", NUM_COLORS, "1 for each colour in play this game"),
    ("score_table", TABLE_LENGTH, "points for 0..6 cards of one colour (the rules' score table)"),
    ("negative_factor", 1, "multiplier of negative colour values (3 with triple_minus, else 1)"),
)


def _features() -> tuple[Feature, ...]:
    rows: list[Feature] = []
    start = 0
    for name, length, description in _LAYOUT:
        rows.append(Feature(name, start, length, description))
        start += length
    return tuple(rows)


FEATURES: Final[tuple[Feature, ...]] = _features()
"""The fields of the tensor in order, as ``(name, start, length, description)``."""
FIELDS: Final[dict[str, slice]] = {f.name: slice(f.start, f.stop) for f in FEATURES}
"""Field name -> its slice of the tensor."""
OBSERVATION_SIZE: Final[int] = FEATURES[-1].stop
"""Length of every observation tensor (185)."""

_O = {f.name: f.start for f in FEATURES}

_HIGH_OF: Final = {
    "collection": float(max(CARDS_PER_COLOR, NUM_PLUS2)),
    "row_capacity": float(MAX_CAPACITY),
    "row_cards": float(MAX_CAPACITY),
    "unseen": float(max(CARDS_PER_COLOR, NUM_PLUS2)),
    "score_table": float(max(*BROWN_TABLE, *VIOLET_TABLE)),
    "negative_factor": 3.0,
}


def _high() -> np.ndarray:
    high = np.ones(OBSERVATION_SIZE, dtype=np.float32)
    for f in FEATURES:
        high[f.start : f.stop] = _HIGH_OF.get(f.name, 1.0)
    high.setflags(write=False)
    return high


OBSERVATION_HIGH: Final[np.ndarray] = _high()
"""Upper bound of each entry (the lower bound is 0): counts of cards by kind, 10 (a colour
has 9 cards, there are 10 "+2" cards); row capacities and row cards, ``MAX_CAPACITY``; score
table points, 21; the negative factor, 3; everything else 1. For observation spaces."""


def encode(obs: Observation) -> np.ndarray:
    """The observation tensor of ``obs`` (module docstring, docs/rl.md "Observation").

    Args:
        obs: what one seat may know (``engine.observe(state, seat)``).

    Returns:
        ``float32`` array of shape ``(OBSERVATION_SIZE,)``; counts are card counts, the two
        pile sizes fractions of ``DECK_SIZE``, flags 0 or 1.

    Raises:
        TypeError: ``obs`` is not an ``Observation``.
    """
    if not isinstance(obs, Observation):
        raise TypeError(f"encode needs an engine Observation, not {type(obs).__name__}")
    st = obs.state
    n = st.n
    seat = obs.seat
    x = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    coll0, out0, move0 = _O["collection"], _O["out"], _O["to_move"]
    for i in range(n):
        s = (seat + i) % n
        x[_O["seat_present"] + i] = 1.0
        x[coll0 + COLLECTION_SIZE * i : coll0 + COLLECTION_SIZE * (i + 1)] = st.coll[s]
        x[out0 + i] = st.out[s]
    if st.to_move >= 0:
        x[move0 + (st.to_move - seat) % n] = 1.0
    cards0 = _O["row_cards"]
    for r in range(st.nrows):
        x[_O["row_present"] + r] = 1.0
        x[_O["row_capacity"] + r] = st.caps[r]
        x[_O["row_taken"] + r] = st.row_taker[r] != UNTAKEN
        for c in st.rows[r]:
            x[cards0 + COLLECTION_SIZE * r + c] += 1.0
    if st.drawn != NO_CARD:
        x[_O["drawn_card"] + st.drawn] = 1.0
    x[_O["cards_left"]] = st.cards_left() / DECK_SIZE
    pile = st.pile
    if not st.last_round and LAST_ROUND in pile:
        x[_O["cards_above_last_round"]] = (len(pile) - 1 - pile.index(LAST_ROUND)) / DECK_SIZE
    x[_O["last_round"]] = st.last_round
    for c, k in obs.unseen().items():
        x[_O["unseen"] + c] = k
    x[_O["phase"] + int(st.phase)] = 1.0
    for c in st.in_play:
        x[_O["colors_in_play"] + c] = 1.0
    table = st.rules.score_table
    x[_O["score_table"] : _O["score_table"] + len(table)] = table
    x[_O["negative_factor"]] = st.rules.negative_factor
    return x


def legal_mask(obs: Observation) -> np.ndarray:
    """The legal actions of ``obs`` as a mask over the stable action codes
    (``engine.actions``; docs/rules.md §3).

    Returns:
        ``bool`` array of shape ``(NUM_DISTINCT_ACTIONS,)`` (20): ``mask[code]`` is true
        exactly for the legal codes; all false when the game is over or when ``obs``'s seat
        is not the one to move (only the seat to move has legal actions).

    Raises:
        TypeError: ``obs`` is not an ``Observation``.
    """
    if not isinstance(obs, Observation):
        raise TypeError(f"legal_mask needs an engine Observation, not {type(obs).__name__}")
    mask = np.zeros(NUM_DISTINCT_ACTIONS, dtype=bool)
    if obs.state.to_move == obs.seat:
        mask[obs.state.legal_codes()] = True
    return mask


__all__ = [
    "DECK_SIZE",
    "FEATURES",
    "FIELDS",
    "OBSERVATION_HIGH",
    "OBSERVATION_SIZE",
    "Feature",
    "encode",
    "legal_mask",
]
