"""The compact array encoding of a game state used by the fast core, and the engine's codes
it is built on.

A fast state is ONE flat ``numpy.int32`` array of ``SIZE`` cells; the constants below are
the offsets of its fields. Unused cells are always zero, so the encoding is canonical: two
fast states are the same position exactly when their arrays are equal.

Every code the fast core uses (card codes, action codes, phases, ``UNTAKEN``, ``NO_CARD``,
the sizes ``MAX_ROWS``, ``NUM_COLORS``...) is imported from the engine
(``engine.cards``, ``engine.actions``, ``engine.domain``, ``engine.rules``,
``engine.state``) as a plain ``int``, so Numba freezes it into the compiled kernels as a
constant; ``tests/fastcore/test_fast_constants.py`` checks the compiled values against the
engine's. Rule options become small integers here by their position in the engine's tuple of
allowed values (``EXTRA_CARDS``, ``NEXT_ROUND_STARTERS``, ``STARTING_CARDS``).

Header (one cell each):

==================  =======================================================================
``N``               players (``MIN_SEATS`` .. ``MAX_SEATS``)
``NROWS``           rows on the table (= ``len(rules.capacities)``)
``PHASE``           ``TURN``, ``PLACE``, ``CHOOSE``, ``OVER`` (``int(Phase.X)`` of the
                    engine) and the fast-core-only ``GAME_END``: the current game of a match
                    ended, the next one is still to be dealt
``TO_MOVE``         seat to decide, -1 when over
``DRAWN``           drawn card waiting to be placed, ``NO_CARD`` if none
``LAST_ROUND``      1 once the Last Round card has appeared
``ROUND``           current round (1-based)
``GAME``            index of the current game of the match (0-based)
``ACTIVE``          seats still in the round
``TAKES``           rows taken this round
``LAST_TAKER``      seat that last took a row (or left the round); the first player while
                    the starting colours are chosen
``PILE_LEN``        cards in the draw pile, the Last Round card included while it is there
``REMOVED_LEN``     cards removed from the game at round ends so far
``CHOSEN_LEN``      starting colours chosen so far (``starting_cards="choose"``)
``EXTRA``           extra card: its index in ``EXTRA_CARDS`` (0 none, 1 single_three,
                    2 triple_three, 3 first_out_draws, 4 triple_minus)
``STARTER``         next-round starter: its index in ``NEXT_ROUND_STARTERS``
``JOKER_ANY``       1 when ``joker_any_color`` is true
``NEG``             ``rules.negative_factor``
``INPLAY``          bit mask of the colours in play in the current game (bit c = colour c)
``MATCH_GAMES``     games in the match
``EACH``            ``rules.starting_cards_each``
``JOKERS``          ``rules.jokers`` (regular jokers in the deck)
``GOLDEN_JOKERS``   ``rules.golden_jokers``
``UNDER``           ``rules.cards_under_last_round`` (K)
``COLORS_REMOVED``  ``rules.colors_removed``
``STARTING``        starting cards: its index in ``STARTING_CARDS`` (0 random, 1 choose)
==================  =======================================================================

Arrays: ``TABLE`` (``TABLE_CELLS``: ``rules.score_table``, points for 0..6 cards),
``CAPS`` (``MAX_ROWS`` row capacities), ``ROW_LEN`` (``MAX_ROWS``), ``ROW_TAKER``
(``MAX_ROWS``, ``UNTAKEN`` when untaken), ``ROWS`` (``MAX_ROWS`` x ``ROW_CELLS``: card codes
of row r at ``ROWS + ROW_CELLS * r + i``), ``OUT`` (``MAX_SEATS`` flags), ``COLL``
(``MAX_SEATS`` x ``COLL_CELLS`` collection counts by card code, seat s at
``COLL + COLL_CELLS * s``), ``TOTALS`` (``MAX_SEATS`` match totals of finished games),
``CHOSEN`` (``MAX_CHOSEN`` colours in choice order), ``PILE`` (``MAX_PILE`` card codes,
**bottom first**: the top card is ``PILE + PILE_LEN - 1``, as the engine's
``GameState.pile``), ``REMOVED`` (``MAX_REMOVED`` card codes in removal order).
"""

from __future__ import annotations

from typing import Final

from ..engine import actions as _actions
from ..engine import cards as _cards
from ..engine import rules as _rules
from ..engine import state as _state
from ..engine.domain import EXTRA_CARDS, NEXT_ROUND_STARTERS, STARTING_CARDS, Phase

# ----- the engine's codes, as plain ints (Numba compile-time constants) ---------------------
NUM_COLORS: Final = int(_cards.NUM_COLORS)
CARDS_PER_COLOR: Final = int(_cards.CARDS_PER_COLOR)
NUM_PLUS2: Final = int(_cards.NUM_PLUS2)
JOKER: Final = int(_cards.JOKER)
GOLDEN_JOKER: Final = int(_cards.GOLDEN_JOKER)
PLUS2: Final = int(_cards.PLUS2)
LAST_ROUND_CARD: Final = int(_cards.LAST_ROUND)
"""The Last Round card's code (``engine.cards.LAST_ROUND``; ``LAST_ROUND`` here is a cell)."""
COLLECTION_SIZE: Final = int(_cards.COLLECTION_SIZE)

DRAW: Final = int(_actions.DRAW)
PLACE0: Final = int(_actions.PLACE0)
TAKE0: Final = int(_actions.TAKE0)
CHOOSE0: Final = int(_actions.CHOOSE0)
NUM_DISTINCT_ACTIONS: Final = int(_actions.NUM_DISTINCT_ACTIONS)

TURN: Final = int(Phase.TURN)
PLACE: Final = int(Phase.PLACE)
CHOOSE: Final = int(Phase.CHOOSE)
OVER: Final = int(Phase.OVER)
GAME_END: Final = max(int(p) for p in Phase) + 1
"""Fast-core-only phase: a game of a match ended and the next one is not dealt yet."""

UNTAKEN: Final = int(_state.UNTAKEN)
NO_CARD: Final = int(_state.NO_CARD)
NO_SEAT: Final = -1
"""``TO_MOVE`` when the game is over (``GameState.to_move``)."""

MAX_ROWS: Final = int(_rules.MAX_ROWS)
ROW_CELLS: Final = int(_rules.MAX_CAPACITY)
"""Cells reserved per row (the largest capacity ``Rules`` allows)."""
MAX_SEATS: Final = int(_rules.MAX_PLAYERS)
MIN_SEATS: Final = int(_rules.MIN_PLAYERS)
COLL_CELLS: Final = COLLECTION_SIZE
TABLE_CELLS: Final = len(_rules.BROWN_TABLE)
"""Entries of a score table: points for 0 .. ``TABLE_CELLS - 1`` cards of a colour."""
MAX_PILE: Final = 80
"""Cells of the draw pile (the largest pile, 63 colour cards + 3 jokers + 10 "+2" cards +
the Last Round card = 77, fits)."""
MAX_REMOVED: Final = 80
MAX_CHOSEN: Final = 2 * MAX_SEATS
"""Starting colours chosen at most (two each with two players, one each otherwise)."""
ALL_COLORS: Final = (1 << NUM_COLORS) - 1
"""``INPLAY`` mask of every colour."""

# ----- rule options as small integers ------------------------------------------------------
EXTRA_CODES: Final = {card: i for i, card in enumerate(EXTRA_CARDS)}
"""``Rules.extra_card`` -> ``EXTRA`` cell value."""
FIRST_OUT_DRAWS: Final = EXTRA_CODES["first_out_draws"]
STARTER_CODES: Final = {name: i for i, name in enumerate(NEXT_ROUND_STARTERS)}
"""``Rules.next_round_starter`` -> ``STARTER`` cell value."""
STARTER_LAST_TAKER: Final = STARTER_CODES["last_taker"]
STARTING_CODES: Final = {name: i for i, name in enumerate(STARTING_CARDS)}
"""``Rules.starting_cards`` -> ``STARTING`` cell value."""
STARTING_CHOOSE: Final = STARTING_CODES["choose"]

# ----- header ------------------------------------------------------------------------------
N: Final = 0
NROWS: Final = 1
PHASE: Final = 2
TO_MOVE: Final = 3
DRAWN: Final = 4
LAST_ROUND: Final = 5
ROUND: Final = 6
GAME: Final = 7
ACTIVE: Final = 8
TAKES: Final = 9
LAST_TAKER: Final = 10
PILE_LEN: Final = 11
REMOVED_LEN: Final = 12
CHOSEN_LEN: Final = 13
EXTRA: Final = 14
STARTER: Final = 15
JOKER_ANY: Final = 16
NEG: Final = 17
INPLAY: Final = 18
MATCH_GAMES: Final = 19
EACH: Final = 20
JOKERS: Final = 21
GOLDEN_JOKERS: Final = 22
UNDER: Final = 23
COLORS_REMOVED: Final = 24
STARTING: Final = 25
HEADER_CELLS: Final = 26

# ----- arrays ------------------------------------------------------------------------------
TABLE: Final = HEADER_CELLS
CAPS: Final = TABLE + TABLE_CELLS
ROW_LEN: Final = CAPS + MAX_ROWS
ROW_TAKER: Final = ROW_LEN + MAX_ROWS
ROWS: Final = ROW_TAKER + MAX_ROWS
OUT: Final = ROWS + MAX_ROWS * ROW_CELLS
COLL: Final = OUT + MAX_SEATS
TOTALS: Final = COLL + MAX_SEATS * COLL_CELLS
CHOSEN: Final = TOTALS + MAX_SEATS
PILE: Final = CHOSEN + MAX_CHOSEN
REMOVED: Final = PILE + MAX_PILE
SIZE: Final = REMOVED + MAX_REMOVED

# ----- policies ----------------------------------------------------------------------------
POLICY_RANDOM: Final = 0
"""Uniform among the legal codes, ``codes[below(k)]``, no random number when ``k == 1``
(``RandomAgent`` as the driver plays it; the engine's ``random`` rollout)."""
POLICY_GREEDY: Final = 1
"""The twin of ``engine.policy.greedy_code``."""
POLICIES: Final = {"random": POLICY_RANDOM, "greedy": POLICY_GREEDY}
