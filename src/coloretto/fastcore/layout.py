"""The compact array encoding of a game state used by the fast core.

A fast state is ONE flat ``numpy.int32`` array of ``SIZE`` cells; the constants below are
the offsets of its fields. Unused cells are always zero, so the encoding is canonical: two
fast states are the same position exactly when their arrays are equal.

Header (one cell each):

=================  ========================================================================
``N``              players (2..5)
``NROWS``          rows on the table (= ``len(rules.capacities)``)
``PHASE``          ``TURN`` 0, ``PLACE`` 1, ``CHOOSE`` 2, ``OVER`` 3 (engine values) and the
                   fast-core-only ``GAME_END`` 4: the current game of a match ended, the next
                   one is still to be dealt (``coloretto.fastcore.api`` lets the engine deal it)
``TO_MOVE``        seat to decide, -1 when over
``DRAWN``          drawn card waiting to be placed, -1 if none
``LAST_ROUND``     1 once the Last Round card has appeared
``ROUND``          current round (1-based)
``GAME``           index of the current game of the match (0-based)
``ACTIVE``         seats still in the round
``TAKES``          rows taken this round
``LAST_TAKER``     seat that last took a row (or left the round)
``PILE_LEN``       cards in the draw pile, the Last Round card included while it is there
``REMOVED_LEN``    cards removed from the game at round ends so far
``CHOSEN_LEN``     starting colours chosen so far (``starting_cards="choose"``)
``EXTRA``          extra card code: 0 none, 1 single_three, 2 triple_three,
                   3 first_out_draws, 4 triple_minus
``STARTER``        next-round starter: 0 last_taker, 1 left_of_last_taker
``JOKER_ANY``      1 when ``joker_any_color`` is true
``NEG``            negative factor (3 with triple_minus, else 1)
``INPLAY``         bit mask of the colours in play in the current game (bit c = colour c)
``MATCH_GAMES``    games in the match
``EACH``           starting cards per player (2 with two players, else 1)
``EDITION``        0 classic (3 jokers, K = 15), 1 modern (2 jokers + golden joker, K = 16)
=================  ========================================================================

Arrays: ``TABLE`` (7 cells: points for 0..6 cards, Extrakarten scoring cards applied),
``CAPS`` (6 row capacities), ``ROW_LEN`` (6), ``ROW_TAKER`` (6, -1 untaken),
``ROWS`` (6 x 6: card codes of row r at ``ROWS + 6 * r + i``), ``OUT`` (5 flags),
``COLL`` (5 x 10 collection counts by card code, seat s at ``COLL + 10 * s``),
``TOTALS`` (5 match totals of finished games), ``CHOSEN`` (10 colours in choice order),
``PILE`` (80 card codes, **bottom first**: the top card is ``PILE + PILE_LEN - 1``, as the
engine's ``GameState.pile``), ``REMOVED`` (80 card codes in removal order).
"""

from __future__ import annotations

from typing import Final

# header
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
EDITION: Final = 21

MAX_ROWS: Final = 6
ROW_CELLS: Final = 6
"""Cells reserved per row (the largest capacity allowed by ``Rules``)."""
MAX_SEATS: Final = 5
COLL_CELLS: Final = 10
MAX_PILE: Final = 80
MAX_REMOVED: Final = 80
MAX_CHOSEN: Final = 10

TABLE: Final = 24
CAPS: Final = TABLE + 7
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

# phases (engine values, plus GAME_END)
TURN: Final = 0
PLACE: Final = 1
CHOOSE: Final = 2
OVER: Final = 3
GAME_END: Final = 4

# extra cards
EXTRA_CODES: Final = {
    None: 0,
    "single_three": 1,
    "triple_three": 2,
    "first_out_draws": 3,
    "triple_minus": 4,
}
FIRST_OUT_DRAWS: Final = 3

# rollout policies
POLICY_RANDOM: Final = 0
POLICY_GREEDY: Final = 1
POLICIES: Final = {"random": POLICY_RANDOM, "greedy": POLICY_GREEDY}
